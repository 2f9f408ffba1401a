# SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
# record/: precord.

bin_PROGRAMS += record/precord
record_precord_CFLAGS = $(AM_CFLAGS) $(LIBELF_CFLAGS) $(XXHASH_CFLAGS)
record_precord_SOURCES = \
	record/record.h \
	record/session.h \
	record/precord.c \
	record/session.c \
	record/opts.c \
	record/evparse.c \
	record/evglob.c \
	record/evterms.c \
	record/cgroup.c \
	record/control.c \
	record/evconfig.c \
	record/evopen.c \
	record/ring.c \
	record/rotate.c \
	record/target.c \
	record/cache.c \
	record/archive.c \
	record/mmap-bid.c \
	record/threads.h \
	record/threads.c \
	record/keep-old.c
record_precord_LDADD = $(SES_LIBS)
