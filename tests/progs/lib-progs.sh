# SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
# tests/progs/lib-progs.sh - sourced after init.sh by the tests that run
# the workloads of tests/progs/ ($PROGS) and record them with perf.

: "${PROGS:?run the tests through make check}"

# perf reads no user or system configuration (~/.perfconfig could change
# its report's defaults)
PERF_CONFIG=/dev/null
export PERF_CONFIG

# require_progs_ NAME...: the built workloads exist
require_progs_() {
	for p_ in "$@"; do
		[ -x "$PROGS/$p_" ] || [ -f "$PROGS/$p_" ] ||
			framework_failure_ "$PROGS/$p_ is not built (make check builds it)"
	done
}

# require_perf_record_: perf is installed and may record a software event
# here (perf_event_paranoid, containers)
require_perf_record_() {
	require_perf_
	"$PERF" record -q -o probe.data -e cpu-clock -- true >/dev/null 2>&1 ||
		skip_ "perf record cannot record here (perf_event_paranoid, or no permission)"
	rm -f probe.data probe.data.old
}

# perf_record_ FILE [perf record options] -- COMMAND...: records with
# perf; a failure is a framework failure, with perf's messages
perf_record_() {
	f_=$1
	shift
	"$PERF" record -q -o "$f_" "$@" >"$f_.rec.out" 2>"$f_.rec.err" ||
		framework_failure_ "perf record -o $f_ $* failed: $(cat "$f_.rec.err")"
}

# The differential report tests: preport --stdio against perf report
# --stdio on the same file, compared exactly after report_norm_.
rc_cases=0
rc_failures=0

# report_norm_ FILE: FILE without perf's tip line ("# (Tip: ...)", or the
# line saying that the tips cannot be loaded), and without the empty and
# "#" lines that end the report.  One more edit: perf 6.1 marks the "[...]"
# entry (the callchain remainder below the threshold) "(inlined)" in some
# runs and not in others on the same file (its inline flag is not set
# before use), so "[...] (inlined)" is read as "[...]".  Everything else is
# kept byte for byte.
report_norm_() {
	sed -e '/^# (Tip: .*)$/d' -e '/^# (Cannot load tips\.txt file/d' \
	    -e 's/\[\.\.\.\] (inlined)$/[...]/' "$1" |
		awk '/^#?$/ { held = held $0 "\n"; next }
		     { printf "%s%s\n", held, $0; held = "" }'
}

# report_cmp_ LABEL FILE [report options]: one comparison; a difference
# is counted and shown, a failing perf report is a framework failure.
# rc_perf_opts (empty unless a test sets it) is given to perf report only.
rc_perf_opts=
report_cmp_() {
	label_=$1 file_=$2
	shift 2
	rc_cases=$((rc_cases + 1))
	n_=case$rc_cases
	"$PERF" report -i "$file_" --stdio $rc_perf_opts "$@" > "$n_.perf.raw" 2> "$n_.perf.err" </dev/null ||
		framework_failure_ "perf report -i $file_ --stdio $* failed: $(head -5 "$n_.perf.err")"
	# perf exits 0 after some usage errors (an unknown --sort key)
	[ -s "$n_.perf.raw" ] ||
		framework_failure_ "perf report -i $file_ --stdio $* printed nothing: $(head -5 "$n_.perf.err")"
	if ! preport -i "$file_" --stdio "$@" > "$n_.ours.raw" 2> "$n_.ours.err" </dev/null; then
		note_ "$label_: 'preport -i $file_ --stdio $*' failed: $(head -5 "$n_.ours.err")"
		rc_failures=$((rc_failures + 1))
		return 0
	fi
	report_norm_ "$n_.perf.raw" > "$n_.perf"
	report_norm_ "$n_.ours.raw" > "$n_.ours"
	if ! diff -u "$n_.perf" "$n_.ours" > "$n_.diff"; then
		case $(perf_split_rows_ "$n_.perf" "$n_.ours" "$@") in
		inline)
			note_ "$label_: perf report split a symbol's row in two (an inline frame's name among them: doc/errata.md); compared with --no-inline"
			rc_cases=$((rc_cases - 1))
			report_cmp_ "$label_ --no-inline" "$file_" "$@" --no-inline
			return 0 ;;
		unresolved)
			note_ "$label_: perf report split an unresolved address's row in two (doc/errata.md); compared with --sort dso,sym"
			rc_cases=$((rc_cases - 1))
			report_cmp_ "$label_ dso,sym" "$file_" $(sort_with_dso_ "$@")
			return 0 ;;
		hide)
			note_ "$label_: perf report split an unresolved address's row in two under a sort with dso (doc/errata.md); compared with -U"
			rc_cases=$((rc_cases - 1))
			report_cmp_ "$label_ -U" "$file_" "$@" -U
			return 0 ;;
		esac
		if perf_moved_rows_ "$n_.perf" "$n_.ours"; then
			note_ "$label_: perf report printed the same rows, unresolved addresses of equal weight in another order (a tree look-up that missed: doc/errata.md)"
			return 0
		fi
		note_ "$label_: 'preport -i $file_ --stdio $*' differs from perf report (-perf +preport; first 40 lines):"
		head -40 "$n_.diff" >&2
		rc_failures=$((rc_failures + 1))
	fi
	return 0
}

