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
