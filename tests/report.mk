# SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
# tests/: report tests.
#
# report-live-*.test record the workloads of tests/progs/ (with perf, and
# with precord) and compare preport's --stdio reports with perf report's
# on the same files, exactly, but for perf's tip line.

REPORT_LIVE_TESTS = \
	tests/report-live-hot.test \
	tests/report-cc-key.test \
	tests/report-srcline-nodebug.test \
	tests/report-live-nofp.test \
	tests/report-live-threads.test \
	tests/report-live-forkexec.test \
	tests/report-live-dso.test \
	tests/report-live-kernel.test \
	tests/report-live-options.test \
	tests/report-live-precord.test \
	tests/report-live-precord2.test \
	tests/report-dwarf.test \
	tests/report-unwind-stats.test \
	tests/report-dwarf-debugframe.test \
	tests/report-dwarf-progs.test \
	tests/report-dwarf-m32.test \
	tests/report-dwarf-exec32.test \
	tests/report-dwarf-stale.test \
	tests/report-dwarf-arm64.test \
	tests/report-lbr.test \
	tests/report-load-ahead.test \
	tests/report-branch-history.test \
	tests/report-vmlinux.test \
	tests/report-real-progs.test \
	tests/report-inline.test \
	tests/report-tasks.test \
	tests/terminal.test \
	tests/report-stats-empty.test \
	tests/report-evlist.test \
	tests/report-mem.test \
	tests/report-trace.test \
	tests/bench-limit.test \
	tests/bench-workloads.test

TESTS += $(REPORT_LIVE_TESTS)
EXTRA_DIST += $(REPORT_LIVE_TESTS) tests/synth-lib.sh

# pd-mkmem: memory-access samples of every data_src field, weights, page
# sizes and data maps, for tests/report-mem.test.
check_PROGRAMS += tests/tools/pd-mkmem
tests_tools_pd_mkmem_SOURCES = tests/tools/pd-mkmem.c \
	tests/tools/synth-records.h
tests_tools_pd_mkmem_LDADD = $(PDATA_LIBS) lib/libpdutil.a

# pd-mkvmlinux: a vmlinux image made from a kallsyms file, for
# tests/report-vmlinux.test.
check_PROGRAMS += tests/tools/pd-mkvmlinux
tests_tools_pd_mkvmlinux_SOURCES = tests/tools/pd-mkvmlinux.c
