/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * report/hist/filter.c - the report's filter options as perf 6.1 reads them:
 * comma lists (--comms, --dsos, --symbols, --pid, --tid), a CPU list
 * (-C "0-3,7") and --time ranges ("start,stop" in seconds with up to
 * nine decimals, several separated by spaces, or percentages of the
 * recording: "10%/2", "0%-10%,30%-40%", "50%"; util/time-utils.c).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"
#include "report/hist/hist.h"

#define MAX_CPUS 4096

int
rep_split_words(char ***out, size_t *nr, const char *arg, const char *seps)
{
	const char *p = arg;

	while (*p) {
		size_t len = strcspn(p, seps);

		if (len) {
			*out = xreallocarray(*out, *nr + 1, sizeof(char *));
			(*out)[(*nr)++] = xstrndup(p, len);
		}
		p += len;
		if (*p)
			p++;
	}
	return 0;
}

int
rep_filter_parse_list(char ***out, size_t *nr, const char *arg)
{
	return rep_split_words(out, nr, arg, ",");
}

/*
 * perf keeps a filter list in an rblist, whose insertion fails on an entry
 * it holds already: "problems parsing tid list", and perf goes on without
 * a profile.  Such a list is refused here with the entry named.
 */
static int
repeated(const char *what, const char *entry, char *err, size_t errsz)
{
	snprintf(err, errsz, "problems parsing %s list: '%s' is in it twice",
		 what, entry);
	return -1;
}

int
rep_filter_parse_names(char ***out, size_t *nr, const char *arg,
		       const char *what, char *err, size_t errsz)
{
	size_t first = *nr, i, j;

	rep_filter_parse_list(out, nr, arg);
	for (i = first + 1; i < *nr; i++)
		for (j = first; j < i; j++)
			if (!strcmp((*out)[i], (*out)[j]))
				return repeated(what, (*out)[i], err, errsz);
	return 0;
}

int
rep_filter_parse_ints(int32_t **out, size_t *nr, const char *arg,
		      const char *what, char *err, size_t errsz)
{
	char **words = NULL;
	size_t first = *nr, n = 0, i, j;
	int ret = 0;

	rep_filter_parse_list(&words, &n, arg);
	for (i = 0; i < n; i++) {
		char *end;
		long v;

		errno = 0;
		v = strtol(words[i], &end, 10);
		if (ret) {
			/* the first error is the one said */
		} else if (errno || *end || end == words[i] || v < INT32_MIN ||
			   v > INT32_MAX) {
			snprintf(err, errsz, "'%s' is not a number", words[i]);
			ret = -1;
		} else {
			for (j = first; j < *nr && (*out)[j] != (int32_t)v; j++)
				;
			if (j < *nr)
				ret = repeated(what, words[i], err, errsz);
			*out = xreallocarray(*out, *nr + 1, sizeof(int32_t));
			(*out)[(*nr)++] = (int32_t)v;
		}
		free(words[i]);
	}
	free(words);
	return ret;
}

static int
parse_cpu(const char **p, unsigned long *v)
{
	char *end;

	errno = 0;
	*v = strtoul(*p, &end, 10);
	if (errno || end == *p || *v >= MAX_CPUS)
		return -1;
	*p = end;
	return 0;
}

int
rep_filter_parse_cpus(struct rep_filters *f, const char *arg,
		      char *err, size_t errsz)
{
	const char *p = arg;

	free(f->cpus);
	f->cpus = xcalloc(MAX_CPUS, 1);
	f->nr_cpus = MAX_CPUS;
	while (*p) {
		unsigned long a, b, c;

		if (parse_cpu(&p, &a))
			goto bad;
		b = a;
		if (*p == '-') {
			p++;
			if (parse_cpu(&p, &b) || b < a)
				goto bad;
		}
		for (c = a; c <= b; c++)
			f->cpus[c] = 1;
		if (*p == ',')
			p++;
		else if (*p)
			goto bad;
	}
	return 0;
bad:
	snprintf(err, errsz, "invalid CPU list '%s'", arg);
	return -1;
}

