#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
#
# bench/export-speed.sh - pexport's stack formats against preport's report
# and against the pipeline people use today, on the same big recording:
# wall time, peak memory and output size, paired in one run.
#
# The recording is bench/report-speed.sh's (cached in OUT_DIR as
# report-SIZE_MB.data): perf record -e cpu-clock -F max -g of
# bench/spin.c on every CPU.  With the file in the page cache, in turn,
# REPEAT times each:
#   report     preport --stdio --sort sym (children), the reference
#   KIND       pexport --to KIND -o OUT for every KIND in KINDS
#   pipeline   perf script | stackcollapse-perf.pl | flamegraph.pl when
#              FLAMEGRAPH_DIR holds FlameGraph's two scripts, else
#              perf script alone (into /dev/null)
# GNU time gives each run's wall time and peak RSS; the median time and
# the largest peak are kept.  The table gives each one's ratio to the
# report and the pipeline's time over each export's.
#
# Settings (environment):
#   PREPORT, PEXPORT  the tools to time (default ./report/preport and
#                 ./export/pexport of the build tree, else PATH); build
#                 them without sanitizers
#   PERF          the perf to record with (default perf)
#   SIZE_MB       size of the recording, MB (default 100; the issue's
#                 figure is 1000)
#   KINDS         (default: every stack format pexport --help lists:
#                 collapsed speedscope pprof flamegraph)
#   FLAMEGRAPH_DIR  a checkout of FlameGraph (stackcollapse-perf.pl,
#                 flamegraph.pl), for the pipeline; default none
#   REPEAT        runs of each (default 1)
#   OUT_DIR       where the recording and outputs go
#                 (default ${TMPDIR:-/tmp}/pdata-bench)
#   RERECORD      1: record again even if a recording is there
#   MEM_LIMIT_MB  address-space limit of each timed run (default 16384;
#                 0: none)
#   CC            the compiler for the workload (default cc)
#
# Prints a Markdown table on standard output, progress on standard error.

set -u

me=export-speed
say() { printf '%s: %s\n' "$me" "$*" >&2; }
die() { say "$*"; exit 1; }

BENCH_DIR=$(cd "$(dirname "$0")" && pwd)

: "${PERF:=perf}" "${SIZE_MB:=100}" "${REPEAT:=1}" "${RERECORD:=0}"
: "${OUT_DIR:=${TMPDIR:-/tmp}/pdata-bench}" "${MEM_LIMIT_MB:=16384}"
: "${CC:=cc}" "${FLAMEGRAPH_DIR:=}"
. "$BENCH_DIR/lib.sh"
bench_need_preport_
if [ -z "${PEXPORT:-}" ]; then
	if [ -x export/pexport ]; then
		PEXPORT=./export/pexport
	else
		PEXPORT=$(command -v pexport) || die "no pexport: set PEXPORT"
	fi
fi
[ -x "$PEXPORT" ] || die "$PEXPORT is not executable"
[ -x /usr/bin/time ] || die "GNU time (/usr/bin/time) is needed for the peak RSS (Debian: time)"
bench_need_counts_ SIZE_MB REPEAT MEM_LIMIT_MB
if [ -z "${KINDS:-}" ]; then
	KINDS=
	for k in collapsed speedscope pprof flamegraph; do
		"$PEXPORT" --help | grep -q "$k" && KINDS="$KINDS $k"
	done
fi
mkdir -p "$OUT_DIR" || die "cannot create $OUT_DIR"

# one_run TAG OUTPUT CMD...: CMD's time and peak as "SECONDS PEAK_KB"
# appended to OUT_DIR/TAG.times; the size of the file OUTPUT (- for none)
# into OUT_DIR/TAG.size
one_run() {
	or_tag=$1 or_out=$2
	shift 2
	[ "$or_out" = - ] || rm -f "$or_out"
	(
		[ "$MEM_LIMIT_MB" -gt 0 ] && ulimit -v $((MEM_LIMIT_MB * 1024))
		/usr/bin/time -f '%e %M' -o "$OUT_DIR/$or_tag.time" "$@" \
			> /dev/null 2> "$OUT_DIR/$or_tag.err" ||
			say "warning: '$*' failed (see $OUT_DIR/$or_tag.err)"
	)
	tail -n 1 "$OUT_DIR/$or_tag.time" >> "$OUT_DIR/$or_tag.times"
	if [ "$or_out" != - ] && [ -f "$or_out" ]; then
		bench_bytes_of_ "$or_out" > "$OUT_DIR/$or_tag.size"
	else
		echo 0 > "$OUT_DIR/$or_tag.size"
	fi
}

