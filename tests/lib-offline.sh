# SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
# tests/lib-offline.sh - sourced after init.sh by the offline-*.test
# scripts: a recording made on "this machine" is analysed on "another
# machine", played here by removing the binaries, building a different
# program at their paths, and giving HOME and PERF_BUILDID_DIR fresh
# empty directories.

. "$srcdir/progs/lib-progs.sh"

# No debuginfod server may answer for the binaries that are gone.
unset DEBUGINFOD_URLS
# The system's libraries and kernel are the same on both "machines":
# only the files under the test directory change.

OFF_CC=${CC:-gcc}
# The flags tests/progs.mk builds the workloads with.
OFF_CFLAGS="-O2 -g -fno-omit-frame-pointer -DPROGS_LEAF_FRAMES -fno-optimize-sibling-calls"

# off_require_precord_: precord is built and may record a software event
# here (perf_event_paranoid, containers)
off_require_precord_() {
	require_precord_
	precord -q -N -o probe.data -e cpu-clock -- true >probe.out 2>&1 </dev/null ||
		skip_ "precord cannot record here: $(head -3 probe.out)"
	rm -f probe.data probe.out
}

# off_machine_ NAME: HOME becomes a new empty directory NAME-home under
# the test directory, and the build-id cache its .debug, for perf (which
# takes its cache from HOME: perf 6.1 only sets PERF_BUILDID_DIR, for
# perf-archive.sh) and for pdata (which reads PERF_BUILDID_DIR) alike
off_machine_() {
	HOME=$TESTDIR_/$1-home
	PERF_BUILDID_DIR=$HOME/.debug
	rm -rf "$HOME"
	mkdir "$HOME" "$PERF_BUILDID_DIR" ||
		framework_failure_ "cannot create $HOME and $PERF_BUILDID_DIR"
	export HOME PERF_BUILDID_DIR
}

# off_build_linked_ DIR: tests/progs/linked.c and libpdlinked.c built
# into DIR/linked and DIR/libpdlinked.so as tests/progs.mk builds them
# (the program finds its library through its $ORIGIN run path)
off_build_linked_() {
	mkdir -p "$1" || framework_failure_ "cannot create $1"
	$OFF_CC $OFF_CFLAGS -I"$srcdir/progs" -fPIC -shared \
		-Wl,--build-id -Wl,-soname,libpdlinked.so \
		-o "$1/libpdlinked.so" "$srcdir/progs/libpdlinked.c" \
		>"$1.cc.err" 2>&1 ||
		framework_failure_ "cannot build $1/libpdlinked.so: $(head -5 "$1.cc.err")"
	$OFF_CC $OFF_CFLAGS -I"$srcdir/progs" -Wl,--build-id \
		-Wl,-rpath,'$ORIGIN' -o "$1/linked" "$srcdir/progs/linked.c" \
		"$1/libpdlinked.so" >"$1.cc.err" 2>&1 ||
		framework_failure_ "cannot build $1/linked: $(head -5 "$1.cc.err")"
	rm -f "$1.cc.err"
}

# off_build_split_ DIR: DIR/linked, a program that spends a third of its
# time in a function of its own (split_own) and the rest in
# tests/progs/libpdlinked.c's pdlinked_burn, with that library as
# DIR/libpdlinked.so.  Both files have samples, so both build-ids are
# recorded: perf 6.1 lists only the DSOs that sample addresses fall in,
# and the main program of off_build_linked_ appears in callchains only.
off_build_split_() {
	mkdir -p "$1" || framework_failure_ "cannot create $1"
	cat >split.c <<'EOF'
#include "progs.h"

uint64_t pdlinked_burn(unsigned long msec);
HOT_FN uint64_t split_own(unsigned long msec);

HOT_FN uint64_t
split_own(unsigned long msec)
{
	return progs_burn_until(3, progs_now_ns() + (uint64_t)msec * 1000000);
}

int
main(void)
{
	progs_sink = split_own(70) + pdlinked_burn(130);
	return 0;
}
EOF
	$OFF_CC $OFF_CFLAGS -I"$srcdir/progs" -fPIC -shared \
		-Wl,--build-id -Wl,-soname,libpdlinked.so \
		-o "$1/libpdlinked.so" "$srcdir/progs/libpdlinked.c" \
		>"$1.cc.err" 2>&1 ||
		framework_failure_ "cannot build $1/libpdlinked.so: $(head -5 "$1.cc.err")"
	$OFF_CC $OFF_CFLAGS -I"$srcdir/progs" -Wl,--build-id \
		-Wl,-rpath,'$ORIGIN' -o "$1/linked" split.c \
		"$1/libpdlinked.so" >"$1.cc.err" 2>&1 ||
		framework_failure_ "cannot build $1/linked from split.c: $(head -5 "$1.cc.err")"
	rm -f "$1.cc.err"
}

