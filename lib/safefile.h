/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * lib/safefile.h - opening files that are not ours to trust, and writing
 * files without clobbering what is at their path (doc/security.md).
 *
 * Functions return 0 or a file descriptor, else -errno or
 * SFILE_E_NOTREG; sfile_strerror() names either.
 */
#ifndef PD_LIB_SAFEFILE_H
#define PD_LIB_SAFEFILE_H

#include <stdbool.h>
#include <sys/stat.h>
#include <sys/types.h>

/* Far below every -errno, and far from the format library's codes. */
#define SFILE_E_NOTREG	(-100000)

/* err: an errno value or SFILE_E_NOTREG, of either sign */
const char *sfile_strerror(int err);

/*
 * Open path read-only when it is a regular file: a FIFO or a device is
 * opened non-blocking, seen by fstat(2) and closed unread.  flags may
 * add O_NOFOLLOW.  st, if not NULL, receives the file's fstat(2).
 */
int sfile_open_input(const char *path, int flags, struct stat *st);

/* Owned by us (the effective user) or root: perf's test for its inputs. */
bool sfile_owned(const struct stat *st);

/* Owned as above and writable by no one else. */
bool sfile_trusted(const struct stat *st);

/*
 * A file written under a temporary name in its target's directory
 * (O_CREAT | O_EXCL | O_NOFOLLOW) and renamed over the target once
 * complete, so a reader never sees half of it and a symlink, FIFO or
 * device at the target is never written through.
 */
struct sfile_out {
	int fd;
	char *path;
	char *tmp;
	int how;
};

#define SFILE_KEEP	1	/* refuse an existing target (-EEXIST) */

/*
 * Create o's temporary file with mode (less the umask); a target that
 * exists and is not a regular file gives SFILE_E_NOTREG.
 */
int sfile_create(struct sfile_out *o, const char *path, mode_t mode,
		 int how);
/* Close the file and rename it into place; on error it is removed. */
int sfile_commit(struct sfile_out *o);
/* Close and remove the temporary file. */
void sfile_abort(struct sfile_out *o);

#endif /* PD_LIB_SAFEFILE_H */
