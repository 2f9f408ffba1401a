#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
#
# bench/record-faults.sh - the fault table of precord's crash safety
# (doc/perf-data-format.md sections 2.7 and 2.8): what perf and preport
# read from a recording that precord did not finish.
#
# precord writes each pass over the rings through to the file and brings
# the header's data size up to date after it, and drains at least once a
# second; so a SIGKILLed precord leaves a file that both readers take,
# short of at most the last second.  A full disk stops it: it keeps
# every whole record, finalises the file, says so and exits non-zero.
# The cases, each REPEAT times:
#   SIGKILL   precord -e cpu-clock -F RATE -g [-z1] -o F -- hot 20000,
#             killed after each of KILL_AFTER seconds (0.3: only the
#             synthesised records), for each RATE in RATES; the orphaned
#             workload is killed after it
#   pipe      precord -o - -F 4000 -g -- hot 20000 | cat > F, precord
#             killed after PIPE_AFTER seconds
#   full disk precord -F 4000 -g [-z1] -- hot 20000 into a tmpfs of
#             FULL_SIZE (mounted here, unmounted on exit); -z1 once more
#             into one of FULL_SIZE_Z, which its 20 s do fill
# For each file:
#   samples perf     SAMPLE events of perf report --stats (or "cannot
#                    read:" and its first error line); preport the same
#   expected         RATE x the CPU time the workload had had when
#                    precord was killed (/proc/PID/schedstat), which is
#                    what a per-task cpu-clock counts: on a busy machine
#                    the workload gets less than the wall time; "-" for
#                    the full disk
#   missing          expected - perf's samples, and that as seconds of
#                    samples: at most about 1 s (the longest time between
#                    passes) is the promise
#   last write       seconds from the file's last change (its mtime: a
#                    pass's write or the header's update) to the kill: the
#                    wall time whose samples were still in the rings, which
#                    the 1 s drain period bounds
#   perf stderr clean  perf report --stdio and perf script print nothing
#                    on standard error
#
# Usage: record-faults.sh [BUILD_DIR]   (default: $BUILD_DIR, else .)
# Settings (environment):
#   PRECORD     default BUILD_DIR/record/precord, else the one in PATH
#   PREPORT     default BUILD_DIR/report/preport, else the one in PATH
#   PERF        the perf that reads the files (default perf)
#   HOT         the workload (default BUILD_DIR/tests/progs/hot, else
#               built from tests/progs/hot.c with CC into OUT_DIR)
#   RATES       the -F values (default "99 999 4000")
#   KILL_AFTER  seconds before the SIGKILL (default "0.3 1.5 4")
#   PIPE_AFTER  seconds before the pipe mode SIGKILL (default 1.5)
#   FULL_SIZE   the tmpfs size of the full disk (default 1M; "" skips it)
#   FULL_SIZE_Z the size for the extra -z1 run (default 100K; "" skips it)
#   REPEAT      runs of each case (default 1)
#   OUT_DIR     scratch directory (default ${TMPDIR:-/tmp}/pdata-bench/record-faults)
#   CC          the compiler for the workload (default cc)
#
# Needs root for the tmpfs (mount(8)) and perf_event_open rights.
# Prints a Markdown table on standard output, progress on standard error.

set -u

me=record-faults
say() { printf '%s: %s\n' "$me" "$*" >&2; }
die() { say "$*"; exit 1; }
BENCH_DIR=$(cd "$(dirname "$0")" && pwd)
. "$BENCH_DIR/lib.sh"

: "${BUILD_DIR:=${1:-.}}"
: "${PERF:=perf}" "${RATES:=99 999 4000}" "${KILL_AFTER:=0.3 1.5 4}"
: "${PIPE_AFTER:=1.5}" "${FULL_SIZE=1M}" "${FULL_SIZE_Z=100K}"
: "${REPEAT:=1}" "${CC:=cc}"
: "${OUT_DIR:=${TMPDIR:-/tmp}/pdata-bench/record-faults}"
bd=$(cd "$BUILD_DIR" 2>/dev/null && pwd) || die "no build tree $BUILD_DIR"
BUILD_DIR=$bd
if [ -z "${PRECORD:-}" ]; then
	if [ -x "$BUILD_DIR/record/precord" ]; then
		PRECORD=$BUILD_DIR/record/precord
	else
		PRECORD=$(command -v precord) || die "no precord: set PRECORD"
	fi
fi
if [ -z "${PREPORT:-}" ] && [ -x "$BUILD_DIR/report/preport" ]; then
	PREPORT=$BUILD_DIR/report/preport
fi
bench_need_preport_
[ -x "$PRECORD" ] || die "$PRECORD is not executable"
bench_need_counts_ REPEAT
command -v pgrep >/dev/null 2>&1 || die "pgrep (procps) is needed"

