/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * tests/progs/hot.c - a workload with a known profile.
 *
 *   hot [-n ITERATIONS] [MSEC]
 *
 * main -> mid -> leaf_a (85% of the work) and mid -> leaf_b (15%).  It
 * runs for MSEC milliseconds of wall time (default 300), or for exactly
 * ITERATIONS calls of mid with -n.  Built twice: with frame pointers
 * (hot) and without (hot-nofp).
 */
#include "progs.h"

/* multiply-adds per iteration: leaf_a does 17 parts, leaf_b 3 */
#define PART 120

HOT_FN uint64_t leaf_a(uint64_t x);
HOT_FN uint64_t leaf_b(uint64_t x);
HOT_FN uint64_t mid(uint64_t x);

HOT_FN uint64_t
leaf_a(uint64_t x)
{
	PROGS_LEAF();
	PROGS_SPIN(x, 17 * PART);
	return x;
}

HOT_FN uint64_t
leaf_b(uint64_t x)
{
	PROGS_LEAF();
	PROGS_SPIN(x, 3 * PART);
	return x;
}

HOT_FN uint64_t
mid(uint64_t x)
{
	x = leaf_a(x);
	x = leaf_b(x);
	/* the store keeps leaf_b from being a sibling call */
	progs_sink = x;
	return x;
}

int
main(int argc, char **argv)
{
	unsigned long msec = 300, iters = 0, n;
	uint64_t x = 1, end;

	if (argc > 2 && strcmp(argv[1], "-n") == 0) {
		iters = progs_arg("hot", "ITERATIONS", argv[2]);
		argc -= 2;
		argv += 2;
	}
	if (argc > 2) {
		fprintf(stderr, "usage: hot [-n ITERATIONS] [MSEC]\n");
		return 2;
	}
	if (argc == 2)
		msec = progs_arg("hot", "MSEC", argv[1]);
	if (iters) {
		for (n = 0; n < iters; n++)
			x = mid(x);
		return 0;
	}
	end = progs_now_ns() + (uint64_t)msec * 1000000;
	do {
		/* the clock, read every 16 calls, stays out of the profile */
		for (n = 0; n < 16; n++)
			x = mid(x);
	} while (progs_now_ns() < end);
	return 0;
}
