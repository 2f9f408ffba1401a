# SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
# tests/: what the tools trust, what they never clobber (doc/security.md),
# and what they say about bad command-line values.

HOSTILE_TESTS = \
	tests/hostile-inputs.test \
	tests/cli-errors.test

TESTS += $(HOSTILE_TESTS)
EXTRA_DIST += $(HOSTILE_TESTS) tests/cli-errors.tab

check_PROGRAMS += tests/unit/test-safefile
tests_unit_test_safefile_SOURCES = tests/unit/test-safefile.c tests/unit/t.h
tests_unit_test_safefile_LDADD = lib/libpdutil.a
TESTS += tests/unit/test-safefile
