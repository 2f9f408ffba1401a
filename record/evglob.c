/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * record/evglob.c - tracepoints named by glob patterns ("sched:sched_proc*",
 * "sch*:*wak*"), listed as perf 6.1 lists them: systems, then the events
 * of each, in the tracing directory's own order (readdir, not sorted).
 */
#include "config.h"

#include <dirent.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/xalloc.h"
#include "record/record.h"

static const char *
events_root(void)
{
	static const char *const roots[] = {
		"/sys/kernel/tracing/events",
		"/sys/kernel/debug/tracing/events",
	};
	struct stat st;

	for (size_t i = 0; i < 2; i++)
		if (!stat(roots[i], &st) && S_ISDIR(st.st_mode))
			return roots[i];
	return NULL;
}

static bool
is_pattern(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

bool
rec_tracepoint_is_glob(const char *sys, const char *name)
{
	return is_pattern(sys) || is_pattern(name);
}

/* dir/entry has an id file: an event (or, one level up, a system) */
static bool
has_id(const char *root, const char *sys, const char *name)
{
	char path[768];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s/%s/id", root, sys, name);
	return !stat(path, &st) && S_ISREG(st.st_mode);
}

static void
add_name(struct rec_tp_list *l, const char *sys, const char *name)
{
	size_t n = strlen(sys) + strlen(name) + 2;

	l->names = xreallocarray(l->names, l->nr + 1, sizeof(*l->names));
	l->names[l->nr] = xmalloc(n);
	snprintf(l->names[l->nr], n, "%s:%s", sys, name);
	l->nr++;
}

static void
match_events(struct rec_tp_list *l, const char *root, const char *sys,
	     const char *name_pat)
{
	char path[512];
	struct dirent *e;
	DIR *d;

	snprintf(path, sizeof(path), "%s/%s", root, sys);
	d = opendir(path);
	if (!d)
		return;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.' && !fnmatch(name_pat, e->d_name, 0) &&
		    has_id(root, sys, e->d_name))
			add_name(l, sys, e->d_name);
	closedir(d);
}

int
rec_tracepoints_matching(const char *sys_pat, const char *name_pat,
			 struct rec_tp_list *out)
{
	const char *root = events_root();
	struct dirent *e;
	DIR *d;

	memset(out, 0, sizeof(*out));
	if (!root || !(d = opendir(root)))
		return -1;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.' && !fnmatch(sys_pat, e->d_name, 0))
			match_events(out, root, e->d_name, name_pat);
	closedir(d);
	return 0;
}

void
rec_tp_list_free(struct rec_tp_list *l)
{
	for (size_t i = 0; i < l->nr; i++)
		free(l->names[i]);
	free(l->names);
	memset(l, 0, sizeof(*l));
}