# off_build_other_ DIR: a different program and library at the same
# paths as off_build_linked_'s: other code, other symbols (all named
# wrongprog_*), so other build-ids and other addresses
off_build_other_() {
	rm -f "$1/linked" "$1/libpdlinked.so"
	mkdir -p "$1" || framework_failure_ "cannot create $1"
	cat >other-lib.c <<'EOF'
unsigned long wrongprog_lib(unsigned long x);
unsigned long wrongprog_lib_pad(unsigned long x);

__attribute__((noinline)) unsigned long
wrongprog_lib_pad(unsigned long x)
{
	unsigned long i;

	for (i = 0; i < 1000; i++)
		x += (i * 13) ^ (x << 2) ^ (x >> 5);
	return x;
}

unsigned long
wrongprog_lib(unsigned long x)
{
	return wrongprog_lib_pad(x) * 3 + wrongprog_lib_pad(x + 1);
}
EOF
	cat >other-main.c <<'EOF'
#include <stdio.h>

unsigned long wrongprog_lib(unsigned long x);
unsigned long wrongprog_main_pad(unsigned long x);

__attribute__((noinline)) unsigned long
wrongprog_main_pad(unsigned long x)
{
	unsigned long i;

	for (i = 0; i < 1000; i++)
		x ^= i * 7 + (x >> 3) + (x << 11);
	return x;
}

int
main(int argc, char **argv)
{
	(void)argv;
	printf("%lu\n", wrongprog_main_pad((unsigned long)argc) +
	       wrongprog_lib((unsigned long)argc));
	return 0;
}
EOF
	$OFF_CC -O0 -g -fPIC -shared -Wl,--build-id \
		-Wl,-soname,libpdlinked.so -o "$1/libpdlinked.so" other-lib.c \
		>"$1.cc.err" 2>&1 ||
		framework_failure_ "cannot build the other $1/libpdlinked.so: $(head -5 "$1.cc.err")"
	$OFF_CC -O0 -g -Wl,--build-id -Wl,-rpath,'$ORIGIN' -o "$1/linked" \
		other-main.c "$1/libpdlinked.so" >"$1.cc.err" 2>&1 ||
		framework_failure_ "cannot build the other $1/linked: $(head -5 "$1.cc.err")"
	rm -f "$1.cc.err"
	"$1/linked" >/dev/null ||
		framework_failure_ "the other $1/linked does not run"
}

# off_build_id_ FILE: the hex build-id of an ELF file, as readelf -n
# prints it
off_build_id_() {
	LC_ALL=C readelf -n "$1" 2>/dev/null |
		awk '/Build ID:/ { print $3; exit }'
}

# off_tipless_ IN OUT: a --stdio report without perf's tip line (a line
# picked at random, "# (Tip: ...)", or the one saying the tips cannot be
# loaded); every other byte is kept
off_tipless_() {
	sed -e '/^# (Tip: .*)$/d' -e '/^# (Cannot load tips\.txt file/d' "$1" >"$2"
}

