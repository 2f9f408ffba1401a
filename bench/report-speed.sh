#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
#
# bench/report-speed.sh - preport against perf report, and against the
# single-pass limit (bench/limit.c), on big perf-recorded files of every
# kind: wall time and peak memory, paired in one run, and how both grow
# with the file's size.
#
# For every data set in DATASETS and every size in SIZES (MB) it records,
# once, an uncompressed perf recording that perf's --max-size stops at
# that size, cached in OUT_DIR as report-SET-SIZE.data (report-SIZE.data
# for spin) and reused by later runs.  The data sets (bench/README.md):
#   spin     perf record -e cpu-clock -F max -g of bench/spin.c, one
#            process per CPU a few frames deep (few distinct stacks)
#   paths    the same options, bench/tree.c paths: 600 functions, stacks
#            13 to 37 frames deep, about 200,000 distinct stacks
#   unique   tree.c unique: nearly every stack a new one
#   churn    tree.c churn: threads created and ended two at a time
#   dsos     tree.c dsos: paths through 200 shared libraries
#   kernel   tree.c kernel: system calls, most samples in the kernel
#   system   perf record -a (every CPU, every process) of tree.c mixed
#   zstd     paths recorded with -z (SIZE is then the compressed size)
#   pipe     paths recorded with -o - into the file (pipe mode)
#   dwarf    perf record -e cpu-clock -F 10000 --call-graph dwarf of
#            python3 running bench/pyload.py (CPython without frame
#            pointers: both tools unwind every sample's user stack)
# Then, for every mode in MODES,
#   children      --stdio --sort sym --children
#   no-children   --stdio --sort sym --no-children
#   none          --stdio --sort sym -g none
# it runs preport, perf report and the limit walker in turn, REPEAT times
# each, with the file in the page cache, and keeps each one's median wall
# time and largest peak RSS (GNU time's %M).  It also checks that preport
# and perf printed the same report, but for perf's tip line ("perf failed"
# when perf did not finish, say past MEM_LIMIT_MB).
#
# Settings (environment):
#   PREPORT       the preport to time (default ./report/preport, else PATH);
#                 build it without sanitizers
#   PREPORT_BASE  an earlier preport (say, built from the commit before a
#                 change) timed in the same run, in turn with the others:
#                 adds its time, its peak and the ratios new / base, and
#                 checks that it printed the same report (default: none)
#   LIMIT         the single-pass limit walker (bench/limit.c: one thread
#                 that reads every record, decodes every sample and hashes
#                 its callchain), timed in turn with the others: adds its
#                 time and preport's over it (default ./bench/limit when
#                 built; "none": left out)
#   PERF          the perf to record with and compare to (default perf)
#   DATASETS      the data sets above (default spin)
#   SIZES         file sizes in MB (default "10 100 1000"); "10" is a quick run
#   CALLGRAPH     dwarf: DATASETS=dwarf (kept from before data sets)
#   PERF_OPTS     more options for perf report alone (default none)
#   MODES         (default "children no-children none")
#   REPEAT        runs of each tool per mode (default 3)
#   PERF_REPEAT   runs of perf report per mode (default REPEAT; perf takes
#                 minutes a mode on some data sets)
#   OUT_DIR       where the recordings go (default ${TMPDIR:-/tmp}/pdata-bench)
#   RERECORD      1: record again even if a recording is there
#   RECORD_ONLY   1: record the data sets that are not there, time nothing
#   MEM_LIMIT_MB  address-space limit of each timed run, so that a tool
#                 that grows without bound fails instead of the machine
#                 (default 16384; 0: none)
#   CC            the compiler for the workloads (default cc)
#
# Prints a Markdown table on standard output, progress on standard error.

set -u

me=report-speed
say() { printf '%s: %s\n' "$me" "$*" >&2; }
die() { say "$*"; exit 1; }

BENCH_DIR=$(cd "$(dirname "$0")" && pwd)

