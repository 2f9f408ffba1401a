# SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
# tests/: symbol tests.
#
# sym-lookup drives symbol/ from the scripts; the symbol-*.test scripts
# build tiny ELF files with gcc at test time and check lookups against
# nm, readelf and perf.

check_PROGRAMS += tests/tools/sym-lookup
tests_tools_sym_lookup_SOURCES = tests/tools/sym-lookup.c
tests_tools_sym_lookup_CFLAGS = $(AM_CFLAGS) $(LIBELF_CFLAGS)
tests_tools_sym_lookup_LDADD = $(SYM_LIBS)

check_PROGRAMS += tests/tools/sym-cu-tables
tests_tools_sym_cu_tables_SOURCES = tests/tools/sym-cu-tables.c
tests_tools_sym_cu_tables_CFLAGS = $(AM_CFLAGS) $(LIBELF_CFLAGS) $(LIBDW_CFLAGS)
tests_tools_sym_cu_tables_LDADD = $(SYM_LIBS)

SYMBOL_TESTS = \
	tests/symbol-elf.test \
	tests/symbol-demangle.test \
	tests/symbol-kallsyms.test \
	tests/symbol-perf.test \
	tests/symbol-archive.test \
	tests/symbol-debuginfod.test \
	tests/symbol-srcline.test \
	tests/symbol-cu-table.test

TESTS += $(SYMBOL_TESTS)
EXTRA_DIST += $(SYMBOL_TESTS)

check_PROGRAMS += tests/unit/test-symbol
tests_unit_test_symbol_SOURCES = tests/unit/test-symbol.c tests/unit/t.h
tests_unit_test_symbol_CFLAGS = $(AM_CFLAGS) $(LIBELF_CFLAGS)
tests_unit_test_symbol_LDADD = $(SYM_LIBS)
TESTS += tests/unit/test-symbol
