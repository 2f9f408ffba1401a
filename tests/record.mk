# SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
# tests/: record tests: precord records, Linux perf and preport read.

RECORD_TESTS = \
	tests/record-attr-sample.test \
	tests/record-attr-scope.test \
	tests/record-attr-event.test \
	tests/record-attr-target.test \
	tests/record-cgroups.test \
	tests/record-attr-branch.test \
	tests/record-progs.test \
	tests/record-pipe.test \
	tests/record-pipe-stdout.test \
	tests/record-target.test \
	tests/record-exit.test \
	tests/record-signal.test \
	tests/record-crash.test \
	tests/record-filter.test \
	tests/record-control.test \
	tests/record-switch.test \
	tests/record-overwrite.test \
	tests/record-compress.test \
	tests/record-threads.test \
	tests/record-errors.test \
	tests/record-buildid-cache.test \
	tests/record-buildid-mmap.test \
	tests/record-buildid-archive.test

TESTS += $(RECORD_TESTS)
EXTRA_DIST += $(RECORD_TESTS) tests/record-lib.sh

# The parsers and the attr configuration of precord, without the kernel.
check_PROGRAMS += tests/record-unit
tests_record_unit_SOURCES = tests/record-unit.c tests/unit/t.h \
	record/record.h record/evparse.c record/evglob.c record/evterms.c \
	record/cgroup.c record/evconfig.c record/opts.c \
	record/target.c
tests_record_unit_LDADD = $(PDATA_LIBS) lib/libpdutil.a
TESTS += tests/record-unit
