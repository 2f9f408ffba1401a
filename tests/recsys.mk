# SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
# tests/: recsys tests: precord's system facts, /proc synthesis, tracing
# data and build-id collection, compared with what Linux perf writes.

# rec-sys-dump links record/'s system files (REC_SYS_SRCS, record/sys.mk)
# directly, so that they are tested before and apart from precord's main.

check_PROGRAMS += tests/tools/rec-sys-dump
tests_tools_rec_sys_dump_SOURCES = tests/tools/rec-sys-dump.c $(REC_SYS_SRCS)
tests_tools_rec_sys_dump_CFLAGS = $(AM_CFLAGS) $(LIBELF_CFLAGS)
tests_tools_rec_sys_dump_LDADD = $(SES_LIBS)

RECSYS_TESTS = \
	tests/recsys-header.test \
	tests/recsys-synth.test \
	tests/recsys-maps.test \
	tests/recsys-buildid.test \
	tests/recsys-tracing.test

TESTS += $(RECSYS_TESTS)
EXTRA_DIST += $(RECSYS_TESTS)
