/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * tests/unit/test-safefile.c - lib/safefile.c: inputs that are not
 * regular files are refused without blocking; outputs are written under
 * a temporary name, never through a symlink, FIFO or device.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/safefile.h"
#include "tests/unit/t.h"

static char dir[512];

static char *
at(const char *name)
{
	static char path[1024];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return path;
}

static void
put(const char *name, const char *text)
{
	int fd = open(at(name), O_WRONLY | O_CREAT | O_TRUNC, 0644);

	T(fd >= 0 && write(fd, text, strlen(text)) == (ssize_t)strlen(text),
	  "cannot write %s", name);
	if (fd >= 0)
		close(fd);
}

static void
test_inputs(void)
{
	struct stat st;
	int fd;

	put("reg", "data");
	fd = sfile_open_input(at("reg"), 0, &st);
	T(fd >= 0 && st.st_size == 4, "a regular file: %d", fd);
	T(fd < 0 || !(fcntl(fd, F_GETFL) & O_NONBLOCK),
	  "O_NONBLOCK left on a regular file");
	if (fd >= 0)
		close(fd);
	T(mkfifo(at("fifo"), 0600) == 0, "mkfifo");
	/* blocks forever unless opened non-blocking */
	T_EQ_U64(sfile_open_input(at("fifo"), 0, NULL), SFILE_E_NOTREG,
		 "a FIFO");
	T_EQ_U64(sfile_open_input("/dev/null", 0, NULL), SFILE_E_NOTREG,
		 "a device");
	T_EQ_U64(sfile_open_input(dir, 0, NULL), -EISDIR, "a directory");
	T_EQ_U64(sfile_open_input(at("none"), 0, NULL), -ENOENT, "missing");
	T(symlink("reg", at("link")) == 0, "symlink");
	fd = sfile_open_input(at("link"), 0, NULL);
	T(fd >= 0, "a symlink to a regular file is followed without O_NOFOLLOW");
	if (fd >= 0)
		close(fd);
	T_EQ_U64(sfile_open_input(at("link"), O_NOFOLLOW, NULL),
		 SFILE_E_NOTREG, "a symlink with O_NOFOLLOW");
	T_EQ_STR(sfile_strerror(SFILE_E_NOTREG), "not a regular file", "text");
	T_EQ_STR(sfile_strerror(-SFILE_E_NOTREG), "not a regular file",
		 "text, positive");
}

static void
test_outputs(void)
{
	struct sfile_out o;
	struct stat st;
	char buf[16] = "";
	int fd;

	/* a new file appears only at commit, with the mode asked */
	fd = sfile_create(&o, at("out"), 0600, 0);
	T(fd >= 0, "create: %d", fd);
	T(fd < 0 || write(fd, "new", 3) == 3, "write");
	T(access(at("out"), F_OK) != 0, "the target exists before commit");
	T(sfile_commit(&o) == 0, "commit");
	T(stat(at("out"), &st) == 0 && (st.st_mode & 0777) == 0600,
	  "mode %o", (unsigned int)st.st_mode & 0777);
	/* replaced whole; SFILE_KEEP refuses it */
	fd = sfile_create(&o, at("out"), 0600, SFILE_KEEP);
	T_EQ_U64(fd, -EEXIST, "SFILE_KEEP on an existing file");
	fd = sfile_create(&o, at("out"), 0600, 0);
	T(fd >= 0 && write(fd, "newer", 5) == 5, "rewrite");
	sfile_abort(&o);
	fd = open(at("out"), O_RDONLY);
	T(fd >= 0 && read(fd, buf, sizeof(buf) - 1) == 3 && !strcmp(buf, "new"),
	  "an aborted write changed the target: '%s'", buf);
	if (fd >= 0)
		close(fd);
	/* never through a symlink, FIFO or device */
	T_EQ_U64(sfile_create(&o, at("link"), 0600, 0), SFILE_E_NOTREG,
		 "a symlink at the target");
	T_EQ_U64(sfile_create(&o, at("fifo"), 0600, 0), SFILE_E_NOTREG,
		 "a FIFO at the target");
	T_EQ_U64(sfile_create(&o, "/dev/null", 0600, 0), SFILE_E_NOTREG,
		 "a device at the target");
	T(lstat(at("link"), &st) == 0 && S_ISLNK(st.st_mode),
	  "the symlink was replaced");
}

int
main(void)
{
	if (!t_tmpdir("safefile", dir, sizeof(dir)))
		return 99;
	test_inputs();
	test_outputs();
	t_tmpdir_remove(dir);
	return t_done("test-safefile");
}
