/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * format/dir.c - the directory that `perf record --threads` writes.
 *
 * data holds the header, the attrs, the synthesized records and the
 * features (DIR_FORMAT among them); each data.N holds one ring buffer's
 * records with no header of its own (doc/perf-data-format.md §12).
 * Without DIR_FORMAT only data is read.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "format/reader-int.h"

static int
cmp_data_index(const void *a, const void *b)
{
	unsigned long x = strtoul(*(char *const *)a + 5, NULL, 10);
	unsigned long y = strtoul(*(char *const *)b + 5, NULL, 10);

	return x < y ? -1 : x > y;
}

static bool
is_data_file_name(const char *name)
{
	const char *p = name + 5;

	if (strncmp(name, "data.", 5) || !*p)
		return false;
	for (; *p; p++)
		if (*p < '0' || *p > '9')
			return false;
	return true;
}

static void
free_names(char **names, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		free(names[i]);
	free(names);
}

static int
list_data_files(struct pd_reader *r, const char *path, char ***names, size_t *nr)
{
	DIR *dir = opendir(path);
	struct dirent *de;
	int err = 0;

	*names = NULL;
	*nr = 0;
	if (!dir)
		return pd_rd_fail(r, PD_ERR_ERRNO(errno), UINT64_MAX, "cannot list the directory");
	while (!err && (de = readdir(dir))) {
		char **grown;

		if (!is_data_file_name(de->d_name))
			continue;
		if (*nr >= PD_MAX_DIR_FILES) {
			err = pd_rd_fail(r, -PD_E_TOO_BIG, UINT64_MAX,
				      "more than %u data files", PD_MAX_DIR_FILES);
			break;
		}
		grown = realloc(*names, (*nr + 1) * sizeof(**names));
		if (!grown) {
			err = pd_rd_fail(r, -PD_E_NOMEM, UINT64_MAX, "out of memory");
			break;
		}
		*names = grown;
		grown[*nr] = strdup(de->d_name);
		if (!grown[*nr])
			err = pd_rd_fail(r, -PD_E_NOMEM, UINT64_MAX, "out of memory");
		else
			(*nr)++;
	}
	closedir(dir);
	if (err) {
		free_names(*names, *nr);
		*names = NULL;
		*nr = 0;
		return err;
	}
	qsort(*names, *nr, sizeof(**names), cmp_data_index);
	return 0;
}

/* data.N in numeric order, each a source of its own */
static int
open_data_files(struct pd_reader *r, const char *path)
{
	char **names;
	size_t nr, i;
	int err;

	err = list_data_files(r, path, &names, &nr);
	if (err)
		return err;
	if (!pd_meta_has(&r->meta, PD_FEAT_DIR_FORMAT)) {
		free_names(names, nr);
		return 0;
	}
	if (nr) {
		struct pd_source *sources = realloc(r->sources, (1 + nr) * sizeof(*sources));

		if (!sources)
			err = pd_rd_fail(r, -PD_E_NOMEM, UINT64_MAX, "out of memory");
		else
			r->sources = sources;
		for (i = 1; !err && i <= nr; i++) {
			memset(&r->sources[i], 0, sizeof(r->sources[i]));
			r->sources[i].fd = -1;
		}
	}
	for (i = 0; i < nr && !err; i++) {
		struct pd_source *src = &r->sources[r->nr_sources];
		struct stat st;
		char *full;

		if (asprintf(&full, "%s/%s", path, names[i]) < 0) {
			err = pd_rd_fail(r, -PD_E_NOMEM, UINT64_MAX, "out of memory");
			break;
		}
		/* never open a FIFO or a device: that could block or read forever */
		if (stat(full, &st) < 0 || !S_ISREG(st.st_mode)) {
			free(full);
			err = pd_rd_fail(r, -PD_E_BAD_DIR, UINT64_MAX,
				      "%s is not a regular file", names[i]);
			break;
		}
		err = pd_src_open_path(r, src, full, names[i]);
		free(full);
		r->nr_sources++;
		src->pos = 0;
		src->strict = false;
	}
	free_names(names, nr);
	return err;
}

int
pd_dir_open(struct pd_reader *r, const char *path)
{
	struct stat st;
	char *data;
	int err;

	if (asprintf(&data, "%s/data", path) < 0)
		return pd_rd_fail(r, -PD_E_NOMEM, UINT64_MAX, "out of memory");
	if (stat(data, &st) < 0 || !S_ISREG(st.st_mode)) {
		free(data);
		return pd_rd_fail(r, -PD_E_BAD_DIR, UINT64_MAX,
			       "a directory without a readable data file");
	}
	err = pd_src_open_path(r, &r->sources[0], data, data);
	free(data);
	if (!err)
		err = pd_hdr_read(r);
	if (err)
		return err;
	if (r->info.mode != PD_MODE_FILE)
		return pd_rd_fail(r, -PD_E_BAD_DIR, UINT64_MAX,
			       "its data file is not a file-mode perf.data");
	r->info.mode = PD_MODE_DIR;
	return open_data_files(r, path);
}
