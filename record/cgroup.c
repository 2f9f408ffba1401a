/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * record/cgroup.c - -G/--cgroup: events counted only in a cgroup, as
 * perf 6.1 gives them (util/cgroup.c parse_cgroups()): the Nth name of
 * the -G lists goes to the Nth event of the list built so far, an empty
 * name skips one, and a single name in all goes to every event listed
 * before it.  The kernel takes the cgroup as a directory fd of the
 * perf_event hierarchy (cgroup v1's perf_event controller, else cgroup
 * v2), in place of a pid.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <mntent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/xalloc.h"
#include "record/record.h"

/* The perf_event hierarchy's mount point into buf; false: none. */
static bool
perf_event_mount(char *buf, size_t len)
{
	FILE *f = setmntent("/proc/self/mounts", "r");
	struct mntent *m;
	bool v1 = false, v2 = false;

	if (!f)
		return false;
	while ((m = getmntent(f)) && !v1) {
		if (!strcmp(m->mnt_type, "cgroup") &&
		    hasmntopt(m, "perf_event")) {
			snprintf(buf, len, "%s", m->mnt_dir);
			v1 = true;
		} else if (!strcmp(m->mnt_type, "cgroup2") && !v2) {
			snprintf(buf, len, "%s", m->mnt_dir);
			v2 = true;
		}
	}
	endmntent(f);
	return v1 || v2;
}

static int
cgroup_open(struct rec_event *ev, const char *name, char *why, size_t len)
{
	char mnt[512], path[1100];

	if (!perf_event_mount(mnt, sizeof(mnt))) {
		snprintf(why, len, "no perf_event cgroup hierarchy is mounted");
		return -1;
	}
	snprintf(path, sizeof(path), "%s/%s", mnt, name);
	ev->cgroup_fd = open(path, O_RDONLY | O_CLOEXEC);
	if (ev->cgroup_fd < 0) {
		snprintf(why, len, "no access to cgroup %s: %s", path,
			 strerror(errno));
		return -1;
	}
	ev->cgroup = xstrdup(name);
	return 0;
}

void
rec_event_cgroup_free(struct rec_event *ev)
{
	if (ev->cgroup_fd >= 0)
		close(ev->cgroup_fd);
	ev->cgroup_fd = -1;
	free(ev->cgroup);
	ev->cgroup = NULL;
}

int
rec_cgroups_apply(struct rec_evlist *list, const char *names,
		  size_t *nr_cgroups, char *why, size_t why_len)
{
	const char *p = names;

	if (!list->nr) {
		snprintf(why, why_len, "must define events before cgroups");
		return -1;
	}
	for (;;) {
		size_t n = strcspn(p, ",");

		if (n) {
			char *name = xstrndup(p, n);
			int err = 0;

			if (*nr_cgroups >= list->nr) {
				snprintf(why, why_len, "cgroup '%s' has no "
					 "event of its own (one name per "
					 "event, in order)", name);
				err = -1;
			} else {
				/* a later name takes the place of one given */
				rec_event_cgroup_free(&list->ev[*nr_cgroups]);
				err = cgroup_open(&list->ev[*nr_cgroups],
						  name, why, why_len);
			}
			free(name);
			if (err)
				return -1;
		}
		(*nr_cgroups)++;
		if (!p[n])
			break;
		p += n + 1;
	}
	/* one cgroup in all: every event listed so far is in it */
	if (*nr_cgroups == 1 && list->ev[0].cgroup)
		for (size_t i = 1; i < list->nr; i++)
			if (!list->ev[i].cgroup &&
			    cgroup_open(&list->ev[i], list->ev[0].cgroup, why,
					why_len))
				return -1;
	return 0;
}
