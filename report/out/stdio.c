/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * report/out/stdio.c - the report in `perf report --stdio`'s exact shape
 * (perf 6.1 builtin-report.c, ui/stdio/hist.c, ui/hist.c;
 * doc/perf-records.md §6.1-§6.3, §6.7).
 */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "lib/term.h"
#include <time.h>

#include "lib/xalloc.h"
#include "report/hist/hist-int.h"
#include "report/hist/mem.h"
#include "report/out/out.h"
#include "report/out/stdio-int.h"


static bool
cumulating(const struct rep_report *rep)
{
	return rep->children;
}

const char *
rep_stdio_col_header(const struct rep_report *rep, enum rep_dim d)
{
	if (d == REP_DIM_OVERHEAD && cumulating(rep) && !rep->o.hist.fields_str)
		return "Self";
	if (rep_field_dim(d))
		return rep->o.hist.fields[d - REP_DIM_FIELD].name;
	return rep_dims[d].header;
}

/* perf_hpp__should_skip(): elided, or another event's field */
bool
rep_stdio_col_skipped(const struct layout *lo, enum rep_dim d)
{
	return lo->rep->elide[d] || !rep_field_applies(lo->rep, d, lo->h->evsel);
}

static bool
hpp_is_percent(enum rep_dim d)
{
	return d != REP_DIM_SAMPLE && d != REP_DIM_PERIOD;
}

/* perf's fmt->len: 8 for a percentage ("guest sys" 9), 12 for a number */
static int
hpp_len(enum rep_dim d)
{
	int hlen = (int)strlen(rep_dims[d].header);

	if (!hpp_is_percent(d))
		return 12;
	return hlen > 8 ? hlen : 8;
}

/* perf's hpp__width_fn and __sort__hpp_width. */
static int
col_width(const struct layout *lo, enum rep_dim d)
{
	int base, hlen = (int)strlen(rep_stdio_col_header(lo->rep, d));

	if (rep_field_dim(d))
		return rep_field_width(lo->rep, lo->h, d);
	if (!rep_dim_is_hpp(d))
		return lo->keylen[d] > hlen ? lo->keylen[d] : hlen;
	base = hpp_len(d);
	if (lo->h->nr_members > 1)
		base *= (int)lo->h->nr_members;
	return base > hlen ? base : hlen;
}

/* convert_unit(): 1000 and below as is, then K, M, G. */
static unsigned long
convert_unit(unsigned long v, char *unit)
{
	static const char units[] = " KMG";
	int i = 0;

	while (v > 1000 && i < 3) {
		v /= 1000;
		i++;
	}
	*unit = units[i];
	return v;
}

void
rep_stdio_samples_line(FILE *out, const struct rep_report *rep,
		   const struct rep_hist *h, const char *title, bool plural)
{
	bool relative = rep->o.out.relative;
	const uint64_t *nr = relative ? h->nr_samples_vis : h->nr_samples;
	const uint64_t *tot = relative ? h->total_vis : h->total;
	unsigned long samples = 0;
	uint64_t events = 0;
	unsigned int m;
	char unit;

	for (m = 0; m < h->nr_members; m++) {
		samples += (unsigned long)nr[m];
		events += tot[m];
	}
	samples = convert_unit(samples, &unit);
	fprintf(out, "# Samples: %lu%c of event%s '%s'", samples, unit,
		plural ? "s" : "", title);
	if (rep->o.hist.filt.time_str)
		fprintf(out, " (time slices: %s)", rep->o.hist.filt.time_str);
	if (rep->o.out.show_ref_cg && strstr(title, "call-graph=no"))
		fputs(", show reference callgraph", out);
	if (rep->o.hist.mem_mode)
		fprintf(out, "\n# Total weight : %" PRIu64 "\n# Sort order   : %s\n",
			events, rep->o.hist.sort_str ? rep->o.hist.sort_str :
			REP_MEM_DEFAULT_SORT);
	else
		fprintf(out, "\n# Event count (approx.): %" PRIu64 "\n", events);
	if (rep->o.hist.has_socket_filter)
		fprintf(out, "# Processor Socket: %" PRId32 "\n",
			rep->o.hist.socket_filter);
	fputs("#\n", out);
}

