# SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
# session/: tracepoint samples formatted with libtraceevent, a module of
# its own so that only the programs that format them link the library.
#
# SES_TRACE_* are what a program needs to format the `trace` field:
# pscript (script/local.mk), preport's trace key (report/local.mk) and
# tests/tools/scr-trace (tests/script.mk).

SES_TRACE_SOURCES = session/trace.c session/trace.h
SES_TRACE_CFLAGS = $(LIBTRACEEVENT_CFLAGS)
SES_TRACE_LIBS = $(LIBTRACEEVENT_LIBS)