# summary TAG: "MEDIAN_SECONDS PEAK_MIB SIZE_MB"
summary() {
	awk -v size="$(cat "$OUT_DIR/$1.size")" '
		{ t[++n] = $1; if ($2 > r) r = $2 }
		END {
			for (i = 2; i <= n; i++)
				for (j = i; j > 1 && t[j - 1] > t[j]; j--) {
					x = t[j]; t[j] = t[j - 1]; t[j - 1] = x
				}
			m = (n % 2) ? t[(n + 1) / 2] : (t[n / 2] + t[n / 2 + 1]) / 2
			printf "%.2f %.1f %.2f\n", m, r / 1024, size / 1e6
		}' "$OUT_DIR/$1.times"
}

data=$(bench_cpu_data_ "$SIZE_MB") || exit 1
cat "$data" > /dev/null
pipeline=$OUT_DIR/export-pipeline.sh
if [ -n "$FLAMEGRAPH_DIR" ]; then
	[ -f "$FLAMEGRAPH_DIR/stackcollapse-perf.pl" ] &&
		[ -f "$FLAMEGRAPH_DIR/flamegraph.pl" ] ||
		die "FLAMEGRAPH_DIR=$FLAMEGRAPH_DIR has no stackcollapse-perf.pl and flamegraph.pl"
	pipe_what="perf script | stackcollapse-perf.pl | flamegraph.pl"
	printf '%s script -i "%s" 2>/dev/null | perl "%s/stackcollapse-perf.pl" | perl "%s/flamegraph.pl" > "%s"\n' \
		"$PERF" "$data" "$FLAMEGRAPH_DIR" "$FLAMEGRAPH_DIR" "$OUT_DIR/export-pipeline.svg" > "$pipeline"
else
	pipe_what="perf script (alone)"
	printf '%s script -i "%s" > /dev/null 2>&1\n' "$PERF" "$data" > "$pipeline"
fi
say "$(awk -v b="$(bench_bytes_of_ "$data")" 'BEGIN { printf "%.0f", b / 1e6 }') MB; kinds:$KINDS; pipeline: $pipe_what; $REPEAT runs of each"
tags="report"
for k in $KINDS; do tags="$tags $k"; done
tags="$tags pipeline"
for t in $tags; do rm -f "$OUT_DIR/export-$t.times"; done
i=0
while [ "$i" -lt "$REPEAT" ]; do
	one_run export-report - "$PREPORT" --stdio --sort sym -i "$data"
	for k in $KINDS; do
		one_run "export-$k" "$OUT_DIR/export.$k" "$PEXPORT" -q --to "$k" -f \
			-i "$data" -o "$OUT_DIR/export.$k"
	done
	one_run export-pipeline "$OUT_DIR/export-pipeline.svg" sh "$pipeline"
	i=$((i + 1))
done
set -- $(summary export-report)
report_s=$1
set -- $(summary export-pipeline)
pipe_s=$1
printf 'File: %s (%s MB, %s samples); pipeline: %s\n\n' "$(basename "$data")" \
	"$(awk -v b="$(bench_bytes_of_ "$data")" 'BEGIN { printf "%.0f", b / 1e6 }')" \
	"$("$PERF" report --stats -i "$data" 2>/dev/null | awk '/^ *SAMPLE events:/ { print $3; exit }')" \
	"$pipe_what"
printf '| run | wall s | / report | pipeline / it | peak MiB | output MB |\n'
printf '|---|---|---|---|---|---|\n'
for t in $tags; do
	set -- $(summary "export-$t")
	awk -v t="$t" -v s="$1" -v m="$2" -v o="$3" -v r="$report_s" -v p="$pipe_s" 'BEGIN {
		printf "| %s | %.2f | %.2f | %.1fx | %.1f | %.2f |\n", t, s,
			(r > 0) ? s / r : 0, (s > 0) ? p / s : 0, m, o }'
done
