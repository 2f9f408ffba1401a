# SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
# tests/init.sh - sourced by every *.test script.
#
# Exit codes follow automake: 0 pass, 77 skip, 99 hard error, else fail.
# Each test runs in its own scratch directory, removed when it passes or
# skips.

ME_=${0##*/}
ME_=${ME_%.test}

fail_() { printf '%s: FAIL: %s\n' "$ME_" "$*" >&2; exit 1; }
skip_() { printf '%s: SKIP: %s\n' "$ME_" "$*" >&2; exit 77; }
framework_failure_() { printf '%s: ERROR: %s\n' "$ME_" "$*" >&2; exit 99; }
note_() { printf '%s: %s\n' "$ME_" "$*" >&2; }

require_prog_() {
	command -v "$1" >/dev/null 2>&1 || skip_ "$1 is not installed"
}

# perf is the oracle of the differential tests: use the one configure
# found, through tests/perf-record.sh
require_perf_() {
	[ -n "${PERF_REAL:-}" ] && [ -x "$PERF_REAL" ] || skip_ "perf is not installed (Debian: linux-perf)"
}

: "${top_builddir:?run the tests through make check}"
: "${srcdir:?run the tests through make check}"
: "${FIXTURES:=$srcdir/fixtures}"
# LeakSanitizer's scan at each exit costs a sanitized tool about 70 ms of
# CPU (it reads the 12 MB of libasan's and libubsan's .bss), most of
# what a short run costs: the scripts run the tools without it, but for
# tests/leaks.test and the tests of bad input (hostile-inputs, fuzz,
# cli-errors, prefix: it checks one run in 8), which set LEAK_CHECK_=1
# before sourcing this file.  A
# detect_leaks the caller gives in ASAN_OPTIONS comes later and wins.
if [ "${LEAK_CHECK_:-0}" != 1 ]; then
	ASAN_OPTIONS=detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}
	export ASAN_OPTIONS
fi
if [ -n "${PERF:-}" ] && [ -x "$PERF" ] && [ "$PERF" != "$srcdir/perf-record.sh" ]; then
	PERF_REAL=$PERF
	PERF=$srcdir/perf-record.sh
	export PERF PERF_REAL
fi

TESTDIR_=$(pwd)/$ME_.dir
rm -rf "$TESTDIR_" && mkdir -p "$TESTDIR_" || framework_failure_ "cannot create $TESTDIR_"
cd "$TESTDIR_" || framework_failure_ "cannot enter $TESTDIR_"
# testdir_done_ STATUS: the scratch directory goes when the test passed
# or skipped (a skipped test leaves nothing behind: distcleancheck)
testdir_done_() {
	cd / || return 0
	if [ "$1" -eq 0 ] || [ "$1" -eq 77 ]; then
		rm -rf "$TESTDIR_"
	fi
}
trap 'st=$?; testdir_done_ $st; exit $st' EXIT
