#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
# tests/fuzz/campaign.sh WORK SECONDS SRCDIR TARGET... - what `make fuzz`
# runs: each libFuzzer target of $FUZZ_DIR for SECONDS, one after the
# other, over WORK/TARGET/corpus (kept from one campaign to the next),
# seeded with SRCDIR/corpus/TARGET and, for the targets that read whole
# perf.data files, the fixtures of $FIXTURES (decompressed to WORK/fx).
# A crash, leak or timeout is saved in WORK/TARGET/artifacts and the
# target goes on for the rest of its time.  Then one line per target:
# executions, executions per second, libFuzzer's coverage counters (cov:
# edges, ft: features) and what was found.  FUZZ_JOBS=2 runs two targets
# at a time; FUZZ_NICE (default 19) is the niceness.
set -u
work=$1 seconds=$2 src=$3
. "$src/targets.sh"
shift 3
: "${FUZZ_JOBS:=1}" "${FUZZ_NICE:=19}"

mkdir -p "$work/fx" || exit 1
for f in $(cd "$FIXTURES" && find . -name '*.xz' ! -name '*.txt.xz'); do
	n=$(printf '%s' "${f#./}" | sed 's/\.xz$//; s|/|_|g')
	[ -f "$work/fx/$n" ] || xz -dc "$FIXTURES/$f" > "$work/fx/$n" || exit 1
done

# run_target T: SECONDS of T, restarted after each finding
run_target() {
	t=$1 d=$work/$1
	mkdir -p "$d/corpus" "$d/artifacts" || return 1
	left=$seconds execs=0 runs=0
	: > "$d/log"
	while [ "$left" -gt 0 ]; do
		t0=$(date +%s)
		UBSAN_OPTIONS=print_stacktrace=1:log_path=$d/ubsan \
		nice -n "$FUZZ_NICE" "$FUZZ_DIR/fuzz-$t" $(fuzz_opts_ "$t") \
			-max_total_time="$left" -timeout=20 -rss_limit_mb=2048 \
			-artifact_prefix="$d/artifacts/" -print_final_stats=1 \
			"$d/corpus" $(fuzz_seeds_ "$t" "$src" "$work/fx") \
			>> "$d/log" 2>&1
		n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$d/log" | tail -n 1)
		execs=$((execs + ${n:-0}))
		runs=$((runs + 1))
		left=$((left - ($(date +%s) - t0)))
		# a crash in the seeds would stop every restart at once
		[ "$(date +%s)" -gt "$t0" ] || break
	done
	cov=$(grep -E '^#[0-9]+.*cov:' "$d/log" | tail -n 1 |
		sed 's/.*\(cov: [0-9]*\) \(ft: [0-9]*\).*/\1 \2/')
	found=$(ls "$d/artifacts" | wc -l)
	ub=$(ls "$d" | grep -c '^ubsan\.')
	printf '%-8s execs %10s  exec/s %7s  %-22s  corpus %6s  findings %s (UB reports %s)\n' \
		"$t" "$execs" "$((execs / seconds))" "${cov:-cov: ? ft: ?}" \
		"$(ls "$d/corpus" | wc -l)" "$found" "$ub" > "$d/summary"
}

pids=
for t in "$@"; do
	run_target "$t" &
	pids="$pids $!"
	if [ "$FUZZ_JOBS" -lt 2 ] || [ "$(echo $pids | wc -w)" -ge "$FUZZ_JOBS" ]; then
		wait
		pids=
	fi
done
wait
echo "fuzzing, $seconds s per target (coverage: libFuzzer's counters of the last run):"
for t in "$@"; do
	cat "$work/$t/summary"
done
echo "findings: $work/TARGET/artifacts; logs: $work/TARGET/log"
