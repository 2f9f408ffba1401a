/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * record/archive.c - precord --archive and --perf-archive: once the file
 * is finished, run `preport -i FILE --archive` (or --perf-archive) on it.
 *
 * preport is looked for next to precord's own binary (an installed
 * pair), then at ../report/preport from it (the build tree), then in
 * $PATH.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/diag.h"
#include "lib/xalloc.h"
#include "record/record.h"

/* dir/rel when it is an executable file; malloc'd, else NULL. */
static char *
try_exec(const char *dir, const char *rel)
{
	char *path = xmalloc(strlen(dir) + strlen(rel) + 2);

	sprintf(path, "%s/%s", dir, rel);
	if (!access(path, X_OK))
		return path;
	free(path);
	return NULL;
}

/* The preport to run: a path, or "preport" for a $PATH search. */
static char *
find_preport(void)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *slash, *path;

	if (n > 0) {
		self[n] = '\0';
		slash = strrchr(self, '/');
		if (slash) {
			*slash = '\0';
			path = try_exec(self, "preport");
			if (!path)
				path = try_exec(self, "../report/preport");
			if (path)
				return path;
		}
	}
	return xstrdup("preport");
}

static int
child_status(const char *prog, int st)
{
	if (WIFEXITED(st) && WEXITSTATUS(st) == 127) {
		error_msg("cannot run '%s' to write the archive", prog);
		hint_msg("preport is looked for next to precord, then in "
			 "$PATH");
		return -1;
	}
	if (WIFEXITED(st) && !WEXITSTATUS(st))
		return 0;
	if (WIFSIGNALED(st))
		error_msg("'%s' was killed by signal %d while writing the "
			  "archive", prog, WTERMSIG(st));
	else
		error_msg("'%s' could not write the archive (exit status %d); "
			  "the recording is kept", prog, WEXITSTATUS(st));
	return -1;
}

static int
run_one(const char *prog, const char *file, const char *opt, bool quiet,
	const sigset_t *mask)
{
	char *argv[] = {
		(char *)prog, (char *)"-i", (char *)file, (char *)opt,
		quiet ? (char *)"-q" : NULL, NULL,
	};
	int st;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		error_msg("cannot fork to write the archive: %s",
			  strerror(errno));
		return -1;
	}
	if (!pid) {
		/* precord blocks the signals it waits for: preport must not */
		signal(SIGCHLD, SIG_DFL);
		sigprocmask(SIG_SETMASK, mask, NULL);
		execvp(prog, argv);
		_exit(127);
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR) {
			error_msg("cannot wait for '%s': %s", prog,
				  strerror(errno));
			return -1;
		}
	return child_status(prog, st);
}

int
rec_archive_run(const struct rec_opts *o, const sigset_t *mask)
{
	char *prog = find_preport();
	int err = 0;

	if (o->archive)
		err |= run_one(prog, o->output, "--archive", o->quiet, mask);
	if (o->perf_archive)
		err |= run_one(prog, o->output, "--perf-archive", o->quiet,
			       mask);
	free(prog);
	return err ? -1 : 0;
}
