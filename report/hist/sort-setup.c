/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * report/hist/sort-setup.c - the sort list and the output columns from -s and
 * -F, as perf 6.1's setup_sorting() builds them (util/sort.c): overhead
 * (and overhead_children) prepended unless -F is given, the sort keys
 * appended to the columns, then the columns appended to the sort list.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"
#include "report/hist/hist.h"
#include "report/report.h"

static bool
dims_has(const enum rep_dim *v, size_t n, enum rep_dim d)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i] == d)
			return true;
	return false;
}

static int
dims_push(enum rep_dim *v, size_t *n, enum rep_dim d, char *err, size_t errsz)
{
	if (dims_has(v, *n, d))
		return 0;
	if (*n >= REP_MAX_DIMS) {
		snprintf(err, errsz, "too many sort keys");
		return -1;
	}
	v[(*n)++] = d;
	return 0;
}

/*
 * A sort key naming tracepoint fields (perf tries it after its tables):
 * their dimensions appended; -1 when it names none.
 */
static int
dims_push_fields(struct rep_hist_opts *o, enum rep_dim *v, size_t *n,
		 const char *key, char *err, size_t errsz)
{
	size_t before = o->nr_fields, i;

	if (!o->field_resolver || o->field_resolver(o->field_ctx, key, o) < 0)
		return -1;
	for (i = before; i < o->nr_fields; i++)
		if (dims_push(v, n, (enum rep_dim)(REP_DIM_FIELD + i), err, errsz))
			return -2;
	return 0;
}

/*
 * Append the dimensions named in a key list (field: an -F list, which
 * takes no tracepoint field).
 */
/*
 * perf's setup_sort_list(): the words of a key list, split at commas,
 * spaces and braces, each with its level (--hierarchy's): a word of its
 * own, or the same as the words with it in braces.
 */
static size_t
split_keys(const char *arg, char ***words, unsigned int **levels)
{
	char *copy = xstrdup(arg), *str = copy, *tok, *sep;
	unsigned int level = 0, next_level = 1;
	bool in_group = false;
	size_t nr = 0;

	*words = xcalloc(strlen(arg) + 1, sizeof(**words));
	*levels = xcalloc(strlen(arg) + 1, sizeof(**levels));
	do {
		tok = str;
		sep = strpbrk(str, "{}, ");
		if (sep) {
			next_level = in_group ? level : level + 1;
			if (*sep == '{')
				in_group = true;
			else if (*sep == '}')
				in_group = false;
			*sep = '\0';
			str = sep + 1;
		}
		if (*tok) {
			(*words)[nr] = xstrdup(tok);
			(*levels)[nr++] = level;
		}
		level = next_level;
	} while (sep);
	free(copy);
	return nr;
}

/* The dimensions pushed since before get level (a new one past o's). */
static void
set_levels(struct rep_hist_opts *o, const enum rep_dim *v, size_t before,
	   size_t after, unsigned int level, unsigned int base)
{
	for (; before < after; before++)
		if (!o->level[v[before]])
			o->level[v[before]] = base + level + 1;
	if (base + level + 1 > o->nr_levels)
		o->nr_levels = base + level + 1;
}

static int
dims_parse_as(struct rep_hist_opts *o, enum rep_dim *v, size_t *n,
	      const char *arg, bool field, char *err, size_t errsz)
{
	char **words = NULL;
	unsigned int *levels = NULL, base = o->nr_levels;
	size_t nr, i, before;
	int ret = 0;

	nr = split_keys(arg, &words, &levels);
	for (i = 0; i < nr; i++) {
		int d = rep_dim_parse(words[i]);

		before = *n;
		if (ret == 0 && d < 0 && !field) {
			int f = dims_push_fields(o, v, n, words[i], err, errsz);

			if (f == -2)
				ret = -1;
			if (f != -1) {
				set_levels(o, v, before, *n, levels[i], base);
				free(words[i]);
				continue;
			}
		}

		/*
		 * perf built for x86 drops these two sort keys without a
		 * word: only powerpc samples the stage cycles
		 */
		if (!field && (!strcmp(words[i], "local_p_stage_cyc") ||
			       !strcmp(words[i], "p_stage_cyc"))) {
			free(words[i]);
			continue;
		}

		if (ret == 0 && d < 0) {
			snprintf(err, errsz, "unknown sort key or field '%s'", words[i]);
			ret = -1;
		}
		if (ret == 0)
			ret = dims_push(v, n, (enum rep_dim)d, err, errsz);
		if (ret == 0 && !field)
			set_levels(o, v, before, *n, levels[i], base);
		free(words[i]);
	}
	free(words);
	free(levels);
	if (ret == 0 && nr == 0) {
		snprintf(err, errsz, "empty sort key list");
		ret = -1;
	}
	return ret;
}

