# SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
# report/hist/: histogram entries, the sort keys and their setup, the
# filters and branch mode.

# The histogram with the callchain trees and the printer it needs, as
# preport and the report unit tests link it.
REP_HIST_SRCS = \
	report/hist/hist.h \
	report/hist/hist-int.h \
	report/hist/hist.c \
	report/hist/hist-order.c \
	report/hist/memo.c \
	report/hist/branch.h \
	report/hist/branch.c \
	report/hist/mem.h \
	report/hist/loc.h \
	report/hist/loc.c \
	report/hist/mem.c \
	report/hist/field.c \
	report/hist/sort.c \
	report/hist/sort-setup.c \
	report/hist/filter.c \
	$(REP_OUT_SRCS) \
	$(REP_CC_SRCS)

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
