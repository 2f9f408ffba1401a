# SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
# tests/fuzz/targets.sh - what tests/fuzz.test and tests/fuzz/campaign.sh
# give each libFuzzer target besides its corpus (sourced, POSIX sh).

# fuzz_seeds_ TARGET SRCDIR FX: the seed folders of TARGET: its committed
# corpus, and the decompressed fixtures FX for the targets that read whole
# perf.data files.
fuzz_seeds_() {
	case $1 in
	reader|writer|session) echo "$2/corpus/$1 $3" ;;
	*) echo "$2/corpus/$1" ;;
	esac
}

# fuzz_opts_ TARGET: libFuzzer options.  Inputs stay small where the
# target's cost grows with them; the session's inputs reach so much code
# that libFuzzer's entropic schedule would take most of the time.
fuzz_opts_() {
	case $1 in
	reader) echo "-max_len=131072" ;;
	writer) echo "-max_len=65536" ;;
	session) echo "-max_len=16384 -entropic=0" ;;
	*) echo "-max_len=65536" ;;
	esac
}
