/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * symbol/dso-data.c - a DSO's bytes at a file offset, from the file perf
 * 6.1 reads them from (its dso__data_read_offset(), whose data file is
 * looked for apart from the symbols): the build-id cache's copy, else
 * the file at its recorded path under --symfs; for the vDSO the cached
 * copy, else, when the recording gave it no build-id (a pipe), the
 * host's own vDSO image, as perf's machine does (doc/perf-records.md
 * §5.5).  Unlike perf, a file whose
 * build-id differs from the DSO's is not read.  One descriptor per DSO,
 * opened on first read and kept until the context is freed.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/safefile.h"
#include "lib/xalloc.h"
#include "symbol/archive.h"
#include "symbol/sym-int.h"
#include "symbol/symbol.h"
#include "symbol/sym-dso.h"

/* path, when it is a regular file with the build-id bid (if known) */
static int
open_matching(char *path, const uint8_t *bid, size_t bid_size)
{
	uint8_t got[SYM_BUILD_ID_MAX];
	struct stat st;
	int fd, n;

	if (!path)
		return -1;
	fd = sfile_open_input(path, 0, &st);
	if (fd >= 0 && bid_size) {
		n = sym_elf_build_id(path, got);
		if (n <= 0 || (size_t)n != bid_size ||
		    memcmp(got, bid, bid_size)) {
			close(fd);
			fd = -1;
		}
	}
	free(path);
	return fd;
}

/* perf's try_to_open_dso(): the build-id cache, then the system path */
static int
data_open(struct sym_dso *dso)
{
	const uint8_t *bid = dso->bid_size ? dso->bid : dso->file_bid;
	size_t bid_size = dso->bid_size ? dso->bid_size : dso->file_bid_size;
	bool vdso = dso->kind == SYM_DSO_VDSO;
	int fd;

	fd = open_matching(sym_buildid_cache_path(dso->ctx, bid, bid_size,
						  vdso ? "vdso" : "elf"),
			   bid, bid_size);
	if (fd >= 0)
		return fd;
	/*
	 * A vDSO the recording gave no build-id for (a pipe) is perf's
	 * machine's own, the host's image; one listed in the file's build-id
	 * table stays "[vdso]", a name with no file behind it; a 32-bit
	 * process's [vdso32] is not the host's image
	 */
	if (vdso)
		return !dso->bid_size && sym_dso_is_host_vdso(dso) ?
			open_matching(xstrdup(sym_self_vdso_path()), NULL, 0) :
			-1;
	return open_matching(sym_join_symfs(dso->ctx, dso->long_name), bid,
			     bid_size);
}

/* The DSO's data descriptor, opened once; -errno when there is none. */
static int
data_fd(struct sym_dso *dso)
{
	int fd;

	/*
	 * Once opened, without the lock: another thread may hold it a long
	 * while (the DSO's DWARF loading for inline frames)
	 */
	if (__atomic_load_n(&dso->data_tried, __ATOMIC_ACQUIRE))
		return dso->data_fd >= 0 ? dso->data_fd : -ENOENT;
	/* the file's build-id, when none was recorded, is read by loading */
	sym_dso_load_quietly(dso);
	pthread_mutex_lock(&dso->lock);
	if (!dso->data_tried) {
		dso->data_fd = data_open(dso);
		__atomic_store_n(&dso->data_tried, true, __ATOMIC_RELEASE);
	}
	fd = dso->data_fd;
	pthread_mutex_unlock(&dso->lock);
	return fd >= 0 ? fd : -ENOENT;
}

/* data_fd() of a DSO that may have a data file; -ENOENT for the others */
static int
data_fd_of_kind(struct sym_dso *dso)
{
	if (dso->kind != SYM_DSO_FILE && dso->kind != SYM_DSO_VDSO)
		return -ENOENT;
	return data_fd(dso);
}

ssize_t
sym_dso_read(struct sym_dso *dso, uint64_t offset, void *buf, size_t len)
{
	size_t got = 0;
	ssize_t n;
	int fd = data_fd_of_kind(dso);

	if (fd < 0)
		return fd;
	if (offset > (uint64_t)INT64_MAX - len)
		return -EINVAL;
	while (got < len) {
		n = pread(fd, (char *)buf + got, len - got,
			  (off_t)(offset + got));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (!n)
			break;
		got += (size_t)n;
	}
	return (ssize_t)got;
}

int
sym_dso_data_dup(struct sym_dso *dso)
{
	int fd = data_fd_of_kind(dso);

	if (fd < 0)
		return fd;
	fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	return fd < 0 ? -errno : fd;
}

/* The archive entry's CFI as an ELF image in a memfd; -errno if none. */
static int
cfi_image_open(const struct sym_ar_dso *ent)
{
	unsigned char *image;
	size_t len, done = 0;
	ssize_t n;
	int fd, err;

	if (!ent || !ent->cfi)
		return -ENOENT;
	err = sym_ar_cfi_image(ent->cfi, &image, &len);
	if (err)
		return err;
	fd = memfd_create("pdata-cfi", MFD_CLOEXEC);
	while (fd >= 0 && done < len) {
		n = write(fd, image + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			close(fd);
			fd = -1;
			break;
		}
		done += (size_t)n;
	}
	err = fd < 0 ? -errno : 0;
	free(image);
	return fd < 0 ? (err ? err : -EIO) : fd;
}

int
sym_dso_unwind_dup(struct sym_dso *dso)
{
	int fd = sym_dso_data_dup(dso);

	if (fd >= 0 || !dso->ar_ent)
		return fd;
	pthread_mutex_lock(&dso->lock);
	if (!dso->cfi_tried) {
		dso->cfi_tried = true;
		dso->cfi_fd = cfi_image_open(dso->ar_ent);
	}
	fd = dso->cfi_fd;
	pthread_mutex_unlock(&dso->lock);
	if (fd < 0)
		return fd;
	fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	return fd < 0 ? -errno : fd;
}

const char *
sym_dso_debug_path(struct sym_dso *dso)
{
	const char *path;

	if (__atomic_load_n(&dso->debug_frame_tried, __ATOMIC_ACQUIRE))
		return dso->debug_frame_path;
	sym_dso_load_quietly(dso);
	pthread_mutex_lock(&dso->lock);
	if (!dso->debug_frame_tried) {
		if (!dso->ar_ent)
			dso->debug_frame_path = sym_dso_find_debug_frame(dso);
		__atomic_store_n(&dso->debug_frame_tried, true,
				 __ATOMIC_RELEASE);
	}
	path = dso->debug_frame_path;
	pthread_mutex_unlock(&dso->lock);
	return path;
}

bool
sym_dso_is_64_bit(struct sym_dso *dso)
{
	sym_dso_load_quietly(dso);
	return dso->is_64_bit;
}
