/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * symbol/archive-codec.c - the payload of one archive entry: its symbols,
 * covers and source lines as varints, delta-coded and in columns, with
 * one string pool (doc/symbol-archive.md, "Payload").
 *
 * Columns (every start, then every size, ...) rather than rows, because
 * zstd then sees runs of similar small numbers.  Source lines are kept
 * as (file, line) pairs so a file name is stored once however many lines
 * name it.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "lib/u64map.h"
#include "symbol/archive-int.h"

/* The byte buffer and reader shared with archive-file.c. */

void
ar_buf_free(struct ar_buf *b)
{
	free(b->p);
	b->p = NULL;
	b->len = b->cap = 0;
}

bool
ar_buf_reserve(struct ar_buf *b, size_t more)
{
	size_t cap;
	unsigned char *p;

	if (b->nomem)
		return false;
	if (b->cap - b->len >= more)
		return true;
	cap = b->cap ? b->cap : 256;
	while (cap - b->len < more) {
		if (cap > SIZE_MAX / 2) {
			b->nomem = true;
			return false;
		}
		cap *= 2;
	}
	p = realloc(b->p, cap);
	if (!p) {
		b->nomem = true;
		return false;
	}
	b->p = p;
	b->cap = cap;
	return true;
}

void
ar_buf_add(struct ar_buf *b, const void *p, size_t n)
{
	if (!n || !ar_buf_reserve(b, n))
		return;
	memcpy(b->p + b->len, p, n);
	b->len += n;
}

void
ar_buf_u8(struct ar_buf *b, uint8_t v)
{
	ar_buf_add(b, &v, 1);
}

static void
buf_le(struct ar_buf *b, uint64_t v, int n)
{
	unsigned char x[8];
	int i;

	for (i = 0; i < n; i++)
		x[i] = (unsigned char)(v >> (8 * i));
	ar_buf_add(b, x, (size_t)n);
}

void
ar_buf_le16(struct ar_buf *b, uint16_t v)
{
	buf_le(b, v, 2);
}

void
ar_buf_le32(struct ar_buf *b, uint32_t v)
{
	buf_le(b, v, 4);
}

void
ar_buf_le64(struct ar_buf *b, uint64_t v)
{
	buf_le(b, v, 8);
}

void
ar_buf_uv(struct ar_buf *b, uint64_t v)
{
	unsigned char x[10];
	size_t n = 0;

	while (v >= 0x80) {
		x[n++] = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	x[n++] = (unsigned char)v;
	ar_buf_add(b, x, n);
}

void
ar_buf_sv(struct ar_buf *b, int64_t v)
{
	ar_buf_uv(b, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63));
}

const unsigned char *
ar_rd_bytes(struct ar_rd *r, size_t n)
{
	const unsigned char *p = r->p;

	if (r->bad || (size_t)(r->end - r->p) < n) {
		r->bad = true;
		return NULL;
	}
	r->p += n;
	return p;
}

static uint64_t
rd_le(struct ar_rd *r, int n)
{
	const unsigned char *p = ar_rd_bytes(r, (size_t)n);
	uint64_t v = 0;

	if (!p)
		return 0;
	while (n--)
		v = v << 8 | p[n];
	return v;
}

uint8_t
ar_rd_u8(struct ar_rd *r)
{
	return (uint8_t)rd_le(r, 1);
}

uint16_t
ar_rd_le16(struct ar_rd *r)
{
	return (uint16_t)rd_le(r, 2);
}

uint32_t
ar_rd_le32(struct ar_rd *r)
{
	return (uint32_t)rd_le(r, 4);
}

uint64_t
ar_rd_le64(struct ar_rd *r)
{
	return rd_le(r, 8);
}

