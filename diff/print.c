/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * diff/print.c - one event's table in perf diff's shape (perf 6.1
 * builtin-diff.c: the columns, their headers and cells; ui/stdio/hist.c:
 * the header lines, the separators and the padding of every column but
 * the last).  Without -t perf prints the baseline and computed columns
 * through their colour functions, with -t through their plain ones; the
 * two differ in a few cells (an absent value, a zero).
 */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "diff/diff.h"
#include "lib/term.h"
#include "lib/xalloc.h"
#include "report/hist/hist-int.h"

enum col_kind {
	COL_BASELINE,
	COL_PERIOD,
	COL_PERIOD_BASELINE,
	COL_DELTA,
	COL_RATIO,
	COL_WDIFF,
	COL_FORMULA,
	COL_DELTA_ABS,
	COL_KEY,
};

/* perf's columns[]: the header and its least width. */
static const struct {
	const char *name;
	int width;
} col_heads[COL_KEY] = {
	[COL_BASELINE] = { "Baseline", 0 },
	[COL_PERIOD] = { "Period", 14 },
	[COL_PERIOD_BASELINE] = { "Base period", 14 },
	[COL_DELTA] = { "Delta", 7 },
	[COL_RATIO] = { "Ratio", 14 },
	[COL_WDIFF] = { "Weighted diff", 14 },
	[COL_FORMULA] = { "Formula", 70 },
	[COL_DELTA_ABS] = { "Delta Abs", 7 },
};

/* perf formats a cell into MAX_COL_WIDTH bytes */
#define CELL_SIZE 70
/* a compute column's name: MAX_HEADER_NAME in perf's init_header() */
#define HEADER_NAME_SIZE 100
/* each column's header is printed from a 1024-byte buffer */
#define HEADER_SIZE 1024

struct col {
	enum col_kind kind;
	size_t file;
	enum rep_dim dim;
	int width;
	char header[HEADER_SIZE];
};

struct layout {
	const struct pdiff_table *t;
	struct col *cols;
	size_t nr;
};

static const enum col_kind compute_col[] = {
	[PDIFF_DELTA] = COL_DELTA,
	[PDIFF_RATIO] = COL_RATIO,
	[PDIFF_WDIFF] = COL_WDIFF,
	[PDIFF_DELTA_ABS] = COL_DELTA_ABS,
};

/* init_header(): "Name" or "Name/i", right-aligned in its width. */
static void
col_add(struct layout *lo, enum col_kind kind, size_t file)
{
	struct col *c = &lo->cols[lo->nr++];
	char name[HEADER_NAME_SIZE];
	int len;

	c->kind = kind;
	c->file = file;
	if (lo->t->nr_files > 2)
		snprintf(name, sizeof(name), "%s/%zu", col_heads[kind].name,
			 file);
	else
		snprintf(name, sizeof(name), "%s", col_heads[kind].name);
	len = (int)strlen(name);
	c->width = col_heads[kind].width > len ? col_heads[kind].width : len;
	snprintf(c->header, sizeof(c->header), "%*s", c->width, name);
}

/* perf's hists__calc_col_len() over the rows it prints. */
static void
key_widths(const struct pdiff_table *t, int *keylen)
{
	size_t r;

	for (r = 0; r < t->nr; r++)
		if (!t->rows[r].filtered)
			rep_dims_calc_len(t->rep, t->rows[r].he, keylen);
}

/* ui_init()'s columns, then the keys (perf_hpp__setup_output_field). */
static void
layout_init(struct layout *lo, const struct pdiff_table *t)
{
	const struct rep_hist_opts *ho = &t->rep->o.hist;
	int keylen[REP_DIM_NR] = { 0 };
	size_t i;

	lo->t = t;
	lo->nr = 0;
	lo->cols = xcalloc(3 * t->nr_files + ho->nr_sort + 1,
			   sizeof(*lo->cols));
	for (i = 0; i < t->nr_files; i++) {
		col_add(lo, i ? compute_col[t->o->compute] : COL_BASELINE, i);
		if (t->o->show_formula && i)
			col_add(lo, COL_FORMULA, i);
		if (t->o->show_period)
			col_add(lo, i ? COL_PERIOD : COL_PERIOD_BASELINE, i);
	}
	key_widths(t, keylen);
	for (i = 0; i < ho->nr_sort; i++) {
		enum rep_dim d = ho->sort[i];
		struct col *c;
		int hlen;

		if (rep_dim_is_hpp(d) || t->rep->elide[d])
			continue;
		c = &lo->cols[lo->nr++];
		c->kind = COL_KEY;
		c->dim = d;
		hlen = (int)strlen(rep_dims[d].header);
		c->width = keylen[d] > hlen ? keylen[d] : hlen;
		snprintf(c->header, sizeof(c->header), "%-*.*s", c->width,
			 c->width, rep_dims[d].header);
	}
}

