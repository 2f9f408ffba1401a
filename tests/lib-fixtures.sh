# SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
# tests/lib-fixtures.sh - helpers for tests over tests/fixtures.
#
# Fixtures are stored xz-compressed: fixture_ NAME decompresses
# $FIXTURES/NAME.xz to ./NAME (once) and prints its path.

require_prog_ xz

fixture_() {
	f_out_=./fx/$1
	if [ ! -f "$f_out_" ]; then
		mkdir -p "$(dirname "$f_out_")" &&
			xz -dc "$FIXTURES/$1.xz" > "$f_out_" ||
			framework_failure_ "cannot decompress $FIXTURES/$1.xz"
	fi
	printf '%s\n' "$f_out_"
}

# Every fixture data file, as NAME relative to $FIXTURES, sorted.
fixture_list_() {
	(cd "$FIXTURES" && find . -name '*.xz' ! -name '*.txt.xz' | sed 's|^\./||; s|\.xz$||' | LC_ALL=C sort)
}

# The perf output saved beside a fixture: NAME.perf-KIND.txt (plain or .xz).
fixture_expected_() {
	if [ -f "$FIXTURES/$1.perf-$2.txt" ]; then
		cat "$FIXTURES/$1.perf-$2.txt"
	elif [ -f "$FIXTURES/$1.perf-$2.txt.xz" ]; then
		xz -dc "$FIXTURES/$1.perf-$2.txt.xz"
	else
		return 1
	fi
}