/* The tenth byte of a LEB128 u64 carries bit 63 only. */
uint64_t
ar_rd_uv(struct ar_rd *r)
{
	uint64_t v = 0;
	int shift;

	for (shift = 0; shift < 70; shift += 7) {
		const unsigned char *p = ar_rd_bytes(r, 1);

		if (!p)
			return 0;
		if (shift == 63 && *p > 1)
			break;
		v |= (uint64_t)(*p & 0x7f) << shift;
		if (!(*p & 0x80))
			return v;
	}
	r->bad = true;
	return 0;
}

static int __attribute__((format(printf, 3, 4)))
fail(char *why, size_t whysz, const char *fmt, ...)
{
	va_list ap;

	if (whysz) {
		va_start(ap, fmt);
		vsnprintf(why, whysz, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

static int __attribute__((format(printf, 3, 4)))
set_big(char *why, size_t whysz, const char *fmt, ...)
{
	va_list ap;

	if (whysz) {
		va_start(ap, fmt);
		vsnprintf(why, whysz, fmt, ap);
		va_end(ap);
	}
	return -EFBIG;
}

/* Encoding. */

/*
 * Source lines "FILE:N" with N a canonical decimal (no sign, no leading
 * zero) split into FILE and N; anything else is stored whole.
 */
static bool
line_split(const char *s, size_t *file_len, uint64_t *line)
{
	const char *colon = strrchr(s, ':');
	const char *d;
	uint64_t n = 0;

	if (!colon || !colon[1] || strlen(colon + 1) > 18)
		return false;
	if (colon[1] == '0' && colon[2])
		return false;
	for (d = colon + 1; *d; d++) {
		if (*d < '0' || *d > '9')
			return false;
		n = n * 10 + (uint64_t)(*d - '0');
	}
	*file_len = (size_t)(colon - s);
	*line = n;
	return true;
}

struct pool {
	struct u64map ids;	/* xxhash64 of a string -> its index + 1 */
	const char **s;		/* the strings, borrowed from the entry */
	size_t *len;
	size_t nr, cap;
	bool nomem;
};

static bool
pool_grow(struct pool *p)
{
	size_t cap = p->cap ? p->cap * 2 : 64;
	const char **s = realloc(p->s, cap * sizeof(*s));
	size_t *len;

	if (!s)
		return false;
	p->s = s;
	len = realloc(p->len, cap * sizeof(*len));
	if (!len)
		return false;
	p->len = len;
	p->cap = cap;
	return true;
}

/*
 * The index of the n-byte string s, added when new.  Two strings with
 * one hash are both kept (the second is only not shared).
 */
static uint64_t
pool_ref(struct pool *p, const char *s, size_t n)
{
	uint64_t h = XXH64(s, n, 0);
	uint64_t *slot = u64map_slot(&p->ids, h);

	if (*slot) {
		uint64_t i = *slot - 1;

		if (p->len[i] == n && memcmp(p->s[i], s, n) == 0)
			return i;
	}
	if (p->nr == p->cap && !pool_grow(p)) {
		p->nomem = true;
		return 0;
	}
	p->s[p->nr] = s;
	p->len[p->nr] = n;
	if (!*slot)
		*slot = p->nr + 1;
	return p->nr++;
}

static void
pool_free(struct pool *p)
{
	u64map_free(&p->ids);
	free(p->s);
	free(p->len);
}

static int
check_tables(const struct sym_ar_dso *d, char *why, size_t whysz)
{
	size_t i;

	if ((d->nr_syms && !d->syms) || (d->nr_covers && !d->covers) ||
	    (d->nr_lines && !d->lines))
		return fail(why, whysz, "a table with entries has no array");
	for (i = 0; i < d->nr_syms; i++)
		if (!d->syms[i].name)
			return fail(why, whysz, "symbol %zu has no name", i);
	for (i = 0; i < d->nr_covers; i++) {
		const struct sym_ar_cover *c = &d->covers[i];

		if (c->lo >= c->hi)
			return fail(why, whysz, "cover %zu is empty", i);
		if (c->sym >= d->nr_syms)
			return fail(why, whysz,
				    "cover %zu names symbol %" PRIu32 " of %zu",
				    i, c->sym, d->nr_syms);
		if (i && c->lo < d->covers[i - 1].hi)
			return fail(why, whysz,
				    "cover %zu is not after cover %zu",
				    i, i - 1);
	}
	for (i = 0; i < d->nr_lines; i++) {
		if (!d->lines[i].line)
			return fail(why, whysz, "source line %zu is NULL", i);
		if (i && d->lines[i].addr <= d->lines[i - 1].addr)
			return fail(why, whysz,
				    "source line %zu is not after line %zu",
				    i, i - 1);
	}
	return 0;
}

/* The pool indexes of symbol names and line files, in first-use order. */
static void
encode_refs(const struct sym_ar_dso *d, struct pool *p, uint64_t *sym_ref,
	    uint64_t *file_ref, uint64_t *line_no)
{
	size_t i, flen;
	uint64_t n;

	for (i = 0; i < d->nr_syms; i++)
		sym_ref[i] = pool_ref(p, d->syms[i].name,
				      strlen(d->syms[i].name));
	for (i = 0; i < d->nr_lines; i++) {
		const char *s = d->lines[i].line;

		if (line_split(s, &flen, &n)) {
			file_ref[i] = pool_ref(p, s, flen);
			line_no[i] = n + 1;
		} else {
			file_ref[i] = pool_ref(p, s, strlen(s));
			line_no[i] = 0;
		}
	}
}

static void
encode_columns(const struct sym_ar_dso *d, const struct pool *p,
	       const uint64_t *sym_ref, const uint64_t *file_ref,
	       const uint64_t *line_no, struct ar_buf *out)
{
	uint64_t prev;
	size_t i;

	ar_buf_uv(out, p->nr);
	for (i = 0; i < p->nr; i++) {
		ar_buf_uv(out, p->len[i]);
		ar_buf_add(out, p->s[i], p->len[i]);
	}
	ar_buf_uv(out, d->nr_syms);
	/* from the previous symbol's end: 0 where symbols are adjacent */
	for (i = 0, prev = 0; i < d->nr_syms; prev = d->syms[i++].end)
		ar_buf_sv(out, (int64_t)(d->syms[i].start - prev));
	for (i = 0; i < d->nr_syms; i++)
		ar_buf_sv(out, (int64_t)(d->syms[i].end - d->syms[i].start));
	/* 0: the pool's next string not named yet; else its index + 1 */
	for (i = 0, prev = 0; i < d->nr_syms; i++) {
		uint64_t r = sym_ref[i] == prev ? 0 : sym_ref[i] + 1;

		prev += sym_ref[i] == prev;
		ar_buf_uv(out, r << 1 | d->syms[i].is_object);
	}
	ar_buf_uv(out, d->nr_covers);
	for (i = 0, prev = 0; i < d->nr_covers; prev = d->covers[i++].sym)
		ar_buf_sv(out, (int64_t)(d->covers[i].sym - prev));
	/* against the symbol's own range: 0 and 0 where they are equal */
	for (i = 0; i < d->nr_covers; i++)
		ar_buf_sv(out, (int64_t)(d->covers[i].lo -
					 d->syms[d->covers[i].sym].start));
	for (i = 0; i < d->nr_covers; i++)
		ar_buf_sv(out, (int64_t)(d->covers[i].hi -
					 d->syms[d->covers[i].sym].end));
	ar_buf_uv(out, d->nr_lines);
	for (i = 0, prev = 0; i < d->nr_lines; prev = d->lines[i++].addr)
		ar_buf_uv(out, d->lines[i].addr - prev - (i ? 1 : 0));
	for (i = 0; i < d->nr_lines; i++)
		ar_buf_uv(out, file_ref[i]);
	for (i = 0; i < d->nr_lines; i++)
		ar_buf_uv(out, line_no[i]);
	if (d->cfi)
		ar_cfi_encode(d->cfi, out);
	else if (d->inl)
		ar_buf_uv(out, 0);	/* no CFI, then the inline frames */
	if (d->inl)
		ar_inline_encode(d->inl, out);
}

/* The text a reader will hold for the entry, as dec_check_lines() counts. */
static uint64_t
encode_text(const struct sym_ar_dso *d, const struct pool *p,
	    const uint64_t *file_ref, const uint64_t *line_no)
{
	uint64_t text = 0;
	size_t i;

	for (i = 0; i < p->nr; i++)
		text += p->len[i] + 1;
	for (i = 0; i < d->nr_lines; i++)
		if (line_no[i] && (!i || file_ref[i] != file_ref[i - 1] ||
				   line_no[i] != line_no[i - 1]))
			text += strlen(d->lines[i].line) + 1;
	return text;
}

int
sym_ar_payload_encode(const struct sym_ar_dso *d, struct ar_buf *out,
		      char *why, size_t whysz)
{
	struct pool p = { .ids = U64MAP_INIT };
	uint64_t *sym_ref, *file_ref, *line_no;
	size_t start = out->len;
	int err;

	err = check_tables(d, why, whysz);
	if (err)
		return err;
	sym_ref = calloc(d->nr_syms + 1, sizeof(*sym_ref));
	file_ref = calloc(d->nr_lines + 1, sizeof(*file_ref));
	line_no = calloc(d->nr_lines + 1, sizeof(*line_no));
	err = -ENOMEM;
	if (sym_ref && file_ref && line_no) {
		encode_refs(d, &p, sym_ref, file_ref, line_no);
		if (!p.nomem) {
			encode_columns(d, &p, sym_ref, file_ref, line_no, out);
			err = out->nomem ? -ENOMEM : 0;
		}
	}
	if (err)
		fail(why, whysz, "out of memory");
	else if (out->len - start > AR_RAW_MAX)
		err = set_big(why, whysz, "payload of %zu bytes, past the "
			      "limit of %" PRIu64, out->len - start,
			      AR_RAW_MAX);
	else if (encode_text(d, &p, file_ref, line_no) > AR_TEXT_MAX)
		err = set_big(why, whysz, "source lines need more than "
			      "%" PRIu64 " bytes of text", AR_TEXT_MAX);
	pool_free(&p);
	free(sym_ref);
	free(file_ref);
	free(line_no);
	return err;
}

/*
 * Decoding.  The columns are read into scratch arrays and checked; then
 * one block receives the three tables and their text (the pool's strings
 * and the "file:line" strings rebuilt from the pairs), so the caller
 * frees a single pointer.
 */
enum { COL_SYM_START, COL_SYM_SIZE, COL_SYM_REF,
       COL_COV_SYM, COL_COV_LO, COL_COV_HI,
       COL_LINE_GAP, COL_LINE_FILE, COL_LINE_NO, NR_COLS };

struct dec {
	struct ar_rd r;
	const unsigned char *base;
	size_t nr_str;
	/*
	 * Each string's offset in the payload (then, once copied, in the
	 * block's text) and length; 32 bits as payloads are under 4 GiB.
	 */
	uint32_t *str_at;
	uint32_t *str_len;
	size_t nr_syms, nr_covers, nr_lines;
	uint64_t *col[NR_COLS];
	char *why;
	size_t whysz;
};

static size_t
dec_pos(const struct dec *x)
{
	return (size_t)(x->r.p - x->base);
}

static int
dec_short(struct dec *x, const char *what)
{
	return fail(x->why, x->whysz, "payload offset %zu: %s cut short or "
		    "malformed", dec_pos(x), what);
}

/* A count of items of at least min bytes each, bounded by what is left. */
static int
dec_count(struct dec *x, const char *what, size_t min, size_t *out)
{
	size_t at = dec_pos(x);
	uint64_t n = ar_rd_uv(&x->r);

	if (x->r.bad)
		return dec_short(x, what);
	if (n > ar_rd_left(&x->r) / min)
		return fail(x->why, x->whysz, "payload offset %zu: %" PRIu64
			    " %s in %zu bytes", at, n, what, ar_rd_left(&x->r));
	*out = (size_t)n;
	return 0;
}

static int
dec_strings(struct dec *x)
{
	size_t i, at;
	uint64_t n;
	int err = dec_count(x, "strings", 1, &x->nr_str);

	if (err)
		return err;
	x->str_at = calloc(x->nr_str + 1, sizeof(*x->str_at));
	x->str_len = calloc(x->nr_str + 1, sizeof(*x->str_len));
	if (!x->str_at || !x->str_len)
		return -ENOMEM;
	for (i = 0; i < x->nr_str; i++) {
		at = dec_pos(x);
		n = ar_rd_uv(&x->r);
		if (x->r.bad || n > ar_rd_left(&x->r))
			return dec_short(x, "string");
		x->str_at[i] = (uint32_t)dec_pos(x);
		x->str_len[i] = (uint32_t)n;
		if (memchr(ar_rd_bytes(&x->r, (size_t)n), 0, (size_t)n))
			return fail(x->why, x->whysz, "payload offset %zu: "
				    "string %zu holds a NUL byte", at, i);
	}
	return 0;
}

/* A table of n rows in ncol columns of varints, from column first on. */
static int
dec_table(struct dec *x, const char *what, size_t *n, int first, int ncol)
{
	size_t i;
	int c, err = dec_count(x, what, (size_t)ncol, n);

	if (err)
		return err;
	for (c = first; c < first + ncol; c++) {
		x->col[c] = calloc(*n + 1, sizeof(uint64_t));
		if (!x->col[c])
			return -ENOMEM;
		for (i = 0; i < *n; i++)
			x->col[c][i] = ar_rd_uv(&x->r);
		if (x->r.bad)
			return dec_short(x, what);
	}
	return 0;
}

static int64_t
unzigzag(uint64_t u)
{
	return (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
}

/* Turn the symbol columns into start, end and checked name references. */
static int
dec_check_syms(struct dec *x)
{
	uint64_t end = 0, next = 0, *st = x->col[COL_SYM_START];
	uint64_t *sz = x->col[COL_SYM_SIZE], *ref = x->col[COL_SYM_REF];
	uint64_t r;
	size_t i;

	for (i = 0; i < x->nr_syms; i++) {
		st[i] = end + (uint64_t)unzigzag(st[i]);
		end = st[i] + (uint64_t)unzigzag(sz[i]);
		sz[i] = end;
		r = ref[i] >> 1 ? (ref[i] >> 1) - 1 : next++;
		if (r >= x->nr_str)
			return fail(x->why, x->whysz, "symbol %zu names string "
				    "%" PRIu64 " of %zu", i, r, x->nr_str);
		ref[i] = r << 1 | (ref[i] & 1);
	}
	return 0;
}

/* Covers from their symbols' ranges; checked sorted and disjoint. */
static int
dec_check_covers(struct dec *x)
{
	uint64_t *sym = x->col[COL_COV_SYM], *lo = x->col[COL_COV_LO];
	uint64_t *hi = x->col[COL_COV_HI], s = 0;
	size_t i;

	for (i = 0; i < x->nr_covers; i++) {
		s += (uint64_t)unzigzag(sym[i]);
		if (s >= x->nr_syms)
			return fail(x->why, x->whysz, "cover %zu names symbol "
				    "%" PRId64 " of %zu", i, (int64_t)s,
				    x->nr_syms);
		sym[i] = s;
		lo[i] = x->col[COL_SYM_START][s] + (uint64_t)unzigzag(lo[i]);
		hi[i] = x->col[COL_SYM_SIZE][s] + (uint64_t)unzigzag(hi[i]);
		if (lo[i] >= hi[i])
			return fail(x->why, x->whysz, "cover %zu is empty", i);
		if (i && lo[i] < hi[i - 1])
			return fail(x->why, x->whysz, "cover %zu overlaps "
				    "cover %zu or comes before it", i, i - 1);
	}
	return 0;
}

static size_t
digits(uint64_t n)
{
	size_t d = 1;

	while (n >= 10) {
		n /= 10;
		d++;
	}
	return d;
}

/* Whether line i repeats line i - 1's (file, line) pair. */
static bool
line_same(const struct dec *x, size_t i)
{
	return i && x->col[COL_LINE_FILE][i] == x->col[COL_LINE_FILE][i - 1] &&
	       x->col[COL_LINE_NO][i] == x->col[COL_LINE_NO][i - 1];
}

/* Addresses from gaps, file references checked; *text += rebuilt bytes. */
static int
dec_check_lines(struct dec *x, uint64_t *text)
{
	uint64_t prev = 0, *a = x->col[COL_LINE_GAP];
	uint64_t *file = x->col[COL_LINE_FILE], *no = x->col[COL_LINE_NO];
	size_t i;

	for (i = 0; i < x->nr_lines; i++) {
		if (i && (a[i] >= UINT64_MAX - prev))
			return fail(x->why, x->whysz, "source line %zu is past "
				    "the address space", i);
		a[i] += i ? prev + 1 : 0;
		prev = a[i];
		if (file[i] >= x->nr_str)
			return fail(x->why, x->whysz, "source line %zu names "
				    "string %" PRIu64 " of %zu", i, file[i],
				    x->nr_str);
		if (no[i] && !line_same(x, i))
			*text += x->str_len[file[i]] + 2 + digits(no[i] - 1);
		if (*text > AR_TEXT_MAX)
			return set_big(x->why, x->whysz, "source lines need "
				       "more than %" PRIu64 " bytes of text",
				       AR_TEXT_MAX);
	}
	return 0;
}

static void
dec_fill(struct dec *x, struct sym_ar_dso *d, char *text)
{
	char *base = text;
	size_t i;

	for (i = 0; i < x->nr_str; i++) {
		memcpy(text, x->base + x->str_at[i], x->str_len[i]);
		text[x->str_len[i]] = '\0';
		x->str_at[i] = (uint32_t)(text - base);
		text += x->str_len[i] + 1;
	}
	for (i = 0; i < x->nr_syms; i++) {
		d->syms[i].start = x->col[COL_SYM_START][i];
		d->syms[i].end = x->col[COL_SYM_SIZE][i];
		d->syms[i].name = base + x->str_at[x->col[COL_SYM_REF][i] >> 1];
		d->syms[i].is_object = x->col[COL_SYM_REF][i] & 1;
	}
	for (i = 0; i < x->nr_covers; i++) {
		d->covers[i].lo = x->col[COL_COV_LO][i];
		d->covers[i].hi = x->col[COL_COV_HI][i];
		d->covers[i].sym = (uint32_t)x->col[COL_COV_SYM][i];
	}
	for (i = 0; i < x->nr_lines; i++) {
		uint64_t no = x->col[COL_LINE_NO][i];
		const char *file = base + x->str_at[x->col[COL_LINE_FILE][i]];

		d->lines[i].addr = x->col[COL_LINE_GAP][i];
		if (!no) {
			d->lines[i].line = file;
		} else if (line_same(x, i)) {
			d->lines[i].line = d->lines[i - 1].line;
		} else {
			d->lines[i].line = text;
			text += sprintf(text, "%s:%" PRIu64, file, no - 1) + 1;
		}
	}
}

static int
dec_all(struct dec *x, bool lenient, uint64_t *budget, struct sym_ar_dso *d,
	void **mem)
{
	uint64_t text = 0, size;
	char *base, *block;
	size_t i;
	int err;

	if (x->r.end - x->r.p > (ptrdiff_t)AR_RAW_MAX)
		return set_big(x->why, x->whysz, "payload of %zu bytes, more "
			       "than %" PRIu64, (size_t)(x->r.end - x->r.p),
			       AR_RAW_MAX);
	err = dec_strings(x);
	if (!err)
		err = dec_table(x, "symbols", &x->nr_syms, COL_SYM_START, 3);
	if (!err)
		err = dec_table(x, "covers", &x->nr_covers, COL_COV_SYM, 3);
	if (!err)
		err = dec_table(x, "source lines", &x->nr_lines,
				COL_LINE_GAP, 3);
	if (!err && ar_rd_left(&x->r))
		err = ar_cfi_decode(&x->r, x->base, lenient, budget, &d->cfi,
				    x->why, x->whysz);
	if (!err && ar_rd_left(&x->r))
		err = ar_inline_decode(&x->r, x->base, budget, &d->inl,
				       x->why, x->whysz);
	if (!err && !lenient && ar_rd_left(&x->r))
		err = fail(x->why, x->whysz, "payload offset %zu: %zu bytes "
			   "after the last table", dec_pos(x),
			   ar_rd_left(&x->r));
	if (!err)
		err = dec_check_syms(x);
	if (!err)
		err = dec_check_covers(x);
	for (i = 0; !err && i < x->nr_str; i++)
		text += x->str_len[i] + 1;
	if (!err)
		err = dec_check_lines(x, &text);
	if (err)
		return err;
	size = (uint64_t)x->nr_syms * sizeof(*d->syms) +
	       (uint64_t)x->nr_covers * sizeof(*d->covers) +
	       (uint64_t)x->nr_lines * sizeof(*d->lines) + text;
	if (size > *budget)
		return set_big(x->why, x->whysz, "its tables would take "
			       "%" PRIu64 " bytes, past the archive's limit "
			       "of %" PRIu64, size, AR_MEM_TOTAL_MAX);
	base = size < SIZE_MAX ? malloc((size_t)size + 1) : NULL;
	if (!base)
		return -ENOMEM;
	*budget -= size;
	block = base;
	d->syms = x->nr_syms ? (struct sym_ar_symbol *)block : NULL;
	d->nr_syms = x->nr_syms;
	block += x->nr_syms * sizeof(*d->syms);
	d->covers = x->nr_covers ? (struct sym_ar_cover *)block : NULL;
	d->nr_covers = x->nr_covers;
	block += x->nr_covers * sizeof(*d->covers);
	d->lines = x->nr_lines ? (struct sym_ar_line *)block : NULL;
	d->nr_lines = x->nr_lines;
	block += x->nr_lines * sizeof(*d->lines);
	dec_fill(x, d, block);
	*mem = base;
	return 0;
}

int
sym_ar_payload_decode(const void *raw, size_t len, bool lenient,
		      uint64_t *budget, struct sym_ar_dso *d, void **mem,
		      char *why, size_t whysz)
{
	struct dec x = { .why = why, .whysz = whysz };
	int c, err;

	ar_rd_init(&x.r, raw, len);
	x.base = raw;
	*mem = NULL;
	err = dec_all(&x, lenient, budget, d, mem);
	if (err == -ENOMEM)
		fail(why, whysz, "out of memory");
	if (err) {
		d->syms = NULL;
		d->covers = NULL;
		d->lines = NULL;
		d->nr_syms = d->nr_covers = d->nr_lines = 0;
		free(d->cfi);
		d->cfi = NULL;
		free(d->inl);
		d->inl = NULL;
	}
	free(x.str_at);
	free(x.str_len);
	for (c = 0; c < NR_COLS; c++)
		free(x.col[c]);
	return err;
}
