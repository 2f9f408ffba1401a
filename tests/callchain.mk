# SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
# tests/: callchain tests.

# The tree and its printers, checked against perf 6.1's output for the
# chains of one recording (tests/unit/callchain-perf.h).
check_PROGRAMS += tests/unit/test-callchain
tests_unit_test_callchain_SOURCES = \
	tests/unit/test-callchain.c \
	tests/unit/callchain-perf.h \
	tests/unit/t.h \
	$(REP_CC_SRCS)
tests_unit_test_callchain_LDADD = lib/libpdutil.a
TESTS += tests/unit/test-callchain

# preport's -g displays against perf report's on files perf records here.
TESTS += tests/callchain-live.test
EXTRA_DIST += tests/callchain-live.test
EXTRA_DIST += tests/unit/callchain-perf-gen.py
