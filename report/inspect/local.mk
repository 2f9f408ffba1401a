# SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
# report/inspect/: the modes that show a file as it is rather than a
# report of it: --header-only [-I], --stats, --evlist and -D.

# the header printer alone (pscript --header links it too)
REP_HEADER_SRCS = \
	report/inspect/inspect.h \
	report/inspect/header.c \
	report/inspect/header-int.h \
	report/inspect/header-attr.c \
	report/inspect/header-bpf.c \
	report/inspect/header-check.c \
	report/inspect/header-cpulist.c \
	report/inspect/header-data.c \
	report/inspect/header-events.c \
	report/inspect/header-host.c \
	report/inspect/header-topo.c

REP_INSPECT_SRCS = \
	$(REP_HEADER_SRCS) \
	report/inspect/stats.c \
	report/inspect/evlist.c \
	report/inspect/dump.c \
	report/inspect/dump-int.h \
	report/inspect/dump-kernel.c \
	report/inspect/dump-sample.c \
	report/inspect/dump-user.c
