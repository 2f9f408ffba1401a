/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * tests/tools/pd-jit.c - a tiny JIT for tests/session-live.test: copies a
 * counting loop into an anonymous executable mapping, names it in
 * /tmp/perf-PID.map as JITs do for perf, and runs it for MSEC
 * milliseconds.  Prints its pid, so that the test can remove the map
 * file.  Exits 77 where it does not know the machine code (not x86-64).
 *
 * Usage: pd-jit [MSEC]
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#if defined(__x86_64__)
/* dec %rdi; jnz .-3; ret */
static const unsigned char code[] = { 0x48, 0xff, 0xcf, 0x75, 0xfb, 0xc3 };
#endif

static long
elapsed_ms(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long)(t.tv_sec - t0->tv_sec) * 1000 +
	       (t.tv_nsec - t0->tv_nsec) / 1000000;
}

int
main(int argc, char **argv)
{
#if defined(__x86_64__)
	long msec = argc > 1 ? strtol(argv[1], NULL, 10) : 200;
	void (*fn)(unsigned long);
	struct timespec t0;
	unsigned char *p;
	char path[64];
	FILE *f;

	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("pd-jit: mmap");
		return 1;
	}
	memcpy(p + 64, code, sizeof(code));
	snprintf(path, sizeof(path), "/tmp/perf-%d.map", (int)getpid());
	f = fopen(path, "w");
	if (!f) {
		perror(path);
		return 1;
	}
	fprintf(f, "%lx %zx jitted loop\n", (unsigned long)(p + 64),
		sizeof(code));
	if (fclose(f)) {
		perror(path);
		return 1;
	}
	printf("%d\n", (int)getpid());
	fflush(stdout);
	fn = (void (*)(unsigned long))(void *)(p + 64);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do
		fn(1000000);
	while (elapsed_ms(&t0) < msec);
	return 0;
#else
	(void)argc;
	(void)argv;
	return 77;
#endif
}