static int
dims_parse(struct rep_hist_opts *o, enum rep_dim *v, size_t *n,
	   const char *arg, char *err, size_t errsz)
{
	return dims_parse_as(o, v, n, arg, false, err, errsz);
}

static int
setup_default_dims(struct rep_hist_opts *o, bool children, char *err,
		   size_t errsz)
{
	const char *keys = o->sort_str ? o->sort_str : "comm,dso,sym";
	enum rep_dim k[REP_MAX_DIMS];
	size_t nk = 0, i;

	if (!strcmp(keys, "+")) {
		snprintf(err, errsz, "Invalid --sort key: `+'");
		return -1;
	}
	if (keys[0] == '+') {
		if (dims_parse(o, k, &nk, "comm,dso,sym", err, errsz) ||
		    dims_parse(o, k, &nk, keys + 1, err, errsz))
			return -1;
	} else if (dims_parse(o, k, &nk, keys, err, errsz)) {
		return -1;
	}
	/*
	 * perf's setup_overhead(): each is put first unless the keys, as a
	 * string, hold its name (so overhead_us keeps overhead out)
	 */
	o->nr_sort = 0;
	if (children && !strstr(keys, "overhead_children"))
		o->sort[o->nr_sort++] = REP_DIM_CHILDREN;
	if (!strstr(keys, "overhead"))
		o->sort[o->nr_sort++] = REP_DIM_OVERHEAD;
	for (i = 0; i < nk; i++)
		if (dims_push(o->sort, &o->nr_sort, k[i], err, errsz))
			return -1;
	o->nr_cols = 0;
	if (children)
		o->cols[o->nr_cols++] = REP_DIM_CHILDREN;
	o->cols[o->nr_cols++] = REP_DIM_OVERHEAD;
	/* perf_hpp__init(): the guest columns only for perf kvm's --guest */
	if (o->show_cpu_util) {
		o->cols[o->nr_cols++] = REP_DIM_OVERHEAD_SYS;
		o->cols[o->nr_cols++] = REP_DIM_OVERHEAD_US;
	}
	if (o->show_nr)
		o->cols[o->nr_cols++] = REP_DIM_SAMPLE;
	if (o->show_period)
		o->cols[o->nr_cols++] = REP_DIM_PERIOD;
	return 0;
}

/* perf's -F +LIST: the fields after the default columns, before the keys. */
static int
add_fields(struct rep_hist_opts *o, char *err, size_t errsz)
{
	if (!o->fields_str[1]) {
		snprintf(err, errsz, "Invalid --fields key: `+'");
		return -1;
	}
	return dims_parse_as(o, o->cols, &o->nr_cols, o->fields_str + 1, true,
			     err, errsz);
}

int
rep_report_setup_dims(struct rep_report_opts *opts, bool children, char *err,
		      size_t errsz)
{
	struct rep_hist_opts *o = &opts->hist;
	size_t i;

	o->nr_fields = 0;
	memset(o->level, 0, sizeof(o->level));
	o->nr_levels = 0;
	if (o->fields_str && o->fields_str[0] != '+') {
		o->nr_sort = o->nr_cols = 0;
		if (o->sort_str && dims_parse(o, o->sort, &o->nr_sort,
					      o->sort_str[0] == '+' ? o->sort_str + 1 :
					      o->sort_str, err, errsz))
			return -1;
		if (dims_parse_as(o, o->cols, &o->nr_cols, o->fields_str, true,
				  err, errsz))
			return -1;
	} else if (setup_default_dims(o, children, err, errsz) ||
		   (o->fields_str && add_fields(o, err, errsz))) {
		return -1;
	}
	/* perf's setup_sorting(): a -p pattern adds the parent key */
	if (o->parent_re && !dims_has(o->sort, o->nr_sort, REP_DIM_PARENT) &&
	    dims_push(o->sort, &o->nr_sort, REP_DIM_PARENT, err, errsz))
		return -1;
	/* perf_hpp__setup_output_field(), then perf_hpp__append_sort_keys() */
	for (i = 0; i < o->nr_sort; i++)
		if (dims_push(o->cols, &o->nr_cols, o->sort[i], err, errsz))
			return -1;
	for (i = 0; i < o->nr_cols; i++)
		if (dims_push(o->sort, &o->nr_sort, o->cols[i], err, errsz))
			return -1;
	o->skip_first_frame = !o->fields_str && o->sort_str &&
		!strncmp(o->sort_str, "sym", 3);
	return 0;
}
