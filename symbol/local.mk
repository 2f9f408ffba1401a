# SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
# symbol/: ELF objects, build-ids and address-to-symbol lookup (libelf, libdw).

noinst_LIBRARIES += symbol/libpdsym.a
symbol_libpdsym_a_CFLAGS = $(AM_CFLAGS) $(LIBELF_CFLAGS) $(LIBDW_CFLAGS) $(XXHASH_CFLAGS)
symbol_libpdsym_a_SOURCES = \
	symbol/symbol.h \
	symbol/sym-int.h \
	symbol/buildid.c \
	symbol/elfutil.c \
	symbol/sym-dso.h \
	symbol/symtab.c \
	symbol/elfsyms.c \
	symbol/demangle.c \
	symbol/demangle-rust.c \
	symbol/kallsyms.c \
	symbol/vmlinux.c \
	symbol/jitmap.c \
	symbol/dso.c \
	symbol/dso-data.c \
	symbol/load.c \
	symbol/vdso-self.c \
	symbol/srcline.c \
	symbol/srcline-symtab.c \
	symbol/inline.c \
	symbol/inline-index.h \
	symbol/inline-index.c \
	symbol/cu-table.h \
	symbol/cu-table.c \
	symbol/warm.c

SYM_LIBS = symbol/libpdsym.a lib/libpdutil.a $(LIBDW_LIBS) $(LIBELF_LIBS) $(XXHASH_LIBS)
