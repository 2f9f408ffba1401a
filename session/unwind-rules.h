/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * session/unwind-rules.h - the CFI rows of x86_64 code compiled to
 * register rules and kept per DSO and address, so that a step of the
 * fast walk (session/unwind.c) is a table look-up and a few reads of
 * the stack copy instead of a libdw CFI interpretation
 * (doc/perf-records.md §7.16).
 */
#ifndef PD_SESSION_UNWIND_RULES_H
#define PD_SESSION_UNWIND_RULES_H

#include <stdbool.h>
#include <stdint.h>

#include <elfutils/libdw.h>

#include "lib/u64map.h"

/* x86_64's DWARF registers: rax to r15, then the return address column */
#define UW_RULE_REGS	17
#define UW_RULE_RA	16
#define UW_RULE_SP	7

enum uw_reg_rule {
	UW_REG_UNDEF,		/* no value in the caller */
	UW_REG_SAME,		/* the callee's value */
	UW_REG_AT,		/* the word at CFA + off */
	UW_REG_CFA,		/* CFA + off itself */
};

struct uw_rule {
	const void *dso;	/* the key: DSO, file offset, activation */
	uint64_t off;
	bool activation;
	bool has_cfi;		/* .eh_frame or .debug_frame has a row */
	bool simple;		/* the row is rules below (else: expressions) */
	bool signal;		/* a signal trampoline's ('S' augmentation) */
	bool plt;		/* a lazy PLT entry at off + !activation */
	bool cfa_plt;		/* the CFA of a PLT: rsp + 8, + 8 past a push */
	uint8_t cfa_reg;
	int64_t cfa_off;
	uint8_t kind[UW_RULE_REGS];	/* enum uw_reg_rule */
	int64_t reg_off[UW_RULE_REGS];
	/* the same, for a step: the registers undefined, then the others set */
	uint32_t undef;
	uint8_t nr_set;
	uint8_t set[UW_RULE_REGS];	/* UW_REG_AT or UW_REG_CFA registers */
};

/* the rules met last, by address (a direct-mapped cache before index) */
#define UW_RULES_RECENT	4096

struct uw_recent {
	const void *dso;
	uint64_t off_act;	/* off << 1 | activation */
	size_t at;		/* 1 + index in v, 0: empty */
};

struct uw_rules {
	struct u64map index;	/* hash of the key -> 1 + index in v */
	struct uw_rule *v;
	size_t nr, cap;
	struct uw_recent *recent;
};

/* The rule kept for the key, NULL when none is. */
const struct uw_rule *uw_rules_find(struct uw_rules *t, const void *dso,
				    uint64_t off, bool activation);
/*
 * Keeps r (its key filled in) and returns the kept copy; NULL when
 * another key of the same hash is kept (the caller takes the slow way).
 */
const struct uw_rule *uw_rules_add(struct uw_rules *t, const struct uw_rule *r);
void uw_rules_free(struct uw_rules *t);

/*
 * Fills r's rules from the CFI row frame: simple when the CFA is a
 * register plus an offset (or the expression of a PLT's entries) and
 * every register's rule is undefined, same value, at or equal to CFA
 * plus an offset, with rsp the CFA itself.
 */
void uw_rule_compile(struct uw_rule *r, Dwarf_Frame *frame);

#endif /* PD_SESSION_UNWIND_RULES_H */
