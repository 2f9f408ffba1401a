# SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
# report/callchain/: callchain trees, the -g parameters and their printing.

REP_CC_SRCS = \
	report/callchain/callchain.h \
	report/callchain/callchain-int.h \
	report/callchain/callchain.c \
	report/callchain/callchain-param.c \
	report/callchain/callchain-print.c \
	report/callchain/branch-counts.c
