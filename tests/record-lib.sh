# SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
# tests/record-lib.sh - sourced after init.sh by the precord tests.

: "${PROGS:?run the tests through make check}"

# precord's attrs are compared with perf record's defaults, which
# tests/perf-record.sh's --no-bpf-event changes (no ksymbol, bpf_event):
# the precord tests run perf itself
PERF=${PERF_REAL:-${PERF:-}}

# require_precord_: precord may record a software event here
require_precord_() {
	command -v precord >/dev/null 2>&1 ||
		framework_failure_ "precord is not built"
	precord -q -o probe.data -e cpu-clock -- true >probe.out 2>&1 ||
		skip_ "precord cannot record here: $(head -3 probe.out)"
	rm -f probe.data probe.data.old probe.out
}

# require_system_wide_: precord may record all cpus (-a) here
require_system_wide_() {
	precord -q -o probe.data -a -e cpu-clock -- true >probe.out 2>&1 ||
		skip_ "precord -a cannot record here: $(head -3 probe.out)"
	rm -f probe.data probe.data.old probe.out
}

# require_prog_built_ NAME...: the workloads of tests/progs exist
require_prog_built_() {
	for p_ in "$@"; do
		[ -x "$PROGS/$p_" ] ||
			framework_failure_ "$PROGS/$p_ is not built (make check builds it)"
	done
}

# precord_ FILE [options] -- COMMAND...: record; failure fails the test
precord_() {
	f_=$1
	shift
	precord -q -o "$f_" "$@" >"$f_.out" 2>"$f_.err" ||
		fail_ "precord -o $f_ $* failed ($?): $(head -5 "$f_.err")"
}

# perf_stderr_clean_ ERRFILE DATAFILE: perf wrote nothing to ERRFILE but,
# at most, its warning on the LOST records of DATAFILE, as many as
# preport --stats counts (the kernel writes one into a ring paused for a
# read, as --overwrite does, when a sample fell in the pause)
perf_stderr_clean_() {
	[ -s "$1" ] || return 0
	lost_=$(preport --stats -i "$2" 2>/dev/null </dev/null |
		awk '/^ *LOST events:/ { print $3; exit }')
	awk -v lost="${lost_:-0}" '
		NR == 1 { ok = $0 == "Warning:"; next }
		NR == 2 { ok = ok && $0 ~ /^Processed [0-9]+ events and lost [0-9]+ chunks!$/ &&
			  $6 == lost && lost > 0; next }
		NR == 4 { ok = ok && $0 == "Check IO/CPU overload!"; next }
		$0 != "" { ok = 0 }
		END { exit !(ok && NR >= 4) }' "$1"
}

# perf_reads_clean_ FILE: perf report and perf script read FILE with
# nothing on stderr but the warning on lost records
perf_reads_clean_() {
	"$PERF" report -i "$1" --stdio >"$1.report" 2>"$1.report.err" </dev/null ||
		fail_ "perf report -i $1 failed: $(head -5 "$1.report.err")"
	perf_stderr_clean_ "$1.report.err" "$1" ||
		fail_ "perf report -i $1 wrote to stderr: $(head -5 "$1.report.err")"
	"$PERF" script -i "$1" >"$1.script" 2>"$1.script.err" </dev/null ||
		fail_ "perf script -i $1 failed: $(head -5 "$1.script.err")"
	perf_stderr_clean_ "$1.script.err" "$1" ||
		fail_ "perf script -i $1 wrote to stderr: $(head -5 "$1.script.err")"
	return 0
}

# sample_count_ FILE TOOL: the SAMPLE count of `TOOL --stats`
sample_count_() {
	"$2" report --stats -i "$1" 2>/dev/null </dev/null |
		awk '/^ *SAMPLE events:/ { print $3; exit }'
}