# perf_split_rows_ PERF OURS OPTIONS...: says why perf 6.1's report PERF
# (made with OPTIONS) has more rows of one entry than preport's OURS, and
# so what to compare instead: "inline" when inline frames are among the
# rows (perf compares a pair with an inline frame's symbol by name and
# any other by address, which is no order), "unresolved" when the row is
# an unresolved address under a sort list with sym and without dso (perf
# compares two of them by address alone and others by DSO first, no
# order either), "hide" when the sort list has dso already (two
# unresolved addresses compare by their signed difference, no order
# where they lie 2^63 or more apart: compared with -U, which hides
# them); nothing when perf has no such row.  Either way perf's
# histogram tree then holds a second row of an entry it already has
# (doc/errata.md).
perf_split_rows_() {
	sp_perf_=$1 sp_ours_=$2
	shift 2
	sp_key_=$(awk 'FNR == 1 { f++ }
	     /^ +[0-9.]+%/ { sub(/^ +([0-9.]+% +)+/, ""); n[f, $0]++; keys[$0] = 1 }
	     END { for (k in keys) if (n[1, k] > n[2, k] && n[2, k] > 0) { print k; exit } }' \
		"$sp_perf_" "$sp_ours_")
	[ -n "$sp_key_" ] || return 0
	case " $* " in
	*" --no-inline "*) ;;
	*) grep -q ' (inlined)' "$sp_perf_" && { echo inline; return 0; } ;;
	esac
	# (address 0 prints without its 0x: %#x of 0)
	case $sp_key_ in
	*"[.] 0"* | *"[k] 0"*) ;;
	*) return 0 ;;
	esac
	if [ "$(sort_with_dso_ "$@")" != "$(printf '%s\n' "$@")" ]; then
		echo unresolved
	else
		case " $* " in
		*" -U "*) ;;
		*) echo hide ;;
		esac
	fi
	return 0
}

# perf_moved_rows_ PERF OURS: whether the reports PERF and OURS differ
# only in where rows of unresolved addresses stand, each with its call
# graph, and in their level.  perf compares two of them by a signed
# difference of addresses, no order: a sample's look-up can miss the row
# another sample made, make a second one, and its collapse merge the two
# where the second fell, so such rows come out in another order than the
# tree of rows as they were first made, and a row of an address both
# kernel and user frames reached with the level of the entry the merge
# kept (doc/errata.md).  The other rows must stand as in PERF, and OURS
# must still list its rows by weight.
perf_moved_rows_() {
	for f_ in "$1" "$2"; do
		# each row with its graph on one line; unresolved ones apart
		awk -v named="$f_.named" -v unres="$f_.unres" '
		function flush() {
			if (blk == "")
				return
			if (row ~ /\[[.k]\] (0x[0-9a-f]+|0+) *$/) {
				sub(/\[[.k]\] /, "[?] ", blk)
				print blk > unres
			} else {
				print blk > named
			}
			blk = ""
		}
		/^ +[0-9.]+%/ { flush(); row = $0 }
		{ blk = blk "\001" $0 }
		END { flush() }' "$f_"
		[ -f "$f_.unres" ] || : > "$f_.unres"
		sort "$f_.unres" > "$f_.unres.sorted"
	done
	[ -s "$1.unres" ] && cmp -s "$1.named" "$2.named" &&
		cmp -s "$1.unres.sorted" "$2.unres.sorted" || return 1
	awk '/^ +[0-9.]+%/ { w = $1 + 0; if (seen && w > last) bad = 1; last = w; seen = 1 }
	     END { exit bad }' "$2"
}

