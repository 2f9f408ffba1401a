/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * tests/progs/rbxcfa.c - a frame whose CFA is %rbx-based under a leaf
 * whose CFI says nothing of %rbx, as in ld.so's lazy binding
 * (_dl_runtime_resolve_xsavec over _dl_fixup's first instructions).
 *
 *   rbxcfa [MSEC]
 *
 * main -> realign (saves %rbx, keeps the CFA in it and aligns
 * %rsp to 64 bytes) -> spin_leaf, an assembly loop whose CFI has only
 * the CFA and the return address (x86-64; elsewhere C functions).  Out
 * of spin_leaf an unwinder must keep %rbx as the sample has it, as
 * perf 6.1's libunwind does (doc/perf-records.md §7.9).
 * Runs for MSEC milliseconds of wall time (default 300).
 */
#include "progs.h"

uint64_t realign(uint64_t n);

#if defined(__x86_64__)
__asm__(".text\n"
	".globl spin_leaf\n"
	".type spin_leaf, @function\n"
	"spin_leaf:\n"
	"\t.cfi_startproc\n"
	"\tmov %rdi, %rax\n"
	"1:\tdec %rax\n"
	"\tjnz 1b\n"
	"\tret\n"
	"\t.cfi_endproc\n"
	".size spin_leaf, .-spin_leaf\n"
	".globl realign\n"
	".type realign, @function\n"
	"realign:\n"
	"\t.cfi_startproc\n"
	"\tpush %rbx\n"
	"\t.cfi_def_cfa_offset 16\n"
	"\t.cfi_offset %rbx, -16\n"
	"\tmov %rsp, %rbx\n"
	"\t.cfi_def_cfa_register %rbx\n"
	"\tand $-64, %rsp\n"
	"\tsub $192, %rsp\n"
	"\tcall spin_leaf\n"
	"\tmov %rbx, %rsp\n"
	"\t.cfi_def_cfa_register %rsp\n"
	"\tpop %rbx\n"
	"\t.cfi_def_cfa_offset 8\n"
	"\tret\n"
	"\t.cfi_endproc\n"
	".size realign, .-realign\n");
#else
HOT_FN uint64_t spin_leaf(uint64_t n);

HOT_FN uint64_t
spin_leaf(uint64_t n)
{
	while (n)
		progs_sink = n--;
	return 0;
}

HOT_FN uint64_t
realign(uint64_t n)
{
	return spin_leaf(n) + n;
}
#endif

int
main(int argc, char **argv)
{
	progs_repeat("rbxcfa", argc, argv, realign, 160000);
	return 0;
}
