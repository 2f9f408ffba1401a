# SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
# report/: preport.

bin_PROGRAMS += report/preport
report_preport_SOURCES = \
	report/preport.c \
	report/report.h \
	report/header.c \
	report/header-int.h \
	report/header-attr.c \
	report/header-bpf.c \
	report/header-check.c \
	report/header-cpulist.c \
	report/header-data.c \
	report/header-events.c \
	report/header-host.c \
	report/header-topo.c \
	report/stats.c \
	report/dump.c \
	report/dump-int.h \
	report/dump-kernel.c \
	report/dump-sample.c \
	report/dump-user.c \
	report/hist.h \
	report/hist-int.h \
	report/hist.c \
	report/hist-order.c \
	report/hist-run.c \
	report/branch.h \
	report/branch.c \
	report/sort.c \
	report/sort-setup.c \
	report/stdio.c \
	report/filter.c
report_preport_CFLAGS = $(AM_CFLAGS) $(XXHASH_CFLAGS)
report_preport_LDADD = $(SES_LIBS)

# The report against perf 6.1's own output for every committed fixture,
# and its options against perf report's on files recorded here.
TESTS += tests/report-fixtures.test tests/report-options.test
EXTRA_DIST += tests/report-fixtures.test tests/report-options.test

# The histogram code the report unit tests link, without preport's main.
REP_HIST_SRCS = \
	report/hist.h \
	report/hist-int.h \
	report/hist.c \
	report/hist-order.c \
	report/branch.h \
	report/branch.c \
	report/sort.c \
	report/sort-setup.c \
	report/stdio.c \
	report/filter.c \
	report/callchain.h \
	report/callchain-int.h \
	report/callchain.c \
	report/callchain-param.c \
	report/callchain-print.c

# The histogram on hand-built samples: entries, order, ties, widths.
check_PROGRAMS += tests/unit/test-hist
tests_unit_test_hist_SOURCES = tests/unit/test-hist.c tests/unit/t.h \
	tests/unit/report-env.h $(REP_HIST_SRCS)
tests_unit_test_hist_CFLAGS = $(AM_CFLAGS) $(XXHASH_CFLAGS)
tests_unit_test_hist_LDADD = $(SYM_LIBS) $(PDATA_LIBS) lib/libpdutil.a $(XXHASH_LIBS)
TESTS += tests/unit/test-hist

# Branch mode on hand-built branch stacks: entries and Branch Statistics.
check_PROGRAMS += tests/unit/test-branch
tests_unit_test_branch_SOURCES = tests/unit/test-branch.c tests/unit/t.h \
	tests/unit/report-env.h $(REP_HIST_SRCS)
tests_unit_test_branch_CFLAGS = $(AM_CFLAGS) $(XXHASH_CFLAGS)
tests_unit_test_branch_LDADD = $(tests_unit_test_hist_LDADD)
TESTS += tests/unit/test-branch

# Branch mode against perf 6.1 on a file whose branches have types,
# cycles and flags (the Branch Statistics block); its recipe.
TESTS += tests/report-branch.test
EXTRA_DIST += tests/report-branch.test tests/branch/typed.data.xz \
	tests/branch/typed.perf-report.txt tests/branch/make-typed.py
