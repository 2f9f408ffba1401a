/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * record/target.c - what precord records: cpu lists, the threads of -p
 * and -t (every thread from /proc/PID/task, as perf's thread_map does),
 * and the workload, forked and held before exec until the events are
 * ready (perf's evlist__prepare_workload: a start pipe, so that
 * enable_on_exec catches the first instruction of the command).
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/cpulist.h"
#include "lib/xalloc.h"
#include "record/record.h"

/* The highest cpu number a -C list may name. */
#define REC_MAX_CPU	65535

static int
int_cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

int
rec_parse_cpulist(const char *s, int **out, size_t *nr)
{
	if (cpulist_parse(s, REC_MAX_CPU, out, nr))
		return -1;
	if (!*nr) {
		free(*out);
		return -1;
	}
	return 0;
}

int
rec_online_cpus(int **out, size_t *nr)
{
	char line[4096];
	FILE *f = fopen("/sys/devices/system/cpu/online", "r");
	int err;

	if (!f) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);

		if (n < 1)
			return -1;
		*out = xcalloc((size_t)n, sizeof(int));
		for (long i = 0; i < n; i++)
			(*out)[i] = (int)i;
		*nr = (size_t)n;
		return 0;
	}
	err = fgets(line, sizeof(line), f) ? 0 : -1;
	fclose(f);
	return err ? err : rec_parse_cpulist(line, out, nr);
}

static void
add_tid(struct rec_target *t, pid_t tid)
{
	for (size_t i = 0; i < t->nr_threads; i++)
		if (t->threads[i] == tid)
			return;
	t->threads = xreallocarray(t->threads, t->nr_threads + 1,
				   sizeof(*t->threads));
	t->threads[t->nr_threads++] = tid;
}

/* Every thread of process pid, in /proc/PID/task order sorted by tid. */
static int
add_process(struct rec_target *t, pid_t pid)
{
	char path[64];
	struct dirent *d;
	pid_t *tids = NULL;
	size_t n = 0;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	dir = opendir(path);
	if (!dir)
		return -errno;
	while ((d = readdir(dir))) {
		char *end;
		long tid = strtol(d->d_name, &end, 10);

		if (*end || tid <= 0)
			continue;
		tids = xreallocarray(tids, n + 1, sizeof(*tids));
		tids[n++] = (pid_t)tid;
	}
	closedir(dir);
	qsort(tids, n, sizeof(*tids), int_cmp);
	for (size_t i = 0; i < n; i++)
		add_tid(t, tids[i]);
	free(tids);
	t->pids = xreallocarray(t->pids, t->nr_pids + 1, sizeof(*t->pids));
	t->pids[t->nr_pids++] = pid;
	return 0;
}

static int
parse_ids(const char *list, pid_t **out, size_t *nr)
{
	const char *p = list;

	*out = NULL;
	*nr = 0;
	while (*p) {
		char *end;
		long v;

		errno = 0;
		v = strtol(p, &end, 10);
		if (errno || end == p || v <= 0 || v > 0x7fffffff ||
		    (*end && *end != ','))
			return -1;
		*out = xreallocarray(*out, *nr + 1, sizeof(**out));
		(*out)[(*nr)++] = (pid_t)v;
		p = *end ? end + 1 : end;
	}
	return *nr ? 0 : -1;
}

char *
rec_pids_of_uid(uid_t uid)
{
	DIR *dir = opendir("/proc");
	struct dirent *d;
	char *list = NULL;
	size_t len = 0;

	if (!dir)
		return NULL;
	while ((d = readdir(dir))) {
		char path[300], *end;
		long pid = strtol(d->d_name, &end, 10);
		struct stat st;

		snprintf(path, sizeof(path), "/proc/%s", d->d_name);
		if (*end || pid <= 0 || stat(path, &st) || st.st_uid != uid)
			continue;
		list = xrealloc(list, len + 16);
		len += (size_t)snprintf(list + len, 16, "%s%ld",
					len ? "," : "", pid);
	}
	closedir(dir);
	return list;
}