: "${PERF:=perf}" "${SIZES:=10 100 1000}" "${MODES:=children no-children none}"
: "${REPEAT:=3}" "${OUT_DIR:=${TMPDIR:-/tmp}/pdata-bench}" "${RERECORD:=0}"
: "${MEM_LIMIT_MB:=16384}" "${CC:=cc}" "${CALLGRAPH:=fp}" "${PERF_OPTS:=}"
case $CALLGRAPH in
fp) : "${DATASETS:=spin}" ;;
dwarf) : "${DATASETS:=dwarf}" ;;
*) die "CALLGRAPH is fp or dwarf, not '$CALLGRAPH'" ;;
esac
for set in $DATASETS; do
	case $set in
	spin | paths | unique | churn | dsos | kernel | system | zstd | pipe | dwarf) ;;
	*) die "unknown data set '$set' (spin paths unique churn dsos kernel system zstd pipe dwarf)" ;;
	esac
done
. "$BENCH_DIR/lib.sh"
bench_need_preport_
[ -x /usr/bin/time ] || die "GNU time (/usr/bin/time) is needed for the peak RSS (Debian: time)"
: "${PERF_REPEAT:=$REPEAT}"
bench_need_counts_ REPEAT PERF_REPEAT MEM_LIMIT_MB
: "${PREPORT_BASE:=}"
[ -z "$PREPORT_BASE" ] || [ -x "$PREPORT_BASE" ] || die "PREPORT_BASE=$PREPORT_BASE is not executable"
if [ -z "${LIMIT:-}" ]; then
	LIMIT=none
	[ -x ./bench/limit ] && LIMIT=./bench/limit
fi
[ "$LIMIT" = none ] || [ -x "$LIMIT" ] || die "LIMIT=$LIMIT is not executable"
for s in $SIZES; do
	case $s in
	'' | *[!0-9]* | 0) die "SIZES holds sizes in MB, not '$s'" ;;
	esac
done
if nm "$PREPORT" 2>/dev/null | grep -q '__asan_init\|__ubsan_handle'; then
	say "warning: $PREPORT is built with sanitizers; its figures mean little"
fi
mkdir -p "$OUT_DIR" || die "cannot create $OUT_DIR"
ncpu=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
NDSOS=200

now_ns() { date +%s%N; }
size_of() { wc -c < "$1" | tr -d ' '; }

# the workloads: bench/spin.c, bench/tree.c and its libraries
# (bench/tree-dso.c), built once into OUT_DIR
build_cc() {
	out=$1
	shift
	[ -x "$out" ] && return 0
	"$CC" -O1 -g -fno-omit-frame-pointer -fno-optimize-sibling-calls -o "$out.tmp" "$@" &&
		mv "$out.tmp" "$out" || die "cannot build $out with $CC"
}
build_workload() {
	case $1 in
	spin) build_cc "$OUT_DIR/report-spin" "$BENCH_DIR/spin.c" ;;
	dwarf) command -v python3 >/dev/null || die "the dwarf data set runs python3: not found" ;;
	*) build_cc "$OUT_DIR/report-tree" "$BENCH_DIR/tree.c" -lpthread -ldl ;;
	esac
	[ "$1" = dsos ] || return 0
	mkdir -p "$OUT_DIR/tree-dsos" || die "cannot create $OUT_DIR/tree-dsos"
	i=1
	while [ "$i" -le "$NDSOS" ]; do
		build_cc "$OUT_DIR/tree-dsos/libtree$i.so" -shared -fPIC -DDSO=$i "$BENCH_DIR/tree-dso.c"
		i=$((i + 1))
	done
}

# data_file SET MB: where that recording is
data_file() {
	case $1 in
	spin) echo "$OUT_DIR/report-$2.data" ;;
	*) echo "$OUT_DIR/report-$1-$2.data" ;;
	esac
}