/* perf's parse_nsec_time: "sec" or "sec.fraction" with up to 9 digits. */
static int
parse_nsec(const char *s, size_t len, uint64_t *out)
{
	char buf[64], frac[10];
	unsigned long long sec;
	char *end, *dot;
	size_t i, flen;

	if (len >= sizeof(buf))
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	errno = 0;
	sec = strtoull(buf, &end, 10);
	if (errno || end == buf || (*end != '.' && *end != '\0'))
		return -1;
	*out = sec * 1000000000ull;
	if (*end != '.')
		return 0;
	dot = end + 1;
	flen = strlen(dot);
	if (flen > 9)
		return -1;
	for (i = 0; i < 9; i++)
		frac[i] = i < flen ? dot[i] : '0';
	frac[9] = '\0';
	if (strspn(frac, "0123456789") != 9)
		return -1;
	*out += strtoull(frac, NULL, 10);
	return 0;
}

static int
parse_range(const char *s, size_t len, struct rep_time_range *t)
{
	const char *comma = memchr(s, ',', len);
	size_t l1;

	t->start = t->end = 0;
	if (!comma)
		return -1;
	l1 = (size_t)(comma - s);
	if (l1 && parse_nsec(s, l1, &t->start))
		return -1;
	if (len - l1 - 1 && parse_nsec(comma + 1, len - l1 - 1, &t->end))
		return -1;
	if (t->start && t->end && t->start > t->end)
		return -1;
	return 0;
}

int
rep_filter_parse_time(struct rep_filters *f, const char *arg,
		      char *err, size_t errsz)
{
	const char *p = arg;
	size_t i;

	f->time_str = arg;
	f->nr_times = 0;
	if (strchr(arg, '%'))
		return 0;	/* rep_filter_resolve_time(), once the file is open */
	while (*p) {
		size_t len = strcspn(p, " ");

		if (len) {
			f->times = xreallocarray(f->times, f->nr_times + 1,
						 sizeof(*f->times));
			if (parse_range(p, len, &f->times[f->nr_times])) {
				snprintf(err, errsz, "invalid time range '%.*s'",
					 (int)len, p);
				return -1;
			}
			f->nr_times++;
		}
		p += len;
		while (*p == ' ')
			p++;
	}
	for (i = 0; i + 1 < f->nr_times; i++) {
		if (f->times[i].end >= f->times[i + 1].start) {
			snprintf(err, errsz, "time ranges '%s' overlap or are out of order", arg);
			return -1;
		}
	}
	return 0;
}

/* perf's parse_percent(): "12.5%" -> 0.125; the '%' must end it. */
static int
parse_pct(const char *s, size_t len, double *out)
{
	char buf[64], *end;

	if (!len || len >= sizeof(buf) || s[len - 1] != '%')
		return -1;
	memcpy(buf, s, len - 1);
	buf[len - 1] = '\0';
	*out = strtod(buf, &end) / 100.0;
	return end == buf + len - 1 && len > 1 ? 0 : -1;
}

/* perf's set_percent_time(): the slice [a, b) of [first, last]. */
static int
pct_range(struct rep_time_range *t, double a, double b, uint64_t first,
	  uint64_t last)
{
	uint64_t total = last - first;

	if (a < 0.0 || a > 1.0 || b < 0.0 || b > 1.0)
		return -1;
	/* round(), for the non-negative values met here, without libm */
	t->start = first + (uint64_t)(a * (double)total + 0.5);
	t->end = first + (uint64_t)(b * (double)total + 0.5);
	if (t->end > t->start && t->end != last)
		t->end -= 1;
	return 0;
}

/* One piece: "P%/N" (the Nth slice of P%), "A%-B%", or "P%". */
static int
pct_piece(const char *s, size_t len, char mode, struct rep_time_range *t,
	  uint64_t first, uint64_t last)
{
	const char *sep = memchr(s, mode == '-' ? '-' : '/', len);
	double a, b;
	char *end;
	long n;

	if (mode == '%')
		return parse_pct(s, len, &a) ? -1 : pct_range(t, 0.0, a, first, last);
	if (!sep)
		return -1;
	if (mode == '-')
		return parse_pct(s, (size_t)(sep - s), &a) ||
		       parse_pct(sep + 1, len - (size_t)(sep - s) - 1, &b) ? -1 :
		       pct_range(t, a, b, first, last);
	if (parse_pct(s, (size_t)(sep - s), &a) || a <= 0.0)
		return -1;
	errno = 0;
	n = strtol(sep + 1, &end, 10);
	if (errno || end != s + len || end == sep + 1)
		return -1;
	return pct_range(t, a * (double)(n - 1), a * (double)n, first, last);
}

