#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
# bench/dwarf-equality.sh - preport and pscript against perf report and
# perf script on --call-graph dwarf recordings of real programs nobody
# here wrote (issue 11's equality table), recorded by perf and by precord.
#
# For each program and recorder: one recording (`--call-graph dwarf -F
# 999`, the program started through sh -c, as users start them), then
#   - every report mode of MODES, preport's output against perf report's
#     (the tip line dropped): equal, else equal with --no-inline (perf's
#     histogram names and splits inline frames' rows by the order it met
#     them, doc/errata.md), else the number of lines that differ;
#   - pscript's call chains against perf script's, sample by sample;
#   - the unwinding success rate of each: the share of samples with a
#     user part whose outermost frame is `_start` or `clone3` (a whole
#     stack), and the mean number of user frames.
# One table row per program and recorder, in Markdown.
#
# Settings (environment):
#   PREPORT, PSCRIPT, PRECORD  the tools (default: ./report/preport,
#                              ./script/pscript, ./record/precord)
#   PERF                       perf (default perf)
#   OUT_DIR                    scratch (default ${TMPDIR:-/tmp}/pdata-bench/dwarf-eq)
#   PROGRAMS                   the programs (default: all of them below)
#   MODES                      the report modes, ';'-separated
#   SECONDS_EACH               how long each workload runs (default 3)
#   GIT_REPO                   the repository `git log -p` reads (default:
#                              this source tree)
set -u
die() { echo "dwarf-equality: $*" >&2; exit 1; }
say() { echo "dwarf-equality: $*" >&2; }

: "${PERF:=perf}" "${OUT_DIR:=${TMPDIR:-/tmp}/pdata-bench/dwarf-eq}"
: "${PREPORT:=./report/preport}" "${PSCRIPT:=./script/pscript}"
: "${PRECORD:=./record/precord}" "${SECONDS_EACH:=3}"
: "${GIT_REPO:=$(cd "$(dirname "$0")/.." && pwd)}"
: "${PROGRAMS:=cc1 python3 sqlite3 xz cxx shell git}"
: "${MODES:=--children;--no-children;--children -g caller;--no-children -g callee;--children -g fractal;--children -g folded;--sort dso,sym --children;--sort dso,sym --no-children -g none}"
export PERF_CONFIG=/dev/null
for t in "$PREPORT" "$PSCRIPT" "$PRECORD"; do
	[ -x "$t" ] || die "$t is not built (run from the build tree, or set PREPORT, PSCRIPT, PRECORD)"
done
command -v "$PERF" >/dev/null || die "no perf ($PERF)"
mkdir -p "$OUT_DIR" || die "cannot make $OUT_DIR"
W=$OUT_DIR

# The inputs of the workloads, made once.
prepare_() {
	case " $PROGRAMS " in
	*" git "*) git -C "$GIT_REPO" rev-parse >/dev/null 2>&1 ||
		die "$GIT_REPO is no git repository: set GIT_REPO" ;;
	esac
	[ -s "$W/big.c" ] || awk 'BEGIN {
		for (f = 0; f < 1100; f++) {
			printf "static int t%d[64];\nint f%d(int n, const char *s)\n{\n", f, f
			printf "\tint acc = %d, i;\n\tfor (i = 0; i < n; i++) {\n", f
			printf "\t\tswitch ((s[i %% 7] + i) %% 5) {\n"
			printf "\t\tcase 0: acc += t%d[i & 63] * %d; break;\n", f, f % 13 + 1
			printf "\t\tcase 1: acc ^= acc << %d; break;\n", f % 7 + 1
			printf "\t\tdefault: acc -= i * %d;\n\t\t}\n\t}\n\treturn acc;\n}\n", f % 11 + 2
		}
	}' > "$W/big.c"
	[ -s "$W/xz.in" ] || head -c 40000000 /dev/urandom | od -An -tx1 |
		head -c 40000000 > "$W/xz.in"
	if [ ! -x "$W/cxx" ]; then
		cat > "$W/cxx.cc" <<'EOF'