static void
print_headers(FILE *out, const struct layout *lo)
{
	const char *sep = lo->t->o->sep;
	size_t i;
	int j;

	fputs("# ", out);
	for (i = 0; i < lo->nr; i++)
		fprintf(out, "%s%s", i ? (sep ? sep : "  ") : "",
			lo->cols[i].header);
	fputc('\n', out);
	if (sep)
		return;
	fputs("# ", out);
	for (i = 0; i < lo->nr; i++) {
		if (i)
			fputs("  ", out);
		for (j = 0; j < lo->cols[i].width; j++)
			fputc('.', out);
	}
	fputs("\n#\n", out);
}

/* formula_fprintf(): how the file's value was computed. */
static void
formula_text(const struct pdiff_table *t, const struct pdiff_row *r,
	     const struct pdiff_pair *p, size_t file, char *buf, size_t size)
{
	switch (t->o->compute) {
	case PDIFF_RATIO:
		snprintf(buf, size, "%.0F / %.0F", (double)p->period,
			 (double)r->period);
		break;
	case PDIFF_WDIFF:
		snprintf(buf, size, "(%" PRIu64 " * %" PRId64 ") - (%" PRIu64
			 " * %" PRId64 ")", p->period, t->o->w2, r->period,
			 t->o->w1);
		break;
	default:
		snprintf(buf, size, "(%" PRIu64 " * 100 / %" PRIu64 ") - (%"
			 PRIu64 " * 100 / %" PRIu64 ")", p->period,
			 pdiff_total(t, file), r->period, pdiff_base_total(t));
		break;
	}
}

static double
baseline_percent(const struct pdiff_table *t, const struct pdiff_row *r)
{
	return 100.0 * (double)r->period / (double)pdiff_base_total(t);
}

/* The plain text of a cell (hpp__entry_global), " " when it has none. */
static void
cell_plain(const struct pdiff_table *t, const struct col *c,
	   const struct pdiff_row *r, char *buf, size_t size)
{
	const struct pdiff_pair *p = &r->pairs[c->file];

	snprintf(buf, size, " ");
	if (c->kind == COL_BASELINE) {
		if (!r->dummy)
			snprintf(buf, size, t->o->sep ? "%.2f" : "%6.2f%%",
				 baseline_percent(t, r));
		return;
	}
	if (c->kind == COL_PERIOD_BASELINE) {
		snprintf(buf, size, "%" PRIu64, r->period);
		return;
	}
	if (!p->has)
		return;
	switch (c->kind) {
	case COL_DELTA:
	case COL_DELTA_ABS:
		snprintf(buf, size, "%+4.2F%%", p->delta);
		break;
	case COL_RATIO:
		if (r->dummy)
			snprintf(buf, size, "N/A");
		else if (p->ratio > 0.0)
			snprintf(buf, size, "%14.6F", p->ratio);
		break;
	case COL_WDIFF:
		if (r->dummy)
			snprintf(buf, size, "N/A");
		else if (p->wdiff != 0)
			snprintf(buf, size, "%14" PRId64, p->wdiff);
		break;
	case COL_FORMULA:
		formula_text(t, r, p, c->file, buf, size);
		break;
	default:
		snprintf(buf, size, "%" PRIu64, p->period);
		break;
	}
}

/* The cell's text in the colour of value (perf's get_percent_color()). */
static void
paint(const struct pdiff_table *t, char *buf, size_t size, double value)
{
	char text[CELL_SIZE];

	if (!t->o->color)
		return;
	snprintf(text, sizeof(text), "%s", buf);
	term_percent_color(buf, size, value, text);
}

/*
 * The colour functions' text (hpp__color_*), for the columns that have
 * one; false for the others.  Values are coloured, blanks and N/A not.
 */
