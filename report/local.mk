# SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
# report/: preport.

bin_PROGRAMS += report/preport
report_preport_SOURCES = \
	report/preport.c \
	report/report.h \
	report/header.c \
	report/header-int.h \
	report/header-attr.c \
	report/header-bpf.c \
	report/header-check.c \
	report/header-cpulist.c \
	report/header-data.c \
	report/header-events.c \
	report/header-host.c \
	report/header-topo.c \
	report/stats.c \
	report/dump.c \
	report/dump-int.h \
	report/dump-kernel.c \
	report/dump-sample.c \
	report/dump-user.c
report_preport_CFLAGS = $(AM_CFLAGS) $(XXHASH_CFLAGS)
report_preport_LDADD = $(SYM_LIBS) $(PDATA_LIBS) lib/libpdutil.a $(XXHASH_LIBS)