#include <algorithm>
#include <map>
#include <string>
#include <vector>
#include <cstdio>
#include <cstdlib>
#include <ctime>
template <typename K, typename V> static V fold(const std::map<K, V> &m)
{
	V acc{};
	for (const auto &kv : m)
		acc += kv.second * static_cast<V>(kv.first.size());
	return acc;
}
int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 3;
	time_t end = time(nullptr) + (time_t)secs;
	unsigned long sink = 0;
	while (time(nullptr) < end) {
		std::map<std::string, unsigned long> m;
		std::vector<std::string> keys;
		for (int i = 0; i < 20000; i++)
			keys.push_back(std::to_string(i * 7919 % 100003));
		std::sort(keys.begin(), keys.end());
		for (const auto &k : keys)
			m[k] += k.size();
		sink += fold(m);
	}
	printf("%lu\n", sink);
	return 0;
}
EOF
		g++ -O2 -g -fomit-frame-pointer -o "$W/cxx" "$W/cxx.cc" ||
			die "g++ cannot build the C++ workload"
	fi
}

# workload_ NAME: the shell command that runs NAME for about SECONDS_EACH
workload_() {
	s=$SECONDS_EACH
	case $1 in
	cc1) echo "t=\$((\$(date +%s) + $s)); while [ \$(date +%s) -lt \$t ]; do gcc -O2 -c -o /dev/null $W/big.c; done" ;;
	python3) echo "python3 -c 'import json, re, time
t = time.time() + $s
while time.time() < t:
    d = [{\"k\": i, \"v\": [str(j) for j in range(20)]} for i in range(2000)]
    s = json.dumps(d); json.loads(s); re.findall(r\"\\d+\", s)'" ;;
	sqlite3) echo "t=\$((\$(date +%s) + $s)); while [ \$(date +%s) -lt \$t ]; do sqlite3 :memory: 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 300000) SELECT count(*), sum(length(printf(\"%x\", x * 7919))) FROM (SELECT x FROM c ORDER BY (x * 2654435761) % 1000003);' >/dev/null; done" ;;
	xz) echo "timeout $s xz -T2 -6 -c $W/xz.in >/dev/null; true" ;;
	cxx) echo "$W/cxx $s >/dev/null" ;;
	shell) echo "t=\$((\$(date +%s) + $s)); while [ \$(date +%s) -lt \$t ]; do for i in 1 2 3 4 5 6 7 8; do expr \$i + 1 >/dev/null; /bin/true; done; done" ;;
	git) echo "t=\$((\$(date +%s) + $s)); while [ \$(date +%s) -lt \$t ]; do git -C $GIT_REPO log -p -n 300 >/dev/null; done" ;;
	*) die "no workload $1" ;;
	esac
}

# norm_ FILE: a --stdio report without the tip line and trailing lines
norm_() {
	sed -e '/^# (Tip: .*)$/d' -e '/^# (Cannot load tips\.txt file/d' \
	    -e 's/\[\.\.\.\] (inlined)$/[...]/' "$1" |
		awk '/^#?$/ { held = held $0 "\n"; next }
		     { printf "%s%s\n", held, $0; held = "" }'
}

# same_without_inline_ FILE N MODE...: the reports of MODE differ only
# where perf's histogram names or splits the rows of inline frames
# (doc/errata.md): equal with --no-inline
same_without_inline_() {
	sw_f=$1 sw_n=$2
	shift 2
	"$PERF" report -i "$sw_f" --stdio "$@" --no-inline > "$sw_f.p$sw_n.ni" 2>/dev/null </dev/null
	"$PREPORT" -i "$sw_f" --stdio "$@" --no-inline > "$sw_f.o$sw_n.ni" 2>/dev/null </dev/null
	norm_ "$sw_f.p$sw_n.ni" > "$sw_f.p$sw_n.ni.n"
	norm_ "$sw_f.o$sw_n.ni" > "$sw_f.o$sw_n.ni.n"
	cmp -s "$sw_f.p$sw_n.ni.n" "$sw_f.o$sw_n.ni.n"
}

