/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * symbol/perf-tar.c - perf archive's tarball of build-id cache entries.
 *
 * perf-archive.sh (perf 6.1) lists, for each build-id, the link
 * ".build-id/xx/rest" and the directory that link resolves to, both
 * relative to the cache directory, and runs `tar cjf OUT -C DIR -T LIST`:
 * a bzip2-compressed GNU tar in which the link stays a symlink and the
 * directory is stored with everything under it.  Files met twice (one
 * inode) are stored once and then as hard links, as GNU tar does.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <archive.h>
#include <archive_entry.h>

#include "lib/dynlib.h"
#include "lib/safefile.h"
#include "symbol/buildid-cache.h"
#include "symbol/symbol.h"

/* libarchive, loaded when a tarball is first written (lib/dynlib.h) */
#define LA_FUNCS(X) \
	X(archive_entry_copy_pathname) X(archive_entry_copy_sourcepath) \
	X(archive_entry_filetype) X(archive_entry_free) \
	X(archive_entry_hardlink) X(archive_entry_linkify) \
	X(archive_entry_linkresolver_free) X(archive_entry_linkresolver_new) \
	X(archive_entry_linkresolver_set_strategy) X(archive_entry_new) \
	X(archive_entry_size) X(archive_entry_sparse_clear) \
	X(archive_entry_xattr_clear) X(archive_errno) X(archive_error_string) \
	X(archive_read_disk_entry_from_file) X(archive_read_disk_new) \
	X(archive_read_disk_set_behavior) \
	X(archive_read_disk_set_standard_lookup) \
	X(archive_read_disk_set_symlink_physical) X(archive_read_free) \
	X(archive_write_add_filter_bzip2) X(archive_write_close) \
	X(archive_write_data) X(archive_write_free) X(archive_write_header) \
	X(archive_write_new) X(archive_write_open_fd) \
	X(archive_write_set_format_gnutar)
static struct {
	LA_FUNCS(DYNLIB_FIELD)
} la;
static const char *la_why;	/* why it could not be loaded */
static bool la_loaded;

static bool
la_load(void)
{
	void *h;

	if (la_loaded || la_why)
		return la_loaded;
	h = dynlib_open(ARCHIVE_SONAME, &la_why);
	if (!h)
		return false;
#define LA_SYM(name) dynlib_sym(h, #name, &la.name) &&
	la_loaded = LA_FUNCS(LA_SYM) true;
#undef LA_SYM
	if (!la_loaded)
		la_why = "a function is missing from " ARCHIVE_SONAME;
	return la_loaded;
}

/* deeper than any cache entry perf makes; a guard against loops */
#define TAR_MAX_DEPTH 32

struct tar_ctx {
	struct archive *ar;		/* the tarball */
	struct archive *disk;		/* metadata of files on disk */
	struct archive_entry_linkresolver *links;
	const char *out;
	struct sfile_out file;		/* out, under a temporary name */
	char *err;
	size_t errsz;
};

static int
tar_fail(struct tar_ctx *t, int e, const char *what, const char *path)
{
	snprintf(t->err, t->errsz, "%s %s: %s", what, path, sfile_strerror(e));
	return -e;
}

static int
tar_ar_fail(struct tar_ctx *t, struct archive *a, const char *path)
{
	const char *msg = la.archive_error_string(a);
	int e = la.archive_errno(a) > 0 ? la.archive_errno(a) : EIO;

	snprintf(t->err, t->errsz, "cannot write %s to %s: %s", path, t->out,
		 msg ? msg : strerror(e));
	return -e;
}

/* The first size bytes of the file (the size its header gave). */
static int
tar_data(struct tar_ctx *t, const char *path, int64_t size)
{
	char buf[65536];
	int fd = sfile_open_input(path, O_NOFOLLOW, NULL);
	int r = 0;

	if (fd < 0)
		return tar_fail(t, -fd, "cannot read", path);
	while (size > 0) {
		size_t want = size < (int64_t)sizeof(buf) ? (size_t)size :
			      sizeof(buf);
		ssize_t n = read(fd, buf, want);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			r = tar_fail(t, errno, "cannot read", path);
			break;
		}
		if (n == 0) {
			r = tar_fail(t, EIO, "file shrank while archiving",
				     path);
			break;
		}
		if (la.archive_write_data(t->ar, buf, (size_t)n) < 0) {
			r = tar_ar_fail(t, t->ar, path);
			break;
		}
		size -= n;
	}
	close(fd);
	return r;
}

