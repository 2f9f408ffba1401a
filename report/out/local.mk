# SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
# report/out/: the report's output formats.

REP_OUT_SRCS = \
	report/out/out.h \
	report/out/stdio-int.h \
	report/out/stdio.c \
	report/out/hierarchy.c
