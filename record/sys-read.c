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
#include <limits.h>
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

int
rec_sys_read_int(const char *path, int *out)
{
	char *s;
	int err;

	err = rec_sys_read_line(path, &s);
	if (err)
		return err;
	*out = (int)strtol(s, NULL, 10);
	free(s);
	return 0;
}

int
rec_sys_read_hex(const char *path, uint64_t *out)
{
	char *s;
	int err;

	err = rec_sys_read_line(path, &s);
	if (err)
		return err;
	*out = strtoull(s, NULL, 16);
	free(s);
	return 0;
}

static int
cpulist_add(int **v, size_t *nr, size_t *cap, long lo, long hi)
{
	long c;

	if (lo < 0 || hi < lo || hi > INT_MAX || hi - lo > (1L << 20))
		return -EINVAL;
	for (c = lo; c <= hi; c++) {
		if (*nr == *cap) {
			*cap = *cap ? 2 * *cap : 16;
			*v = xreallocarray(*v, *cap, sizeof(**v));
		}
		(*v)[(*nr)++] = (int)c;
	}
	return 0;
}

static int
int_cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

int
rec_sys_parse_cpulist(const char *s, int **out, size_t *nr)
{
	size_t cap = 0, n = 0, i, j;
	int *v = NULL;

	while (*s && *s != '\n') {
		char *end;
		long lo, hi;

		if (!isdigit((unsigned char)*s))
			goto bad;
		lo = strtol(s, &end, 10);
		hi = lo;
		if (*end == '-') {
			s = end + 1;
			if (!isdigit((unsigned char)*s))
				goto bad;
			hi = strtol(s, &end, 10);
		}
		if (cpulist_add(&v, &n, &cap, lo, hi))
			goto bad;
		s = end;
		if (*s == ',')
			s++;
		else if (*s && *s != '\n')
			goto bad;
	}
	if (n)
		qsort(v, n, sizeof(*v), int_cmp);
	for (i = j = 0; i < n; i++)
		if (!j || v[j - 1] != v[i])
			v[j++] = v[i];
	*out = v;
	*nr = j;
	return 0;
bad:
	free(v);
	*out = NULL;
	*nr = 0;
	return -EINVAL;
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
