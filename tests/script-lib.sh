# SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
# tests/script-lib.sh - sourced after init.sh by the tests that compare
# pscript with perf script, byte for byte.
#
# One comparison runs `perf script` and pscript with the same options on
# the same file.  When perf succeeds, pscript must succeed and print the
# same standard output.  When perf fails (a field the file lacks, a file
# it refuses), pscript must fail too and print the same standard error
# (its lines may start with "pscript: ", as the tools' messages do).
# Each difference is counted and shown (file, options, first differing
# lines); sc_done_ fails the test when there was one.

# PERF_CONFIG=/dev/null, require_perf_record_
. "$srcdir/progs/lib-progs.sh"

# perf 6.1 loads libtraceevent plugins from $TRACEEVENT_PLUGIN_DIR and
# ~/.local/lib/traceevent/plugins, which change the `trace` field of
# their events; pscript loads none
unset TRACEEVENT_PLUGIN_DIR
if [ -d "${HOME:-/}/.local/lib/traceevent/plugins" ]; then
	note_ "$HOME/.local/lib/traceevent/plugins exists: HOME is the test directory"
	HOME=$(pwd)
	export HOME
fi

PSCRIPT=$top_builddir/script/pscript

# require_pscript_: pscript is built
require_pscript_() {
	[ -x "$PSCRIPT" ] || fail_ "pscript is not built ($PSCRIPT)"
}

# require_precord_: precord is built and may record a software event
require_precord_() {
	PRECORD=$top_builddir/record/precord
	[ -x "$PRECORD" ] || fail_ "precord is not built ($PRECORD)"
	"$PRECORD" -q -o probe.data -e cpu-clock -- true >probe.out 2>&1 ||
		skip_ "precord cannot record here: $(head -3 probe.out)"
	rm -f probe.data probe.data.old probe.out
}

# can_record_ TOOL OPTION...: whether TOOL (perf or precord) records with
# these options here (hardware events, tracepoints and cgroups depend on
# the machine)
can_record_() {
	t_=$1
	shift
	case $t_ in
	perf) set -- "$PERF" record "$@" ;;
	*) set -- "$PRECORD" "$@" ;;
	esac
	# the options alone: the workload after -- is not run
	pr_=
	for a_ in "$@"; do
		[ "$a_" = -- ] && break
		pr_="$pr_ $a_"
	done
	set -f
	# shellcheck disable=SC2086 # options without spaces
	$pr_ -q -o probe.data -- true >/dev/null 2>&1
	st_=$?
	set +f
	rm -f probe.data probe.data.old
	return $st_
}

# rec_ TOOL FILE [record options] -- COMMAND...: record with perf or
# precord; a failure is a framework failure, with the tool's messages
rec_() {
	t_=$1 f_=$2
	shift 2
	case $t_ in
	perf) set -- "$PERF" record -q -o "$f_" "$@" ;;
	*) set -- "$PRECORD" -q -o "$f_" "$@" ;;
	esac
	"$@" >"$f_.rec.out" 2>"$f_.rec.err" </dev/null ||
		framework_failure_ "$* failed: $(head -5 "$f_.rec.err")"
}

# rec_pipe_ TOOL FILE [record options] -- COMMAND...: the same in pipe
# mode (-o -), the stream saved to FILE
rec_pipe_() {
	t_=$1 f_=$2
	shift 2
	case $t_ in
	perf) set -- "$PERF" record -q -o - "$@" ;;
	*) set -- "$PRECORD" -q -o - "$@" ;;
	esac
	"$@" >"$f_" 2>"$f_.rec.err" </dev/null ||
		framework_failure_ "$* failed: $(head -5 "$f_.rec.err")"
}

# sc_tool_ WHO HOW FILE [options]: perf script (WHO perf) or pscript (WHO
# ours) on FILE, given as -i FILE (HOW file), on a seekable standard
# input (HOW stdin: -i - < FILE) or through a pipe (HOW pipe: cat FILE |)
sc_tool_() {
	w_=$1 h_=$2 i_=$3
	shift 3
	case $w_ in
	perf) set -- "$PERF" script "$@" ;;
	*) set -- "$PSCRIPT" "$@" ;;
	esac
	case $h_ in
	file) "$@" -i "$i_" </dev/null ;;
	stdin) "$@" -i - <"$i_" ;;
	*) cat "$i_" | "$@" -i - ;;
	esac
}

sc_cases=0
sc_failures=0
sc_failed=

