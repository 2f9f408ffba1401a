# SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
# tests/: offline analysis (another machine, perf archive, build-id cache).
#
# The tests build their own program and library at test time from
# tests/progs/linked.c and libpdlinked.c (distributed as the sources of
# tests/progs/linked), record them, then play "another machine": the
# binaries removed, a different program at the same paths, new HOME and
# PERF_BUILDID_DIR.

OFFLINE_TESTS = \
	tests/offline-archive.test \
	tests/offline-perf-tar.test \
	tests/offline-kernel.test \
	tests/offline-cache.test \
	tests/offline-corrupt.test \
	tests/offline-jit.test \
	tests/offline-stale.test \
	tests/offline-dwarf.test

TESTS += $(OFFLINE_TESTS)
EXTRA_DIST += tests/lib-offline.sh $(OFFLINE_TESTS)
