#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
#
# bench/record-overhead.sh - what recording costs: the same CPU-bound
# workload alone, under precord and under perf record, paired in one run.
#
# The workload is tests/progs/hot.c (main -> mid -> leaf_a/leaf_b, frame
# pointers kept) run for a fixed number of iterations, calibrated to last
# about WORK_MS alone.  For every -F in FREQS and each of "without -g"
# and "with -g", the three commands run in turn, REPEAT times (alone,
# precord, perf, alone, precord, perf...), so that the machine's drift
# falls on all three alike.  Two times are kept, each the median of the
# REPEAT runs: "run", the workload's own wall time (GNU time inside the
# recorded command), and "total", the whole command's (the recorder's
# start, the run, and its finishing pass over the file).  For the
# recorders it also gives:
#   x         the time over the workload's run time alone (slowdown);
#   lost      "Total Lost Samples" of perf report on the last run's file
#             (from the LOST_SAMPLES records), and its LOST records
#             (ring-buffer overflows) from perf report --stats;
#   MB        the size of the last run's file, 10^6 bytes;
#   ratio     with -z, the compression ratio the recorder prints for the
#             last run (the rings' bytes over the COMPRESSED records'
#             bytes, as perf computes it), "-" without.
#
# Settings (environment):
#   PRECORD     the precord to time (default ./record/precord, else PATH)
#   PRECORD_BASE  an earlier precord (say, built from the commit before a
#               change), run in turn with the others: adds its run and
#               total times and its lost samples (default: none)
#   PERF        the perf to time and to read the files with (default perf)
#   FREQS       the -F values (default "1000 10000 max")
#   CALLGRAPHS  "no", "yes" or both (default "no yes"): without/with -g
#   ZLEVELS     the zstd levels, -z given to both recorders; 0 is no -z
#               (default "0"; e.g. "1 3")
#   EVENT       the event (default cpu-clock: VMs have no hardware PMU)
#   REPEAT      runs of each command per setting (default 5)
#   WORK_MS     the workload's run time alone, ms (default 1000)
#   OUT_DIR     scratch directory (default ${TMPDIR:-/tmp}/pdata-bench/record-overhead)
#   CC          the compiler for the workload (default cc)
#
# Prints a Markdown table on standard output, progress on standard error.

set -u

me=record-overhead
say() { printf '%s: %s\n' "$me" "$*" >&2; }
die() { say "$*"; exit 1; }
BENCH_DIR=$(cd "$(dirname "$0")" && pwd)
. "$BENCH_DIR/lib.sh"

: "${PERF:=perf}" "${FREQS:=1000 10000 max}" "${CALLGRAPHS:=no yes}"
: "${ZLEVELS:=0}"
: "${EVENT:=cpu-clock}" "${REPEAT:=5}" "${WORK_MS:=1000}" "${CC:=cc}"
: "${OUT_DIR:=${TMPDIR:-/tmp}/pdata-bench/record-overhead}"
if [ -z "${PRECORD:-}" ]; then
	if [ -x record/precord ]; then
		PRECORD=./record/precord
	else
		PRECORD=$(command -v precord) || die "no precord: set PRECORD"
	fi
fi
command -v "$PERF" >/dev/null 2>&1 || die "no perf ($PERF): set PERF"
[ -x /usr/bin/time ] || die "GNU time (/usr/bin/time) is needed (Debian: time)"
[ -x "$PRECORD" ] || die "$PRECORD is not executable"
bench_need_counts_ REPEAT WORK_MS
if nm "$PRECORD" 2>/dev/null | grep -q '__asan_init\|__ubsan_handle'; then
	say "warning: $PRECORD is built with sanitizers; its figures mean little"
fi

srcdir=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$OUT_DIR" || die "cannot create $OUT_DIR"
work=$OUT_DIR/hot

now_ns() { date +%s%N; }
size_of() { wc -c < "$1" | tr -d ' '; }

"$CC" -O2 -g -fno-omit-frame-pointer -DPROGS_LEAF_FRAMES -fno-optimize-sibling-calls \
	-I"$srcdir/tests/progs" -o "$work" "$srcdir/tests/progs/hot.c" ||
	die "cannot build the workload with $CC"

# iterations of hot that last about WORK_MS alone
probe=20000
t0=$(now_ns)
"$work" -n "$probe" || die "the workload failed"
t1=$(now_ns)
iters=$(awk -v n="$probe" -v ns="$((t1 - t0))" -v ms="$WORK_MS" \
	'BEGIN { i = int(n * ms * 1e6 / ns); print (i > 0) ? i : 1 }')
say "workload: $work -n $iters (about $WORK_MS ms alone)"

# run_timed TAG [RECORDER ARGS... --]: runs the workload (under the
# recorder), its output in OUT_DIR/TAG.log; appends the whole command's
# wall time to OUT_DIR/TAG.total and the workload's to OUT_DIR/TAG.run
run_timed() {
	tag=$1
	shift
	t0=$(now_ns)
	"$@" /usr/bin/time -f %e -o "$OUT_DIR/$tag.time" "$work" -n "$iters" \
		> "$OUT_DIR/$tag.log" 2>&1 || say "warning: '$*' exited $? (see $OUT_DIR/$tag.log)"
	t1=$(now_ns)
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f\n", (b - a) / 1e9 }' >> "$OUT_DIR/$tag.total"
	tail -n 1 "$OUT_DIR/$tag.time" >> "$OUT_DIR/$tag.run"
}

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# lost_of FILE: "SAMPLES/RECORDS": perf report's Total Lost Samples and
# the number of LOST records
lost_of() {
	s=$("$PERF" report -i "$1" --stdio --no-children -g none --sort pid 2>/dev/null |
		awk '/^# Total Lost Samples:/ { print $NF; exit }')
	r=$("$PERF" report -i "$1" --stats 2>/dev/null |
		awk '$1 == "LOST" && $2 == "events:" { print $3; exit }')
	printf '%s/%s\n' "${s:-?}" "${r:-0}"
}

