# SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
# lib/: generic helpers with no perf knowledge.

noinst_LIBRARIES += lib/libpdutil.a
lib_libpdutil_a_SOURCES = \
	lib/diag.c lib/diag.h \
	lib/xalloc.c lib/xalloc.h \
	lib/strbuf.c lib/strbuf.h \
	lib/u64map.c lib/u64map.h \
	lib/cpulist.c lib/cpulist.h \
	lib/input.c lib/input.h \
	lib/safefile.c lib/safefile.h \
	lib/dynlib.c lib/dynlib.h \
	lib/term.c lib/term.h
lib_libpdutil_a_CFLAGS = $(AM_CFLAGS)