# The report modes compared: off_mode_ N prints the options of mode N
# (1 to OFF_NR_MODES); no option has a space in it
OFF_NR_MODES=8
off_mode_() {
	case $1 in
	1) echo "" ;;
	2) echo "--sort dso,sym --children -g none" ;;
	3) echo "--sort srcline" ;;
	4) echo "--sort sym -g folded" ;;
	5) echo "--sort sym -g graph,0.5,callee" ;;
	6) echo "--no-children" ;;
	7) echo "--sort dso,sym,srcline --no-children -g none" ;;
	8) echo "--sort srcline -g caller,0.5,callee,address" ;;
	*) framework_failure_ "no report mode $1" ;;
	esac
}

# off_report_ DATA OUT [preport options]: preport's --stdio report of
# DATA, without the tip line, in OUT (stderr in OUT.err); preport must
# exit 0
off_report_() {
	or_data_=$1 or_out_=$2
	shift 2
	preport -i "$or_data_" --stdio "$@" >"$or_out_.raw" 2>"$or_out_.err" </dev/null ||
		fail_ "'preport -i $or_data_ --stdio $*' failed ($?): $(head -5 "$or_out_.err")"
	off_tipless_ "$or_out_.raw" "$or_out_"
	rm -f "$or_out_.raw"
}

# off_reports_ DATA TAG [preport options]: every report mode of DATA, in
# DATA.TAG.N (N = the mode)
off_reports_() {
	ors_data_=$1 ors_tag_=$2
	shift 2
	ors_n_=1
	while [ "$ors_n_" -le "$OFF_NR_MODES" ]; do
		off_report_ "$ors_data_" "$ors_data_.$ors_tag_.$ors_n_" \
			$(off_mode_ "$ors_n_") "$@"
		ors_n_=$((ors_n_ + 1))
	done
}

# off_same_ DATA TAG1 TAG2: every report mode of DATA.TAG2 is byte for
# byte DATA.TAG1; a difference is shown and counted in off_failures
off_cases=0
off_failures=0
off_same_() {
	os_n_=1
	while [ "$os_n_" -le "$OFF_NR_MODES" ]; do
		off_cases=$((off_cases + 1))
		os_a_=$1.$2.$os_n_ os_b_=$1.$3.$os_n_
		if ! cmp -s "$os_a_" "$os_b_"; then
			note_ "$1 [$(off_mode_ "$os_n_")]: the $3 report differs from the $2 report (-$2 +$3; first 30 lines):"
			diff -u "$os_a_" "$os_b_" | head -30 >&2
			off_failures=$((off_failures + 1))
		fi
		os_n_=$((os_n_ + 1))
	done
}

# off_done_: the verdict of off_same_'s comparisons
off_done_() {
	[ "$off_cases" -gt 0 ] || framework_failure_ "no comparison was made"
	[ "$off_failures" -eq 0 ] ||
		fail_ "$off_failures of $off_cases reports differ"
	note_ "$off_cases reports byte-identical"
}

# off_has_syms_ REPORT SYM...: the report shows each symbol
off_has_syms_() {
	ohs_f_=$1
	shift
	for ohs_s_ in "$@"; do
		grep -q "\] $ohs_s_\( \|\$\)" "$ohs_f_" ||
			fail_ "$ohs_f_ has no $ohs_s_: $(grep '%' "$ohs_f_" | head -5)"
	done
}

