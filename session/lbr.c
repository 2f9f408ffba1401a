/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * session/lbr.c - the call stack of a sample recorded with --call-graph
 * lbr (branch_sample_type CALL_STACK), as perf 6.1 makes it
 * (doc/perf-records.md §7.10): the kernel part of the recorded chain up
 * to its user marker, then the branch stack's call entries: the target
 * of the newest call (in the sampled function), then each call's source,
 * newest first.  With --stitch-lbr, the calls that the hardware's stack
 * no longer holds are taken from the thread's previous sample when the
 * two stacks overlap (same entries in the same hardware slots).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "lib/xalloc.h"
#include "session/session-int.h"

/* A thread's --stitch-lbr memory of its previous LBR sample. */
struct ses_lbr_stitch {
	struct pd_branch_entry *prev;	/* its entries */
	size_t nr_prev, cap_prev;
	uint64_t prev_hw_idx;
	bool have_prev;
	struct ses_loc *prev_from;	/* each entry's source, resolved */
	/* frames stitched so far, leaf first, after the sample's own */
	struct ses_loc *stitched;
	size_t nr_stitched, cap_stitched;
};

bool
ses_lbr_callstack(const struct pd_attr *attr, const struct pd_sample *ps)
{
	return attr && (attr->branch_sample_type & PD_BRANCH_CALL_STACK) &&
	       pd_sample_has(ps, PD_SAMPLE_BRANCH_STACK) &&
	       pd_sample_has(ps, PD_SAMPLE_CALLCHAIN);
}

uint64_t
ses_lbr_key(const struct pd_sample *ps)
{
	const struct pd_branch_stack *bs = &ps->branch;

	return XXH3_64bits_withSeed(bs->entries, bs->nr * 24,
				    bs->nr ^ bs->hw_idx << 8);
}

/* The index of the user marker among the first max entries, or -1. */
static ptrdiff_t
user_marker(const struct pd_u64_array *cc, size_t max)
{
	size_t n = cc->nr < max ? cc->nr : max;

	for (size_t i = 0; i < n; i++)
		if (pd_u64_array_get(cc, i) == PD_CONTEXT_USER)
			return (ptrdiff_t)i;
	return -1;
}

/* The largest LBR depth the recording's CPU has (perf's max_branches). */
static unsigned long
max_branches(const struct ses_session *s)
{
	const struct pd_meta *m = pd_reader_meta(s->r);

	for (size_t i = 0; m && i < m->nr_cpu_pmu_caps; i++)
		if (!strcmp(m->cpu_pmu_caps[i].name, "branches"))
			return strtoul(m->cpu_pmu_caps[i].value, NULL, 0);
	return 0;
}

static struct ses_lbr_stitch *
stitch_of(struct ses_thread_int *t)
{
	if (!t->lbr_stitch)
		t->lbr_stitch = xcalloc(1, sizeof(*t->lbr_stitch));
	return t->lbr_stitch;
}

static void
stitched_push(struct ses_lbr_stitch *st, const struct ses_loc *l)
{
	if (st->nr_stitched == st->cap_stitched) {
		st->cap_stitched = st->cap_stitched ? st->cap_stitched * 2 : 32;
		st->stitched = xreallocarray(st->stitched, st->cap_stitched,
					     sizeof(*st->stitched));
	}
	st->stitched[st->nr_stitched++] = *l;
}

/*
 * perf's has_stitched_lbr(): whether the previous sample's stack, found
 * through the hardware index, ends with entries equal to this one's
 * oldest; then its entries older than that overlap are stitched, nearer
 * the leaf than what was stitched before.
 */
