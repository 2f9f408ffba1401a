/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * format/zcomp.c - the writer's side of PERF_RECORD_COMPRESSED.
 *
 * perf 6.1 keeps one zstd stream for the whole file, never ends its frame,
 * and flushes it after each record's worth of output, so that a reader
 * decodes every record as it comes (doc/perf-data-format.md §10.2).  A
 * payload is at most 65527 bytes, perf's PERF_SAMPLE_MAX_SIZE less the
 * 8-byte header less one, and the record is not padded to 8 bytes.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "format/zcomp.h"
#include "pdata/abi.h"
#include "pdata/errors.h"
#include "pdata/writer.h"

#define ZREC_HEADER	8
#define ZREC_PAYLOAD_MAX	((1u << 16) - ZREC_HEADER - 1)

struct pd_zcomp {
	ZSTD_CStream *cs;
	uint64_t in, out;
	unsigned char rec[ZREC_HEADER + ZREC_PAYLOAD_MAX];
};

int
pd_zcomp_new(struct pd_zcomp **out, unsigned int level)
{
	struct pd_zcomp *z;

	*out = NULL;
	if (level < 1 || level > PD_ZSTD_LEVEL_MAX)
		return -PD_E_INVAL;
	z = calloc(1, sizeof(*z));
	if (!z || !(z->cs = ZSTD_createCStream())) {
		free(z);
		return -PD_E_NOMEM;
	}
	if (ZSTD_isError(ZSTD_CCtx_setParameter(z->cs,
						ZSTD_c_compressionLevel,
						(int)level))) {
		pd_zcomp_free(z);
		return -PD_E_INVAL;
	}
	*out = z;
	return 0;
}

static void
zrec_header(unsigned char *rec, size_t payload)
{
	uint32_t type = PD_RECORD_COMPRESSED;
	uint16_t misc = 0, size = (uint16_t)(ZREC_HEADER + payload);

	memcpy(rec, &type, 4);
	memcpy(rec + 4, &misc, 2);
	memcpy(rec + 6, &size, 2);
}

int
pd_zcomp_records(struct pd_zcomp *z, const void *src, size_t len,
		 pd_zcomp_emit_fn emit, void *ctx)
{
	ZSTD_inBuffer in = { .src = src, .size = len, .pos = 0 };
	size_t left;

	do {
		ZSTD_outBuffer out = {
			.dst = z->rec + ZREC_HEADER,
			.size = ZREC_PAYLOAD_MAX,
			.pos = 0,
		};
		int err;

		left = ZSTD_compressStream2(z->cs, &out, &in, ZSTD_e_flush);
		if (ZSTD_isError(left))
			return -PD_E_ZSTD;
		if (!out.pos)
			continue;
		zrec_header(z->rec, out.pos);
		err = emit(ctx, z->rec, ZREC_HEADER + out.pos);
		if (err)
			return err;
		z->out += ZREC_HEADER + out.pos;
	} while (left);
	z->in += len;
	return 0;
}

void
pd_zcomp_totals(const struct pd_zcomp *z, uint64_t *in, uint64_t *out)
{
	*in = z ? z->in : 0;
	*out = z ? z->out : 0;
}

void
pd_zcomp_free(struct pd_zcomp *z)
{
	if (!z)
		return;
	ZSTD_freeCStream(z->cs);
	free(z);
}
