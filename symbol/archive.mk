# SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
# symbol/: offline analysis: the pdata symbol archive, perf's build-id
# cache and perf archive's tarball, debuginfod.

symbol_libpdsym_a_SOURCES += \
	symbol/archive.h \
	symbol/archive-file.c \
	symbol/archive-codec.c \
	symbol/archive-cfi-codec.c \
	symbol/archive-inline-codec.c \
	symbol/archive-cfi.c \
	symbol/archive-int.h \
	symbol/archive-build.c \
	symbol/archive-use.c \
	symbol/recording-id.c \
	symbol/debuginfod.c \
	symbol/buildid-cache.h \
	symbol/buildid-cache.c \
	symbol/perf-tar.c \
	symbol/perf-archive.c
symbol_libpdsym_a_CFLAGS += $(ZSTD_CFLAGS) $(LIBARCHIVE_CFLAGS) $(LIBDEBUGINFOD_CFLAGS)
# libarchive and libdebuginfod are loaded at their first use (lib/dynlib.h)
SYM_LIBS += $(ZSTD_LIBS) $(DL_LIBS)