static bool
stitch(struct ses_lbr_stitch *st, const struct pd_branch_stack *cur,
       unsigned long max_lbr)
{
	uint64_t base, distance;
	size_t same = 0, kept;
	struct pd_branch_entry e;
	ptrdiff_t i, j;

	if (!st->have_prev || !cur->nr)
		return false;
	base = max_lbr - cur->nr + cur->hw_idx + 1;
	distance = st->prev_hw_idx > base ? st->prev_hw_idx - base :
		max_lbr + st->prev_hw_idx - base;
	if (distance + 1 > st->nr_prev)
		return false;
	for (i = (ptrdiff_t)distance, j = (ptrdiff_t)cur->nr - 1;
	     i >= 0 && j >= 0; i--, j--) {
		if (pd_branch_entry_get(cur, (size_t)j, &e) ||
		    st->prev[i].from != e.from || st->prev[i].to != e.to ||
		    st->prev[i].flags != e.flags)
			break;
		same++;
	}
	if (!same)
		return false;
	/* the new ones, oldest last, go before (nearer the leaf than) those kept */
	kept = st->nr_stitched;
	for (size_t k = distance + 1; k < st->nr_prev; k++)
		stitched_push(st, &st->prev_from[k]);
	if (kept) {
		size_t added = st->nr_stitched - kept;
		struct ses_loc *tmp = xreallocarray(NULL, added,
						    sizeof(*tmp));

		memcpy(tmp, st->stitched + kept, added * sizeof(*tmp));
		memmove(st->stitched + added, st->stitched,
			kept * sizeof(*tmp));
		memcpy(st->stitched, tmp, added * sizeof(*tmp));
		free(tmp);
	}
	return true;
}

/* Keep this sample's entries and their resolved sources for the next. */
static void
remember(struct ses_lbr_stitch *st, const struct pd_branch_stack *bs,
	 const struct ses_loc *from, size_t nr_from)
{
	if (bs->nr > st->cap_prev) {
		st->cap_prev = bs->nr;
		st->prev = xreallocarray(st->prev, bs->nr, sizeof(*st->prev));
		st->prev_from = xreallocarray(st->prev_from, bs->nr,
					      sizeof(*st->prev_from));
	}
	for (size_t i = 0; i < bs->nr; i++)
		if (pd_branch_entry_get(bs, i, &st->prev[i]))
			memset(&st->prev[i], 0, sizeof(st->prev[i]));
	memcpy(st->prev_from, from, nr_from * sizeof(*from));
	for (size_t i = nr_from; i < bs->nr; i++)
		memset(&st->prev_from[i], 0, sizeof(*from));
	st->nr_prev = bs->nr;
	st->prev_hw_idx = bs->hw_idx;
	st->have_prev = true;
}

/*
 * perf's kernel part: the chain up to and with the user marker, each
 * address looked up in the mode of the markers before it in the order
 * perf walks them.  In caller order perf walks from the user marker
 * back, so the kernel's addresses are looked up as user ones (and are
 * unknown) as perf 6.1 does.
 */
static size_t
kernel_part(struct ses_session *s, struct ses_thread_int *t,
	    const struct pd_u64_array *cc, size_t end)
{
	bool back = s->opts.callchain_caller_order;
	uint8_t cpumode = PD_MISC_USER, mode;
	size_t n = 0, nr_ips = 0;

	for (size_t i = 0; i <= end; i++)
		nr_ips += pd_u64_array_get(cc, i) < PD_CONTEXT_MAX;
	for (size_t k = 0; k <= end; k++) {
		size_t i = back ? end - k : k;
		uint64_t ip = pd_u64_array_get(cc, i);

		if (ip >= PD_CONTEXT_MAX) {
			mode = ses_marker_mode(ip);
			cpumode = mode ? mode : PD_MISC_USER;
			continue;
		}
		/* leaf first, whichever way it is walked */
		ses_resolve_loc(s, t, cpumode, ip,
				&s->chain[back ? nr_ips - 1 - n : n]);
		n++;
	}
	return n;
}

/*
 * perf looks the branch addresses up as it does a callchain's: a value
 * from PD_CONTEXT_MAX up is a marker, and one it does not know makes it
 * drop the LBR stack and take the chain as recorded.
 */
