#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
#
# bench/stats-throughput.sh - how fast preport --stats reads a big file,
# next to perf report --stats on the same file.
#
# Records an uncompressed perf.data of about SIZE_MB with
#   perf record -e cpu-clock -F max -g -B --max-size SIZE_MB
# of a CPU-bound workload on every CPU, then times both readers on it
# with the file in the page cache, best of REPEAT runs, and prints MB/s
# for each and their ratio.  The target is 1 GB/s or more for preport.
#
# Settings (environment):
#   PREPORT   the preport to time (default: ./report/preport, else PATH);
#             build it without sanitizers, e.g. configure with no options
#   PERF      the perf to record with and compare to (default: perf)
#   SIZE_MB   size of the recording in MiB (default 1024)
#   OUT_DIR   where the recording goes (default ${TMPDIR:-/tmp}/pdata-bench);
#             a recording of at least SIZE_MB already there is reused
#   REPEAT    timed runs per reader (default 3)
#   RERECORD  1: record again even if a recording is there

set -u

me=stats-throughput
say() { printf '%s: %s\n' "$me" "$*" >&2; }
die() { say "$*"; exit 1; }

BENCH_DIR=$(cd "$(dirname "$0")" && pwd)

: "${PERF:=perf}" "${SIZE_MB:=1024}" "${OUT_DIR:=${TMPDIR:-/tmp}/pdata-bench}"
: "${REPEAT:=3}" "${RERECORD:=0}" "${CC:=cc}"
. "$BENCH_DIR/lib.sh"
bench_need_preport_
case $SIZE_MB in
'' | *[!0-9]*) die "SIZE_MB must be a number of MiB" ;;
esac
if nm "$PREPORT" 2>/dev/null | grep -q '__asan_init\|__ubsan_handle'; then
	say "warning: $PREPORT is built with sanitizers; its figures mean little"
fi
mkdir -p "$OUT_DIR" || die "cannot create $OUT_DIR"
data=$OUT_DIR/perf.data
ncpu=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)

size_of() { wc -c < "$1" | tr -d ' '; }

# nanoseconds since the epoch (GNU date)
now_ns() { date +%s%N; }

# The workload (bench/spin.c): one process per CPU, each spinning a few
# frames deep until perf stops it.
build_workload() {
	"$CC" -O1 -g -fno-omit-frame-pointer -o "$OUT_DIR/spin" "$BENCH_DIR/spin.c" ||
		die "cannot build the workload with $CC"
}

record() {
	build_workload
	rm -f "$data"
	say "recording about $SIZE_MB MiB: $PERF record -e cpu-clock -F max -g -B --max-size ${SIZE_MB}M -o $data -- spin $ncpu"
	t0=$(now_ns)
	# --max-size stops perf and the workload once the file is that big;
	# timeout(1) is the safety net for a perf that does not stop.
	timeout -s INT 900 "$PERF" record -q -e cpu-clock -F max -g -B \
		--max-size "${SIZE_MB}M" -o "$data" -- "$OUT_DIR/spin" "$ncpu" \
		> "$OUT_DIR/record.log" 2>&1
	t1=$(now_ns)
	[ -s "$data" ] || { cat "$OUT_DIR/record.log" >&2; die "perf record wrote nothing"; }
	say "recorded $(size_of "$data") bytes in $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", (b - a) / 1e9 }') s"
}

if [ "$RERECORD" != 1 ] && [ -s "$data" ] &&
   [ "$(size_of "$data")" -ge $((SIZE_MB * 1024 * 1024 * 9 / 10)) ]; then
	say "reusing $data ($(size_of "$data") bytes); RERECORD=1 records anew"
else
	record
fi
bytes=$(size_of "$data")

# best-of-REPEAT wall time in seconds of "$@" > /dev/null, page cache warm
best_time() {
	cat "$data" > /dev/null
	"$@" > /dev/null 2>&1 || say "warning: '$*' exited $?"
	best=
	i=0
	while [ "$i" -lt "$REPEAT" ]; do
		t0=$(now_ns)
		"$@" > /dev/null 2>&1
		t1=$(now_ns)
		best=$(awk -v a="$t0" -v b="$t1" -v best="$best" 'BEGIN {
			t = (b - a) / 1e9
			print (best == "" || t < best) ? t : best
		}')
		i=$((i + 1))
	done
	printf '%s\n' "$best"
}

say "timing $PREPORT --stats (best of $REPEAT)"
t_pre=$(best_time "$PREPORT" --stats -i "$data")
say "timing $PERF report --stats (best of $REPEAT)"
t_perf=$(best_time "$PERF" report --stats -i "$data")

# the two must agree on what they counted
"$PREPORT" --stats -i "$data" 2>/dev/null | awk '$1 == "TOTAL" || $1 == "SAMPLE" { print $1, $3; exit }' > "$OUT_DIR/pre.total"
"$PERF" report --stats -i "$data" 2>/dev/null | awk '$1 == "TOTAL" || $1 == "SAMPLE" { print $1, $3; exit }' > "$OUT_DIR/perf.total"
cmp -s "$OUT_DIR/pre.total" "$OUT_DIR/perf.total" ||
	say "warning: the TOTAL counts differ: preport $(cat "$OUT_DIR/pre.total"), perf $(cat "$OUT_DIR/perf.total")"

awk -v bytes="$bytes" -v tp="$t_pre" -v tf="$t_perf" -v file="$data" 'BEGIN {
	mb = bytes / 1e6
	printf "file:                 %s (%.1f MB)\n", file, mb
	printf "preport --stats:      %8.3f s  %8.1f MB/s\n", tp, mb / tp
	printf "perf report --stats:  %8.3f s  %8.1f MB/s\n", tf, mb / tf
	printf "ratio:                %8.1fx\n", tf / tp
	printf "target (>= 1 GB/s):   %s\n", (mb / tp >= 1000) ? "met" : "NOT met"
}'
