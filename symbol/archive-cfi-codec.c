/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * symbol/archive-cfi-codec.c - the call frame information table of an
 * archive entry's payload (doc/symbol-archive.md, "Call frame
 * information"), after its source lines: the fixed fields and load
 * segments, the pieces' offsets and lengths in columns then their bytes,
 * and the search table's rows.
 */
#include "config.h"

#include <elf.h>
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbol/archive-int.h"

/* the table's forms: none (a later table follows), or .eh_frame pieces */
enum { CFI_NONE = 0, CFI_EH_FRAME = 1 };

bool
ar_fits_s32(uint64_t v)
{
	return (int64_t)v >= INT32_MIN && (int64_t)v <= INT32_MAX;
}

struct sym_ar_cfi *
ar_cfi_alloc(size_t nl, size_t np, size_t nr, uint64_t bytes)
{
	uint64_t size = sizeof(struct sym_ar_cfi) +
			nl * sizeof(struct sym_ar_load) +
			np * sizeof(struct sym_ar_cfi_piece) +
			nr * sizeof(struct sym_ar_cfi_row) + bytes;
	struct sym_ar_cfi *c = size < SIZE_MAX ? calloc(1, (size_t)size) :
						 NULL;
	char *p = (char *)(c + 1);

	if (!c)
		return NULL;
	c->loads = (struct sym_ar_load *)p;
	p += nl * sizeof(struct sym_ar_load);
	c->pieces = (struct sym_ar_cfi_piece *)p;
	p += np * sizeof(struct sym_ar_cfi_piece);
	c->rows = (struct sym_ar_cfi_row *)p;
	c->nr_loads = nl;
	c->nr_pieces = np;
	c->nr_rows = nr;
	return c;
}

unsigned char *
ar_cfi_bytes(struct sym_ar_cfi *c)
{
	return (unsigned char *)(c->rows + c->nr_rows);
}

void
ar_cfi_encode(const struct sym_ar_cfi *c, struct ar_buf *out)
{
	uint64_t prev;
	size_t i;

	ar_buf_uv(out, CFI_EH_FRAME);
	ar_buf_uv(out, c->machine);
	ar_buf_uv(out, c->type);
	ar_buf_uv(out, c->eh_frame_addr);
	ar_buf_uv(out, c->hdr_addr);
	ar_buf_uv(out, c->nr_loads);
	for (i = 0; i < c->nr_loads; i++) {
		const struct sym_ar_load *l = &c->loads[i];

		ar_buf_uv(out, l->vaddr);
		ar_buf_uv(out, l->offset);
		ar_buf_uv(out, l->filesz);
		ar_buf_uv(out, l->memsz);
		ar_buf_uv(out, l->align);
		ar_buf_uv(out, l->flags);
	}
	ar_buf_uv(out, c->nr_pieces);
	for (i = 0, prev = 0; i < c->nr_pieces; i++) {
		ar_buf_uv(out, c->pieces[i].off - prev);
		prev = c->pieces[i].off + c->pieces[i].len;
	}
	for (i = 0; i < c->nr_pieces; i++)
		ar_buf_uv(out, c->pieces[i].len);
	for (i = 0; i < c->nr_pieces; i++)
		ar_buf_add(out, c->pieces[i].bytes, c->pieces[i].len);
	ar_buf_uv(out, c->nr_rows);
	for (i = 0, prev = 0; i < c->nr_rows; prev = c->rows[i++].pc)
		ar_buf_uv(out, c->rows[i].pc - prev);
	for (i = 0; i < c->nr_rows; i++)
		ar_buf_uv(out, c->rows[i].fde_off);
}

static int
cfi_fail(char *why, size_t whysz, const struct ar_rd *r,
	 const unsigned char *base, const char *what)
{
	snprintf(why, whysz, "payload offset %zu: call frame information: %s",
		 (size_t)(r->p - base), what);
	return -EINVAL;
}

/* A count of items of at least min bytes each, bounded by what is left. */
static bool
rd_count(struct ar_rd *r, size_t min, size_t *out)
{
	uint64_t n = ar_rd_uv(r);

	if (r->bad || n > ar_rd_left(r) / min)
		return false;
	*out = (size_t)n;
	return true;
}

