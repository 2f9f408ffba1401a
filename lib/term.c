/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * lib/term.c - colours and the pager (term.h).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/select.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/term.h"

#define COLOR_RED	"\033[31m"
#define COLOR_GREEN	"\033[32m"
#define COLOR_RESET	"\033[m"

static pid_t pager_pid;

void
term_percent_color(char *buf, size_t size, double percent, const char *text)
{
	double a = percent < 0 ? -percent : percent;
	const char *color = a >= 5.0 ? COLOR_RED : a > 0.5 ? COLOR_GREEN : NULL;

	if (color)
		snprintf(buf, size, "%s%s%s", color, text, COLOR_RESET);
	else
		snprintf(buf, size, "%s", text);
}

int
term_color_mode(const char *mode)
{
	static const char *const on[] = { "always", "true", "yes", "on", "1" };
	static const char *const off[] = { "never", "false", "no", "off", "0" };
	size_t i;

	for (i = 0; i < sizeof(on) / sizeof(on[0]); i++) {
		if (!strcasecmp(mode, on[i]))
			return 1;
		if (!strcasecmp(mode, off[i]))
			return 0;
	}
	return strcasecmp(mode, "auto") ? -2 : -1;
}

bool
term_use_color(int mode)
{
	const char *term = getenv("TERM");
	bool tty = isatty(STDOUT_FILENO) || term_pager_active();

	if (mode == 1 || mode == 0)
		return mode;
	if (mode == -1)
		return tty && term && strcmp(term, "dumb");
	return tty;
}

bool
term_pager_active(void)
{
	return pager_pid > 0;
}

static const char *
pager_command(const char *env_name)
{
	const char *pager = env_name ? getenv(env_name) : NULL;

	if (!pager)
		pager = getenv("PAGER");
	if (!pager && !access("/usr/bin/pager", X_OK))
		pager = "/usr/bin/pager";
	if (!pager && !access("/usr/bin/less", X_OK))
		pager = "/usr/bin/less";
	if (!pager || !*pager || !strcmp(pager, "cat"))
		return NULL;
	return pager;
}

/* The pager starts once there is something to show (less clears early). */
static void
pager_exec(const char *pager)
{
	fd_set in, exc;

	FD_ZERO(&in);
	FD_ZERO(&exc);
	FD_SET(STDIN_FILENO, &in);
	FD_SET(STDIN_FILENO, &exc);
	select(STDIN_FILENO + 1, &in, NULL, &exc, NULL);
	setenv("LESS", "FRSX", 0);
	execl("/bin/sh", "sh", "-c", pager, (char *)NULL);
	_exit(127);
}

static void
pager_wait(void)
{
	fflush(stdout);
	fflush(stderr);
	close(STDOUT_FILENO);
	close(STDERR_FILENO);
	while (waitpid(pager_pid, NULL, 0) < 0 && errno == EINTR)
		;
}

bool
term_pager_start(const char *env_name)
{
	const char *pager;
	int fds[2];
	pid_t pid;

	if (pager_pid || !isatty(STDOUT_FILENO))
		return false;
	pager = pager_command(env_name);
	if (!pager || pipe(fds))
		return false;
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return false;
	}
	if (!pid) {
		dup2(fds[0], STDIN_FILENO);
		close(fds[0]);
		close(fds[1]);
		pager_exec(pager);
	}
	dup2(fds[1], STDOUT_FILENO);
	if (isatty(STDERR_FILENO))
		dup2(fds[1], STDERR_FILENO);
	close(fds[0]);
	close(fds[1]);
	pager_pid = pid;
	atexit(pager_wait);
	return true;
}
