/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * tests/progs/nocfi.c - hot code without CFI, for the frame-pointer guess
 * of --call-graph dwarf unwinders.
 *
 *   nocfi [MSEC]
 *
 * main -> outer (no frame pointer: its CFA is rsp-based) -> with_fp
 * (keeps a frame pointer) -> spin_nocfi, an assembly loop with no CFI
 * (x86-64; elsewhere a C loop).  Out of spin_nocfi an unwinder can only
 * guess through rbp, which holds with_fp's frame: perf 6.1's libunwind
 * then gives outer the wrong stack pointer (doc/perf-records.md §7.9).
 * Runs for MSEC milliseconds of wall time (default 300).
 */
#include "progs.h"

uint64_t spin_nocfi(uint64_t n);

#if defined(__x86_64__)
__asm__(".text\n"
	".globl spin_nocfi\n"
	".type spin_nocfi, @function\n"
	"spin_nocfi:\n"
	"\tmov %rdi, %rax\n"
	"1:\tdec %rax\n"
	"\tjnz 1b\n"
	"\tret\n"
	".size spin_nocfi, .-spin_nocfi\n");
#else
HOT_FN uint64_t
spin_nocfi(uint64_t n)
{
	while (n)
		progs_sink = n--;
	return 0;
}
#endif

HOT_FN __attribute__((optimize("no-omit-frame-pointer"))) uint64_t
with_fp(uint64_t n);

HOT_FN __attribute__((optimize("no-omit-frame-pointer"))) uint64_t
with_fp(uint64_t n)
{
	volatile uint64_t pad[4];

	pad[0] = n;
	return spin_nocfi(pad[0]) + pad[0];
}

HOT_FN uint64_t outer(uint64_t n);

HOT_FN uint64_t
outer(uint64_t n)
{
	uint64_t x = 0;
	unsigned int i;

	for (i = 0; i < 8; i++)
		x += with_fp(n + i);
	return x;
}

int
main(int argc, char **argv)
{
	progs_repeat("nocfi", argc, argv, outer, 20000);
	return 0;
}
