/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * report/report.h - preport's output modes.
 *
 * Each mode reads from an open reader and prints to out.  They return 0,
 * or the -PD_E_* value that stopped reading (everything read before it has
 * been printed); main() prints pd_reader_errmsg() once.
 */
#ifndef PD_REPORT_H
#define PD_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "pdata/reader.h"

/* --header-only [-I]: the header as `perf report --header-only [-I]` prints it. */
int rep_header_print(FILE *out, struct pd_reader *r, bool show_info);

/* --stats: record counts per type, as `perf report --stats` prints them. */
int rep_stats_print(FILE *out, struct pd_reader *r);

/* -D / --dump-raw-trace: every record with its offset, size and fields. */
int rep_dump(FILE *out, struct pd_reader *r);

#endif /* PD_REPORT_H */
