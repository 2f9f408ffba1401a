#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
#
# bench/script-speed.sh - pscript against perf script on the same big
# perf-recorded files: wall time and peak memory, paired in one run, and
# whether the two printed the same text.
#
# Two recordings, made once and cached in OUT_DIR:
#   cpu   perf record -e cpu-clock -F max -g -B --max-size SIZE_MB M of a
#         CPU-bound workload on every CPU (bench/spin.c, frame pointers,
#         a few frames deep): report-SIZE_MB.data, the file
#         bench/report-speed.sh records and reuses too;
#   trace perf record -e sched:sched_switch,sched:sched_wakeup,
#         syscalls:sys_enter_read,syscalls:sys_enter_write -B --max-size
#         TRACE_MB M of dd copying one byte at a time (two system calls a
#         byte): script-trace-TRACE_MB.data.
# For each, pscript and perf script print their default output (-i FILE)
# to /dev/null, in turn, REPEAT times each, with the file in the page
# cache; GNU time gives each run's wall time and peak RSS ('%e %M').  The
# median wall time and the largest peak RSS are kept.  One more run of
# each, not timed, goes through md5sum, whose sums tell whether the two
# printed the same bytes (a timed run into md5sum would time md5sum).
#
# Settings (environment):
#   PSCRIPT       the pscript to time (default ./script/pscript, else PATH);
#                 build it without sanitizers
#   PERF          the perf to record with and compare to (default perf)
#   SIZE_MB       size of the cpu-clock recording, MB (default 100; the
#                 issue's figure is 1000)
#   TRACE_MB      size of the tracepoint recording, MB (default 100)
#   DATA          which recordings (default "cpu trace")
#   REPEAT        runs of each tool per recording (default 1)
#   OUT_DIR       where the recordings go (default ${TMPDIR:-/tmp}/pdata-bench)
#   RERECORD      1: record again even if a recording is there
#   MEM_LIMIT_MB  address-space limit of each timed run (default 16384;
#                 0: none)
#   CC            the compiler for the cpu workload (default cc)
#
# Prints a Markdown table on standard output, progress on standard error.

set -u

me=script-speed
say() { printf '%s: %s\n' "$me" "$*" >&2; }
die() { say "$*"; exit 1; }

BENCH_DIR=$(cd "$(dirname "$0")" && pwd)

: "${PERF:=perf}" "${SIZE_MB:=100}" "${TRACE_MB:=100}" "${DATA:=cpu trace}"
: "${REPEAT:=1}" "${OUT_DIR:=${TMPDIR:-/tmp}/pdata-bench}" "${RERECORD:=0}"
: "${MEM_LIMIT_MB:=16384}" "${CC:=cc}"
. "$BENCH_DIR/lib.sh"
if [ -z "${PSCRIPT:-}" ]; then
	if [ -x script/pscript ]; then
		PSCRIPT=./script/pscript
	else
		PSCRIPT=$(command -v pscript) || die "no pscript: set PSCRIPT"
	fi
fi
[ -x "$PSCRIPT" ] || die "$PSCRIPT is not executable"
command -v "$PERF" >/dev/null 2>&1 || die "no perf ($PERF): set PERF"
[ -x /usr/bin/time ] || die "GNU time (/usr/bin/time) is needed for the peak RSS (Debian: time)"
command -v md5sum >/dev/null 2>&1 || die "md5sum is needed to compare the outputs"
bench_need_counts_ SIZE_MB TRACE_MB REPEAT MEM_LIMIT_MB
if nm "$PSCRIPT" 2>/dev/null | grep -q '__asan_init\|__ubsan_handle'; then
	say "warning: $PSCRIPT is built with sanitizers; its figures mean little"
fi
mkdir -p "$OUT_DIR" || die "cannot create $OUT_DIR"

