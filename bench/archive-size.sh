#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
#
# bench/archive-size.sh - the pdata symbol archive (preport --archive,
# FILE.pdsym) against perf archive's tarball (FILE.tar.bz2) for the same
# perf-recorded files: size and the time to make it.
#
# Each recording in CASES is made once by perf record with a home of its
# own (OUT_DIR/CASE/home), so that perf fills a fresh build-id cache
# (HOME/.debug: perf 6.1 takes its cache from HOME, not from
# PERF_BUILDID_DIR) with exactly that recording's DSOs:
#   linked   perf record -g of tests/progs/linked.c with its own shared
#            library (libpdlinked.c), built with CC into OUT_DIR/linked
#   libc     perf record -g of a sh loop (dash's arithmetic: strcmp,
#            strtoll... in libc)
#   kernel   perf record -g of dd if=/dev/zero of=/dev/null (kernel
#            samples: the archive holds kallsyms symbols)
#   max      perf record -F max -g of CC -O2 -g -c in a loop for MAX_SECS
#            seconds (sh, cc, cc1, as, their libraries, the kernel)
# Then, REPEAT times and in turn,
#   perf archive FILE               (perf 6.1 runs perf-archive.sh)
#   preport -i FILE --archive
# with the home (and PERF_BUILDID_DIR) of the recording, keeping each
# one's median wall time and the size of what it wrote.  Last, it checks
# that the archive is usable: the reports of FILE (--stdio, and --stdio
# --sort dso,sym,srcline -g none) with the archive, from an empty home
# and build-id cache and with --symfs an empty directory, equal those
# without it (--no-archive) on this machine.
#
# Settings (environment):
#   PREPORT    the preport to time (default ./report/preport, else PATH);
#              build it without sanitizers
#   PERF       the perf to record with and to run perf archive (default perf)
#   CASES      (default "linked libc kernel max")
#   REPEAT     timed runs of each tool per recording (default 3)
#   WORK_MS    how long linked runs, ms (default 1000)
#   MAX_SECS   how long the -F max recording runs, s (default 3)
#   OUT_DIR    scratch directory (default ${TMPDIR:-/tmp}/pdata-bench/archive-size)
#   RERECORD   1: record again even if a recording is there
#   CC         the compiler for the workloads (default cc)
#
# Prints a Markdown table on standard output, progress on standard error.

set -u

me=archive-size
say() { printf '%s: %s\n' "$me" "$*" >&2; }
die() { say "$*"; exit 1; }

BENCH_DIR=$(cd "$(dirname "$0")" && pwd)
PROGS_SRC=$BENCH_DIR/../tests/progs

