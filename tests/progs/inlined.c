/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * tests/progs/inlined.c - hot code inlined into its callers, for the
 * inline frames that perf adds to DWARF-unwound chains.
 *
 *   inlined [MSEC]
 *
 * main -> outer_a, where work_mix (always inlined) calls work_spin
 * (always inlined): two levels of inline frames; main -> outer_b, where
 * work_spin is inlined directly: the same inline function in a second
 * caller.  outer_a does about two thirds of the work.  Runs for MSEC
 * milliseconds of wall time (default 300).
 *
 * perf 6.1 orders an inline frame's row against the others by name and
 * the others by address (_sort__sym_cmp), which is no order at all
 * unless each inline name sorts after every function's name: then its
 * rows never split in perf's trees (doc/errata.md).  Hence "work_".
 */
#include "progs.h"

#define PART 400

HOT_FN uint64_t outer_a(uint64_t x);
HOT_FN uint64_t outer_b(uint64_t x);

static inline __attribute__((always_inline)) uint64_t
work_spin(uint64_t x, unsigned int n)
{
	PROGS_SPIN(x, n);
	return x;
}

static inline __attribute__((always_inline)) uint64_t
work_mix(uint64_t x)
{
	x = work_spin(x, 2 * PART);
	progs_sink = x;
	return x ^ (x >> 7);
}

HOT_FN uint64_t
outer_a(uint64_t x)
{
	PROGS_LEAF();
	x = work_mix(x);
	return x + 1;
}

HOT_FN uint64_t
outer_b(uint64_t x)
{
	PROGS_LEAF();
	x = work_spin(x, PART);
	progs_sink = x;
	return x + 3;
}

int
main(int argc, char **argv)
{
	unsigned long msec = 300, n;
	uint64_t x = 1, end;

	if (argc > 2) {
		fprintf(stderr, "usage: inlined [MSEC]\n");
		return 2;
	}
	if (argc == 2)
		msec = progs_arg("inlined", "MSEC", argv[1]);
	end = progs_now_ns() + (uint64_t)msec * 1000000;
	do {
		for (n = 0; n < 16; n++) {
			x = outer_a(x);
			x = outer_b(x);
		}
	} while (progs_now_ns() < end);
	return 0;
}