# ratio_of TAG: the compression ratio in the recorder's summary line of
# the last run, or - without one
ratio_of() {
	r=$(sed -n 's/.*ratio is \([0-9.]*\)).*/\1/p' "$OUT_DIR/$1.log" | tail -n 1)
	printf '%s\n' "${r:--}"
}

[ -z "${PRECORD_BASE:-}" ] || [ -x "$PRECORD_BASE" ] ||
	die "$PRECORD_BASE is not executable"
tags="alone precord perf${PRECORD_BASE:+ base}"
printf '| -F | -g | -z | alone s | precord run s | x | precord total s | x | perf run s | x | perf total s | x | lost precord | lost perf | MB precord | MB perf | ratio precord | ratio perf |%s\n' \
	"${PRECORD_BASE:+ base run s | x | base total s | x | lost base |}"
printf '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|%s\n' \
	"${PRECORD_BASE:+---|---|---|---|---|}"
for freq in $FREQS; do
	for cg in $CALLGRAPHS; do
		case $cg in
		yes) gopt=-g ;;
		no) gopt= ;;
		*) die "CALLGRAPHS takes no and yes, not $cg" ;;
		esac
		for z in $ZLEVELS; do
			case $z in
			0) zopt= ;;
			*[!0-9]*) die "ZLEVELS takes levels 0..22, not $z" ;;
			*) zopt=-z$z ;;
			esac
			say "-F $freq ${gopt:-(no -g)} ${zopt:-(no -z)}: $REPEAT runs of each"
			for tag in $tags; do
				: > "$OUT_DIR/$tag.total"
				: > "$OUT_DIR/$tag.run"
		done
		i=0
		while [ "$i" -lt "$REPEAT" ]; do
			run_timed alone
			rm -f "$OUT_DIR/precord.data" "$OUT_DIR/precord.data.old"
			run_timed precord "$PRECORD" -e "$EVENT" -F "$freq" $gopt \
				$zopt -o "$OUT_DIR/precord.data" --
			rm -f "$OUT_DIR/perf.data" "$OUT_DIR/perf.data.old"
			run_timed perf "$PERF" record -e "$EVENT" -F "$freq" $gopt \
				$zopt -o "$OUT_DIR/perf.data" --
			if [ -n "${PRECORD_BASE:-}" ]; then
				rm -f "$OUT_DIR/base.data" "$OUT_DIR/base.data.old"
				run_timed base "$PRECORD_BASE" -e "$EVENT" -F "$freq" \
					$gopt $zopt -o "$OUT_DIR/base.data" --
			fi
			i=$((i + 1))
		done
		ta=$(median < "$OUT_DIR/alone.run")
		rp=$(median < "$OUT_DIR/precord.run")
		tp=$(median < "$OUT_DIR/precord.total")
		rf=$(median < "$OUT_DIR/perf.run")
		tf=$(median < "$OUT_DIR/perf.total")
		lp=$(lost_of "$OUT_DIR/precord.data")
		lf=$(lost_of "$OUT_DIR/perf.data")
		mp=$(awk -v b="$(size_of "$OUT_DIR/precord.data" 2>/dev/null || echo 0)" 'BEGIN { printf "%.2f", b / 1e6 }')
		mf=$(awk -v b="$(size_of "$OUT_DIR/perf.data" 2>/dev/null || echo 0)" 'BEGIN { printf "%.2f", b / 1e6 }')
		zp=$(ratio_of precord)
		zf=$(ratio_of perf)
		rb=0 tb=0 lb=
		if [ -n "${PRECORD_BASE:-}" ]; then
			rb=$(median < "$OUT_DIR/base.run")
			tb=$(median < "$OUT_DIR/base.total")
			lb=$(lost_of "$OUT_DIR/base.data")
		fi
		awk -v f="$freq" -v g="${gopt:+yes}" -v z="${zopt:-no}" -v ta="$ta" -v rp="$rp" -v tp="$tp" \
			-v rf="$rf" -v tf="$tf" -v lp="$lp" -v lf="$lf" -v mp="$mp" -v mf="$mf" \
			-v zp="$zp" -v zf="$zf" \
			-v rb="$rb" -v tb="$tb" -v lb="$lb" 'BEGIN {
			if (ta <= 0)
				ta = 0.01
			printf "| %s | %s | %s | %.2f | %.2f | %.2fx | %.3f | %.2fx | %.2f | %.2fx | %.3f | %.2fx | %s | %s | %s | %s | %s | %s |",
				f, g == "" ? "no" : g, z, ta, rp, rp / ta, tp,
				tp / ta, rf, rf / ta, tf, tf / ta, lp, lf, mp, mf,
				zp, zf
			if (lb != "")
				printf " %.2f | %.2fx | %.3f | %.2fx | %s |", rb,
					rb / ta, tb, tb / ta, lb
			printf "\n"
		}'
		done
	done
done