# sc_bad_ LABEL WHAT [FILE]: count a difference, show FILE's first lines
sc_bad_() {
	sc_failures=$((sc_failures + 1))
	sc_failed="$sc_failed
  $1"
	note_ "$1: $2"
	[ -z "${3:-}" ] || head -20 "$3" >&2
}

# sc_cmp_ LABEL HOW FILE [options]: one comparison (see the top)
sc_cmp_() {
	l_=$1 h_=$2 f_=$3
	shift 3
	sc_cases=$((sc_cases + 1))
	n_=c$sc_cases
	sc_tool_ perf "$h_" "$f_" "$@" >"$n_.perf" 2>"$n_.perf.err"
	prc_=$?
	sc_tool_ ours "$h_" "$f_" "$@" >"$n_.ours" 2>"$n_.ours.err"
	orc_=$?
	l_="$l_ [$h_ $f_: $*]"
	if [ $prc_ -ne 0 ]; then
		if [ $orc_ -eq 0 ]; then
			sc_bad_ "$l_" "perf script failed ($prc_), pscript did not; perf said:" "$n_.perf.err"
		elif ! sed 's/^pscript: //' "$n_.ours.err" | diff -u "$n_.perf.err" - >"$n_.diff"; then
			sc_bad_ "$l_" "both failed, with other messages (-perf +pscript):" "$n_.diff"
		elif ! diff -u "$n_.perf" "$n_.ours" >"$n_.diff"; then
			sc_bad_ "$l_" "both failed, other output before (-perf +pscript):" "$n_.diff"
		fi
	elif [ $orc_ -ne 0 ]; then
		sc_bad_ "$l_" "pscript failed ($orc_), perf script did not:" "$n_.ours.err"
	elif ! cmp -s "$n_.perf" "$n_.ours"; then
		diff -u "$n_.perf" "$n_.ours" >"$n_.diff"
		sc_bad_ "$l_" "output differs (-perf +pscript; $(wc -l <"$n_.perf") lines from perf):" "$n_.diff"
	fi
	return 0
}

# The fields of perf 6.1's -F, each compared alone.
SC_FIELDS='comm tid pid time cpu event trace ip sym dso addr symoff srcline
period iregs uregs brstack brstacksym flags data_src weight bpf-output
brstackinsn brstackinsnlen brstackoff callindent insn insnlen synth
phys_addr metric misc srccode ipc tod data_page_size code_page_size ins_lat'

# The --show-*-events options of perf 6.1.
SC_SHOW='task mmap switch lost namespace cgroup bpf round on-off text-poke'

# sc_fields_ LABEL HOW FILE: the default output, then each field alone
sc_fields_() {
	sc_cmp_ "$1 default" "$2" "$3"
	for fl_ in $SC_FIELDS; do
		sc_cmp_ "$1 -F $fl_" "$2" "$3" -F "$fl_"
	done
}

# sc_show_ LABEL HOW FILE: each --show-*-events option alone
sc_show_() {
	for sh_ in $SC_SHOW; do
		sc_cmp_ "$1 --show-$sh_-events" "$2" "$3" "--show-$sh_-events"
	done
}

# sc_done_: the verdict
sc_done_() {
	if [ "$sc_failures" -ne 0 ]; then
		note_ "the comparisons that differ:$sc_failed"
		fail_ "$sc_failures of $sc_cases comparisons differ from perf script"
	fi
	note_ "$sc_cases comparisons agree with perf script"
}

# sc_live_ TOOL NAME WHAT [record options] -- COMMAND...: record NAME.data
# with TOOL (perf or precord) and compare it: WHAT "fields" runs
# sc_fields_, "show" the default output and sc_show_, "default" the
# default output only; anything else is a list of -F values, each
# compared alone after the default.  Options TOOL cannot record with here
# are noted and not compared.
sc_live_() {
	t_=$1 nm_=$2 wh_=$3
	shift 3
	if ! can_record_ "$t_" "$@"; then
		note_ "$t_ cannot record $nm_ here ($*): not compared"
		return 0
	fi
	rec_ "$t_" "$nm_.data" "$@"
	case $wh_ in
	fields) sc_fields_ "$t_ $nm_" file "$nm_.data" ;;
	show)
		sc_cmp_ "$t_ $nm_ default" file "$nm_.data"
		sc_show_ "$t_ $nm_" file "$nm_.data"
		;;
	default) sc_cmp_ "$t_ $nm_ default" file "$nm_.data" ;;
	*)
		sc_cmp_ "$t_ $nm_ default" file "$nm_.data"
		for fl_ in $wh_; do
			sc_cmp_ "$t_ $nm_ -F $fl_" file "$nm_.data" -F "$fl_"
		done
		;;
	esac
}
