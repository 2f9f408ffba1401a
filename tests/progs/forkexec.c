/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * tests/progs/forkexec.c - a parent that forks a child which execs.
 *
 *   forkexec [MSEC] [PROGRAM]
 *
 * The child execs PROGRAM (default: the hot program next to this one)
 * with the argument MSEC (default 300); meanwhile the parent spends MSEC
 * milliseconds of wall time in parent_burn, then waits for the child.
 * Exits 0 when the child exited 0, else 1.
 */
#include <sys/wait.h>

#include "progs.h"

HOT_FN uint64_t parent_burn(uint64_t end);

HOT_FN uint64_t
parent_burn(uint64_t end)
{
	return progs_burn_until(7, end);
}

int
main(int argc, char **argv)
{
	char prog[4096], msec_arg[32];
	unsigned long msec = 300;
	int status;
	pid_t pid;

	if (argc > 3) {
		fprintf(stderr, "usage: forkexec [MSEC] [PROGRAM]\n");
		return 2;
	}
	if (argc > 1)
		msec = progs_arg("forkexec", "MSEC", argv[1]);
	if (argc > 2)
		snprintf(prog, sizeof(prog), "%s", argv[2]);
	else
		progs_sibling("forkexec", "hot", prog, sizeof(prog));
	snprintf(msec_arg, sizeof(msec_arg), "%lu", msec);

	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "forkexec: fork: %s\n", strerror(errno));
		return 1;
	}
	if (pid == 0) {
		execl(prog, prog, msec_arg, (char *)NULL);
		fprintf(stderr, "forkexec: %s: %s\n", prog, strerror(errno));
		_exit(127);
	}
	parent_burn(progs_now_ns() + (uint64_t)msec * 1000000);
	if (waitpid(pid, &status, 0) < 0) {
		fprintf(stderr, "forkexec: waitpid: %s\n", strerror(errno));
		return 1;
	}
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}