static void
print_headers(FILE *out, const struct layout *lo)
{
	const struct rep_report *rep = lo->rep;
	const char *sep = rep->o.out.field_sep;
	bool first = true;
	size_t i;
	int j;

	fputs("# ", out);
	for (i = 0; i < rep->o.hist.nr_cols; i++) {
		enum rep_dim d = rep->o.hist.cols[i];
		int w = lo->width[i];

		if (rep_stdio_col_skipped(lo, d))
			continue;
		if (!first)
			fputs(sep ? sep : "  ", out);
		first = false;
		/* perf's __sort__hde_header() aligns a field's name right */
		if (rep_dim_is_hpp(d) || rep_field_dim(d))
			fprintf(out, "%*s", w, rep_stdio_col_header(rep, d));
		else
			fprintf(out, "%-*.*s", w, w, rep_stdio_col_header(rep, d));
	}
	/* perf prints no dotted line with a separator */
	if (sep) {
		fputc('\n', out);
		return;
	}
	fputs("\n# ", out);
	first = true;
	for (i = 0; i < rep->o.hist.nr_cols; i++) {
		if (rep_stdio_col_skipped(lo, rep->o.hist.cols[i]))
			continue;
		if (!first)
			fputs("  ", out);
		first = false;
		for (j = 0; j < lo->width[i]; j++)
			fputc('.', out);
	}
	fputs("\n#\n", out);
}


void
rep_stdio_line_add(struct line *l, const char *s)
{
	size_t n = strlen(s), room = l->size - 1 - l->len;

	if (n > room)
		n = room;
	memcpy(l->buf + l->len, s, n);
	l->len += n;
	l->buf[l->len] = '\0';
}

static uint64_t
hval_field(const struct rep_hval *v, enum rep_dim d)
{
	switch (d) {
	case REP_DIM_CHILDREN:
		return v->acc;
	case REP_DIM_SAMPLE:
		return v->nr;
	case REP_DIM_OVERHEAD_SYS:
	case REP_DIM_OVERHEAD_US:
	case REP_DIM_OVERHEAD_GUEST_SYS:
	case REP_DIM_OVERHEAD_GUEST_US:
		return v->mode_period[d - REP_DIM_OVERHEAD_SYS];
	default:
		return v->period;
	}
}

/* perf's __hpp__fmt: the leader's value, then each member's. */
void
rep_stdio_hpp_entry(struct line *l, const struct layout *lo, enum rep_dim d,
		    size_t e)
{
	const struct rep_hist *h = lo->h;
	bool percent = hpp_is_percent(d);
	bool sep = lo->rep->o.out.field_sep != NULL;
	/* perf's hpp__fmt: with a separator, no width (1) */
	int len = sep ? 1 : hpp_len(d) - (percent ? 2 : 1);
	unsigned int m;
	char buf[64];

	/* perf's __hpp__fmt_acc without accumulation */
	if (d == REP_DIM_CHILDREN && !lo->rep->children) {
		snprintf(buf, sizeof(buf), " %*s", hpp_len(d) - 1, "N/A");
		rep_stdio_line_add(l, buf);
		return;
	}

	for (m = 0; m < h->nr_members; m++) {
		uint64_t v = hval_field(&h->vals[e * h->nr_members + m], d);

		if (percent) {
			double p = 0.0;

			if (lo->total[m])
				p = 100.0 * (double)v / (double)lo->total[m];

			snprintf(buf, sizeof(buf), " %*.2f%%", len, p);
			if (lo->rep->o.out.color && !sep) {
				char plain[64];

				memcpy(plain, buf, sizeof(plain));
				term_percent_color(buf, sizeof(buf), p, plain);
			}
		} else {
			snprintf(buf, sizeof(buf), " %*" PRIu64, len, v);
		}
		rep_stdio_line_add(l, buf);
	}
}

/* perf's repsep_snprintf(): the separator's character in a key is a '.' */
void
rep_stdio_dot_out_sep(char *text, char c)
{
	for (char *p = text; (p = strchr(p, c)) != NULL; p++)
		*p = '.';
}

