/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * record/keep-old.c - make room for OUTPUT.old, as perf 6.1's
 * check_backup() and rm_rf_perf_data() do (tools/perf/util/data.c,
 * util.c): a file goes, a directory goes only when it holds nothing but
 * a recording's data and data.* files, so that nothing else is lost.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/xalloc.h"
#include "record/record.h"

static bool
is_data_name(const char *name)
{
	return !strcmp(name, "data") || !fnmatch("data.*", name, 0);
}

static bool
is_dot(const char *name)
{
	return !strcmp(name, ".") || !strcmp(name, "..");
}

/* Whether every entry of dir is a data file; errno set when unreadable. */
static int
dir_holds_only_data(const char *path, bool *only)
{
	DIR *dir = opendir(path);
	struct dirent *d;

	*only = true;
	if (!dir)
		return -1;
	while ((d = readdir(dir)))
		if (!is_dot(d->d_name) && !is_data_name(d->d_name))
			*only = false;
	closedir(dir);
	return 0;
}

/* Its data files, then the directory (a directory inside stays, as perf's). */
static int
dir_remove(const char *path)
{
	DIR *dir = opendir(path);
	struct dirent *d;
	int err = 0;

	if (!dir)
		return -1;
	while (!err && (d = readdir(dir))) {
		size_t len = strlen(path) + strlen(d->d_name) + 2;
		char *full;
		struct stat st;

		if (is_dot(d->d_name))
			continue;
		full = xmalloc(len);
		snprintf(full, len, "%s/%s", path, d->d_name);
		if (lstat(full, &st))
			err = -1;
		else if (!S_ISDIR(st.st_mode))
			err = unlink(full);
		free(full);
	}
	closedir(dir);
	return err ? err : rmdir(path);
}

int
rec_old_remove(const char *path, char *why, size_t len)
{
	struct stat st;
	bool only = true;
	int err;

	if (lstat(path, &st))
		return 0;
	if (!S_ISDIR(st.st_mode))
		err = unlink(path);
	else
		err = dir_holds_only_data(path, &only);
	if (!err && !only) {
		snprintf(why, len, "Unknown file found");
		return -1;
	}
	if (!err && S_ISDIR(st.st_mode))
		err = dir_remove(path);
	if (err)
		snprintf(why, len, "%s", strerror(errno));
	return err ? -1 : 0;
}
