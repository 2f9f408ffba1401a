/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * format/zcomp.h - records packed into PERF_RECORD_COMPRESSED (81) the
 * way perf 6.1 packs them (doc/perf-data-format.md §10.5), for the
 * writer.
 */
#ifndef PD_FORMAT_ZCOMP_H
#define PD_FORMAT_ZCOMP_H

#include <stddef.h>
#include <stdint.h>

struct pd_zcomp;

/* Takes one whole COMPRESSED record; returns 0 or a negative error. */
typedef int (*pd_zcomp_emit_fn)(void *ctx, const void *rec, size_t len);

int pd_zcomp_new(struct pd_zcomp **out, unsigned int level);

/*
 * Compress len bytes into as many COMPRESSED records as it takes and
 * hand each to emit.  The stream is flushed at the end, so the records
 * emitted so far decode to every byte given so far.
 */
int pd_zcomp_records(struct pd_zcomp *z, const void *src, size_t len,
		     pd_zcomp_emit_fn emit, void *ctx);

/* Bytes given, and bytes of COMPRESSED records (headers included) emitted. */
void pd_zcomp_totals(const struct pd_zcomp *z, uint64_t *in, uint64_t *out);

void pd_zcomp_free(struct pd_zcomp *z);

#endif /* PD_FORMAT_ZCOMP_H */