# record_set SET MB: its recording, made unless a big enough one is there
record_set() {
	set_=$1 mb=$2
	data=$(data_file "$set_" "$mb")
	if [ "$RERECORD" != 1 ] && [ -s "$data" ] &&
	   [ "$(size_of "$data")" -ge $((mb * 1000000 * 9 / 10)) ]; then
		say "reusing $data ($(size_of "$data") bytes)"
		return 0
	fi
	build_workload "$set_"
	rm -f "$data"
	tree=$OUT_DIR/report-tree
	opts="-e cpu-clock -F max -g" out="-o $data"
	case $set_ in
	spin) set -- "$OUT_DIR/report-spin" "$ncpu" ;;
	paths | unique | churn | kernel) set -- "$tree" "$set_" "$ncpu" ;;
	dsos) set -- "$tree" dsos "$ncpu" "$OUT_DIR"/tree-dsos/libtree*.so ;;
	system) opts="-a $opts" && set -- "$tree" mixed "$ncpu" ;;
	zstd) opts="-z $opts" && set -- "$tree" paths "$ncpu" ;;
	pipe) out="-o -" && set -- "$tree" paths "$ncpu" ;;
	dwarf) opts="-e cpu-clock -F 10000 --call-graph dwarf" && set -- python3 "$BENCH_DIR/pyload.py" ;;
	esac
	say "recording about $mb MB: $PERF record $opts -B --max-size $((mb * 1000000 / 1024))K $out -- $(echo "$*" | cut -c 1-120)"
	# --max-size stops perf and its workload; timeout(1) is the safety net
	timeout -s INT 1800 "$PERF" record -q $opts -B --max-size "$((mb * 1000000 / 1024))K" \
		$out -- "$@" > "$data.out" 2> "$data.record.log"
	if [ "$set_" = pipe ]; then
		mv "$data.out" "$data"
	else
		cat "$data.out" >> "$data.record.log" && rm -f "$data.out"
	fi
	[ -s "$data" ] || { cat "$data.record.log" >&2; die "perf record wrote nothing"; }
}

# timed_run TAG CMD...: runs CMD with its output in OUT_DIR/TAG.out and
# appends "SECONDS PEAK_KB" to OUT_DIR/TAG.times
timed_run() {
	tag=$1
	shift
	t0=$(now_ns)
	(
		[ "$MEM_LIMIT_MB" -gt 0 ] && ulimit -v $((MEM_LIMIT_MB * 1024))
		exec /usr/bin/time -f '%M' -o "$OUT_DIR/$tag.rss" "$@"
	) > "$OUT_DIR/$tag.out" 2> "$OUT_DIR/$tag.err" || {
		say "warning: '$*' failed (see $OUT_DIR/$tag.err)"
		: > "$OUT_DIR/$tag.failed"
	}
	t1=$(now_ns)
	printf '%s %s\n' "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", (b - a) / 1e9 }')" \
		"$(tail -n 1 "$OUT_DIR/$tag.rss")" >> "$OUT_DIR/$tag.times"
}

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# perf's report without its tip line and the "#" lines that end it
untip() {
	sed -e '/^# (Tip: .*)$/d' -e '/^# (Cannot load tips\.txt file/d' \
	    -e 's/\[\.\.\.\] (inlined)$/[...]/' "$1" |
		awk '/^#?$/ { held = held $0 "\n"; next }
		     { printf "%s%s\n", held, $0; held = "" }'
}

