/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * tests/progs/twins.c - two functions of one name.
 *
 *   twins [MSEC]
 *
 * twin_a (here) and twin_b (twins-b.c) each call a static function
 * named spin of their own file, for MSEC milliseconds (default 200)
 * between them: two symbols "spin" at two addresses of one binary, which
 * perf report shows apart and perf diff as one.
 */
#include "progs.h"

uint64_t twin_b(uint64_t x, uint64_t end);
HOT_FN uint64_t twin_a(uint64_t x, uint64_t end);

static HOT_FN uint64_t
spin(uint64_t x, uint64_t end)
{
	PROGS_LEAF();
	return progs_burn_until(x, end);
}

HOT_FN uint64_t
twin_a(uint64_t x, uint64_t end)
{
	x = spin(x, end);
	progs_sink = x;
	return x;
}

int
main(int argc, char **argv)
{
	unsigned long msec = 200;
	uint64_t x = 1, start;

	if (argc > 2) {
		fprintf(stderr, "usage: twins [MSEC]\n");
		return 2;
	}
	if (argc == 2)
		msec = progs_arg("twins", "MSEC", argv[1]);
	start = progs_now_ns();
	x = twin_a(x, start + msec * 500000ULL);
	x = twin_b(x, start + msec * 1000000ULL);
	progs_sink = x;
	return 0;
}
