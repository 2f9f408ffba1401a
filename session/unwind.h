/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * session/unwind.h - the user part of a sample's call stack, unwound
 * through the DSOs' CFI from the sampled user registers and the copy of
 * the user stack (PERF_SAMPLE_REGS_USER + PERF_SAMPLE_STACK_USER, what
 * perf record --call-graph dwarf asks for): x86_64, i386 (32-bit
 * processes on x86_64 too) and arm64 register sets.
 */
#ifndef PD_SESSION_UNWIND_H
#define PD_SESSION_UNWIND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pdata/sample.h"
#include "session/model.h"

struct ses_maps;
struct ses_unwind;

/* arch: the recording's (uname -m), NULL when it did not say */
struct ses_unwind *ses_unwind_new(const char *arch);
void ses_unwind_free(struct ses_unwind *u);

/* Whether ps has registers and stack bytes this unwinder can walk. */
bool ses_unwind_possible(const struct pd_sample *ps);
/*
 * The user pc in ps's user registers, where a walk of its user stack
 * would start (arch: the recording's): false when they hold none.
 */
bool ses_unwind_user_pc(const char *arch, const struct pd_sample *ps,
			uint64_t *pc);

/*
 * A hash of everything unwinding ps reads from the sample: its user
 * registers and the valid bytes of its stack copy (for the stack key).
 */
uint64_t ses_unwind_key(const struct pd_sample *ps);

/*
 * The user frames of ps in the address space maps (the sampled
 * process's, as it is at the sample), leaf first, into ips: at most max,
 * the sampled user ip first, then each caller's return address less
 * one (perf's address for a frame that is not a signal frame).  Returns
 * their number; when unwinding stops early, the frames found so far.
 */
size_t ses_unwind_user(struct ses_unwind *u, struct ses_maps *maps,
		       const struct pd_sample *ps, uint64_t *ips, size_t max);

/*
 * How many samples took the fast walk and the slow way, and, with
 * PDATA_UNWIND_CHECK set, in how many the two differed (model.h).
 */
void ses_unwind_checked(const struct ses_unwind *u,
			struct ses_unwind_check *out);

/*
 * Which way the last ses_unwind_user() took, and whether the check found
 * the two ways differing; ses_unwind_adopt() counts a sample another
 * unwinder unwound (session/ahead.c) as if u had.
 */
void ses_unwind_last_way(const struct ses_unwind *u, bool *fast, bool *differ);
void ses_unwind_adopt(struct ses_unwind *u, bool fast, bool differ,
		      uint64_t time);

/* How the last ses_unwind_user() ended (model.h). */
void ses_unwind_last(const struct ses_unwind *u, struct ses_unwind_info *out);

#endif /* PD_SESSION_UNWIND_H */