mkdir -p "$OUT_DIR" || die "cannot create $OUT_DIR"
if [ -z "${HOT:-}" ]; then
	if [ -x "$BUILD_DIR/tests/progs/hot" ]; then
		HOT=$BUILD_DIR/tests/progs/hot
	else
		HOT=$OUT_DIR/hot
		"$CC" -O2 -g -fno-omit-frame-pointer -DPROGS_LEAF_FRAMES \
			-fno-optimize-sibling-calls -Wl,--build-id \
			-I"$BENCH_DIR/../tests/progs" -o "$HOT" \
			"$BENCH_DIR/../tests/progs/hot.c" ||
			die "cannot build the workload with $CC"
	fi
fi
[ -x "$HOT" ] || die "$HOT is not executable"

mnt=
cleanup() {
	if [ -n "$mnt" ]; then
		umount "$mnt" 2>/dev/null || say "warning: cannot unmount $mnt"
		rmdir "$mnt" 2>/dev/null
	fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# cpu_ns PID: the nanoseconds PID has run on a CPU (its schedstat), the
# time that a per-task cpu-clock counts
cpu_ns() { awk '{ print $1 }' "/proc/$1/schedstat" 2>/dev/null; }
size_of() { wc -c < "$1" | tr -d ' '; }
# cell TEXT: TEXT fit for a table cell
cell() { printf '%s' "$1" | tr '|\n' '/ ' | cut -c1-200; }
# first FILE: the first two lines of FILE that are not empty, as one
first() { grep -m2 . "$1" | tr '\n' ' ' | sed 's/ $//'; }

# samples_of TOOL FILE: the SAMPLE count of TOOL --stats (perf report
# --stats for perf), or "cannot read: " and its first error lines
samples_of() {
	if [ "$1" = perf ]; then
		set -- "$PERF" report --stats -i "$2"
	else
		set -- "$PREPORT" --stats -i "$2"
	fi
	"$@" > "$OUT_DIR/stats.out" 2> "$OUT_DIR/stats.err" </dev/null
	st=$?
	n=$(awk '/^ *SAMPLE events:/ { print $3; exit }' "$OUT_DIR/stats.out")
	e=$(first "$OUT_DIR/stats.err")
	if [ $st -ne 0 ] || { [ -z "$n" ] && [ -n "$e" ]; }; then
		printf 'cannot read: %s\n' "$(cell "${e:-exit status $st}")"
	else
		printf '%s\n' "${n:-0}"
	fi
}

# stderr_clean FILE: yes when perf report --stdio and perf script of FILE
# print nothing on standard error, else "no: " and its first line
stderr_clean() {
	"$PERF" report --stdio -i "$1" > /dev/null 2> "$OUT_DIR/report.err" </dev/null
	"$PERF" script -i "$1" > /dev/null 2> "$OUT_DIR/script.err" </dev/null
	cat "$OUT_DIR/report.err" "$OUT_DIR/script.err" > "$OUT_DIR/perf.err"
	if [ -s "$OUT_DIR/perf.err" ]; then
		printf 'no: %s\n' "$(cell "$(first "$OUT_DIR/perf.err")")"
	else
		echo yes
	fi
}

# missing EXPECTED READ RATE: "N (S s)"
missing() {
	case $2 in
	*[!0-9]* | '') echo - ; return ;;
	esac
	awk -v e="$1" -v r="$2" -v f="$3" \
		'BEGIN { printf "%d (%.2f s)\n", e - r, (e - r) / f }'
}

# row FAULT RATE Z AFTER EXIT MESSAGE FILE EXPECTED LAST-WRITE
row() {
	f=$7
	if [ -s "$f" ]; then
		kb=$(awk -v b="$(size_of "$f")" 'BEGIN { printf "%.1f", b / 1e3 }')
		sp=$(samples_of perf "$f")
		sq=$(samples_of preport "$f")
		clean=$(stderr_clean "$f")
	else
		kb=0 sp=- sq=- clean=-
	fi
	if [ "$8" = - ]; then
		miss=-
	else
		miss=$(missing "$8" "$sp" "$2")
	fi
	printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' \
		"$1" "$2" "$3" "$4" "$5" "$(cell "$6")" "$kb" "$sp" "$sq" "$8" \
		"$miss" "$9" "$clean"
}

