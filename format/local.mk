# SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
# format/: libpdata, the perf.data reader and writer.  Needs only libzstd.

noinst_LIBRARIES += format/libpdata.a
format_libpdata_a_CFLAGS = $(AM_CFLAGS) $(ZSTD_CFLAGS)
format_libpdata_a_SOURCES = \
	format/include/pdata/abi.h \
	format/include/pdata/errors.h \
	format/include/pdata/records.h \
	format/include/pdata/reader.h \
	format/include/pdata/meta.h \
	format/include/pdata/sample.h \
	format/include/pdata/events.h \
	format/include/pdata/text.h \
	format/include/pdata/bitfield.h \
	format/include/pdata/writer.h \
	format/cursor.h \
	format/compiler.h \
	format/sample-int.h \
	format/reader-int.h \
	format/errors.c \
	format/attr.c \
	format/evsel.c \
	format/evname.c \
	format/idmap.c \
	format/source.c \
	format/header.c \
	format/dir.c \
	format/zstd.c \
	format/zcomp.h \
	format/zcomp.c \
	format/pipe.c \
	format/reader.c \
	format/names.c \
	format/meta.c \
	format/features.c \
	format/feat-int.h \
	format/feat-topo.c \
	format/feat-bpf.c \
	format/buildid.c \
	format/sample.c \
	format/events.c \
	format/text-datasrc.c \
	format/text-branch.c \
	format/text-regs.c \
	format/text-misc.c \
	format/text-event.c \
	format/writer-int.h \
	format/writer-buf.c \
	format/feat-encode.c \
	format/writer.c

PDATA_LIBS = format/libpdata.a $(ZSTD_LIBS)
