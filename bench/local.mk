# SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
# bench/: benchmarks against perf; run by hand (make bench), never by make check.
EXTRA_DIST += bench/README.md bench/stats-throughput.sh

bench: all
	$(SHELL) $(srcdir)/bench/stats-throughput.sh
.PHONY: bench
