/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * session/unwind-rules.c - compiled CFI rows of x86_64 code, kept per
 * DSO, file offset and activation (doc/perf-records.md §7.16).
 */
#include "config.h"

#include <dwarf.h>
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "lib/xalloc.h"
#include "session/unwind-rules.h"

static uint64_t
key_hash(const void *dso, uint64_t off, bool activation)
{
	uint64_t key[2] = { (uintptr_t)dso, off << 1 | activation };

	return XXH3_64bits(key, sizeof(key));
}

static bool
same_key(const struct uw_rule *r, const void *dso, uint64_t off,
	 bool activation)
{
	return r->dso == dso && r->off == off && r->activation == activation;
}

static struct uw_recent *
recent_slot(struct uw_rules *t, const void *dso, uint64_t off_act)
{
	uint64_t h = (off_act ^ ((uintptr_t)dso >> 4)) * 0x9e3779b97f4a7c15ULL;

	if (!t->recent)
		t->recent = xcalloc(UW_RULES_RECENT, sizeof(*t->recent));
	return &t->recent[h >> 52];	/* the top 12 bits: 4096 slots */
}

const struct uw_rule *
uw_rules_find(struct uw_rules *t, const void *dso, uint64_t off,
	      bool activation)
{
	uint64_t off_act = off << 1 | activation;
	struct uw_recent *slot = recent_slot(t, dso, off_act);
	const uint64_t *at;
	const struct uw_rule *r;

	if (slot->at && slot->dso == dso && slot->off_act == off_act)
		return &t->v[slot->at - 1];
	at = u64map_find(&t->index, key_hash(dso, off, activation));
	if (!at)
		return NULL;
	r = &t->v[*at - 1];
	if (!same_key(r, dso, off, activation))
		return NULL;
	*slot = (struct uw_recent){ .dso = dso, .off_act = off_act, .at = *at };
	return r;
}

const struct uw_rule *
uw_rules_add(struct uw_rules *t, const struct uw_rule *r)
{
	uint64_t *at = u64map_slot(&t->index,
				   key_hash(r->dso, r->off, r->activation));

	if (*at)
		return same_key(&t->v[*at - 1], r->dso, r->off,
				r->activation) ? &t->v[*at - 1] : NULL;
	if (t->nr == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 256;
		t->v = xreallocarray(t->v, t->cap, sizeof(*t->v));
	}
	t->v[t->nr] = *r;
	*at = ++t->nr;
	return &t->v[t->nr - 1];
}

void
uw_rules_free(struct uw_rules *t)
{
	u64map_free(&t->index);
	free(t->v);
	free(t->recent);
	memset(t, 0, sizeof(*t));
}

/*
 * The CFA expression GNU ld gives a PLT's entries (each 16 bytes: a
 * jump, then, from byte 11 on, the code after a push): rsp + 8, plus 8
 * where (rip & 15) >= 11.
 */
static const Dwarf_Op plt_cfa[] = {
	{ .atom = DW_OP_breg7, .number = 8 },
	{ .atom = DW_OP_breg16, .number = 0 },
	{ .atom = DW_OP_lit15 },
	{ .atom = DW_OP_and },
	{ .atom = DW_OP_lit11 },
	{ .atom = DW_OP_ge },
	{ .atom = DW_OP_lit3 },
	{ .atom = DW_OP_shl },
	{ .atom = DW_OP_plus },
};

static bool
is_plt_cfa(const Dwarf_Op *ops, size_t nops)
{
	size_t i;

	if (nops != sizeof(plt_cfa) / sizeof(plt_cfa[0]))
		return false;
	for (i = 0; i < nops; i++)
		if (ops[i].atom != plt_cfa[i].atom ||
		    ops[i].number != plt_cfa[i].number)
			return false;
	return true;
}

/* The CFA rule: a register plus an offset, as libdw gives it. */
static bool
compile_cfa(struct uw_rule *r, Dwarf_Frame *frame)
{
	Dwarf_Op *ops;
	size_t nops;

	if (dwarf_frame_cfa(frame, &ops, &nops) || !ops)
		return false;
	if (is_plt_cfa(ops, nops)) {
		r->cfa_plt = true;
		r->cfa_reg = UW_RULE_SP;
		r->cfa_off = 8;
		return true;
	}
	if (nops != 1)
		return false;
	if (ops[0].atom == DW_OP_bregx) {
		r->cfa_reg = (uint8_t)ops[0].number;
		r->cfa_off = (int64_t)ops[0].number2;
		return ops[0].number < UW_RULE_REGS;
	}
	if (ops[0].atom >= DW_OP_breg0 &&
	    ops[0].atom < DW_OP_breg0 + UW_RULE_REGS) {
		r->cfa_reg = (uint8_t)(ops[0].atom - DW_OP_breg0);
		r->cfa_off = (int64_t)ops[0].number;
		return true;
	}
	return false;
}

/*
 * One register's rule as libdw spells it: no operation and ops_mem
 * (undefined), ops NULL (same value), or [CFA, +n, stack_value?].
 */
static bool
compile_reg(struct uw_rule *r, Dwarf_Frame *frame, unsigned int reg)
{
	Dwarf_Op ops_mem[3], *ops;
	size_t nops, i = 0;

	if (dwarf_frame_register(frame, (int)reg, ops_mem, &ops, &nops))
		return false;
	r->reg_off[reg] = 0;
	if (!nops) {
		r->kind[reg] = ops ? UW_REG_UNDEF : UW_REG_SAME;
		return !ops || ops == ops_mem;
	}
	if (ops[i++].atom != DW_OP_call_frame_cfa)
		return false;
	if (i < nops && ops[i].atom == DW_OP_plus_uconst)
		r->reg_off[reg] = (int64_t)ops[i++].number;
	r->kind[reg] = UW_REG_AT;
	if (i < nops && ops[i].atom == DW_OP_stack_value) {
		r->kind[reg] = UW_REG_CFA;
		i++;
	}
	return i == nops;
}

void
uw_rule_compile(struct uw_rule *r, Dwarf_Frame *frame)
{
	bool signal = false;
	unsigned int reg;

	r->simple = false;
	if (dwarf_frame_info(frame, NULL, NULL, &signal) != UW_RULE_RA)
		return;
	r->signal = signal;
	if (!compile_cfa(r, frame))
		return;
	for (reg = 0; reg < UW_RULE_REGS; reg++)
		if (!compile_reg(r, frame, reg))
			return;
	r->undef = 0;
	r->nr_set = 0;
	for (reg = 0; reg < UW_RULE_REGS; reg++) {
		if (r->kind[reg] == UW_REG_UNDEF)
			r->undef |= 1u << reg;
		else if (r->kind[reg] != UW_REG_SAME)
			r->set[r->nr_set++] = (uint8_t)reg;
	}
	/* rsp is the CFA; the return address is undefined or saved */
	r->simple = r->kind[UW_RULE_SP] == UW_REG_CFA &&
		    !r->reg_off[UW_RULE_SP] &&
		    (r->kind[UW_RULE_RA] == UW_REG_UNDEF ||
		     r->kind[UW_RULE_RA] == UW_REG_AT);
}
