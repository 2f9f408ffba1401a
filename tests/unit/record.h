/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * tests/unit/record.h - single records for the decoder tests of
 * pd_sample_decode() and pd_event_decode().
 *
 * A record image is built in a struct tbuf (tests/unit/buf.h).
 * make_rec() hands size bytes of it to a decoder as the reader would;
 * cut_rec() hands it the first bytes only, copied into a buffer of exactly
 * that size, so that a read past the cut trips ASan.  EQ() prefixes its
 * message with ctx, which names the image under test.
 */
#ifndef PD_TESTS_RECORD_H
#define PD_TESTS_RECORD_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pdata/records.h"
#include "pdata/sample.h"
#include "tests/unit/buf.h"
#include "tests/unit/t.h"

static char ctx[200];
static unsigned int nr_images, nr_cuts;

#define EQ(got, want, field)						\
	do {								\
		char w_[300];						\
		snprintf(w_, sizeof(w_), "%s: %s", ctx, (field));	\
		T_EQ_U64((got), (want), w_);				\
	} while (0)

/* A record over size bytes at data, its header taken from the image. */
static inline void
make_rec(struct pd_record *r, const struct tbuf *b, const unsigned char *data,
	 size_t size)
{
	memset(r, 0, sizeof(*r));
	r->header.type = (uint32_t)tb_get_uint(b->p, 4, b->big_endian);
	r->header.misc = (uint16_t)tb_get_uint(b->p + 4, 2, b->big_endian);
	r->header.size = (uint16_t)size;
	r->size = (uint32_t)size;
	r->data = data;
	r->swap = b->big_endian != HOST_BE;
	r->evsel = -1;
}

/*
 * Record r over the first cut bytes of image b, copied into a buffer of
 * exactly that size whose header.size says cut.  Free the copy returned.
 */
static inline unsigned char *
cut_rec(struct pd_record *r, const struct tbuf *b, size_t cut)
{
	unsigned char *copy = malloc(cut ? cut : 1);

	if (!copy)
		abort();
	memcpy(copy, b->p, cut);
	if (cut >= 8) {
		struct tbuf tmp = { .p = copy, .len = cut, .cap = cut,
				    .big_endian = b->big_endian };

		tb_patch(&tmp, 6, cut, 2);
	}
	make_rec(r, b, copy, cut);
	return copy;
}

/* The sample_type bits a sample_id trailer carries. */
#define SAMPLE_ID_BITS							\
	(PD_SAMPLE_TID | PD_SAMPLE_TIME | PD_SAMPLE_ID | PD_SAMPLE_STREAM_ID | \
	 PD_SAMPLE_CPU | PD_SAMPLE_IDENTIFIER)

/*
 * Append the sample_id trailer that sample_type t asks for, with the
 * values of v (perf_event_open(2), "sample_id"); v->id serves both ID
 * and IDENTIFIER.
 */
static inline void
tb_sample_id(struct tbuf *b, uint64_t t, const struct pd_sample_id *v)
{
	if (t & PD_SAMPLE_TID) {
		tb_u32(b, v->pid);
		tb_u32(b, v->tid);
	}
	tb_u64_if(b, t, PD_SAMPLE_TIME, v->time);
	tb_u64_if(b, t, PD_SAMPLE_ID, v->id);
	tb_u64_if(b, t, PD_SAMPLE_STREAM_ID, v->stream_id);
	if (t & PD_SAMPLE_CPU) {
		tb_u32(b, v->cpu);
		tb_u32(b, v->cpu_res);
	}
	tb_u64_if(b, t, PD_SAMPLE_IDENTIFIER, v->id);
}

/*
 * got was decoded from a trailer that tb_sample_id() wrote for t (0: no
 * trailer): v's values where t has the field, the absent ones elsewhere.
 * Each check is named prefix and the field.
 */
static inline void
check_trailer_fields(const struct pd_sample_id *got, uint64_t t,
		     const struct pd_sample_id *v, const char *prefix)
{
	char f[64];

#define SID_EQ(field, bits, absent)					\
	do {								\
		snprintf(f, sizeof(f), "%s" #field, prefix);		\
		EQ(got->field, (t & (bits)) ? v->field : (absent), f);	\
	} while (0)
	snprintf(f, sizeof(f), "%stype", prefix);
	EQ(got->type, t & SAMPLE_ID_BITS, f);
	SID_EQ(pid, PD_SAMPLE_TID, (uint32_t)-1);
	SID_EQ(tid, PD_SAMPLE_TID, (uint32_t)-1);
	SID_EQ(time, PD_SAMPLE_TIME, (uint64_t)-1);
	SID_EQ(id, PD_SAMPLE_ID | PD_SAMPLE_IDENTIFIER, (uint64_t)-1);
	SID_EQ(stream_id, PD_SAMPLE_STREAM_ID, (uint64_t)-1);
	SID_EQ(cpu, PD_SAMPLE_CPU, (uint32_t)-1);
	SID_EQ(cpu_res, PD_SAMPLE_CPU, 0);
#undef SID_EQ
}

#endif /* PD_TESTS_RECORD_H */
