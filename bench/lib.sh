# SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
# bench/lib.sh - sourced by the benchmark scripts (after they define die).

# PREPORT: as given, else ./report/preport of the build tree, else the
# one on PATH; PERF must run too.
bench_need_preport_() {
	if [ -z "${PREPORT:-}" ]; then
		if [ -x report/preport ]; then
			PREPORT=./report/preport
		else
			PREPORT=$(command -v preport) || die "no preport: set PREPORT"
		fi
	fi
	command -v "$PERF" >/dev/null 2>&1 || die "no perf ($PERF): set PERF"
	[ -x "$PREPORT" ] || die "$PREPORT is not executable"
}

# bench_need_counts_ VAR...: each VAR holds a whole number above 0
bench_need_counts_() {
	for bnc_v_ in "$@"; do
		eval "bnc_val_=\$$bnc_v_"
		case $bnc_val_ in
		'' | *[!0-9]* | 0) die "$bnc_v_ must be a positive number" ;;
		esac
	done
}

# The recordings the speed benchmarks share, in OUT_DIR (RERECORD, PERF,
# CC and BENCH_DIR as the scripts set them).
bench_bytes_of_() { wc -c < "$1" | tr -d ' '; }

# bench_big_enough_ FILE MB: FILE holds at least 90% of MB megabytes
bench_big_enough_() {
	[ "$RERECORD" != 1 ] && [ -s "$1" ] &&
		[ "$(bench_bytes_of_ "$1")" -ge $(($2 * 1000000 * 9 / 10)) ]
}

# bench_record_into_ FILE MB PERF-RECORD-OPTIONS... -- COMMAND: perf
# record stops itself and its workload at MB megabytes; timeout(1) is
# the safety net
bench_record_into_() {
	ri_file=$1 ri_mb=$2
	shift 2
	say "recording about $ri_mb MB: $PERF record $* (into $ri_file)"
	rm -f "$ri_file"
	timeout -s INT 1800 "$PERF" record -q -B --max-size "$((ri_mb * 1000000 / 1024))K" \
		-o "$ri_file" "$@" > "$ri_file.record.log" 2>&1
	[ -s "$ri_file" ] || { cat "$ri_file.record.log" >&2; die "perf record wrote nothing"; }
}

# bench_cpu_data_ MB: prints the path of the cpu-clock -F max -g recording
# of bench/spin.c on every CPU (report-MB.data), made if needed
bench_cpu_data_() {
	bcd_=$OUT_DIR/report-$1.data
	bench_big_enough_ "$bcd_" "$1" && { echo "$bcd_"; return; }
	if [ ! -x "$OUT_DIR/report-spin" ]; then
		"$CC" -O1 -g -fno-omit-frame-pointer -o "$OUT_DIR/report-spin" \
			"$BENCH_DIR/spin.c" || die "cannot build the workload with $CC"
	fi
	bench_record_into_ "$bcd_" "$1" -e cpu-clock -F max -g -- \
		"$OUT_DIR/report-spin" "$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)"
	echo "$bcd_"
}