/* buf holds lo->linesz bytes (the line), text lo->linesz + 64 (one column). */
static void
print_entry_line(FILE *out, const struct layout *lo, size_t e, char *buf,
		 char *text)
{
	const struct rep_report *rep = lo->rep;
	const char *sep = rep->o.out.field_sep;
	struct line l = { .buf = buf, .size = lo->linesz, .len = 0 };
	bool first = true;
	size_t i;

	buf[0] = '\0';
	for (i = 0; i < rep->o.hist.nr_cols; i++) {
		enum rep_dim d = rep->o.hist.cols[i];
		size_t before;
		int w = lo->width[i];

		if (rep_stdio_col_skipped(lo, d))
			continue;
		/*
		 * perf starts every column, the first too, with two spaces;
		 * a separator goes between columns only
		 */
		if (!sep)
			rep_stdio_line_add(&l, "  ");
		else if (!first)
			rep_stdio_line_add(&l, sep);
		first = false;
		before = l.len;
		if (rep_dim_is_hpp(d)) {
			rep_stdio_hpp_entry(&l, lo, d, e);
		} else {
			rep_dim_snprint(rep, d, &lo->h->ents[e], w, text,
					lo->linesz + 64);
			if (sep)
				rep_stdio_dot_out_sep(text, sep[0]);
			rep_stdio_line_add(&l, text);
		}
		/* hist_entry__snprintf_alignment(): all but the last column */
		if (i + 1 < rep->o.hist.nr_cols) {
			while (l.len - before < (size_t)w && l.len + 1 < l.size)
				rep_stdio_line_add(&l, " ");
		}
	}
	fprintf(out, "%s\n", buf);
}

float
rep_stdio_percent_limit(const struct layout *lo, size_t e)
{
	const struct rep_hval *v = &lo->h->vals[e * lo->h->nr_members];
	uint64_t val = cumulating(lo->rep) ? v->acc : v->period;

	if (!lo->total[0])
		return 0;
	return (float)((double)val * 100.0 / (double)lo->total[0]);
}

void
rep_stdio_print_callchain(FILE *out, const struct layout *lo, size_t e)
{
	const struct rep_report *rep = lo->rep;
	const struct rep_hist *h = lo->h;
	const struct rep_hval *v = &h->vals[e * h->nr_members];
	struct rep_cc_print_opts po;

	if (!h->ents[e].cc)
		return;
	rep_cc_print_opts_init(&po, &rep->o.cc.param, h->total[0],
			       cumulating(rep) ? v->acc : v->period);
	po.skip_first = rep->o.hist.skip_first_frame;
	po.color = rep->o.out.color;
	po.field_sep = rep->o.out.field_sep;
	po.threshold_total = rep->o.out.relative ? h->cc_period_vis[0] :
		h->cc_period[0];
	rep_cc_print(out, h->ents[e].cc, &po);
}

void
rep_stdio_layout(struct layout *lo, struct rep_hist *h)
{
	const struct rep_report *rep = lo->rep;
	bool first = true;
	unsigned int m;
	size_t i;

	for (m = 0; m < h->nr_members; m++)
		h->total[m] = h->total_vis[m] = 0;
	for (i = 0; i < h->nr; i++) {
		for (m = 0; m < h->nr_members; m++) {
			uint64_t p = h->vals[i * h->nr_members + m].period;

			h->total[m] += p;
			if (rep_hent_shown(&h->ents[i]))
				h->total_vis[m] += p;
		}
		if (rep_hent_shown(&h->ents[i]))
			rep_dims_calc_len(rep, &h->ents[i], lo->keylen);
	}
	lo->total = rep->o.out.relative ? h->total_vis : h->total;
	/*
	 * perf's line buffer also has room for the colour codes of its 8
	 * percentage formats (perf_hpp__color_overhead(): 8 * (24 + 4)),
	 * unused without colours: a line longer than its columns (an
	 * inline frame's " (inlined)") is cut that much later.
	 */
	lo->linesz = 3 + 1 + (rep->o.out.field_sep ? 0 : 8 * (24 + 4));
	for (i = 0; i < rep->o.hist.nr_cols; i++) {
		lo->width[i] = col_width(lo, rep->o.hist.cols[i]);
		if (rep_stdio_col_skipped(lo, rep->o.hist.cols[i]))
			continue;
		lo->linesz += (size_t)lo->width[i] + (first ? 0 : 2);
		first = false;
	}
}

static void
print_section(FILE *out, const struct rep_report *rep, struct rep_hist *h,
	      const char *title, bool plural)
{
	struct layout lo = { .rep = rep, .h = h };
	size_t *order;
	size_t i;
	char *buf, *text;

	if (rep->o.hist.hierarchy) {
		rep_hierarchy_print(out, rep, h, title, plural);
		return;
	}
	order = xcalloc(h->nr ? h->nr : 1, sizeof(size_t));
	/* the order first: it sizes the field keys' columns */
	rep_hist_output_order(rep, h, order);
	rep_stdio_layout(&lo, h);
	if (!rep->o.quiet)
		rep_stdio_samples_line(out, rep, h, title, plural);
	if (!rep->o.quiet)
		print_headers(out, &lo);
	buf = xmalloc(lo.linesz);
	text = xmalloc(lo.linesz + 64);
	for (i = 0; i < h->nr; i++) {
		if (!rep_hent_shown(&h->ents[order[i]]))
			continue;
		if (rep_stdio_percent_limit(&lo, order[i]) <
		    (float)rep->o.out.percent_limit)
			continue;
		print_entry_line(out, &lo, order[i], buf, text);
		if (rep->use_callchain)
			rep_stdio_print_callchain(out, &lo, order[i]);
	}
	fputs("\n\n", out);
	free(text);
	free(buf);
	free(order);
}

