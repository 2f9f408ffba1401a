/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * symbol/inline-index.h - the functions of one compilation unit by
 * address (inline-index.c), for inline.c.
 */
#ifndef PDATA_SYM_INLINE_INDEX_H
#define PDATA_SYM_INLINE_INDEX_H

#include <elfutils/libdw.h>

struct inl_index;

/* Every subprogram and inlined subroutine of cu, read once. */
struct inl_index *inl_index_build(Dwarf_Die *cu);
void inl_index_free(struct inl_index *x);

/*
 * The function DIEs whose code holds pc (a unit address), innermost
 * first, each then the function it sits in, up to the subprogram: at
 * most max into out.  Returns their number, 0 when none holds pc.
 */
int inl_index_functions(const struct inl_index *x, Dwarf_Die *cu,
			Dwarf_Addr pc, Dwarf_Die *out, int max);

#endif /* PDATA_SYM_INLINE_INDEX_H */
