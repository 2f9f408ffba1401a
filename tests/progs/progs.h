/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * tests/progs/progs.h - shared helpers of the test workloads.
 *
 * The workloads are profiled by the live tests, so their hot functions
 * must keep their names and their frames: every hot function is
 * external, never inlined and never cloned (a clone would be named
 * "leaf_a.constprop.0"), and the build turns off sibling calls so that
 * a caller stays on the stack while its callee runs.
 */
#ifndef PROGS_H
#define PROGS_H

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#if defined(__GNUC__) && !defined(__clang__)
#define HOT_FN __attribute__((noinline, noclone, used))
#else
#define HOT_FN __attribute__((noinline, used))
#endif

/*
 * The first statement of a hot function that calls nothing: asking for
 * the frame address makes the compiler set up the frame pointer there,
 * which it skips in leaf functions even with -fno-omit-frame-pointer.
 */
#ifdef PROGS_LEAF_FRAMES
#define PROGS_LEAF() __asm__ volatile("" : : "r"(__builtin_frame_address(0)))
#else
#define PROGS_LEAF() do { } while (0)
#endif

/* Where the work goes, so that the compiler cannot drop it. */
static volatile uint64_t progs_sink;

/* One unit of work: a few hundred dependent multiply-adds. */
#define PROGS_SPIN(x, n)						\
	do {								\
		unsigned int i_;					\
		for (i_ = 0; i_ < (n); i_++)				\
			(x) = (x) * 6364136223846793005ULL +		\
			      1442695040888963407ULL;			\
	} while (0)

static inline uint64_t
progs_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/*
 * The body of a hot function that spins until the monotonic clock passes
 * END: always inlined, so the samples land in the caller's own name.
 */
static inline __attribute__((always_inline)) uint64_t
progs_burn_until(uint64_t x, uint64_t end)
{
	unsigned int n;

	do {
		for (n = 0; n < 16; n++)
			PROGS_SPIN(x, 2000);
	} while (progs_now_ns() < end);
	progs_sink = x;
	return x;
}

/*
 * Parses a non-negative decimal argument (milliseconds, a count); exits
 * with status 2 and a message naming WHAT when it is not one.
 */
static inline unsigned long
progs_arg(const char *prog, const char *what, const char *s)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end != '\0' || *s == '-') {
		fprintf(stderr,
			"%s: %s must be a non-negative number, not '%s'\n",
			prog, what, s);
		exit(2);
	}
	return v;
}

/*
 * Calls fn(n) over and over for MSEC milliseconds of wall time, MSEC
 * being argv[1] (default 300); always inlined, so main() is its caller.
 */
static inline __attribute__((always_inline)) void
progs_repeat(const char *prog, int argc, char **argv,
	     uint64_t (*fn)(uint64_t), uint64_t n)
{
	uint64_t end, x = 0;
	unsigned long msec = 300;

	if (argc > 1)
		msec = progs_arg(prog, "MSEC", argv[1]);
	end = progs_now_ns() + msec * 1000000ULL;
	while (progs_now_ns() < end)
		x += fn(n);
	progs_sink = x;
}

/*
 * The path of a program or library installed next to this one: the
 * directory of /proc/self/exe joined with NAME.  Exits 1 on failure.
 */
static inline void
progs_sibling(const char *prog, const char *name, char *buf, size_t size)
{
	ssize_t n;
	char *slash;

	n = readlink("/proc/self/exe", buf, size - 1);
	if (n < 0) {
		fprintf(stderr, "%s: /proc/self/exe: %s\n", prog,
			strerror(errno));
		exit(1);
	}
	buf[n] = '\0';
	slash = strrchr(buf, '/');
	if (!slash || (size_t)(slash + 1 - buf) + strlen(name) + 1 > size) {
		fprintf(stderr, "%s: cannot build the path of %s\n", prog,
			name);
		exit(1);
	}
	strcpy(slash + 1, name);
}

#endif /* PROGS_H */
