# SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
# report/: the session (time order, threads, maps, address resolution).

report_preport_SOURCES += \
	report/model.h \
	report/session.h
