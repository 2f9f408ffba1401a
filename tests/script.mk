# SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
# pscript against perf script.

# scr-trace: the `trace` field of each tracepoint sample, as
# session/trace.c formats it (tests/script-trace.test).
check_PROGRAMS += tests/tools/scr-trace
tests_tools_scr_trace_SOURCES = tests/tools/scr-trace.c $(SES_TRACE_SOURCES)
tests_tools_scr_trace_CFLAGS = $(AM_CFLAGS) $(SES_TRACE_CFLAGS)
tests_tools_scr_trace_LDADD = $(SES_LIBS) $(SES_TRACE_LIBS)

SCR_TESTS = \
	tests/script-trace.test \
	tests/script-fixtures.test \
	tests/script-live-sw.test \
	tests/script-live-tp.test \
	tests/script-live-sideband.test \
	tests/script-live-system.test \
	tests/script-live-regs.test \
	tests/script-pipe.test

TESTS += $(SCR_TESTS)
EXTRA_DIST += $(SCR_TESTS) tests/script-lib.sh
