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
# edges, ft: features), the lines of the target's own files its corpus
# reaches (with LLVM_COV and LLVM_PROFDATA and $FUZZ_DIR/cov/fuzz-TARGET
# built for source-based coverage) and what was found.  FUZZ_JOBS=2 runs two targets
# at a time; FUZZ_NICE (default 19) is the niceness.
set -u
work=$1 seconds=$2 src=$3
. "$src/targets.sh"
shift 3

# All of it is read before it runs: a script edited during a campaign
# does not change the campaign.
main() {
: "${FUZZ_JOBS:=1}" "${FUZZ_NICE:=19}"
fuzz_asan_env_

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
	lines=$(cover "$t" "$d")
	found=$(ls "$d/artifacts" | wc -l)
	# the sanitizers' log files hold the stacks of crashes too
	ub=$(cat "$d"/ubsan.* 2>/dev/null | grep -c 'runtime error')
	printf '%-8s execs %10s  exec/s %6s  %-21s  lines %-16s  corpus %5s  findings %s (UB reports %s)\n' \
		"$t" "$execs" "$((execs / seconds))" "${cov:-cov: ? ft: ?}" \
		"${lines:-?}" "$(ls "$d/corpus" | wc -l)" "$found" "$ub" \
		> "$d/summary"
}

# cover T DIR: the lines of T's own files (fuzz_cover_) that its corpus
# reaches, "covered/total" and the percentage, from llvm-cov.
cover() {
	bin=$FUZZ_DIR/cov/fuzz-$1
	[ -x "$bin" ] && [ -n "${LLVM_COV:-}" ] && [ -n "${LLVM_PROFDATA:-}" ] ||
		return 0
	LLVM_PROFILE_FILE=$2/cov.profraw nice -n "$FUZZ_NICE" "$bin" -runs=0 \
		$(fuzz_opts_ "$1") "$2/corpus" > "$2/cov.log" 2>&1
	"$LLVM_PROFDATA" merge -sparse -o "$2/cov.profdata" "$2/cov.profraw" &&
	(cd "$src/../.." && "$LLVM_COV" report "$bin" \
		-instr-profile="$2/cov.profdata" $(fuzz_cover_ "$1")) \
		> "$2/cov.txt" 2>> "$2/cov.log" || return 0
	# TOTAL regions missed % functions missed % lines missed %
	awk '$1 == "TOTAL" { printf "%d/%d %s", $8 - $9, $8, $10 }' "$2/cov.txt"
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
echo "fuzzing, $seconds s per target (cov/ft: libFuzzer's counters of the last run;"
echo "lines: the target's own files' lines its corpus reaches, from llvm-cov):"
for t in "$@"; do
	cat "$work/$t/summary"
done
echo "findings: $work/TARGET/artifacts; logs: $work/TARGET/log"
}

main "$@"
exit
