/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * tests/progs/libpdlinked.c - the shared library that the linked program
 * is linked against (DT_NEEDED libpdlinked.so, found through its
 * $ORIGIN run path).
 *
 * pdlinked_burn(msec) -> pdlinked_outer -> pdlinked_inner.
 */
#include "progs.h"

HOT_FN uint64_t pdlinked_inner(uint64_t x);
HOT_FN uint64_t pdlinked_outer(uint64_t x);
HOT_FN uint64_t pdlinked_burn(unsigned long msec);

HOT_FN uint64_t
pdlinked_inner(uint64_t x)
{
	PROGS_LEAF();
	PROGS_SPIN(x, 2000);
	return x;
}

HOT_FN uint64_t
pdlinked_outer(uint64_t x)
{
	x = pdlinked_inner(x);
	progs_sink = x;
	return x;
}

HOT_FN uint64_t
pdlinked_burn(unsigned long msec)
{
	uint64_t x = 9, end;
	unsigned int n;

	end = progs_now_ns() + (uint64_t)msec * 1000000;
	do {
		for (n = 0; n < 16; n++)
			x = pdlinked_outer(x);
	} while (progs_now_ns() < end);
	progs_sink = x;
	return x;
}
