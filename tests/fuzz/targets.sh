# SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
# tests/fuzz/targets.sh - what tests/fuzz.test and tests/fuzz/campaign.sh
# give each libFuzzer target besides its corpus (sourced, POSIX sh).

# fuzz_seeds_ TARGET SRCDIR FX: the seed folders of TARGET: its committed
# corpus, and the decompressed fixtures FX for the targets that read whole
# perf.data files.
fuzz_seeds_() {
	case $1 in
	reader|writer|session|script) echo "$2/corpus/$1 $3" ;;
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
	script) echo "-max_len=16384 -entropic=0 -close_fd_mask=2" ;;
	*) echo "-max_len=65536" ;;
	esac
}

# fuzz_cover_ TARGET: the sources (from the top of the tree) that TARGET
# is meant to cover, whose lines `make fuzz` measures.
fuzz_cover_() {
	case $1 in
	reader) echo "format/reader.c format/source.c format/header.c format/pipe.c format/zstd.c format/zcomp.c format/idmap.c format/evsel.c format/attr.c format/features.c format/feat-topo.c format/feat-bpf.c format/buildid.c format/meta.c" ;;
	decode) echo "format/sample.c format/events.c format/attr.c format/features.c format/feat-topo.c format/feat-bpf.c format/buildid.c format/text-datasrc.c format/text-branch.c format/text-regs.c format/text-misc.c format/text-event.c" ;;
	writer) echo "format/writer.c format/writer-buf.c format/feat-encode.c format/zcomp.c" ;;
	session) echo "session/*.c report/*.c report/*/*.c" ;;
	script) echo "script/*.c" ;;
	archive) echo "symbol/archive-file.c symbol/archive-codec.c symbol/archive-cfi-codec.c symbol/archive-inline-codec.c" ;;
	elf) echo "symbol/elfsyms.c symbol/elfutil.c symbol/symtab.c symbol/demangle.c symbol/demangle-rust.c symbol/dso.c symbol/dso-data.c symbol/load.c symbol/srcline.c symbol/buildid.c" ;;
	esac
}

# fuzz_asan_env_: ASAN_OPTIONS for every target, after the caller's own.
# ASan's default quarantine of freed memory (256 MiB) means nearly every
# allocation of a run is memory the kernel must fault in: a third of a
# small input's time.  16 MiB still holds the frees of many inputs.
fuzz_asan_env_() {
	ASAN_OPTIONS="quarantine_size_mb=16${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
	export ASAN_OPTIONS
}
