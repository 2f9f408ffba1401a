/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * record/sys-read.c - read small /proc and /sys files.
 *
 * procfs and sysfs files report a size of 0 or of a page, so they are
 * read until end of file, with a cap so that no file can make us
 * allocate without bound.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/xalloc.h"
#include "record/sys-int.h"

int
rec_sys_read_file(const char *path, char **out, size_t *len)
{
	size_t cap = 4096, n = 0;
	char *buf;
	int fd;

	*out = NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	buf = xmalloc(cap);
	for (;;) {
		ssize_t r;

		if (n + 1 >= cap) {
			if (cap >= REC_SYS_FILE_MAX) {
				free(buf);
				close(fd);
				return -EFBIG;
			}
			cap *= 2;
			buf = xrealloc(buf, cap);
		}
		r = read(fd, buf + n, cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int err = -errno;

			free(buf);
			close(fd);
			return err;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	buf[n] = '\0';
	*out = buf;
	if (len)
		*len = n;
	return 0;
}

int
rec_sys_read_line(const char *path, char **out)
{
	char *nl;
	int err;

	err = rec_sys_read_file(path, out, NULL);
	if (err)
		return err;
	nl = strchr(*out, '\n');
	if (nl)
		*nl = '\0';
	return 0;
}

int
rec_sys_read_trimmed(const char *path, char **out)
{
	char *s, *start, *end;
	int err;

	err = rec_sys_read_file(path, &s, NULL);
	if (err)
		return err;
	start = s;
	while (isspace((unsigned char)*start))
		start++;
	end = start + strlen(start);
	while (end > start && isspace((unsigned char)end[-1]))
		end--;
	*out = xstrndup(start, (size_t)(end - start));
	free(s);
	return 0;
}

/* The first line of path as strtoull() reads it in base. */
static int
read_ull(const char *path, int base, unsigned long long *out)
{
	char *s;
	int err;

	err = rec_sys_read_line(path, &s);
	if (err)
		return err;
	*out = strtoull(s, NULL, base);
	free(s);
	return 0;
}

int
rec_sys_read_int(const char *path, int *out)
{
	unsigned long long v;
	int err = read_ull(path, 10, &v);

	if (!err)
		*out = (int)v;
	return err;
}

int
rec_sys_read_hex(const char *path, uint64_t *out)
{
	unsigned long long v;
	int err = read_ull(path, 16, &v);

	if (!err)
		*out = v;
	return err;
}

int
rec_sys_list_max(const char *path, int *out)
{
	char *s, *p;
	int err;

	err = rec_sys_read_line(path, &s);
	if (err)
		return err;
	p = s + strlen(s);
	while (p > s && p[-1] != ',' && p[-1] != '-')
		p--;
	if (!isdigit((unsigned char)*p)) {
		free(s);
		return -EINVAL;
	}
	*out = (int)strtol(p, NULL, 10) + 1;
	free(s);
	return 0;
}
