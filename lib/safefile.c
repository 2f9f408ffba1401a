/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * lib/safefile.c - open inputs without blocking or trusting them, write
 * outputs without clobbering what is at their path (doc/security.md).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/safefile.h"

const char *
sfile_strerror(int err)
{
	/* either sign: callers keep errno values positive or negative */
	if (err == SFILE_E_NOTREG || err == -SFILE_E_NOTREG)
		return "not a regular file";
	return strerror(err < 0 ? -err : err);
}

int
sfile_open_input(const char *path, int flags, struct stat *st)
{
	struct stat buf;
	int fd, err;

	if (!st)
		st = &buf;
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | flags);
	if (fd < 0)
		return errno == ELOOP && (flags & O_NOFOLLOW) ?
		       SFILE_E_NOTREG : -errno;
	if (fstat(fd, st) != 0) {
		err = -errno;
		close(fd);
		return err;
	}
	if (!S_ISREG(st->st_mode)) {
		close(fd);
		return S_ISDIR(st->st_mode) ? -EISDIR : SFILE_E_NOTREG;
	}
	/* reads of a regular file never block; clear it for the caller */
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0) {
		err = -errno;
		close(fd);
		return err;
	}
	return fd;
}

bool
sfile_owned(const struct stat *st)
{
	return st->st_uid == 0 || st->st_uid == geteuid();
}

bool
sfile_trusted(const struct stat *st)
{
	return sfile_owned(st) && !(st->st_mode & (S_IWGRP | S_IWOTH));
}

static int
target_check(const char *path, int how)
{
	struct stat st;

	if (lstat(path, &st) != 0)
		return errno == ENOENT ? 0 : -errno;
	if (!S_ISREG(st.st_mode))
		return SFILE_E_NOTREG;
	return how & SFILE_KEEP ? -EEXIST : 0;
}

static const char tmp_template[] = { 'X', 'X', 'X', 'X', 'X', 'X', 0 };

int
sfile_create(struct sfile_out *o, const char *path, mode_t mode, int how)
{
	mode_t mask;
	int ret;

	o->fd = -1;
	o->tmp = NULL;
	o->path = NULL;
	ret = target_check(path, how);
	if (ret)
		return ret;
	/* mkostemp(3)'s template: six X the name's random part */
	if (asprintf(&o->tmp, "%s.tmp%.6s", path, tmp_template) < 0) {
		o->tmp = NULL;
		return -ENOMEM;
	}
	o->path = strdup(path);
	if (!o->path) {
		sfile_abort(o);
		return -ENOMEM;
	}
	/* mkostemp(3): O_CREAT | O_EXCL, so no link is ever followed */
	o->fd = mkostemp(o->tmp, O_CLOEXEC);
	if (o->fd < 0) {
		ret = -errno;
		free(o->tmp);
		o->tmp = NULL;
		sfile_abort(o);
		return ret;
	}
	mask = umask(0);
	umask(mask);
	if (fchmod(o->fd, mode & ~mask) != 0) {
		ret = -errno;
		sfile_abort(o);
		return ret;
	}
	o->how = how;
	return o->fd;
}

/* SFILE_KEEP: link(2) fails on an existing target, rename(2) would not */
static int
put_in_place(struct sfile_out *o)
{
	int ret = target_check(o->path, o->how);

	if (ret)
		return ret;
	if (o->how & SFILE_KEEP) {
		if (link(o->tmp, o->path) != 0)
			return -errno;
		unlink(o->tmp);
		return 0;
	}
	return rename(o->tmp, o->path) != 0 ? -errno : 0;
}

int
sfile_commit(struct sfile_out *o)
{
	int ret = 0;

	if (o->fd >= 0 && close(o->fd) != 0)
		ret = -errno;
	o->fd = -1;
	if (!ret)
		ret = put_in_place(o);
	if (ret) {
		sfile_abort(o);
		return ret;
	}
	free(o->tmp);
	free(o->path);
	o->tmp = o->path = NULL;
	return 0;
}

void
sfile_abort(struct sfile_out *o)
{
	if (o->fd >= 0)
		close(o->fd);
	if (o->tmp)
		unlink(o->tmp);
	free(o->tmp);
	free(o->path);
	o->fd = -1;
	o->tmp = o->path = NULL;
}