static bool
lbr_addresses_valid(const struct pd_branch_stack *bs)
{
	struct pd_branch_entry e;

	for (size_t i = 0; i < bs->nr; i++) {
		if (pd_branch_entry_get(bs, i, &e))
			return false;
		if ((e.from >= PD_CONTEXT_MAX && !ses_marker_mode(e.from)) ||
		    (!i && e.to >= PD_CONTEXT_MAX && !ses_marker_mode(e.to)))
			return false;
	}
	return true;
}

/* One branch address of the stack, or the marker it is. */
static void
lbr_frame(struct ses_session *s, struct ses_thread_int *t, uint64_t ip,
	  uint8_t *cpumode, size_t *n)
{
	if (ip >= PD_CONTEXT_MAX) {
		*cpumode = ses_marker_mode(ip);
		return;
	}
	ses_resolve_loc(s, t, *cpumode, ip, &s->chain[(*n)++]);
}

/*
 * The branch stack's calls after the n frames of s->chain: the newest
 * call's target, then each call's source.  perf reads the first entry
 * even when the stack is empty (past the sample); here an empty stack
 * adds nothing.
 */
static size_t
lbr_part(struct ses_session *s, struct ses_thread_int *t,
	 const struct pd_branch_stack *bs, size_t n)
{
	uint8_t cpumode = PD_MISC_USER;
	struct pd_branch_entry e;

	if (bs->nr && !pd_branch_entry_get(bs, 0, &e))
		lbr_frame(s, t, e.to, &cpumode, &n);
	for (size_t i = 0; i < bs->nr; i++) {
		if (pd_branch_entry_get(bs, i, &e))
			break;
		lbr_frame(s, t, e.from, &cpumode, &n);
	}
	return n;
}

ptrdiff_t
ses_resolve_lbr(struct ses_session *s, struct ses_thread_int *t,
		const struct pd_sample *ps)
{
	const struct pd_branch_stack *bs = &ps->branch;
	ptrdiff_t marker = user_marker(&ps->callchain, s->opts.max_stack);
	unsigned long max_lbr = s->opts.stitch_lbr ? max_branches(s) : 0;
	struct ses_lbr_stitch *st = NULL;
	bool stitched = false;
	size_t n, first;

	if (marker < 0)
		return -1;	/* no user part: the chain as recorded */
	if (max_lbr && bs->has_hw_idx) {
		st = stitch_of(t);
		stitched = stitch(st, bs, max_lbr);
		if (!stitched)
			st->nr_stitched = 0;
	}
	ses_chain_reserve(s, (size_t)marker + 2 + bs->nr +
			  (st ? st->nr_stitched : 0));
	if (!lbr_addresses_valid(bs))
		return -1;
	n = kernel_part(s, t, &ps->callchain, (size_t)marker);
	first = n;
	n = lbr_part(s, t, bs, n);
	if (st) {
		/* the sources, for the next sample to stitch */
		remember(st, bs, s->chain + first + (n > first),
			 n > first ? n - first - 1 : 0);
		if (stitched && st->nr_stitched) {
			memcpy(s->chain + n, st->stitched,
			       st->nr_stitched * sizeof(*st->stitched));
			n += st->nr_stitched;
		}
	}
	return (ptrdiff_t)n;
}

void
ses_lbr_stitch_free(struct ses_lbr_stitch *st)
{
	if (!st)
		return;
	free(st->prev);
	free(st->prev_from);
	free(st->stitched);
	free(st);
}

bool
ses_stitch_lbr_applies(struct pd_reader *r)
{
	uint64_t type = 0;

	/* perf's callchain_param_setup() */
	for (size_t i = 0; i < pd_reader_nr_evsels(r); i++)
		type |= pd_reader_evsel(r, i)->attr.sample_type;
	return (type & PD_SAMPLE_BRANCH_STACK) &&
	       !((type & PD_SAMPLE_REGS_USER) && (type & PD_SAMPLE_STACK_USER));
}
