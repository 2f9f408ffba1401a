# SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
# script/: tracepoint fields formatted with libtraceevent.
#
# SCRIPT_TRACE_* are what a program needs to format the `trace` field:
# pscript (script/local.mk) and tests/tools/scr-trace (tests/script.mk).

SCRIPT_TRACE_SOURCES = script/trace.c script/trace.h
SCRIPT_TRACE_CFLAGS = $(LIBTRACEEVENT_CFLAGS)
SCRIPT_TRACE_LIBS = $(LIBTRACEEVENT_LIBS)
