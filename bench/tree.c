/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * bench/tree.c - the report benchmark's call-tree workloads
 * (bench/report-speed.sh, issue 16): one process per CPU, each calling
 * down a tree of 600 functions until perf stops it.
 *
 *   tree paths  NPROC       a path of 13 to 37 frames down a call tree
 *                           (each function calls one of three others),
 *                           chosen by a seed among 2,000: tens of
 *                           thousands of distinct stacks
 *   tree unique NPROC       a new path, 20 to 60 frames, at each call,
 *                           each function calling any other: nearly
 *                           every stack a new one
 *   tree churn  NPROC       paths, run by threads that a process creates
 *                           two at a time and joins after 2 ms each
 *   tree kernel NPROC       system calls (reads of a file in the page
 *                           cache, writes to /dev/null, opens, closes):
 *                           most time in the kernel
 *   tree mixed NPROC        paths in half the processes, kernel in the
 *                           others
 *   tree dsos NPROC LIB...  paths through the shared libraries LIB...
 *                           (bench/tree-dso.c, built once per LIB), each
 *                           call crossing into another one
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include "tree.h"

#define NFUNCS 600

typedef unsigned long step_fn(unsigned long seed, int depth);

static step_fn *funcs[NFUNCS];
static volatile unsigned long sink;

static unsigned long __attribute__((noinline))
leaf(unsigned long x)
{
	return lcg300(x);
}

/*
 * Each function calls the next one of the path its seed names: with
 * fanout, one of three callees of its own (the tree of a program), else
 * any function.  The xor after the call keeps it from becoming a jump.
 */
static int fanout;

#define STEP(n)                                                              \
	static unsigned long __attribute__((noinline))                       \
	step_##n(unsigned long seed, int depth)                              \
	{                                                                    \
		unsigned long next = mix(seed + (n));                        \
		unsigned long callee = fanout ?                              \
			((n) * 37UL + next % 3 * 211UL + 1) : next;          \
		if (depth == 0)                                              \
			return leaf(seed);                                   \
		return funcs[callee % NFUNCS](next, depth - 1) ^ (n);        \
	}
#define STEP10(n)                                                            \
	STEP(n##0) STEP(n##1) STEP(n##2) STEP(n##3) STEP(n##4)               \
	STEP(n##5) STEP(n##6) STEP(n##7) STEP(n##8) STEP(n##9)
#define STEP100(n)                                                           \
	STEP10(n##0) STEP10(n##1) STEP10(n##2) STEP10(n##3) STEP10(n##4)     \
	STEP10(n##5) STEP10(n##6) STEP10(n##7) STEP10(n##8) STEP10(n##9)
STEP100(1) STEP100(2) STEP100(3) STEP100(4) STEP100(5) STEP100(6)

#define SET(n) funcs[i++] = step_##n;
#define SET10(n)                                                             \
	SET(n##0) SET(n##1) SET(n##2) SET(n##3) SET(n##4)                    \
	SET(n##5) SET(n##6) SET(n##7) SET(n##8) SET(n##9)
#define SET100(n)                                                            \
	SET10(n##0) SET10(n##1) SET10(n##2) SET10(n##3) SET10(n##4)          \
	SET10(n##5) SET10(n##6) SET10(n##7) SET10(n##8) SET10(n##9)

static void
set_funcs(void)
{
	int i = 0;

	SET100(1) SET100(2) SET100(3) SET100(4) SET100(5) SET100(6)
}

/* the call of seed number k, among SEEDS */
#define SEEDS 2000UL
static unsigned long
path(unsigned long k)
{
	unsigned long seed = mix(k % SEEDS + 1);

	return funcs[seed % NFUNCS](seed, 12 + (int)(seed % 25));
}

static unsigned long
unique_path(unsigned long k)
{
	unsigned long seed = mix(k + 0x51ed27UL);

	return funcs[seed % NFUNCS](seed, 19 + (int)(seed % 41));
}

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void *
churn_thread(void *arg)
{
	unsigned long k = (unsigned long)arg;
	double end = now() + 0.002;

	while (now() < end)
		sink += path(k++);
	return NULL;
}

static void
churn(unsigned long k)
{
	pthread_t t[2];
	int i;

	for (;; k += 1000) {
		for (i = 0; i < 2; i++)
			if (pthread_create(&t[i], NULL, churn_thread,
					   (void *)(k + (unsigned long)i * 500)))
				exit(1);
		for (i = 0; i < 2; i++)
			pthread_join(t[i], NULL);
	}
}

static void
kernel(void)
{
	static char buf[65536];
	FILE *tmp = tmpfile();
	int fd = tmp ? fileno(tmp) : -1, null = open("/dev/null", O_WRONLY);

	if (fd < 0 || null < 0 || write(fd, buf, sizeof(buf)) != sizeof(buf))
		exit(1);
	for (;;) {
		int f = open("/proc/self/stat", O_RDONLY);

		if (f >= 0)
			close(f);
		if (pread(fd, buf, sizeof(buf), 0) < 0 ||
		    write(null, buf, sizeof(buf)) < 0)
			exit(1);
		sink += (unsigned long)getppid();
	}
}

typedef unsigned long dso_fn(unsigned long seed, int depth, void *table,
			     int n);

static void
dsos(int argc, char **argv)
{
	dso_fn **table = calloc((size_t)argc, sizeof(*table));
	unsigned long k;
	int i;

	if (!table)
		exit(1);
	for (i = 0; i < argc; i++) {
		void *h = dlopen(argv[i], RTLD_NOW | RTLD_LOCAL);

		if (!h || !(table[i] = (dso_fn *)dlsym(h, "tree_dso_entry"))) {
			fprintf(stderr, "tree: %s\n", dlerror());
			exit(1);
		}
	}
	for (k = (unsigned long)getpid();; k++) {
		unsigned long seed = mix(k % SEEDS + 1);

		sink += table[seed % (unsigned long)argc](
			seed, 12 + (int)(seed % 25), table, argc);
	}
}

static int
fork_per_cpu(int n)
{
	int i;

	for (i = 1; i < n; i++)
		if (fork() == 0) {
			/* perf stops the workload it started, not its children */
			prctl(PR_SET_PDEATHSIG, SIGTERM);
			if (getppid() == 1)
				exit(0);
			return i;
		}
	return 0;
}

int
main(int argc, char **argv)
{
	unsigned long k;
	int n;

	if (argc < 3) {
		fprintf(stderr,
			"usage: tree paths|unique|churn|kernel|mixed NPROC\n"
			"       tree dsos NPROC LIB...\n");
		return 2;
	}
	set_funcs();
	n = fork_per_cpu(atoi(argv[2]));
	k = (unsigned long)n * 100003UL;
	fanout = strcmp(argv[1], "unique") != 0;
	if (!strcmp(argv[1], "paths"))
		for (;; k++)
			sink += path(k);
	if (!strcmp(argv[1], "unique"))
		for (;; k++)
			sink += unique_path(k);
	if (!strcmp(argv[1], "churn"))
		churn(k);
	if (!strcmp(argv[1], "kernel") || (!strcmp(argv[1], "mixed") && n % 2))
		kernel();
	if (!strcmp(argv[1], "mixed"))
		for (;; k++)
			sink += path(k);
	if (!strcmp(argv[1], "dsos") && argc > 3)
		dsos(argc - 3, argv + 3);
	fprintf(stderr, "tree: unknown workload '%s'\n", argv[1]);
	return 2;
}
