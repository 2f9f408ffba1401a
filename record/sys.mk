# SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
# record/: system facts, /proc synthesis and build-id collection for precord.

record_precord_SOURCES += \
	record/sys.h
