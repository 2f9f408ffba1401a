# SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
# diff/: pdiff, perf diff's histograms of several recordings side by side,
# made by preport's histogram engine (report/hist/).

bin_PROGRAMS += diff/pdiff
diff_pdiff_SOURCES = \
	diff/diff.h \
	diff/pdiff.c \
	diff/load.c \
	diff/collapse.c \
	diff/table.c \
	diff/print.c \
	$(REP_HIST_SRCS)
diff_pdiff_CFLAGS = $(AM_CFLAGS) $(XXHASH_CFLAGS)
diff_pdiff_LDADD = $(SES_LIBS)

# pdiff against perf diff on files recorded here.
TESTS += tests/diff-perf.test
EXTRA_DIST += tests/diff-perf.test

# Two static functions named spin in one binary: perf diff pairs and
# merges symbols by name (tests/diff-perf.test).
check_PROGRAMS += tests/progs/twins
tests_progs_twins_SOURCES = tests/progs/twins.c tests/progs/twins-b.c \
	tests/progs/progs.h
tests_progs_twins_CFLAGS = $(PROGS_FP_FLAGS)
tests_progs_twins_LDFLAGS = $(PROGS_LINK_FLAGS)