int
rec_target_threads(struct rec_target *t, const struct rec_opts *o, char *why,
		   size_t why_len)
{
	pid_t *ids;
	size_t n;

	if (o->pids) {
		/* perf record ignores a thread gone before it is opened */
		t->ignore_missing = true;
		if (parse_ids(o->pids, &ids, &n)) {
			snprintf(why, why_len, "bad process id list '%s'",
				 o->pids);
			return -EINVAL;
		}
		for (size_t i = 0; i < n; i++) {
			int err = add_process(t, ids[i]);

			/* a process of -u's user may end before this */
			if (err == -ENOENT && o->uid)
				continue;
			if (err) {
				snprintf(why, why_len, "no process %d: %s",
					 (int)ids[i], strerror(-err));
				free(ids);
				return err;
			}
		}
		free(ids);
	}
	if (o->tids) {
		char path[64];

		if (parse_ids(o->tids, &ids, &n)) {
			snprintf(why, why_len, "bad thread id list '%s'",
				 o->tids);
			return -EINVAL;
		}
		for (size_t i = 0; i < n; i++) {
			snprintf(path, sizeof(path), "/proc/%d", (int)ids[i]);
			if (access(path, F_OK)) {
				int err = -errno;

				snprintf(why, why_len, "no thread %d: %s",
					 (int)ids[i], strerror(errno));
				free(ids);
				return err;
			}
			add_tid(t, ids[i]);
		}
		free(ids);
	}
	return 0;
}

/*
 * The stream is fd 1: the workload writes to stderr instead (perf's
 * evlist__prepare_workload() with pipe_output), or, with no stderr, to
 * /dev/null rather than into the stream.
 */
static void
child_stdout_off_pipe(void)
{
	int fd;

	if (dup2(STDERR_FILENO, STDOUT_FILENO) >= 0)
		return;
	fd = open("/dev/null", O_WRONLY);
	if (fd >= 0 && fd != STDOUT_FILENO) {
		dup2(fd, STDOUT_FILENO);
		close(fd);
	}
}

static void
child_run(const struct rec_target *t, int go, int errw, int ready,
	  char **argv)
{
	char c;
	int err;

	/* the recorder's handlers and mask are not the workload's */
	sigaction(SIGINT, &t->old_int, NULL);
	sigaction(SIGTERM, &t->old_term, NULL);
	sigaction(SIGHUP, &t->old_hup, NULL);
	sigaction(SIGCHLD, &t->old_chld, NULL);
	sigaction(SIGXFSZ, &t->old_xfsz, NULL);
	sigaction(SIGPIPE, &t->old_pipe, NULL);
	sigaction(SIGUSR2, &t->old_usr2, NULL);
	sigaction(SIGALRM, &t->old_alrm, NULL);
	sigprocmask(SIG_SETMASK, &t->old_mask, NULL);
	prctl(PR_SET_NAME, "precord-exec");
	/* the recorder synthesises the COMM of that name: it waits for it */
	close(ready);
	if (t->pipe_output)
		child_stdout_off_pipe();
	/* EOF without a byte: the recorder gave up */
	if (read(go, &c, 1) != 1)
		_exit(127);
	close(go);
	execvp(argv[0], argv);
	err = errno;
	if (write(errw, &err, sizeof(err)) < 0)
		_exit(127);
	_exit(err == ENOENT ? 127 : 126);
}

static void
close_pipes(int (*p)[2], size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		close(p[i][0]);
		close(p[i][1]);
	}
}

/* EOF on ready: the child has taken its name */
static void
wait_ready(int ready)
{
	char c;

	while (read(ready, &c, 1) < 0 && errno == EINTR)
		;
	close(ready);
}

int
rec_workload_prepare(struct rec_target *t, char **argv)
{
	int p[3][2];		/* go, exec error, ready */
	pid_t pid;
	int err;

	for (size_t i = 0; i < 3; i++) {
		if (pipe2(p[i], O_CLOEXEC)) {
			err = -errno;
			close_pipes(p, i);
			return err;
		}
	}
	pid = fork();
	if (pid < 0) {
		err = -errno;
		close_pipes(p, 3);
		return err;
	}
	if (pid == 0) {
		close(p[0][1]);
		close(p[1][0]);
		close(p[2][0]);
		child_run(t, p[0][0], p[1][1], p[2][1], argv);
	}
	close(p[0][0]);
	close(p[1][1]);
	close(p[2][1]);
	wait_ready(p[2][0]);
	t->child = pid;
	t->go_fd = p[0][1];
	t->err_fd = p[1][0];
	return 0;
}

int
rec_workload_start(struct rec_target *t)
{
	char c = 0;
	int err = 0;
	ssize_t n;

	if (write(t->go_fd, &c, 1) != 1)
		err = errno;
	close(t->go_fd);
	t->go_fd = -1;
	if (err)
		return err;
	/* the pipe closes on a successful exec, or carries its errno */
	do
		n = read(t->err_fd, &err, sizeof(err));
	while (n < 0 && errno == EINTR);
	close(t->err_fd);
	t->err_fd = -1;
	return n == (ssize_t)sizeof(err) ? err : 0;
}
