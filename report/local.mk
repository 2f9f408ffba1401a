# SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
# report/: preport's command line and the report's driver.  Each concern
# lists its own sources in its local.mk: inspect/ (REP_INSPECT_SRCS),
# hist/ (REP_HIST_SRCS, with callchain/ and out/ in it).

bin_PROGRAMS += report/preport
report_preport_SOURCES = \
	report/preport.c \
	report/report.h \
	report/hist-run.c \
	report/unwind-stats.c \
	report/tasks.c \
	report/buildid-list.c \
	report/thread-values.c \
	$(REP_INSPECT_SRCS) \
	$(REP_HIST_SRCS) \
	$(SES_TRACE_SOURCES)
report_preport_CFLAGS = $(AM_CFLAGS) $(XXHASH_CFLAGS) $(SES_TRACE_CFLAGS)
report_preport_LDADD = $(SES_LIBS) $(SES_TRACE_LIBS)

# The report against perf 6.1's own output for every committed fixture,
# and its options against perf report's on files recorded here.
TESTS += tests/report-fixtures.test tests/report-options.test
EXTRA_DIST += tests/report-fixtures.test tests/report-options.test
