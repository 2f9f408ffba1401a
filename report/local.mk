# SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
# report/: preport.

bin_PROGRAMS += report/preport
report_preport_SOURCES = \
	report/preport.c \
	report/report.h \
	report/header.c \
	report/stats.c \
	report/dump.c
report_preport_LDADD = $(PDATA_LIBS) lib/libpdutil.a $(XXHASH_LIBS)