printf '| data set | file MB | mode | preport s | perf s | speedup | preport MB/s | perf MB/s | preport peak MiB | perf peak MiB | RSS ratio | same report | base s | base peak MiB | time new/base | RSS new/base | same as base | limit s | preport/limit |\n'
printf '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n'
for ds in $DATASETS; do
	for mb in $SIZES; do
		record_set "$ds" "$mb"
		data=$(data_file "$ds" "$mb")
		[ "${RECORD_ONLY:-0}" = 1 ] && continue
		bytes=$(size_of "$data")
		cat "$data" > /dev/null
		for mode in $MODES; do
			case $mode in
			children) mopt=--children ;;
			no-children) mopt=--no-children ;;
			none) mopt='-g none' ;;
			*) die "unknown mode $mode (children, no-children, none)" ;;
			esac
			say "$ds, $(awk -v b="$bytes" 'BEGIN { printf "%.0f", b / 1e6 }') MB, --stdio --sort sym $mopt: $REPEAT runs of each"
			rm -f "$OUT_DIR/pre.times" "$OUT_DIR/perf.times" "$OUT_DIR/base.times" \
				"$OUT_DIR/limit.times" "$OUT_DIR"/*.failed
			i=0
			while [ "$i" -lt "$REPEAT" ]; do
				timed_run pre "$PREPORT" -i "$data" --stdio --sort sym $mopt
				[ "$i" -eq 0 ] && untip "$OUT_DIR/pre.out" > "$OUT_DIR/pre.first"
				if [ -n "$PREPORT_BASE" ]; then
					timed_run base "$PREPORT_BASE" -i "$data" --stdio --sort sym $mopt
					[ "$i" -eq 0 ] && untip "$OUT_DIR/base.out" > "$OUT_DIR/base.first"
				fi
				if [ "$i" -lt "$PERF_REPEAT" ]; then
					timed_run perf "$PERF" report -i "$data" --stdio --sort sym $mopt $PERF_OPTS
					[ "$i" -eq 0 ] && untip "$OUT_DIR/perf.out" > "$OUT_DIR/perf.first"
				fi
				[ "$LIMIT" = none ] || timed_run limit "$LIMIT" "$data"
				i=$((i + 1))
			done
			if [ -e "$OUT_DIR/pre.failed" ]; then
				same="preport failed"
			elif [ -e "$OUT_DIR/perf.failed" ]; then
				same="perf failed"
			elif cmp -s "$OUT_DIR/pre.first" "$OUT_DIR/perf.first"; then
				same=yes
			else
				same=NO
			fi
			tp=$(awk '{ print $1 }' "$OUT_DIR/pre.times" | median)
			tf=$(awk '{ print $1 }' "$OUT_DIR/perf.times" | median)
			rp=$(awk '{ if ($2 > m) m = $2 } END { print m + 0 }' "$OUT_DIR/pre.times")
			rf=$(awk '{ if ($2 > m) m = $2 } END { print m + 0 }' "$OUT_DIR/perf.times")
			tl=0
			[ "$LIMIT" = none ] || tl=$(awk '{ print $1 }' "$OUT_DIR/limit.times" | median)
			tb=0 rb=0 sameb=-
			if [ -n "$PREPORT_BASE" ]; then
				tb=$(awk '{ print $1 }' "$OUT_DIR/base.times" | median)
				rb=$(awk '{ if ($2 > m) m = $2 } END { print m + 0 }' "$OUT_DIR/base.times")
				if cmp -s "$OUT_DIR/pre.first" "$OUT_DIR/base.first"; then sameb=yes; else sameb=NO; fi
			fi
			awk -v b="$bytes" -v ds="$ds" -v mode="$mode" -v tp="$tp" -v tf="$tf" -v rp="$rp" -v rf="$rf" -v same="$same" \
			    -v tb="$tb" -v rb="$rb" -v sameb="$sameb" -v tl="$tl" 'BEGIN {
				mb = b / 1e6
				printf "| %s | %.1f | %s | %.3f | %.3f | %.1fx | %.1f | %.1f | %.1f | %.1f | %.3f | %s |",
					ds, mb, mode, tp, tf, tf / tp, mb / tp, mb / tf, rp / 1024, rf / 1024,
					(rf > 0) ? rp / rf : 0, same
				if (sameb == "-")
					printf " - | - | - | - | - |"
				else
					printf " %.3f | %.1f | %.3f | %.3f | %s |", tb, rb / 1024,
						(tb > 0) ? tp / tb : 0, (rb > 0) ? rp / rb : 0, sameb
				if (tl > 0)
					printf " %.3f | %.1fx |\n", tl, tp / tl
				else
					printf " - | - |\n"
			}'
		done
	done
done
