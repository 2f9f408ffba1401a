/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * format/buildid.c - build-id records: the BUILD_ID feature and
 * PERF_RECORD_HEADER_BUILD_ID (doc/perf-data-format.md §5.2, §13).
 *
 * Records are walked by their size field, which perf versions set in
 * different ways (36 + the name padded to 64 or to 8, or the whole record
 * padded to 8, maybe with a sample_id trailer), so nothing after the
 * fixed part is trusted beyond the first NUL of the name.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "format/cursor.h"
#include "format/feat-int.h"
#include "pdata/errors.h"
#include "pdata/meta.h"

#define BID_FIXED	36	/* header, pid, 20 id bytes, size, 3 reserved */
#define BID_FIXED_OLD	32	/* header, 24 id bytes; no pid (oldest perf) */

/*
 * perf 6.12 before its fix stored a size 36 bytes short of what it wrote;
 * the walk then lands in the zero padding of the name (§5.2).
 */
#define BID_612_SLACK	36

/* The payload, walked by record size; x reports problems (pd_feat_fail()). */
struct bid_walk {
	struct feat_ctx *x;
	const unsigned char *p;
	size_t len;
	bool swap;
	bool old;
};

static bool
all_zero(const unsigned char *p, size_t n)
{
	while (n--)
		if (*p++)
			return false;
	return true;
}

/*
 * The size of the record at *at, 0 at the end of the payload, or -PD_E_*.
 * The 36 zero bytes a perf 6.12 record leaves behind are stepped over.
 */
static long
bid_next(struct bid_walk *w, size_t *at)
{
	size_t fixed = w->old ? BID_FIXED_OLD : BID_FIXED;
	size_t left = w->len - *at;
	uint16_t size;

	if (left >= BID_612_SLACK && all_zero(w->p + *at, BID_612_SLACK)) {
		*at += BID_612_SLACK;
		left -= BID_612_SLACK;
	}
	if (!left)
		return 0;
	if (left < 8)
		return pd_feat_fail(w->x, -PD_E_TRUNCATED, *at,
				 "%zu stray bytes after the last record", left);
	size = pd_load_u16(w->p + *at + 6, w->swap);
	if (size < fixed)
		return pd_feat_fail(w->x, -PD_E_BAD_FEATURE, *at,
				 "record size %u is smaller than the %zu-byte fixed part",
				 size, fixed);
	if (size > left)
		return pd_feat_fail(w->x, -PD_E_TRUNCATED, *at,
				 "record size %u runs past the end (%zu bytes left)",
				 size, left);
	return size;
}

static int
bid_decode(struct bid_walk *w, size_t at, size_t size, struct pd_build_id *b)
{
	const unsigned char *r = w->p + at;
	size_t name_at = w->old ? BID_FIXED_OLD : BID_FIXED;
	const unsigned char *name = r + name_at, *nul;
	size_t n;

	b->misc = pd_load_u16(r + 4, w->swap);
	if (w->old) {
		/* no pid field: perf infers the machine from an exact misc */
		b->pid = (b->misc == PD_MISC_GUEST_KERNEL ||
			  b->misc == PD_MISC_GUEST_USER) ? 0 : -1;
		memcpy(b->id, r + 8, PD_BUILD_ID_SIZE);
		b->size = PD_BUILD_ID_SIZE;
	} else {
		b->pid = (int32_t)pd_load_u32(r + 8, w->swap);
		memcpy(b->id, r + 12, PD_BUILD_ID_SIZE);
		b->size = PD_BUILD_ID_SIZE;
		if (b->misc & PD_MISC_BUILD_ID_SIZE) {
			if (r[32] > PD_BUILD_ID_SIZE)
				return pd_feat_fail(w->x, -PD_E_BAD_FEATURE,
						 at + 32,
						 "build-id size %u is larger than %u",
						 r[32], PD_BUILD_ID_SIZE);
			b->size = r[32];
		}
	}
	nul = memchr(name, 0, size - name_at);
	n = nul ? (size_t)(nul - name) : size - name_at;
	b->filename = malloc(n + 1);
	if (!b->filename)
		return pd_feat_fail(w->x, -PD_E_NOMEM, at,
				 "out of memory for a file name");
	memcpy(b->filename, name, n);
	b->filename[n] = '\0';
	return 0;
}

/*
 * Before perf 2.6.35 a record had no pid; perf recognises such a table by
 * its first record, the kernel's, whose name then appears to start four
 * bytes into "[kernel.kallsyms]".
 */
static bool
is_old_layout(const unsigned char *p, size_t len, bool swap)
{
	static const char tail[] = "nel.kallsyms]";
	uint16_t size;

	if (len < BID_FIXED + sizeof(tail) - 1)
		return false;
	size = pd_load_u16(p + 6, swap);
	return size >= BID_FIXED + sizeof(tail) - 1 && size <= len &&
	       memcmp(p + BID_FIXED, tail, sizeof(tail) - 1) == 0;
}

/* The BUILD_ID row's parser: x's cursor covers the whole payload. */
int
pd_feat_parse_build_id(struct feat_ctx *x)
{
	struct bid_walk w = {
		.x = x,
		.p = x->c.start,
		.len = (size_t)(x->c.end - x->c.start),
		.swap = x->c.swap,
	};
	struct pd_meta *m = x->m;
	struct pd_build_id *grown = NULL;
	size_t at = 0, nr = 0, old_nr = m->nr_build_ids, i;
	long size;
	int err = 0;

	w.old = is_old_layout(w.p, w.len, w.swap);
	/* count first, so that nothing is appended from a bad payload */
	while ((size = bid_next(&w, &at)) > 0) {
		at += (size_t)size;
		nr++;
	}
	if (size < 0)
		return (int)size;
	if (!nr)
		return 0;
	/* a 32-bit size_t could wrap before memory runs out */
	if (nr <= SIZE_MAX / sizeof(*grown) - old_nr)
		grown = realloc(m->build_ids, (old_nr + nr) * sizeof(*grown));
	if (!grown)
		return pd_feat_fail(x, -PD_E_NOMEM, 0,
				 "out of memory for %zu build ids", nr);
	m->build_ids = grown;
	memset(grown + old_nr, 0, nr * sizeof(*grown));
	at = 0;
	for (i = 0; i < nr; i++) {
		size = bid_next(&w, &at);
		err = bid_decode(&w, at, (size_t)size, &grown[old_nr + i]);
		if (err)
			break;
		at += (size_t)size;
	}
	if (err) {
		for (i = 0; i < nr; i++)
			free(grown[old_nr + i].filename);
		return err;
	}
	m->nr_build_ids = old_nr + nr;
	return 0;
}

int
pd_build_ids_parse(struct pd_meta *m, const void *buf, size_t len, bool swap,
		   char *why, size_t why_len)
{
	static const unsigned char none[1];
	struct feat_ctx x = {
		.m = m,
		.feat = PD_FEAT_BUILD_ID,
		.why = why,
		.why_len = why_len,
	};

	if (why && why_len)
		why[0] = '\0';
	cur_init(&x.c, buf ? buf : none, buf ? len : 0, swap);
	return pd_feat_parse_build_id(&x);
}