int
rep_filter_resolve_time(struct rep_filters *f, uint64_t first, uint64_t last,
			char *err, size_t errsz)
{
	const char *p = f->time_str;
	char mode;

	if (!p || !strchr(p, '%'))
		return 0;
	if (!first && !last) {
		snprintf(err, errsz, "--time %s: the file does not say when its "
			 "first and last samples were taken (no SAMPLE_TIME)", p);
		return -1;
	}
	mode = strchr(p, '/') ? '/' : strchr(p, '-') ? '-' : '%';
	if (mode == '%' && p[strlen(p) - 1] != '%')
		goto bad;
	while (*p) {
		size_t len = mode == '%' ? strlen(p) : strcspn(p, ",");

		f->times = xreallocarray(f->times, f->nr_times + 1, sizeof(*f->times));
		if (pct_piece(p, len, mode, &f->times[f->nr_times], first, last))
			goto bad;
		f->nr_times++;
		p += len;
		if (*p == ',')
			p++;
	}
	return 0;
bad:
	snprintf(err, errsz, "invalid time string '%s'", f->time_str);
	return -1;
}

static void
free_strs(char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void
rep_filters_free(struct rep_filters *f)
{
	free_strs(f->comms, f->nr_comms);
	free_strs(f->dsos, f->nr_dsos);
	free_strs(f->syms, f->nr_syms);
	free(f->pids);
	free(f->tids);
	free(f->cpus);
	free(f->times);
	memset(f, 0, sizeof(*f));
}

bool
rep_filter_has_str(char *const *v, size_t n, const char *s)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(v[i], s))
			return true;
	return false;
}

static bool
has_int(const int32_t *v, size_t n, int32_t x)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i] == x)
			return true;
	return false;
}

bool
rep_filter_keeps_thread(const struct rep_filters *f,
			const struct ses_thread *t)
{
	if (f->nr_comms && !rep_filter_has_str(f->comms, f->nr_comms, t->comm))
		return false;
	if (f->nr_pids && !has_int(f->pids, f->nr_pids, t->pid))
		return false;
	return !f->nr_tids || has_int(f->tids, f->nr_tids, t->tid);
}

bool
rep_filter_keeps_time(const struct rep_filters *f, uint64_t time)
{
	size_t i;

	if (!f->nr_times || time == 0)
		return true;
	for (i = 0; i < f->nr_times; i++) {
		const struct rep_time_range *t = &f->times[i];

		if ((!t->start || time >= t->start) &&
		    (!t->end || time <= t->end))
			return true;
	}
	return false;
}

static bool
sym_filter_keeps(const struct rep_filters *f, const struct ses_loc *l)
{
	char addr[32];
	uint64_t abs;

	if (!l->sym || !l->map)
		return false;
	if (rep_filter_has_str(f->syms, f->nr_syms, l->sym->name))
		return true;
	abs = l->map->identity ? l->sym->start :
		l->sym->start + l->map->start - l->map->pgoff;
	snprintf(addr, sizeof(addr), "0x%llx", (unsigned long long)abs);
	return rep_filter_has_str(f->syms, f->nr_syms, addr);
}

bool
rep_filter_keeps_self(const struct rep_filters *f, const struct ses_loc *l)
{
	if (f->nr_dsos) {
		struct sym_dso *d = l->map ? l->dso : NULL;

		if (!d || !(rep_filter_has_str(f->dsos, f->nr_dsos,
					       sym_dso_short_name(d)) ||
			    rep_filter_has_str(f->dsos, f->nr_dsos,
					       sym_dso_long_name(d))))
			return false;
	}
	return !f->nr_syms || sym_filter_keeps(f, l);
}
