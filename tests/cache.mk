# SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
# tests/: the build-id cache and perf archive tarball (symbol/buildid-cache.c, perf-tar.c).
#
# pd-cache drives sym_cache_add() and sym_perf_tar_write(); the tests
# compare what they make with what perf 6.1 makes for the same DSOs.

check_PROGRAMS += tests/tools/pd-cache
tests_tools_pd_cache_SOURCES = tests/tools/pd-cache.c
tests_tools_pd_cache_CFLAGS = $(AM_CFLAGS) $(LIBELF_CFLAGS)
tests_tools_pd_cache_LDADD = $(SYM_LIBS)

CACHE_TESTS = \
	tests/cache-layout.test \
	tests/cache-tar.test

TESTS += $(CACHE_TESTS)
EXTRA_DIST += $(CACHE_TESTS) tests/cache-lib.sh