static bool
piece_starts_at(const struct sym_ar_cfi *c, uint64_t off)
{
	size_t lo = 0, hi = c->nr_pieces;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (c->pieces[mid].off < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < c->nr_pieces && c->pieces[lo].off == off;
}

/* The pieces' offsets and lengths, read before the block is made. */
static const char *
dec_piece_spans(struct ar_rd *r, size_t np, uint64_t *off, uint64_t *len,
		uint64_t *bytes)
{
	uint64_t end = 0, gap;
	size_t i;

	for (i = 0; i < np; i++) {
		gap = ar_rd_uv(r);
		if (gap > AR_CFI_SECTION_MAX - end)
			return "a piece lies past the section's limit";
		off[i] = end + gap;
		end = off[i];
	}
	/* offsets so far hold only the gaps' sums; lengths move them on */
	for (i = 0, end = 0, *bytes = 0; i < np; i++) {
		len[i] = ar_rd_uv(r);
		if (r->bad)
			return "piece lengths cut short";
		off[i] += end;
		if (len[i] < 8 || off[i] > AR_CFI_SECTION_MAX ||
		    len[i] > AR_CFI_SECTION_MAX - off[i])
			return "a piece lies past the section's limit";
		end += len[i];
		*bytes += len[i];
	}
	return *bytes > ar_rd_left(r) ? "piece bytes cut short" : NULL;
}

static const char *
dec_rows(struct ar_rd *r, struct sym_ar_cfi *c)
{
	uint64_t pc = 0;
	size_t i;

	for (i = 0; i < c->nr_rows; i++) {
		pc += ar_rd_uv(r);
		c->rows[i].pc = pc;
		if (!ar_fits_s32(pc - c->hdr_addr))
			return "an FDE's address is out of the table's reach";
	}
	for (i = 0; i < c->nr_rows; i++) {
		c->rows[i].fde_off = ar_rd_uv(r);
		if (r->bad)
			return "rows cut short";
		if (!piece_starts_at(c, c->rows[i].fde_off) ||
		    !ar_fits_s32(c->eh_frame_addr + c->rows[i].fde_off -
			      c->hdr_addr))
			return "a row names no piece";
	}
	return NULL;
}

/* The fixed fields, then the load segments, into c (allocated after). */
static const char *
dec_head(struct ar_rd *r, struct sym_ar_cfi *h, struct sym_ar_load *loads)
{
	size_t i;
	uint64_t v;

	v = ar_rd_uv(r);
	h->machine = (uint16_t)v;
	if (v > UINT16_MAX)
		return "bad e_machine";
	v = ar_rd_uv(r);
	h->type = (uint16_t)v;
	if (v != ET_EXEC && v != ET_DYN)
		return "bad e_type";
	h->eh_frame_addr = ar_rd_uv(r);
	h->hdr_addr = ar_rd_uv(r);
	if (r->bad || !ar_fits_s32(h->eh_frame_addr - (h->hdr_addr + 4)))
		return "bad section addresses";
	if (!rd_count(r, 6, &h->nr_loads) || !h->nr_loads ||
	    h->nr_loads > AR_CFI_LOADS_MAX)
		return "bad number of load segments";
	for (i = 0; i < h->nr_loads; i++) {
		loads[i].vaddr = ar_rd_uv(r);
		loads[i].offset = ar_rd_uv(r);
		loads[i].filesz = ar_rd_uv(r);
		loads[i].memsz = ar_rd_uv(r);
		loads[i].align = ar_rd_uv(r);
		v = ar_rd_uv(r);
		loads[i].flags = (uint32_t)v;
		if (v > UINT32_MAX)
			return "bad segment flags";
	}
	return r->bad ? "load segments cut short" : NULL;
}

int
ar_cfi_decode(struct ar_rd *r, const unsigned char *base, bool lenient,
	      uint64_t *budget, struct sym_ar_cfi **out, char *why,
	      size_t whysz)
{
	struct sym_ar_load loads[AR_CFI_LOADS_MAX];
	struct sym_ar_cfi h = { .loads = loads }, *c = NULL;
	uint64_t *off = NULL, *len = NULL, bytes = 0, size;
	const unsigned char *src = NULL;
	const char *bad;
	unsigned char *p;
	size_t np = 0, nr = 0, i;
	uint64_t form;
	int ret = -ENOMEM;

	*out = NULL;
	form = ar_rd_uv(r);
	if (form == CFI_NONE && !r->bad)
		return 0;
	if (form != CFI_EH_FRAME && lenient && !r->bad) {
		/* a newer form: this reader skips the rest */
		r->p = r->end;
		return 0;
	}
	if (form != CFI_EH_FRAME)
		return cfi_fail(why, whysz, r, base, "unknown form");
	bad = dec_head(r, &h, loads);
	if (!bad && (!rd_count(r, 2, &np) || !np))
		bad = "bad number of pieces";
	if (bad)
		return cfi_fail(why, whysz, r, base, bad);
	off = calloc(np, sizeof(*off));
	len = calloc(np, sizeof(*len));
	if (!off || !len)
		goto out;
	bad = dec_piece_spans(r, np, off, len, &bytes);
	if (!bad) {
		src = ar_rd_bytes(r, (size_t)bytes);
		if (!rd_count(r, 2, &nr) || !nr)
			bad = "bad number of rows";
	}
	if (bad) {
		ret = cfi_fail(why, whysz, r, base, bad);
		goto out;
	}
	size = sizeof(*c) + h.nr_loads * sizeof(*loads) +
	       np * sizeof(*c->pieces) + nr * sizeof(*c->rows) + bytes;
	ret = -EFBIG;
	if (size > *budget) {
		snprintf(why, whysz, "call frame information of %" PRIu64
			 " bytes, past the archive's limit", size);
		goto out;
	}
	ret = -ENOMEM;
	c = ar_cfi_alloc(h.nr_loads, np, nr, bytes);
	if (!c)
		goto out;
	memcpy(c, &h, offsetof(struct sym_ar_cfi, loads));
	memcpy(c->loads, loads, h.nr_loads * sizeof(*loads));
	for (i = 0, p = ar_cfi_bytes(c); i < np; p += len[i], src += len[i], i++) {
		c->pieces[i] = (struct sym_ar_cfi_piece){
			.off = off[i], .len = (size_t)len[i], .bytes = p };
		memcpy(p, src, (size_t)len[i]);
	}
	bad = dec_rows(r, c);
	if (bad) {
		ret = cfi_fail(why, whysz, r, base, bad);
		goto out;
	}
	*budget -= size;
	*out = c;
	c = NULL;
	ret = 0;
out:
	free(c);
	free(off);
	free(len);
	return ret;
}
