/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * symbol/recording-id.c - the fingerprint that ties a symbol archive to
 * the recording it was made from (sym_opts.recording_id): a FILE.pdsym
 * left beside a newer FILE must not be applied to it.
 *
 * xxh64 over the file's size and its first and last 64 KiB: the header,
 * the attrs and the first records (pids, maps), and the feature sections
 * (capture time, SAMPLE_TIME in nanoseconds), which no two recordings
 * share.  Reading 128 KiB keeps it cheap on files of any size.
 */
#include "config.h"

#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <xxhash.h>

#include "lib/safefile.h"
#include "lib/xalloc.h"
#include "symbol/archive.h"

#define ID_SPAN	(64 * 1024)

static bool
hash_span(XXH64_state_t *h, int fd, off_t off, size_t len, char *buf)
{
	ssize_t n = pread(fd, buf, len, off);

	if (n != (ssize_t)len)
		return false;
	return XXH64_update(h, buf, len) != XXH_ERROR;
}

static char *
file_id(const char *path)
{
	XXH64_state_t *h;
	struct stat st;
	char *buf, *id = NULL;
	uint64_t size;
	size_t head, tail;
	int fd;

	fd = sfile_open_input(path, 0, &st);
	if (fd < 0)
		return NULL;
	size = (uint64_t)st.st_size;
	head = size < ID_SPAN ? (size_t)size : ID_SPAN;
	tail = head;
	buf = xmalloc(head ? head : 1);
	h = XXH64_createState();
	if (h && XXH64_reset(h, size) != XXH_ERROR &&
	    hash_span(h, fd, 0, head, buf) &&
	    hash_span(h, fd, (off_t)(size - tail), tail, buf) &&
	    asprintf(&id, "xxh64:%016" PRIx64 ":%" PRIu64,
		     (uint64_t)XXH64_digest(h), size) < 0)
		id = NULL;
	XXH64_freeState(h);
	free(buf);
	close(fd);
	return id;
}

char *
sym_archive_beside(const char *path)
{
	struct stat st;
	char *ar;

	if (!path || stat(path, &st) ||
	    (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)))
		return NULL;
	if (asprintf(&ar, "%s.pdsym", path) < 0)
		return NULL;
	if (stat(ar, &st) == 0 && !S_ISDIR(st.st_mode))
		return ar;
	free(ar);
	return NULL;
}

char *
sym_recording_id(const char *path)
{
	struct stat st;
	char *data, *id;

	if (!path || stat(path, &st))
		return NULL;
	if (S_ISREG(st.st_mode))
		return file_id(path);
	if (!S_ISDIR(st.st_mode))
		return NULL;
	/* a --threads directory: its header and features are in "data" */
	if (asprintf(&data, "%s/data", path) < 0)
		return NULL;
	id = file_id(data);
	free(data);
	return id;
}
