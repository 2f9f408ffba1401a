# SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
# tests/: unit and format tests of the symbol archive.
#
# test-archive builds the archive's two sources itself, so it tests them
# alone and does not need the rest of symbol/ (libelf, libdw) to link.

check_PROGRAMS += tests/unit/test-archive
tests_unit_test_archive_SOURCES = tests/unit/test-archive.c tests/unit/t.h \
	symbol/archive-file.c symbol/archive-codec.c symbol/archive-cfi-codec.c \
	symbol/archive-inline-codec.c
tests_unit_test_archive_CFLAGS = $(AM_CFLAGS) $(ZSTD_CFLAGS) $(XXHASH_CFLAGS)
tests_unit_test_archive_LDADD = lib/libpdutil.a $(ZSTD_LIBS) $(XXHASH_LIBS)
TESTS += tests/unit/test-archive
