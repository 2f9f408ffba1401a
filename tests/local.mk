# SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
# tests/: unit tests (C, on byte buffers), fixture tests and differential
# tests against Linux perf (*.test, POSIX sh).

TEST_EXTENSIONS = .test
TEST_LOG_COMPILER = $(SHELL)
AM_TESTS_ENVIRONMENT = \
	PATH='$(abs_top_builddir)/report:$(abs_top_builddir)/record:$(abs_top_builddir)/tests:'"$$PATH"; \
	PROGS='$(abs_top_builddir)/tests/progs'; \
	srcdir='$(abs_top_srcdir)/tests'; \
	top_srcdir='$(abs_top_srcdir)'; \
	top_builddir='$(abs_top_builddir)'; \
	FIXTURES='$(abs_top_srcdir)/tests/fixtures'; \
	PERF='$(PERF)'; \
	FUZZ_DIR='$(abs_top_builddir)/tests/fuzz'; \
	FUZZ_TARGETS='$(FUZZ_TARGETS)'; \
	export PATH PROGS srcdir top_srcdir top_builddir FIXTURES PERF FUZZ_DIR \
		FUZZ_TARGETS;

UNIT_LDADD = $(PDATA_LIBS)

check_PROGRAMS += \
	tests/unit/test-attr \
	tests/unit/test-reader \
	tests/unit/test-sample \
	tests/unit/test-events \
	tests/unit/test-features \
	tests/unit/test-text

tests_unit_test_attr_SOURCES = tests/unit/test-attr.c tests/unit/t.h tests/unit/buf.h tests/unit/attr.h
tests_unit_test_attr_LDADD = $(UNIT_LDADD)
tests_unit_test_reader_SOURCES = tests/unit/test-reader.c tests/unit/t.h tests/unit/buf.h tests/unit/attr.h
tests_unit_test_reader_CFLAGS = $(AM_CFLAGS) $(ZSTD_CFLAGS)
tests_unit_test_reader_LDADD = $(UNIT_LDADD)
tests_unit_test_sample_SOURCES = tests/unit/test-sample.c tests/unit/t.h tests/unit/buf.h tests/unit/record.h
tests_unit_test_sample_LDADD = $(UNIT_LDADD)
tests_unit_test_events_SOURCES = tests/unit/test-events.c tests/unit/t.h tests/unit/buf.h tests/unit/attr.h tests/unit/record.h
tests_unit_test_events_LDADD = $(UNIT_LDADD)
tests_unit_test_features_SOURCES = tests/unit/test-features.c tests/unit/t.h tests/unit/buf.h tests/unit/attr.h
tests_unit_test_features_LDADD = $(UNIT_LDADD)
tests_unit_test_text_SOURCES = tests/unit/test-text.c tests/unit/t.h
tests_unit_test_text_LDADD = $(UNIT_LDADD)

# pd-byteswap: rewrites a perf.data file in the other byte order, for
# tests/byteswap.test.
check_PROGRAMS += tests/tools/pd-byteswap
tests_tools_pd_byteswap_SOURCES = tests/tools/pd-byteswap.c
tests_tools_pd_byteswap_LDADD = $(PDATA_LIBS)

UNIT_TESTS = \
	tests/unit/test-attr \
	tests/unit/test-reader \
	tests/unit/test-sample \
	tests/unit/test-events \
	tests/unit/test-features \
	tests/unit/test-text

SCRIPT_TESTS = \
	tests/fixtures-stats.test \
	tests/fixtures-header.test \
	tests/fixtures-values.test \
	tests/fixtures-errors.test \
	tests/prefix.test \
	tests/inspect-cli.test \
	tests/live-perf.test \
	tests/byteswap.test \
	tests/live-dump.test \
	tests/fuzz.test \
	tests/leaks.test \
	tests/doc-sections.test

TESTS += $(UNIT_TESTS) $(SCRIPT_TESTS)

EXTRA_DIST += tests/init.sh tests/perf-record.sh tests/lib-fixtures.sh $(SCRIPT_TESTS) tests/fixtures