# sort_with_dso_ OPTIONS...: OPTIONS with a --sort/-s list that has sym
# and no dso given dso before sym (one word a line)
sort_with_dso_() {
	sw_prev_=
	for sw_ in "$@"; do
		if { [ "$sw_prev_" = --sort ] || [ "$sw_prev_" = -s ]; } &&
		   case ",$sw_," in *,dso,*) false ;; *,sym,*) true ;; *) false ;; esac; then
			sw_=$(printf '%s' ",$sw_," | sed 's/,sym,/,dso,sym,/; s/^,//; s/,$//')
		fi
		printf '%s\n' "$sw_"
		sw_prev_=$sw_
	done
}

# report_matrix_ FILE LABEL [graphs|nocallchains]: the sort keys perf's
# users start with (sym, the default comm,dso,sym, dso, comm,pid), each
# with and without children and with -g none; with "graphs", also the
# callchain displays of --sort sym: graph and fractal, caller and callee
# order, flat and folded, with and without children; with "nocallchains"
# (a recording without -g, where -g none changes nothing), no -g none
report_matrix_() {
	mfile_=$1 mlabel_=$2 mgraphs_=${3:-}
	for s_ in sym default dso comm,pid; do
		if [ "$s_" = default ]; then set --; else set -- --sort "$s_"; fi
		for c_ in --children --no-children; do
			report_cmp_ "$mlabel_ [$s_ $c_]" "$mfile_" "$@" "$c_"
			[ "$mgraphs_" = nocallchains ] ||
				report_cmp_ "$mlabel_ [$s_ $c_ -g none]" "$mfile_" "$@" "$c_" -g none
		done
	done
	[ "$mgraphs_" = graphs ] || return 0
	for c_ in --children --no-children; do
		for g_ in graph,0.5,caller graph,0.5,callee fractal,0.5,caller \
			  fractal,0.5,callee flat folded; do
			report_cmp_ "$mlabel_ [sym $c_ -g $g_]" "$mfile_" --sort sym "$c_" -g "$g_"
		done
	done
}

# expect_symbols_ FILE SYMBOL...: perf report finds these symbols in the
# recording, so that a comparison is not made on an empty profile
expect_symbols_() {
	efile_=$1
	shift
	"$PERF" report -i "$efile_" --stdio --children --sort sym -g none \
		> "$efile_.syms" 2> "$efile_.syms.err" </dev/null ||
		framework_failure_ "perf report -i $efile_ failed: $(head -5 "$efile_.syms.err")"
	for s_ in "$@"; do
		grep -q "\[[.k]\] $s_ *\$" "$efile_.syms" ||
			framework_failure_ "perf report of $efile_ has no $s_: $(grep '%' "$efile_.syms" | head -5)"
	done
}

# require_pscript_: pscript is built (make check builds it)
require_pscript_() {
	PSCRIPT=$top_builddir/script/pscript
	[ -x "$PSCRIPT" ] || framework_failure_ "pscript is not built ($PSCRIPT)"
}

# script_cmp_ LABEL FILE [options]: pscript's text equals perf script's,
# byte for byte; counted with the report comparisons (report_done_)
script_cmp_() {
	label_=$1 file_=$2
	shift 2
	rc_cases=$((rc_cases + 1))
	"$PERF" script -i "$file_" "$@" > "s$rc_cases.perf" 2>/dev/null </dev/null ||
		framework_failure_ "perf script -i $file_ $* failed"
	"$PSCRIPT" -i "$file_" "$@" > "s$rc_cases.ours" 2>/dev/null ||
		fail_ "$label_: pscript -i $file_ $* failed"
	if ! cmp -s "s$rc_cases.perf" "s$rc_cases.ours"; then
		note_ "$label_: 'pscript -i $file_ $*' differs from perf script:"
		diff "s$rc_cases.perf" "s$rc_cases.ours" | head -20 >&2
		rc_failures=$((rc_failures + 1))
	fi
	return 0
}

# report_done_: the verdict of the comparisons made
report_done_() {
	[ "$rc_cases" -gt 0 ] || framework_failure_ "no comparison was made"
	[ "$rc_failures" -eq 0 ] ||
		fail_ "$rc_failures of $rc_cases reports differ from perf report's"
	note_ "$rc_cases reports equal to perf report's"
}

# require_precord_: precord is built (make check builds it)
require_precord_() {
	command -v precord >/dev/null 2>&1 ||
		framework_failure_ "precord is not built (make check builds it)"
}

# precord_ FILE [precord options] -- COMMAND...: records with precord; a
# failure is a test failure, with precord's messages
precord_() {
	f_=$1
	shift
	precord -q -o "$f_" "$@" >"$f_.rec.out" 2>"$f_.rec.err" </dev/null ||
		fail_ "precord -o $f_ $* failed: $(head -5 "$f_.rec.err")"
	[ -s "$f_" ] || fail_ "precord -o $f_ $* wrote no file"
}