# chains_ FILE: per sample, its header and frames on one line
chains_() {
	awk '/^[^ \t]/ { if (c != "") print c; c = $0; next }
	     /^$/ { if (c != "") print c; c = ""; next }
	     { $1 = $1; c = c " | " $0 }
	     END { if (c != "") print c }' "$1"
}

# success_ CHAINS: "WHOLE% MEAN" over the samples with a user frame
success_() {
	awk -F' [|] ' '{
		user = 0; last = ""
		for (i = 2; i <= NF; i++) {
			split($i, w, " ")
			if (w[1] !~ /^ffffffff/) { user++; last = w[2] }
		}
		if (!user) next
		n++; frames += user
		if (last ~ /^(_start|clone3|__clone3|__GI___clone3)(\+|$)/) whole++
	} END { if (n) printf "%.1f%% %.1f", 100 * whole / n, frames / n; else printf "- -" }' "$1"
}

prepare_
echo "| program | recorder | samples | report modes equal | chains equal | whole stacks perf / pdata | user frames perf / pdata |"
echo "|---|---|---|---|---|---|---|"
for prog in $PROGRAMS; do
	cmd=$(workload_ "$prog")
	for rec in perf precord; do
		f=$W/$prog.$rec.data
		say "$prog: $rec record"
		if [ $rec = perf ]; then
			"$PERF" record -q --call-graph dwarf -F 999 -o "$f" -- sh -c "$cmd" >/dev/null 2>"$f.log"
		else
			"$PRECORD" -q --call-graph dwarf -F 999 -o "$f" -- sh -c "$cmd" >/dev/null 2>"$f.log"
		fi
		[ -s "$f" ] || die "$rec record of $prog wrote nothing: $(head -3 "$f.log")"
		eq=0 eqni=0 nm=0 bad=
		IFS=';'
		for mode in $MODES; do
			IFS=' '
			nm=$((nm + 1))
			# shellcheck disable=SC2086
			"$PERF" report -i "$f" --stdio $mode > "$f.p$nm" 2>/dev/null </dev/null
			# shellcheck disable=SC2086
			"$PREPORT" -i "$f" --stdio $mode > "$f.o$nm" 2>/dev/null </dev/null
			norm_ "$f.p$nm" > "$f.p$nm.n"
			norm_ "$f.o$nm" > "$f.o$nm.n"
			if cmp -s "$f.p$nm.n" "$f.o$nm.n"; then
				eq=$((eq + 1))
			elif same_without_inline_ "$f" "$nm" $mode; then
				eqni=$((eqni + 1))
			else
				bad="$bad [$mode: $(diff "$f.p$nm.n" "$f.o$nm.n" | grep -c '^[<>]') lines]"
			fi
			IFS=';'
		done
		IFS=' '
		"$PERF" script -i "$f" -F comm,pid,tid,time,ip,sym > "$f.ps" 2>/dev/null </dev/null
		"$PSCRIPT" -i "$f" -F comm,pid,tid,time,ip,sym > "$f.os" 2>/dev/null </dev/null
		chains_ "$f.ps" > "$f.pc"
		chains_ "$f.os" > "$f.oc"
		n=$(wc -l < "$f.pc" | tr -d ' ')
		same=$(paste -d'\n' "$f.pc" "$f.oc" | awk 'NR % 2 { a = $0; next } a == $0 { s++ } END { print s + 0 }')
		sp=$(success_ "$f.pc") so=$(success_ "$f.oc")
		echo "| $prog | $rec | $n | $eq/$nm, +$eqni without inline frames$bad | $same/$n | ${sp% *} / ${so% *} | ${sp#* } / ${so#* } |"
	done
done