/* Write one header (and data), through the hard-link resolver. */
static int
tar_put(struct tar_ctx *t, struct archive_entry *e, const char *path)
{
	struct archive_entry *spare = NULL;
	int64_t size;
	int r = 0;

	la.archive_entry_linkify(t->links, &e, &spare);
	if (!e)
		return 0;
	size = la.archive_entry_size(e);
	if (la.archive_write_header(t->ar, e) < ARCHIVE_WARN)
		return tar_ar_fail(t, t->ar, path);
	if (la.archive_entry_filetype(e) == AE_IFREG && size > 0 &&
	    !la.archive_entry_hardlink(e))
		r = tar_data(t, path, size);
	if (spare)
		la.archive_entry_free(spare);
	return r;
}

static int tar_add(struct tar_ctx *t, const char *path, const char *name,
		   int depth);

/* A directory's entries, in readdir order as GNU tar's default. */
static int
tar_add_dir(struct tar_ctx *t, const char *path, const char *name,
	    int depth)
{
	DIR *d;
	struct dirent *de;
	int r = 0;

	if (depth >= TAR_MAX_DEPTH)
		return tar_fail(t, ELOOP, "cannot archive", path);
	d = opendir(path);
	if (!d)
		return tar_fail(t, errno, "cannot read", path);
	while (r == 0 && (de = readdir(d))) {
		char *cpath, *cname;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (asprintf(&cpath, "%s/%s", path, de->d_name) < 0)
			cpath = NULL;
		if (asprintf(&cname, "%s/%s", name, de->d_name) < 0)
			cname = NULL;
		if (cpath && cname)
			r = tar_add(t, cpath, cname, depth + 1);
		else
			r = tar_fail(t, ENOMEM, "cannot archive", path);
		free(cpath);
		free(cname);
	}
	closedir(d);
	return r;
}

/* path on disk, stored as name; directories with what they hold. */
static int
tar_add(struct tar_ctx *t, const char *path, const char *name, int depth)
{
	struct archive_entry *e;
	struct stat st;
	int r;

	if (lstat(path, &st) != 0)
		return tar_fail(t, errno, "cannot archive", path);
	if (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode) &&
	    !S_ISLNK(st.st_mode))
		return 0;
	e = la.archive_entry_new();
	if (!e)
		return tar_fail(t, ENOMEM, "cannot archive", path);
	la.archive_entry_copy_sourcepath(e, path);
	la.archive_entry_copy_pathname(e, path);
	if (la.archive_read_disk_entry_from_file(t->disk, e, -1, &st) <
	    ARCHIVE_WARN) {
		r = tar_ar_fail(t, t->disk, path);
		la.archive_entry_free(e);
		return r;
	}
	/* GNU tar stores neither holes nor extended attributes by default */
	la.archive_entry_sparse_clear(e);
	la.archive_entry_xattr_clear(e);
	la.archive_entry_copy_pathname(e, name);
	r = tar_put(t, e, path);
	la.archive_entry_free(e);
	if (r == 0 && S_ISDIR(st.st_mode))
		r = tar_add_dir(t, path, name, depth);
	return r;
}

/*
 * The .build-id link of ref and the entry directory it resolves to,
 * relative to the real cache directory rdir; 1 when not in the cache.
 */
static int
tar_ref_paths(struct tar_ctx *t, const char *dir, const char *rdir,
	      const struct sym_cache_ref *ref, char **link, char **target)
{
	char hex[2 * SYM_BUILD_ID_MAX + 1];
	size_t n = strlen(rdir);
	struct stat st;
	char *real;

	*link = *target = NULL;
	if (ref->bid_size < 2 || ref->bid_size > SYM_BUILD_ID_MAX)
		return 1;
	sym_build_id_hex(ref->bid, ref->bid_size, hex);
	if (asprintf(link, "%s/.build-id/%.2s/%s", dir, hex, hex + 2) < 0) {
		*link = NULL;
		return tar_fail(t, ENOMEM, "cannot archive", dir);
	}
	real = realpath(*link, NULL);
	if (!real || lstat(*link, &st) != 0 || strncmp(real, rdir, n) ||
	    real[n] != '/') {
		free(real);
		free(*link);
		*link = NULL;
		return 1;
	}
	*target = real;
	return 0;
}

static int
tar_refs(struct tar_ctx *t, const char *dir, const struct sym_cache_ref *refs,
	 size_t nr_refs, size_t *missing, size_t *added)
{
	char *rdir = realpath(dir, NULL);
	size_t n, i;
	int r = 0;

	if (!rdir)
		return tar_fail(t, errno, "cannot read", dir);
	n = strlen(rdir);
	for (i = 0; r == 0 && i < nr_refs; i++) {
		char *link, *target;

		r = tar_ref_paths(t, dir, rdir, &refs[i], &link, &target);
		if (r == 1) {
			(*missing)++;
			r = 0;
			continue;
		}
		if (r == 0)
			r = tar_add(t, link, link + strlen(dir) + 1, 0);
		if (r == 0)
			r = tar_add(t, target, target + n + 1, 0);
		if (r == 0)
			(*added)++;
		free(link);
		free(target);
	}
	free(rdir);
	return r;
}

