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

# perf is the oracle of the differential tests: use the one configure found.
require_perf_() {
	[ -n "${PERF:-}" ] && [ -x "$PERF" ] || skip_ "perf is not installed (Debian: linux-perf)"
}

: "${top_builddir:?run the tests through make check}"
: "${srcdir:?run the tests through make check}"
: "${FIXTURES:=$srcdir/fixtures}"

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
