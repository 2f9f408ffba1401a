# SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
# record/: system facts, /proc synthesis, tracing data and build-id
# collection for precord (record/sys.h).

# Also linked alone into tests/tools/rec-sys-dump (tests/recsys.mk).
REC_SYS_SRCS = \
	record/sys.h \
	record/sys-int.h \
	record/sys-read.c \
	record/sys.c \
	record/synth-int.h \
	record/synth-buf.c \
	record/synth.c \
	record/synth-kernel.c \
	record/buildid-int.h \
	record/buildid-notes.c \
	record/buildid.c \
	record/tracing.c

record_precord_SOURCES += $(REC_SYS_SRCS)