# off_summary_ ERRFILE OUT: the summary line of preport --archive (or
# precord --archive) "preport: wrote OUT: N DSOs, M symbols, L source
# lines, B bytes" is in ERRFILE, and B is OUT's size; sets off_sum_dsos,
# off_sum_syms, off_sum_lines and off_sum_bytes
off_summary_() {
	os_line_=$(grep -E '^p(report|record): wrote ' "$1")
	[ -n "$os_line_" ] ||
		fail_ "no summary line from --archive: $(head -5 "$1")"
	[ "$(printf '%s\n' "$os_line_" | wc -l)" -eq 1 ] ||
		fail_ "more than one summary line: $os_line_"
	os_nums_=$(printf '%s\n' "$os_line_" |
		sed -n "s|^p[a-z]*: wrote $2: \([0-9]*\) DSOs, \([0-9]*\) symbols, \([0-9]*\) source lines, \([0-9]*\) bytes\$|\1 \2 \3 \4|p")
	[ -n "$os_nums_" ] || fail_ "summary line not as documented: $os_line_"
	[ -f "$2" ] || fail_ "$os_line_: there is no $2"
	set -- $os_nums_ "$2"
	off_sum_dsos=$1 off_sum_syms=$2 off_sum_lines=$3 off_sum_bytes=$4
	[ "$4" -eq "$(wc -c <"$5")" ] ||
		fail_ "$os_line_: but $5 has $(wc -c <"$5") bytes"
}

# The container of a pdata symbol archive (doc/symbol-archive.md): a
# 16-byte file header, then entries, each "PDSE", kind, build-id size,
# origin, flags (a byte each), the name's length (le32), 4 reserved
# bytes, the payload's compressed and raw sizes and its xxhash64 (le64
# each), 20 bytes of build-id, the name, the header's xxhash64 (8
# bytes), then the payload; then the index and a 32-byte trailer.

# off_le_ FILE OFF N: the N-byte little-endian number at offset OFF
off_le_() {
	od -An -tu1 -j "$2" -N "$3" "$1" |
		awk '{ for (i = 1; i <= NF; i++) b[n++] = $i }
		     END { v = 0; for (i = n - 1; i >= 0; i--) v = v * 256 + b[i]
			   printf "%.0f\n", v }'
}

# off_bytes_ FILE OFF N: the N bytes at offset OFF
off_bytes_() {
	dd if="$1" bs=1 skip="$2" count="$3" 2>/dev/null
}

# off_ar_entries_ ARCHIVE: one line per DSO entry, "OFFSET HEADER_SIZE
# PAYLOAD_SIZE NAME", walking the entries from the file header on (the
# kind 6 entry, the recording's fingerprint, is not a DSO: left out)
off_ar_entries_() {
	oae_size_=$(wc -c <"$1")
	oae_off_=16
	while [ $((oae_off_ + 68)) -le "$oae_size_" ] &&
	      [ "$(off_bytes_ "$1" "$oae_off_" 4)" = PDSE ]; do
		oae_nlen_=$(off_le_ "$1" $((oae_off_ + 8)) 4)
		oae_z_=$(off_le_ "$1" $((oae_off_ + 16)) 8)
		oae_h_=$((68 + oae_nlen_))
		[ "$(off_le_ "$1" $((oae_off_ + 4)) 1)" -eq 6 ] ||
			printf '%s %s %s %s\n' "$oae_off_" "$oae_h_" "$oae_z_" \
				"$(off_bytes_ "$1" $((oae_off_ + 60)) "$oae_nlen_")"
		oae_off_=$((oae_off_ + oae_h_ + oae_z_))
	done
}

# off_flip_ FILE OFF: the byte at offset OFF of FILE inverted, in place
off_flip_() {
	of_b_=$(od -An -tu1 -j "$2" -N 1 "$1" | tr -d ' ')
	[ -n "$of_b_" ] || framework_failure_ "$1 has no byte at offset $2"
	printf "\\$(printf %o $((of_b_ ^ 255)))" |
		dd of="$1" bs=1 seek="$2" count=1 conv=notrunc 2>/dev/null ||
		framework_failure_ "cannot write $1"
}

# off_rows_ REPORT [DSO...]: the rows of a --sort dso,sym --children
# -g none report (children, self, DSO, symbol), without those of the
# DSOs named
off_rows_() {
	or_f_=$1
	shift
	awk -v skip=" $* " '/^ +[0-9.]+% +[0-9.]+% / {
		if (index(skip, " " $3 " ") == 0) print }' "$or_f_"
}

# From here on, nothing reads or fills the user's own ~/.debug
off_machine_ start
