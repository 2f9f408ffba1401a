/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * tests/progs/libpdhot.c - the shared library that the dlopen program
 * loads at run time.
 *
 * pdhot_burn(msec) -> pdhot_inner, a static function (so in .symtab
 * only, not in .dynsym), where the time goes.
 */
#include "progs.h"

HOT_FN uint64_t pdhot_burn(unsigned long msec);

static HOT_FN uint64_t
pdhot_inner(uint64_t x)
{
	PROGS_LEAF();
	PROGS_SPIN(x, 2000);
	return x;
}

HOT_FN uint64_t
pdhot_burn(unsigned long msec)
{
	uint64_t x = 3, end;
	unsigned int n;

	end = progs_now_ns() + (uint64_t)msec * 1000000;
	do {
		for (n = 0; n < 16; n++)
			x = pdhot_inner(x);
	} while (progs_now_ns() < end);
	progs_sink = x;
	return x;
}
