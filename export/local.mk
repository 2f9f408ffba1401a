# SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
# export/: pexport, a recording in other tools' formats.

bin_PROGRAMS += export/pexport
export_pexport_SOURCES = \
	export/export.h \
	export/pexport.c \
	export/json.c \
	export/stacks.h \
	export/stacks.c \
	export/collapsed.c \
	export/speedscope.c \
	report/hist/hist.h \
	report/hist/filter.c \
	script/dsoname.h \
	script/dsoname.c
export_pexport_CFLAGS = $(AM_CFLAGS) $(XXHASH_CFLAGS)
export_pexport_LDADD = $(SES_LIBS)

# pexport's outputs against perf's converters.
EXPORT_TESTS = \
	tests/export-json.test \
	tests/export-collapsed.test
TESTS += $(EXPORT_TESTS)
EXTRA_DIST += $(EXPORT_TESTS) tests/export/stackcollapse.py
