# SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
# bench/: benchmarks against perf; run by hand (make bench), never by make check.
# Each script takes its settings from the environment (bench/README.md);
# run from the build tree, they time ./report/preport and ./record/precord.
BENCH_SH = bench/stats-throughput.sh bench/record-overhead.sh bench/report-speed.sh \
	bench/archive-size.sh bench/script-speed.sh bench/record-faults.sh \
	bench/export-speed.sh bench/dwarf-equality.sh
EXTRA_DIST += bench/README.md bench/perf-notes.md bench/spin.c bench/tree.c bench/tree.h \
	bench/tree-dso.c bench/pyload.py bench/lib.sh $(BENCH_SH)

# the single-pass limit report-speed.sh prints beside perf (bench/limit.c)
noinst_PROGRAMS += bench/limit
bench_limit_SOURCES = bench/limit.c
bench_limit_CFLAGS = $(AM_CFLAGS) $(XXHASH_CFLAGS)
bench_limit_LDADD = $(PDATA_LIBS) lib/libpdutil.a $(XXHASH_LIBS)

bench: all
	$(SHELL) $(srcdir)/bench/stats-throughput.sh
	$(SHELL) $(srcdir)/bench/record-overhead.sh
	$(SHELL) $(srcdir)/bench/report-speed.sh
bench-record: all
	$(SHELL) $(srcdir)/bench/record-overhead.sh
bench-report: all
	$(SHELL) $(srcdir)/bench/report-speed.sh
bench-archive: all
	$(SHELL) $(srcdir)/bench/archive-size.sh
bench-export: all
	$(SHELL) $(srcdir)/bench/export-speed.sh
bench-script: all
	$(SHELL) $(srcdir)/bench/script-speed.sh
bench-dwarf-equality: all
	$(SHELL) $(srcdir)/bench/dwarf-equality.sh
# root only (it mounts a tmpfs); not part of make bench
bench-faults: all
	$(SHELL) $(srcdir)/bench/record-faults.sh .
.PHONY: bench bench-record bench-report bench-archive bench-script bench-export \
	bench-dwarf-equality \
	bench-faults
