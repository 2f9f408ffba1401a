# SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
# script/: pscript, perf script's text.

bin_PROGRAMS += script/pscript
script_pscript_SOURCES = \
	script/scr.h \
	script/main.c \
	script/pscript.c \
	script/fields.c \
	script/start.c \
	script/sample.c \
	script/callchain.c \
	script/stacktext.c \
	script/tracememo.c \
	script/insn.c \
	script/dsoname.h \
	script/dsoname.c \
	script/sideband.c \
	script/out.c \
	$(SES_TRACE_SOURCES) \
	report/hist/hist.h \
	report/hist/filter.c \
	$(REP_HEADER_SRCS)
script_pscript_CFLAGS = $(AM_CFLAGS) $(XXHASH_CFLAGS) $(SES_TRACE_CFLAGS) \
	$(ZYDIS_CFLAGS)
script_pscript_LDADD = $(SES_LIBS) $(SES_TRACE_LIBS) $(ZYDIS_LIBS)

# pscript's -F syntax and its options against perf script's.
SCRIPT_CORE_TESTS = \
	tests/script-core-fields.test \
	tests/script-core-options.test \
	tests/script-insn.test
TESTS += $(SCRIPT_CORE_TESTS)
EXTRA_DIST += $(SCRIPT_CORE_TESTS)
