# SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
# symbol/: ELF objects, build-ids and address-to-symbol lookup (libelf, libdw).

noinst_LIBRARIES += symbol/libpdsym.a
symbol_libpdsym_a_CFLAGS = $(AM_CFLAGS) $(LIBELF_CFLAGS) $(LIBDW_CFLAGS) $(XXHASH_CFLAGS)
symbol_libpdsym_a_SOURCES = \
	symbol/symbol.h

SYM_LIBS = symbol/libpdsym.a $(LIBDW_LIBS) $(LIBELF_LIBS)
