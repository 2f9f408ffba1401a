# SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
# report/: preport --archive and --perf-archive.

report_preport_SOURCES += report/archive.c

# Every report of a recording, through its archive, once the binaries are
# gone; build-ids in MMAP2 records and a binary that changed.
TESTS += tests/report-archive.test tests/report-buildid-mmap.test
EXTRA_DIST += tests/report-archive.test tests/report-buildid-mmap.test
