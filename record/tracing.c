/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * record/tracing.c - the TRACING_DATA blob that lets perf script and
 * libtraceevent decode the raw data of tracepoint samples, laid out as
 * perf 6.1 writes it (doc/perf-data-format.md §5.1; the facts come from
 * tools/perf/util/trace-event-info.c): a header, tracefs's header_page
 * and header_event, the format files of the recorded events, an empty
 * kallsyms, printk_formats and saved_cmdlines.
 *
 * perf selects format files by name only: in the ftrace system and in
 * every recorded system, each event directory whose name is the name of
 * any recorded tracepoint is included.  Directory order is readdir's.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/xalloc.h"
#include "record/synth-int.h"
#include "record/sys-int.h"
#include "record/sys.h"

/* perf 6.1 writes version 0.6: saved_cmdlines follow printk_formats. */
#define TRACING_VERSION	"0.6"

struct tp_name {
	char *system;
	char *name;
};

static const char *
tracing_dir(void)
{
	static const char *const dirs[] = {
		"/sys/kernel/tracing", "/sys/kernel/debug/tracing",
	};
	size_t i;

	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		char path[64];

		snprintf(path, sizeof(path), "%s/events", dirs[i]);
		if (access(path, F_OK) == 0)
			return dirs[i];
	}
	return NULL;
}

/* A file's bytes preceded by their count in size_len (4 or 8) bytes. */
static int
put_file(struct pd_wbuf *b, const char *path, size_t size_len)
{
	size_t len;
	char *text;
	int err;

	err = rec_sys_read_file(path, &text, &len);
	if (err)
		return err;
	if (size_len == 4) {
		if (len > UINT32_MAX) {
			free(text);
			return -EFBIG;
		}
		pd_wbuf_u32(b, (uint32_t)len);
	} else {
		pd_wbuf_u64(b, len);
	}
	pd_wbuf_bytes(b, text, len);
	free(text);
	return 0;
}

/* An optional file: its size 0 when it does not exist. */
static int
put_optional(struct pd_wbuf *b, const char *path, size_t size_len)
{
	struct stat st;

	if (stat(path, &st) < 0) {
		pd_wbuf_zeros(b, size_len);
		return 0;
	}
	return put_file(b, path, size_len);
}

static void
put_header(struct pd_wbuf *b)
{
	static const unsigned char magic[3] = { 23, 8, 68 };
	uint16_t probe = 1;
	long page = sysconf(_SC_PAGESIZE);

	pd_wbuf_bytes(b, magic, sizeof(magic));
	pd_wbuf_bytes(b, "tracing", 7);
	pd_wbuf_bytes(b, TRACING_VERSION, sizeof(TRACING_VERSION));
	pd_wbuf_bytes(b, &(uint8_t){ *(uint8_t *)&probe == 0 }, 1);
	pd_wbuf_bytes(b, &(uint8_t){ sizeof(long) }, 1);
	pd_wbuf_u32(b, page > 0 ? (uint32_t)page : 4096);
}

static bool
tp_has_name(const struct tp_name *tps, size_t nr, const char *name)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (!strcmp(tps[i].name, name))
			return true;
	return false;
}

static bool
tp_has_system(const struct tp_name *tps, size_t nr, const char *sys)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (!strcmp(tps[i].system, sys))
			return true;
	return false;
}

static bool
is_subdir(const struct dirent *d)
{
	return d->d_type == DT_DIR && strcmp(d->d_name, ".") &&
	       strcmp(d->d_name, "..");
}

/* The count, then the format files of the events of one system. */
static int
put_system(struct pd_wbuf *b, const char *dir, const struct tp_name *tps,
	   size_t nr)
{
	char path[4096];
	struct dirent *d;
	struct stat st;
	uint32_t count = 0;
	DIR *dp;
	int err = 0;

	dp = opendir(dir);
	if (!dp)
		return -errno;
	while ((d = readdir(dp)))
		if (is_subdir(d) && tp_has_name(tps, nr, d->d_name) &&
		    (size_t)snprintf(path, sizeof(path), "%s/%s/format", dir,
				     d->d_name) < sizeof(path) &&
		    stat(path, &st) == 0)
			count++;
	pd_wbuf_u32(b, count);
	rewinddir(dp);
	while (!err && (d = readdir(dp)))
		if (is_subdir(d) && tp_has_name(tps, nr, d->d_name) &&
		    (size_t)snprintf(path, sizeof(path), "%s/%s/format", dir,
				     d->d_name) < sizeof(path) &&
		    stat(path, &st) == 0)
			err = put_file(b, path, 8);
	closedir(dp);
	return err;
}

