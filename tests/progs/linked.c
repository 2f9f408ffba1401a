/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * tests/progs/linked.c - a program linked against a shared library of
 * its own (libpdlinked.so) that spends its time there.
 *
 *   linked [MSEC]
 *
 * main -> pdlinked_burn (through the PLT) for MSEC milliseconds (default
 * 300).
 */
#include "progs.h"

uint64_t pdlinked_burn(unsigned long msec);

int
main(int argc, char **argv)
{
	unsigned long msec = 300;

	if (argc > 2) {
		fprintf(stderr, "usage: linked [MSEC]\n");
		return 2;
	}
	if (argc == 2)
		msec = progs_arg("linked", "MSEC", argv[1]);
	progs_sink = pdlinked_burn(msec);
	return 0;
}