: "${PERF:=perf}" "${CASES:=linked libc kernel max}" "${REPEAT:=3}"
: "${WORK_MS:=1000}" "${MAX_SECS:=3}" "${RERECORD:=0}" "${CC:=cc}"
: "${OUT_DIR:=${TMPDIR:-/tmp}/pdata-bench/archive-size}"
. "$BENCH_DIR/lib.sh"
bench_need_preport_
case $PREPORT in
/*) ;;
*) PREPORT=$(pwd)/$PREPORT ;;
esac
bench_need_counts_ REPEAT WORK_MS MAX_SECS
"$PREPORT" --help 2>&1 | grep -q -e '--archive' ||
	die "$PREPORT has no --archive option"
if nm "$PREPORT" 2>/dev/null | grep -q '__asan_init\|__ubsan_handle'; then
	say "warning: $PREPORT is built with sanitizers; its times mean little"
fi
mkdir -p "$OUT_DIR" || die "cannot create $OUT_DIR"
OUT_DIR=$(cd "$OUT_DIR" && pwd)

now_ns() { date +%s%N; }
size_of() { wc -c < "$1" | tr -d ' '; }
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# with_home HOME CMD...: CMD with HOME and its build-id cache
with_home() {
	h=$1
	shift
	HOME=$h PERF_BUILDID_DIR=$h/.debug "$@"
}

# tests/progs/linked.c and libpdlinked.c, with the flags of tests/progs.mk
build_linked() {
	d=$1
	fl='-O2 -g -fno-omit-frame-pointer -DPROGS_LEAF_FRAMES -fno-optimize-sibling-calls'
	[ -r "$PROGS_SRC/linked.c" ] || die "no $PROGS_SRC/linked.c"
	# shellcheck disable=SC2086
	"$CC" $fl -fPIC -I"$PROGS_SRC" -shared -Wl,--build-id \
		-Wl,-soname,libpdlinked.so -o "$d/libpdlinked.so" \
		"$PROGS_SRC/libpdlinked.c" &&
	"$CC" $fl -I"$PROGS_SRC" -Wl,--build-id -Wl,-rpath,'$ORIGIN' \
		-o "$d/linked" "$PROGS_SRC/linked.c" "$d/libpdlinked.so" ||
		die "cannot build linked with $CC"
}

# record CASE: OUT_DIR/CASE/CASE.data and the cache in OUT_DIR/CASE/home
record() {
	c=$1
	d=$OUT_DIR/$c
	data=$d/$c.data
	if [ "$RERECORD" != 1 ] && [ -s "$data" ] && [ -d "$d/home/.debug/.build-id" ]; then
		say "reusing $data"
		return 0
	fi
	rm -rf "$d"
	mkdir -p "$d/home" || die "cannot create $d"
	freq=
	case $c in
	linked)
		build_linked "$d"
		set -- "$d/linked" "$WORK_MS"
		;;
	libc)
		set -- sh -c 'i=0; while [ $i -lt 200000 ]; do i=$((i + 1)); done'
		;;
	kernel)
		set -- dd if=/dev/zero of=/dev/null bs=4k count=2M
		;;
	max)
		freq='-F max'
		cp "$BENCH_DIR/spin.c" "$d/work.c" || die "no $BENCH_DIR/spin.c"
		set -- sh -c 'end=$(($(date +%s) + $1)); cd "$2" &&
			while [ "$(date +%s)" -lt "$end" ]; do "$3" -O2 -g -c -o work.o work.c || exit 1; done' \
			sh "$MAX_SECS" "$d" "$CC"
		;;
	*)
		die "unknown case $c (linked, libc, kernel, max)"
		;;
	esac
	say "recording $c: $PERF record -e cpu-clock ${freq:+$freq }-g -o $data -- $*"
	# shellcheck disable=SC2086
	with_home "$d/home" timeout -s INT 600 "$PERF" record -q -e cpu-clock $freq -g \
		-o "$data" -- "$@" > "$d/record.log" 2>&1
	[ -s "$data" ] || { cat "$d/record.log" >&2; die "perf record wrote nothing"; }
	[ -d "$d/home/.debug/.build-id" ] || die "perf record filled no build-id cache in $d/home/.debug"
}

# timed TAG CMD...: runs CMD (output in OUT_DIR/TAG.log) and appends its
# wall time to OUT_DIR/TAG.times; returns CMD's status
timed() {
	tag=$1
	shift
	t0=$(now_ns)
	"$@" > "$OUT_DIR/$tag.log" 2>&1
	st=$?
	t1=$(now_ns)
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f\n", (b - a) / 1e9 }' >> "$OUT_DIR/$tag.times"
	return $st
}

# same_report CASE N OPTIONS...: preport -i FILE --stdio OPTIONS with the
# archive alone (empty home and cache, --symfs an empty directory) prints
# what it prints without the archive, with the binaries and the cache;
# the reports, less the tip line that preport picks at random as perf
# does, stay in OUT_DIR/CASE/report-N.{noar,ar}
same_report() {
	c=$1
	n=$2
	shift 2
	d=$OUT_DIR/$c
	with_home "$d/home" "$PREPORT" -i "$d/$c.data" --stdio --no-archive "$@" \
		2> "$d/report-$n.noar.err" | sed '/^# (Tip: .*)$/d' > "$d/report-$n.noar"
	with_home "$d/empty-home" "$PREPORT" -i "$d/$c.data" --stdio \
		--symfs "$d/empty-symfs" "$@" \
		2> "$d/report-$n.ar.err" | sed '/^# (Tip: .*)$/d' > "$d/report-$n.ar"
	if [ -s "$d/report-$n.noar" ] && cmp -s "$d/report-$n.noar" "$d/report-$n.ar"; then
		return 0
	fi
	say "$c: the reports differ (--stdio $*): diff $d/report-$n.noar $d/report-$n.ar"
	return 1
}

printf '| recording | perf.data KB | samples | DSOs | symbols | source lines | perf archive KB | pdsym KB | size ratio | perf archive s | preport --archive s | time ratio | same report |\n'
printf '|---|---|---|---|---|---|---|---|---|---|---|---|---|\n'
for c in $CASES; do
	record "$c"
	d=$OUT_DIR/$c
	data=$d/$c.data
	home=$d/home
	samples=$(with_home "$home" "$PERF" report -i "$data" --stats 2>/dev/null |
		awk '/SAMPLE events:/ { print $3; exit }')
	say "$c: $REPEAT runs of perf archive and preport --archive"
	rm -f "$OUT_DIR/perf.times" "$OUT_DIR/pre.times"
	i=0
	while [ "$i" -lt "$REPEAT" ]; do
		rm -f "$data.tar.bz2"
		timed perf with_home "$home" "$PERF" archive "$data" ||
			{ cat "$OUT_DIR/perf.log" >&2; die "perf archive $data failed"; }
		rm -f "$data.pdsym"
		timed pre with_home "$home" "$PREPORT" -i "$data" --archive ||
			{ cat "$OUT_DIR/pre.log" >&2; die "preport -i $data --archive failed"; }
		i=$((i + 1))
	done
	[ -s "$data.tar.bz2" ] || die "perf archive wrote no $data.tar.bz2"
	[ -s "$data.pdsym" ] || die "preport --archive wrote no $data.pdsym"
	# preport: wrote OUT: N DSOs, M symbols, L source lines, B bytes
	summary=$(grep 'preport: wrote ' "$OUT_DIR/pre.log" | tail -n 1)
	[ -n "$summary" ] || say "warning: no summary line from preport --archive"
	ndso=$(printf '%s\n' "$summary" | sed -n 's/.*: \([0-9]*\) DSOs.*/\1/p')
	nsym=$(printf '%s\n' "$summary" | sed -n 's/.* \([0-9]*\) symbols.*/\1/p')
	nline=$(printf '%s\n' "$summary" | sed -n 's/.* \([0-9]*\) source lines.*/\1/p')

	# usable: with the archive, from nothing, the same reports as without
	rm -rf "$d/empty-home" "$d/empty-symfs"
	mkdir -p "$d/empty-home" "$d/empty-symfs"
	same=yes
	same_report "$c" 1 || same=NO
	same_report "$c" 2 --sort dso,sym,srcline -g none || same=NO
	rm -rf "$d/empty-home" "$d/empty-symfs"

	tp=$(median < "$OUT_DIR/perf.times")
	tr=$(median < "$OUT_DIR/pre.times")
	awk -v c="$c" -v db="$(size_of "$data")" -v n="$samples" -v ndso="$ndso" \
	    -v nsym="$nsym" -v nline="$nline" -v tb="$(size_of "$data.tar.bz2")" \
	    -v pb="$(size_of "$data.pdsym")" -v tp="$tp" -v tr="$tr" -v same="$same" 'BEGIN {
		printf "| %s | %.1f | %s | %s | %s | %s | %.1f | %.1f | %.2f%% | %.3f | %.3f | %.3f | %s |\n",
			c, db / 1000, n, ndso, nsym, nline, tb / 1000, pb / 1000,
			100 * pb / tb, tp, tr, tr / tp, same
	}'
done
rm -f "$OUT_DIR/perf.times" "$OUT_DIR/pre.times" "$OUT_DIR/perf.log" "$OUT_DIR/pre.log"