static int
put_systems(struct pd_wbuf *b, const char *events, const struct tp_name *tps,
	    size_t nr)
{
	char path[4096];
	struct dirent *d;
	uint32_t count = 0;
	DIR *dp;
	int err = 0;

	dp = opendir(events);
	if (!dp)
		return -errno;
	while ((d = readdir(dp)))
		if (is_subdir(d) && strcmp(d->d_name, "ftrace") &&
		    tp_has_system(tps, nr, d->d_name))
			count++;
	pd_wbuf_u32(b, count);
	rewinddir(dp);
	while (!err && (d = readdir(dp))) {
		struct stat st;

		if (!is_subdir(d) || !strcmp(d->d_name, "ftrace") ||
		    !tp_has_system(tps, nr, d->d_name))
			continue;
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", events,
				     d->d_name) >= sizeof(path) ||
		    stat(path, &st) < 0)
			continue;
		pd_wbuf_bytes(b, d->d_name, strlen(d->d_name) + 1);
		err = put_system(b, path, tps, nr);
	}
	closedir(dp);
	return err;
}

static int
put_all(struct pd_wbuf *b, const char *dir, const struct tp_name *tps,
	size_t nr)
{
	char path[4096];
	int err;

	put_header(b);
	pd_wbuf_bytes(b, "header_page", 12);
	snprintf(path, sizeof(path), "%s/events/header_page", dir);
	err = put_file(b, path, 8);
	if (err)
		return err;
	pd_wbuf_bytes(b, "header_event", 13);
	snprintf(path, sizeof(path), "%s/events/header_event", dir);
	err = put_file(b, path, 8);
	if (err)
		return err;
	snprintf(path, sizeof(path), "%s/events/ftrace", dir);
	err = put_system(b, path, tps, nr);
	if (err)
		return err;
	snprintf(path, sizeof(path), "%s/events", dir);
	err = put_systems(b, path, tps, nr);
	if (err)
		return err;
	/* perf writes an empty kallsyms: readers take the file's own maps */
	pd_wbuf_u32(b, 0);
	snprintf(path, sizeof(path), "%s/printk_formats", dir);
	err = put_optional(b, path, 4);
	if (err)
		return err;
	snprintf(path, sizeof(path), "%s/saved_cmdlines", dir);
	return put_optional(b, path, 8);
}

int
rec_tracing_data(const char *const *tracepoints, size_t nr, void **buf,
		 size_t *len)
{
	struct pd_wbuf b = { 0 };
	struct tp_name *tps;
	const char *dir;
	size_t i;
	int err;

	*buf = NULL;
	*len = 0;
	if (!nr)
		return -EINVAL;
	dir = tracing_dir();
	if (!dir)
		return -ENOENT;
	tps = xcalloc(nr, sizeof(*tps));
	for (i = 0; i < nr; i++) {
		const char *colon = strchr(tracepoints[i], ':');

		if (!colon || colon == tracepoints[i] || !colon[1]) {
			nr = i;
			err = -EINVAL;
			goto out;
		}
		tps[i].system = xstrndup(tracepoints[i],
					 (size_t)(colon - tracepoints[i]));
		tps[i].name = xstrdup(colon + 1);
	}
	err = put_all(&b, dir, tps, nr);
	if (!err && b.nomem)
		err = -ENOMEM;
out:
	for (i = 0; i < nr; i++) {
		free(tps[i].system);
		free(tps[i].name);
	}
	free(tps);
	if (err) {
		free(b.p);
		return err;
	}
	*buf = b.p;
	*len = b.len;
	return 0;
}
