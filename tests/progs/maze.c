/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * tests/progs/maze.c - call stacks that seldom repeat, for flame graphs
 * too large to keep whole.
 *
 *   maze [WALKS]
 *
 * main walks DEPTH calls deep through 16 functions, each of which picks
 * the next one from the top bits of a pseudo-random number, works a
 * little at the bottom (in a function of a 110-byte name) and returns; WALKS times (default 100000), so
 * that the CPU time, and the samples of a cpu-clock recording, do not
 * depend on the machine's load.  Two samples share their first few
 * frames and seldom more: 16^DEPTH paths.
 */
#include "progs.h"

#define DEPTH 120
#define PART 2000

/*
 * The bottom's work, under a name longer than the 100 bytes perf diff
 * gives a compute column's header, and wider than its key columns'
 * header would be without the names.
 */
#define LONG_NAME \
	maze_bottom_where_every_walk_ends_after_one_hundred_and_twenty_calls_through_sixteen_functions_chosen_at_random

HOT_FN uint64_t LONG_NAME(uint64_t x);

HOT_FN uint64_t
LONG_NAME(uint64_t x)
{
	PROGS_LEAF();
	PROGS_SPIN(x, PART);
	return x;
}

typedef uint64_t step_fn(unsigned int level, uint64_t x);
static step_fn *const steps[16];

/* one step: the next function, or the bottom's work; +1 keeps the call */
#define STEP(n)								\
	HOT_FN uint64_t step_##n(unsigned int level, uint64_t x);	\
	HOT_FN uint64_t							\
	step_##n(unsigned int level, uint64_t x)			\
	{								\
		x = x * 6364136223846793005ULL + 1442695040888963407ULL; \
		if (level == DEPTH)					\
			return LONG_NAME(x);				\
		return steps[x >> 60](level + 1, x) + 1;		\
	}

STEP(0) STEP(1) STEP(2) STEP(3) STEP(4) STEP(5) STEP(6) STEP(7)
STEP(8) STEP(9) STEP(10) STEP(11) STEP(12) STEP(13) STEP(14) STEP(15)

static step_fn *const steps[16] = {
	step_0, step_1, step_2, step_3, step_4, step_5, step_6, step_7,
	step_8, step_9, step_10, step_11, step_12, step_13, step_14, step_15,
};

HOT_FN uint64_t walk(uint64_t x);

HOT_FN uint64_t
walk(uint64_t seed)
{
	return steps[seed >> 60](1, seed);
}

int
main(int argc, char **argv)
{
	unsigned long walks = 100000;
	uint64_t seed = 0, x = 0;

	if (argc > 1)
		walks = progs_arg("maze", "WALKS", argv[1]);
	while (walks--) {
		seed += 0x9e3779b97f4a7c15ULL;
		x += walk(seed);
	}
	progs_sink = x;
	return 0;
}
