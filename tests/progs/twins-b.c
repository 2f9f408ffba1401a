/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * tests/progs/twins-b.c - twin_b and its own static spin (twins.c).
 */
#include "progs.h"

HOT_FN uint64_t twin_b(uint64_t x, uint64_t end);

static HOT_FN uint64_t
spin(uint64_t x, uint64_t end)
{
	PROGS_LEAF();
	x = progs_burn_until(x, end);
	return x + 1;
}

HOT_FN uint64_t
twin_b(uint64_t x, uint64_t end)
{
	x = spin(x, end);
	progs_sink = x;
	return x;
}