/* What archive_read_disk may skip reading: GNU tar stores none of it. */
static int
tar_disk_behavior(void)
{
	int flags = 0;

#ifdef ARCHIVE_READDISK_NO_XATTR
	flags |= ARCHIVE_READDISK_NO_XATTR;
#endif
#ifdef ARCHIVE_READDISK_NO_ACL
	flags |= ARCHIVE_READDISK_NO_ACL;
#endif
#ifdef ARCHIVE_READDISK_NO_FFLAGS
	flags |= ARCHIVE_READDISK_NO_FFLAGS;
#endif
#ifdef ARCHIVE_READDISK_NO_SPARSE
	flags |= ARCHIVE_READDISK_NO_SPARSE;
#endif
	return flags;
}

static int
tar_open(struct tar_ctx *t)
{
	int r;

	t->ar = la.archive_write_new();
	t->disk = la.archive_read_disk_new();
	t->links = la.archive_entry_linkresolver_new();
	if (!t->ar || !t->disk || !t->links)
		return tar_fail(t, ENOMEM, "cannot write", t->out);
	la.archive_entry_linkresolver_set_strategy(t->links,
						ARCHIVE_FORMAT_TAR_GNUTAR);
	if (la.archive_read_disk_set_behavior(t->disk, tar_disk_behavior()) !=
	    ARCHIVE_OK ||
	    la.archive_read_disk_set_standard_lookup(t->disk) != ARCHIVE_OK ||
	    la.archive_read_disk_set_symlink_physical(t->disk) != ARCHIVE_OK)
		return tar_ar_fail(t, t->disk, t->out);
	if (la.archive_write_add_filter_bzip2(t->ar) != ARCHIVE_OK ||
	    la.archive_write_set_format_gnutar(t->ar) != ARCHIVE_OK)
		return tar_ar_fail(t, t->ar, t->out);
	/* 0600 like perf.data: it holds binaries and kernel addresses */
	r = sfile_create(&t->file, t->out, 0600, 0);
	if (r < 0)
		return tar_fail(t, -r, "cannot create", t->out);
	if (la.archive_write_open_fd(t->ar, t->file.fd) != ARCHIVE_OK)
		return tar_fail(t, la.archive_errno(t->ar) > 0 ?
				la.archive_errno(t->ar) : EIO, "cannot create",
				t->out);
	return 0;
}

static int
tar_close(struct tar_ctx *t, int r)
{
	if (t->ar) {
		if (la.archive_write_close(t->ar) != ARCHIVE_OK && r == 0)
			r = tar_ar_fail(t, t->ar, t->out);
		la.archive_write_free(t->ar);
	}
	if (t->disk)
		la.archive_read_free(t->disk);
	if (t->links)
		la.archive_entry_linkresolver_free(t->links);
	return r;
}

int
sym_perf_tar_write(const char *out, const char *dir,
		   const struct sym_cache_ref *refs, size_t nr_refs,
		   size_t *missing, char *err, size_t errsz)
{
	struct tar_ctx t = {
		.out = out,
		.file = { .fd = -1 },
		.err = err,
		.errsz = errsz,
	};
	size_t nmiss = 0, added = 0;
	int r;

	if (!out || !dir || !dir[0]) {
		snprintf(err, errsz, "perf archive: no %s",
			 out ? "build-id cache directory" : "output file");
		return -EINVAL;
	}
	if (!la_load()) {
		snprintf(err, errsz, "perf archive: cannot load %s: %s",
			 ARCHIVE_SONAME, la_why);
		return -ENOSYS;
	}
	r = tar_open(&t);
	if (r == 0)
		r = tar_refs(&t, dir, refs, nr_refs, &nmiss, &added);
	if (r == 0 && !added) {
		snprintf(err, errsz, "perf archive: none of the %zu build-ids "
			 "is in the build-id cache %s", nr_refs, dir);
		r = -ENOENT;
	}
	r = tar_close(&t, r);
	if (r == 0) {
		r = sfile_commit(&t.file);
		if (r < 0)
			tar_fail(&t, -r, "cannot write", out);
	}
	sfile_abort(&t.file);
	if (missing)
		*missing = nmiss;
	return r;
}