# stats_agree_ FILE [may-be-empty]: perf report --stats and preport
# --stats count the same samples, and there are some (none may be, with
# may-be-empty: the last file of a rotation can end right after a switch)
stats_agree_() {
	n_perf=$("$PERF" report --stats -i "$1" 2>/dev/null </dev/null |
		awk '/^ *SAMPLE events:/ { print $3; exit }')
	n_pre=$(preport --stats -i "$1" 2>/dev/null </dev/null |
		awk '/^ *SAMPLE events:/ { print $3; exit }')
	if [ "${2:-}" = may-be-empty ] && [ -z "$n_perf" ]; then
		n_perf=0
		[ -z "$n_pre" ] && n_pre=0
	fi
	[ -n "$n_perf" ] && { [ "$n_perf" -gt 0 ] || [ "${2:-}" = may-be-empty ]; } ||
		fail_ "perf report --stats finds no samples in $1"
	[ "$n_perf" = "$n_pre" ] ||
		fail_ "$1: perf counts $n_perf samples, preport $n_pre"
}

# has_symbol_ FILE SYM...: perf report --sort sym of FILE shows each SYM
has_symbol_() {
	f_=$1
	shift
	"$PERF" report -i "$f_" --stdio --sort sym >"$f_.sym" 2>/dev/null </dev/null ||
		fail_ "perf report --sort sym -i $f_ failed"
	for s_ in "$@"; do
		grep -Eq "\[\.\] $s_( |\$)" "$f_.sym" ||
			fail_ "$s_ is not in perf's report of $f_: $(head -20 "$f_.sym")"
	done
}

# attr_compare_ < CASES: for each line of options, record `true` with
# perf record and with precord; `perf evlist -v` of both files (every
# attr field, the names from EVENT_DESC) must be equal.  Where perf
# cannot record with the options here (no PMU, no LBR), precord must fail
# too.  Fails the test after all lines, naming each difference.
attr_compare_() {
	n_=0 bad_=0
	# perf record waits up to a second at exit for its side-band thread
	# (BPF events) to time out: its recordings run four at a time, each
	# writing its exit status to pN.st.
	while IFS= read -r opts_; do
		n_=$((n_ + 1))
		printf '%s\n' "$opts_" > o$n_
		# shellcheck disable=SC2086
		{ "$PERF" record -q -o p$n_.data $opts_ -- true > /dev/null \
			2> p$n_.err </dev/null; echo $? > p$n_.st; } &
		[ $((n_ % 4)) -ne 0 ] || wait
	done
	wait
	i_=0
	while [ $i_ -lt $n_ ]; do
		i_=$((i_ + 1))
		opts_=$(cat o$i_)
		pst_=$(cat p$i_.st)
		# shellcheck disable=SC2086
		precord -q -o q$i_.data $opts_ -- true > /dev/null 2> q$i_.err </dev/null
		qst_=$?
		if [ "$pst_" != 0 ]; then
			if [ $qst_ = 0 ]; then
				note_ "$opts_: perf cannot ($(head -2 p$i_.err | tr '\n' ' ')), precord did"
				bad_=$((bad_ + 1))
			fi
			continue
		fi
		if [ $qst_ != 0 ]; then
			note_ "$opts_: precord failed: $(head -3 q$i_.err)"
			bad_=$((bad_ + 1))
			continue
		fi
		"$PERF" evlist -v -i p$i_.data > p$i_.ev 2>&1 </dev/null
		"$PERF" evlist -v -i q$i_.data > q$i_.ev 2>&1 </dev/null
		if ! cmp -s p$i_.ev q$i_.ev; then
			note_ "$opts_: attrs differ (perf <, precord >):"
			diff p$i_.ev q$i_.ev >&2
			bad_=$((bad_ + 1))
		fi
		rm -f p$i_.data q$i_.data
	done
	[ $n_ -gt 0 ] || framework_failure_ "attr_compare_ was given no cases"
	[ $bad_ = 0 ] || fail_ "$bad_ of $n_ option sets differ from perf record"
}
