/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * record/rotate.c - the names of --switch-output and --timestamp-filename:
 * the argument of --switch-output, the timestamp a finished file is
 * renamed with, and the files --switch-max-files keeps (perf 6.1's
 * switch_output_setup, fetch_current_timestamp, record__switch_output).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include "lib/diag.h"
#include "lib/xalloc.h"
#include "record/record.h"

struct tag {
	char tag;
	uint64_t mult;
};

/*
 * perf's parse_tag_value(): digits, then one of the tags (case matters:
 * "10m" is ten minutes, "10M" ten MiB); a bare number is neither.
 */
static bool
tag_value(const char *s, const struct tag *tags, uint64_t *out)
{
	for (const struct tag *t = tags; t->tag; t++) {
		const char *at = strchr(s, t->tag);
		char *end;
		unsigned long long v;

		if (!at)
			continue;
		errno = 0;
		v = strtoull(s, &end, 10);
		if (errno || end != at || end == s || s[0] == '-' ||
		    v > UINT64_MAX / t->mult)
			return false;
		*out = v * t->mult;
		return true;
	}
	return false;
}

int
rec_switch_parse(struct rec_switch *sw, const char *arg)
{
	static const struct tag sizes[] = {
		{ 'B', 1 }, { 'K', 1 << 10 }, { 'M', 1 << 20 },
		{ 'G', 1 << 30 }, { 0, 0 },
	};
	static const struct tag times[] = {
		{ 's', 1 }, { 'm', 60 }, { 'h', 60 * 60 },
		{ 'd', 60 * 60 * 24 }, { 0, 0 },
	};
	uint64_t v;

	memset(sw, 0, sizeof(*sw));
	if (!arg || !strcmp(arg, "signal")) {
		sw->signal = true;
	} else if (tag_value(arg, sizes, &v) && v) {
		sw->size = v;
	} else if (tag_value(arg, times, &v) && v && v <= 0xffffffffULL) {
		sw->secs = (unsigned long)v;
	} else {
		return -1;
	}
	sw->on = true;
	return 0;
}

int
rec_timestamp(char *buf, size_t len)
{
	struct timeval tv;
	struct tm tm;
	char date[32];

	if (gettimeofday(&tv, NULL) || !localtime_r(&tv.tv_sec, &tm) ||
	    !strftime(date, sizeof(date), "%Y%m%d%H%M%S", &tm))
		return -1;
	snprintf(buf, len, "%s%02u", date, (unsigned int)(tv.tv_usec / 10000));
	return 0;
}

void
rec_rotation_add(struct rec_rotation *r, unsigned int max, char *name)
{
	if (!max) {
		free(name);
		return;
	}
	if (!r->names) {
		r->names = xcalloc(max, sizeof(*r->names));
		r->max = max;
	}
	if (r->names[r->next]) {
		if (remove(r->names[r->next]) && errno != ENOENT)
			warn_msg("cannot remove '%s': %s", r->names[r->next],
				 strerror(errno));
		free(r->names[r->next]);
	}
	r->names[r->next] = name;
	r->next = (r->next + 1) % r->max;
}

void
rec_rotation_free(struct rec_rotation *r)
{
	for (unsigned int i = 0; r->names && i < r->max; i++)
		free(r->names[i]);
	free(r->names);
	r->names = NULL;
}