# killed NAME AFTER RATE ZOPT PIPE: precord -F RATE -g ZOPT -- hot 20000
# into NAME.data (through cat when PIPE is yes), SIGKILLed after AFTER
# seconds, its workload after it; sets expect (the samples due) and
# kst (precord's exit status)
killed() {
	out=$OUT_DIR/$1.data
	rm -f "$out" "$out.old" "$OUT_DIR/$1.fifo"
	if [ "$5" = yes ]; then
		mkfifo "$OUT_DIR/$1.fifo" || die "cannot make a fifo"
		cat "$OUT_DIR/$1.fifo" > "$out" &
		catpid=$!
		# shellcheck disable=SC2086
		"$PRECORD" -e cpu-clock -F "$3" -g $4 -o - -- "$HOT" 20000 \
			> "$OUT_DIR/$1.fifo" 2> "$OUT_DIR/$1.err" &
	else
		catpid=
		# shellcheck disable=SC2086
		"$PRECORD" -e cpu-clock -F "$3" -g $4 -o "$out" -- "$HOT" 20000 \
			> /dev/null 2> "$OUT_DIR/$1.err" &
	fi
	pid=$!
	sleep "$2"
	child=$(pgrep -P $pid | head -n 1)
	ns=
	[ -n "$child" ] && ns=$(cpu_ns "$child")
	kt=$(date +%s.%N)
	kill -KILL $pid
	wait $pid 2>/dev/null
	kst=$?
	[ -n "$child" ] && kill -KILL "$child" 2>/dev/null
	[ -n "$catpid" ] && wait "$catpid"
	rm -f "$OUT_DIR/$1.fifo"
	gap=$(awk -v k="$kt" -v m="$(stat -c %.9Y "$out")" \
		'BEGIN { printf "%.2f\n", k - m }')
	if [ -n "$ns" ]; then
		expect=$(awk -v f="$3" -v ns="$ns" \
			'BEGIN { printf "%d\n", f * ns / 1e9 }')
	else
		say "warning: $1: no workload found under precord"
		expect=-
	fi
}

printf '| fault | rate | -z | killed after (s) | exit | message | file KB | samples perf | samples preport | expected samples | missing | last write before kill (s) | perf stderr clean |\n'
printf '|---|---|---|---|---|---|---|---|---|---|---|---|---|\n'

i=0
while [ "$i" -lt "$REPEAT" ]; do
	i=$((i + 1))
	for after in $KILL_AFTER; do
		for rate in $RATES; do
			for z in no yes; do
				zopt=
				[ "$z" = yes ] && zopt=-z1
				say "run $i: SIGKILL after $after s, -F $rate -g ${zopt:-(no -z)}"
				killed kill "$after" "$rate" "$zopt" no
				row SIGKILL "$rate" $z "$after" "$kst" \
					"$(grep -m1 . "$OUT_DIR/kill.err")" \
					"$OUT_DIR/kill.data" "$expect" "$gap"
			done
		done
	done

	say "run $i: pipe mode, SIGKILL after $PIPE_AFTER s, -F 4000 -g"
	killed pipe "$PIPE_AFTER" 4000 "" yes
	row "SIGKILL, -o - \\| cat" 4000 no "$PIPE_AFTER" "$kst" \
		"$(grep -m1 . "$OUT_DIR/pipe.err")" "$OUT_DIR/pipe.data" "$expect" \
		"$gap"

	[ -n "$FULL_SIZE" ] || continue
	if [ -z "$mnt" ]; then
		mnt=$(mktemp -d -p "$OUT_DIR") || die "no mount point"
		mount -t tmpfs -o "size=$FULL_SIZE" tmpfs "$mnt" ||
			{ rmdir "$mnt"; mnt=; die "cannot mount a tmpfs (root?)"; }
	fi
	for c in "no $FULL_SIZE" "yes $FULL_SIZE" "yes $FULL_SIZE_Z"; do
		# shellcheck disable=SC2086
		set -- $c
		[ $# = 2 ] || continue
		z=$1 size=$2
		zopt=
		[ "$z" = yes ] && zopt=-z1
		mount -o "remount,size=$size" "$mnt" ||
			die "cannot resize the tmpfs on $mnt to $size"
		say "run $i: a full disk ($size tmpfs), -F 4000 -g ${zopt:-(no -z)}"
		rm -f "$mnt/full.data" "$mnt/full.data.old"
		# shellcheck disable=SC2086
		"$PRECORD" -e cpu-clock -F 4000 -g $zopt -o "$mnt/full.data" -- \
			"$HOT" 20000 > /dev/null 2> "$OUT_DIR/full.err" &
		pid=$!
		sleep 0.2
		child=$(pgrep -P $pid | head -n 1)
		wait $pid
		st=$?
		[ -n "$child" ] && kill -KILL "$child" 2>/dev/null
		cp "$mnt/full.data" "$OUT_DIR/full-$z-$size.data" 2>/dev/null
		cp "$OUT_DIR/full.err" "$OUT_DIR/full-$z-$size.err"
		# the first line, and the count precord says it kept
		msg=$(grep -m1 . "$OUT_DIR/full.err")
		said=$(sed -n 's/.* keeps the \([0-9]*\) samples.*/\1/p' \
			"$OUT_DIR/full.err")
		row "full disk ($size)" 4000 "$z" - "$st" \
			"$msg${said:+ (... says it keeps $said samples)}" \
			"$mnt/full.data" - -
		rm -f "$mnt/full.data"
	done
done
exit 0