# data_file KIND: the recording of KIND (cpu, trace), made if needed
data_file() {
	case $1 in
	cpu)
		bench_cpu_data_ "$SIZE_MB"
		return
		;;
	trace)
		df_=$OUT_DIR/script-trace-$TRACE_MB.data
		bench_big_enough_ "$df_" "$TRACE_MB" && { echo "$df_"; return; }
		bench_record_into_ "$df_" "$TRACE_MB" \
			-e sched:sched_switch,sched:sched_wakeup,syscalls:sys_enter_read,syscalls:sys_enter_write \
			-- dd if=/dev/zero of=/dev/null bs=1 count=$((TRACE_MB * 100000000))
		;;
	*) die "unknown recording '$1' in DATA (cpu, trace)" ;;
	esac
	echo "$df_"
}

# one_run TAG CMD...: CMD with its output into /dev/null, "SECONDS
# PEAK_KB" appended to OUT_DIR/TAG.times
one_run() {
	or_tag=$1
	shift
	(
		[ "$MEM_LIMIT_MB" -gt 0 ] && ulimit -v $((MEM_LIMIT_MB * 1024))
		/usr/bin/time -f '%e %M' -o "$OUT_DIR/$or_tag.time" "$@" \
			> /dev/null 2> "$OUT_DIR/$or_tag.err" ||
			say "warning: '$*' failed (see $OUT_DIR/$or_tag.err)"
	)
	tail -n 1 "$OUT_DIR/$or_tag.time" >> "$OUT_DIR/$or_tag.times"
}

# sum_run TAG CMD...: the md5sum of CMD's output into OUT_DIR/TAG.sum
sum_run() {
	sr_tag=$1
	shift
	"$@" 2> /dev/null | md5sum > "$OUT_DIR/$sr_tag.sum"
}

printf '| recording | file MB | samples | pscript s | perf s | speedup | pscript peak MiB | perf peak MiB | RSS ratio | same output |\n'
printf '|---|---|---|---|---|---|---|---|---|---|\n'
for kind in $DATA; do
	data=$(data_file "$kind") || exit 1
	bytes=$(bench_bytes_of_ "$data")
	samples=$("$PERF" report --stats -i "$data" 2>/dev/null |
		awk '/^ *SAMPLE events:/ { print $3; exit }')
	cat "$data" > /dev/null
	say "$kind: $(awk -v b="$bytes" 'BEGIN { printf "%.0f", b / 1e6 }') MB, $REPEAT runs of each"
	rm -f "$OUT_DIR/pscript.times" "$OUT_DIR/perf.times"
	i=0
	while [ "$i" -lt "$REPEAT" ]; do
		one_run pscript "$PSCRIPT" -i "$data"
		one_run perf "$PERF" script -i "$data"
		i=$((i + 1))
	done
	sum_run pscript "$PSCRIPT" -i "$data"
	sum_run perf "$PERF" script -i "$data"
	same=yes
	cmp -s "$OUT_DIR/pscript.sum" "$OUT_DIR/perf.sum" || same=NO
	awk -v b="$bytes" -v kind="$kind" -v n="${samples:-?}" -v same="$same" '
		FNR == NR { tp[++np] = $1; if ($2 > rp) rp = $2; next }
		{ tf[++nf] = $1; if ($2 > rf) rf = $2 }
		function med(v, k,   i, j, t) {
			for (i = 2; i <= k; i++)
				for (j = i; j > 1 && v[j - 1] > v[j]; j--) {
					t = v[j]; v[j] = v[j - 1]; v[j - 1] = t
				}
			return (k % 2) ? v[(k + 1) / 2] : (v[k / 2] + v[k / 2 + 1]) / 2
		}
		END {
			p = med(tp, np); f = med(tf, nf)
			printf "| %s | %.1f | %s | %.2f | %.2f | %.1fx | %.1f | %.1f | %.3f | %s |\n",
				kind, b / 1e6, n, p, f, (p > 0) ? f / p : 0, rp / 1024, rf / 1024,
				(rf > 0) ? rp / rf : 0, same
		}' "$OUT_DIR/pscript.times" "$OUT_DIR/perf.times"
done