static bool
cell_color(const struct pdiff_table *t, const struct col *c,
	   const struct pdiff_row *r, char *buf, size_t size)
{
	const struct pdiff_pair *p = &r->pairs[c->file];
	int w = c->width;

	if (c->kind == COL_BASELINE) {
		if (r->dummy) {
			snprintf(buf, size, "%*s", w, " ");
		} else {
			snprintf(buf, size, "%*.2f%%", w - 1,
				 baseline_percent(t, r));
			paint(t, buf, size, baseline_percent(t, r));
		}
		return true;
	}
	if (c->kind != COL_DELTA && c->kind != COL_DELTA_ABS &&
	    c->kind != COL_RATIO && c->kind != COL_WDIFF)
		return false;
	if (!p->has) {
		snprintf(buf, size, "%*s", w, " ");
	} else if (c->kind == COL_DELTA || c->kind == COL_DELTA_ABS) {
		snprintf(buf, size, "%+*.2f%%", w - 1, p->delta);
		paint(t, buf, size, p->delta);
	} else if (r->dummy) {
		snprintf(buf, size, "%*s", w, "N/A");
	} else if (c->kind == COL_RATIO) {
		snprintf(buf, size, "%*.6f", w, p->ratio);
		paint(t, buf, size, p->ratio);
	} else {
		snprintf(buf, size, "%14" PRId64, p->wdiff);
		paint(t, buf, size, (double)p->wdiff);
	}
	return true;
}

/* A key's text; with -t, perf's repsep_snprintf() dots the separator out. */
static void
cell_key(const struct pdiff_table *t, const struct col *c,
	 const struct pdiff_row *r, char *buf, size_t size)
{
	char *s;

	rep_dim_snprint(t->rep, c->dim, r->he, c->width, buf, size);
	if (!t->o->sep)
		return;
	for (s = buf; (s = strchr(s, t->o->sep[0])) != NULL; s++)
		*s = '.';
}

static void
cell(const struct layout *lo, const struct col *c, const struct pdiff_row *r,
     char *buf, size_t size)
{
	const struct pdiff_table *t = lo->t;
	char plain[CELL_SIZE];

	if (c->kind == COL_KEY) {
		cell_key(t, c, r, buf, size);
		return;
	}
	if (!t->o->sep && cell_color(t, c, r, buf, size))
		return;
	cell_plain(t, c, r, plain, sizeof(plain));
	if (t->o->sep)
		snprintf(buf, size, "%s", plain);
	else
		snprintf(buf, size, "%*s", c->width, plain);
}

/* A line as perf builds it: into a buffer of a fixed size, cut there. */
struct line {
	char *buf;
	size_t len, cap;
};

static void
line_add(struct line *l, const char *s, size_t n)
{
	if (n > l->cap - l->len)
		n = l->cap - l->len;
	memcpy(l->buf + l->len, s, n);
	l->len += n;
}

static void
print_row(FILE *out, const struct layout *lo, const struct pdiff_row *r,
	  char *cellbuf, size_t size, struct line *l)
{
	static const char spaces[] = "                                ";
	const char *sep = lo->t->o->sep;
	size_t i;

	l->len = 0;
	for (i = 0; i < lo->nr; i++) {
		const struct col *c = &lo->cols[i];
		const char *gap = sep ? sep : "  ";
		size_t len, pad;

		if (!sep || i)
			line_add(l, gap, strlen(gap));
		cell(lo, c, r, cellbuf, size);
		len = strlen(cellbuf);
		line_add(l, cellbuf, len);
		/* hist_entry__snprintf_alignment(): all but the last column */
		pad = i + 1 < lo->nr && len < (size_t)c->width ?
			(size_t)c->width - len : 0;
		while (pad > 0) {
			size_t n = pad < sizeof(spaces) - 1 ? pad :
				sizeof(spaces) - 1;

			line_add(l, spaces, n);
			pad -= n;
		}
	}
	fwrite(l->buf, 1, l->len, out);
	fputc('\n', out);
}

/*
 * The longest line: perf's hists__sort_list_width() + 3, and without -t
 * room for colour codes that no cell of ours reaches.
 */
static size_t
line_cap(const struct layout *lo, size_t cells)
{
	size_t i, w = 3;

	for (i = 0; i < lo->nr; i++)
		w += (size_t)lo->cols[i].width + (i ? 2 : 0);
	return lo->t->o->sep ? w : w + cells;
}

void
pdiff_print(FILE *out, const struct pdiff_table *t)
{
	struct layout lo;
	struct line l = { 0 };
	size_t i, size = 256;
	char *buf;

	layout_init(&lo, t);
	for (i = 0; i < lo.nr; i++)
		size += (size_t)lo.cols[i].width;
	buf = xmalloc(size);
	l.cap = line_cap(&lo, lo.nr * (size + 8));
	l.buf = xmalloc(l.cap + 1);
	if (!t->o->quiet)
		print_headers(out, &lo);
	for (i = 0; i < t->nr; i++) {
		const struct pdiff_row *r = &t->rows[t->order[i]];

		if (!r->filtered)
			print_row(out, &lo, r, buf, size, &l);
	}
	free(l.buf);
	free(buf);
	free(lo.cols);
}
