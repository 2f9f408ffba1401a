/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * tests/progs/recurse.c - a call stack whose depth changes little by
 * little, for LBR call stacks and their stitching.
 *
 *   recurse [MSEC]
 *
 * main calls descend(1), which works a while in work_down, calls
 * descend(2) and so on down to DEPTH levels, then works in work_up on
 * the way back; over and over for MSEC milliseconds of wall time
 * (default 300).  A sample's stack is main, then 1 to DEPTH descend
 * frames, then work_down or work_up.
 */
#include "progs.h"

#define DEPTH 12
#define PART 3000

HOT_FN uint64_t work_down(uint64_t x);
HOT_FN uint64_t work_up(uint64_t x);
HOT_FN uint64_t descend(unsigned int level, uint64_t x);

HOT_FN uint64_t
work_down(uint64_t x)
{
	PROGS_LEAF();
	PROGS_SPIN(x, PART);
	return x;
}

HOT_FN uint64_t
work_up(uint64_t x)
{
	PROGS_LEAF();
	PROGS_SPIN(x, PART);
	return x;
}

HOT_FN uint64_t
descend(unsigned int level, uint64_t x)
{
	x = work_down(x);
	if (level < DEPTH)
		x = descend(level + 1, x);
	x = work_up(x);
	return x + level;
}

int
main(int argc, char **argv)
{
	uint64_t end, x = 1;
	unsigned long msec = 300;

	if (argc > 1)
		msec = progs_arg("recurse", "MSEC", argv[1]);
	end = progs_now_ns() + msec * 1000000ULL;
	while (progs_now_ns() < end)
		x = descend(1, x);
	progs_sink = x;
	return 0;
}
