# SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
# report/: callchain trees and their printing.

report_preport_SOURCES += \
	report/callchain.h \
	report/callchain-int.h \
	report/callchain.c \
	report/callchain-param.c \
	report/callchain-print.c