void
rep_report_print(struct rep_report *rep, FILE *out,
		 const char *const *titles, const bool *plural)
{
	size_t i;

	rep_report_flush(rep);
	if (!rep->o.quiet)
		fprintf(out, "#\n# Total Lost Samples: %" PRIu64 "\n#\n",
			rep->lost_samples);
	for (i = 0; i < rep->nr_evsels; i++) {
		struct rep_hist *h = rep->hists[i];

		if (!h || !h->nr_samples[0])
			continue;
		print_section(out, rep, h, titles[i], plural[i]);
	}
	if (!rep->o.quiet)
		fprintf(out, "#\n# (%s)\n#\n", rep_report_tip());
}

/* The list of a filter that elides its column, or NULL. */
static char *const *
elide_list(const struct rep_report_opts *o, enum rep_dim d)
{
	const struct rep_filters *f = &o->hist.filt;

	if (d == REP_DIM_SYM && f->nr_syms == 1)
		return f->syms;
	if (d == REP_DIM_DSO && f->nr_dsos == 1)
		return f->dsos;
	if (d == REP_DIM_COMM && f->nr_comms == 1)
		return f->comms;
	return NULL;
}

/*
 * perf's sort__setup_elide(): a key column whose filter names a single
 * value is left out (unless that would leave out every key column), and
 * the value is said once in a comment line, -q or not.
 */
void
rep_report_setup_elide(const struct rep_report_opts *o, bool *elide, FILE *out)
{
	static const char *const what[REP_DIM_NR] = {
		[REP_DIM_SYM] = "symbol", [REP_DIM_DSO] = "dso",
		[REP_DIM_COMM] = "comm",
	};
	bool all = true;
	size_t i;

	for (i = 0; i < o->hist.nr_cols; i++) {
		enum rep_dim d = o->hist.cols[i];
		char *const *l;

		if (rep_dim_is_hpp(d))
			continue;
		l = elide_list(o, d);
		elide[d] = l != NULL;
		if (l && out)
			fprintf(out, "# %s: %s\n", what[d], l[0]);
		all = all && elide[d];
	}
	if (all)
		for (i = 0; i < REP_DIM_NR; i++)
			elide[i] = false;
}

void
rep_report_print_head(FILE *out, const struct rep_report_opts *o)
{
	bool elide[REP_DIM_NR] = { false };

	/* with --header, the header stands in place of the hint */
	if (!o->quiet && !o->hdr)
		fputs("# To display the perf.data header info, please use "
		      "--header/--header-only options.\n#\n", out);
	rep_report_setup_elide(o, elide, out);
}

size_t
rep_report_nr_entries(const struct rep_report *rep)
{
	size_t i, n = 0;

	for (i = 0; i < rep->nr_evsels; i++)
		if (rep->hists[i])
			n += rep->hists[i]->nr;
	return n;
}

/*
 * perf prints a random line of its tips.txt; we do the same with the
 * installed file when there is one, and perf's own fallback otherwise.
 */
const char *
rep_report_tip(void)
{
	static char tip[512];
	static const char *const paths[] = {
		"/usr/share/doc/linux-perf/tips.txt",
		"/usr/share/doc/perf-tip/tips.txt",
	};
	char line[480];
	size_t i, n = 0;
	FILE *f = NULL;

	for (i = 0; i < sizeof(paths) / sizeof(paths[0]) && !f; i++)
		f = fopen(paths[i], "r");
	if (!f)
		return "Cannot load tips.txt file, please install perf!";
	srand((unsigned int)time(NULL));
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!line[0])
			continue;
		n++;
		if (rand() % (int)n == 0)
			snprintf(tip, sizeof(tip), "Tip: %s", line);
	}
	fclose(f);
	return n ? tip : "Cannot load tips.txt file, please install perf!";
}
