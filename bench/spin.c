/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * bench/spin.c - the benchmarks' CPU-bound workload: N processes (one
 * per CPU), each spinning a few frames deep until perf stops it.
 */
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <unistd.h>

static volatile unsigned long sink;

static unsigned long __attribute__((noinline))
leaf(unsigned long x)
{
	unsigned long i;

	for (i = 0; i < 1000; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL;
	return x;
}

static unsigned long __attribute__((noinline))
mid(unsigned long x, int depth)
{
	return depth ? mid(x + 1, depth - 1) ^ leaf(x) : leaf(x);
}

int
main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 2, i;
	unsigned long x = 1;

	for (i = 1; i < n; i++)
		if (fork() == 0) {
			/* perf stops the workload it started, not its children */
			prctl(PR_SET_PDEATHSIG, SIGTERM);
			if (getppid() == 1)
				return 0;
			break;
		}
	for (;;) {
		sink += mid(x, (int)(x % 8));
		x++;
	}
}
