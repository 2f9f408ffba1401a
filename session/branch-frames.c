/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * session/branch-frames.c - a sample's branch stack as frames of its
 * call stack, as perf 6.1 makes them for report --branch-history and
 * -g ...,branch (doc/perf-records.md §7.14): each branch entry gives its
 * target, then its source; loops are removed from the entries first;
 * the recorded chain follows, less perf's overlap and shortening.
 */
#include "config.h"

#include <string.h>

#include "lib/xalloc.h"
#include "session/session-int.h"

/* perf's PERF_MAX_BRANCH_DEPTH: a deeper stack gets no branch frames */
#define BRANCH_DEPTH_MAX	127
/* the loop finder's table: 127 slots, hashed on 7 bits */
#define LOOP_SLOTS		127
#define LOOP_HASH_BITS		7
#define LOOP_NO_ENTRY		0xff

struct bf_entry {
	struct pd_branch_entry e;
	uint32_t nr_loop_iter;
	uint64_t iter_cycles;
};

bool
ses_branch_frames_apply(const struct ses_session *s,
			const struct pd_sample *ps)
{
	return s->opts.branch_frames &&
	       pd_sample_has(ps, PD_SAMPLE_BRANCH_STACK) &&
	       (pd_sample_has(ps, PD_SAMPLE_CALLCHAIN) ||
		s->opts.branch_frames_nochain);
}

static unsigned int
loop_slot(uint64_t from)
{
	/* the kernel's hash_64(): a multiply by the golden ratio, top bits */
	return (unsigned int)((from * 0x61C8864680B583EBull) >>
			      (64 - LOOP_HASH_BITS)) % LOOP_SLOTS;
}

/*
 * perf's remove_loops(): where the sources from an earlier entry with
 * the same source on repeat, the repeat is dropped and counted as one
 * more iteration (with its cycles) on the entry after it.  A slot keeps
 * the first entry hashed to it: a second source in the same slot is
 * never looked at.  Returns the entries left.
 */
static size_t
remove_loops(struct bf_entry *l, size_t nr)
{
	unsigned char first[LOOP_SLOTS];
	size_t i, j, off, rest, k;
	bool is_loop;

	memset(first, LOOP_NO_ENTRY, sizeof(first));
	for (i = 0; i < nr; i++) {
		unsigned int h = loop_slot(l[i].e.from);

		if (first[h] == LOOP_NO_ENTRY) {
			first[h] = (unsigned char)i;
			continue;
		}
		if (l[first[h]].e.from != l[i].e.from)
			continue;
		is_loop = true;
		off = 0;
		for (j = first[h]; j < i && i + off < nr; j++, off++) {
			if (l[j].e.from != l[i + off].e.from) {
				is_loop = false;
				break;
			}
		}
		if (!is_loop)
			continue;
		rest = nr - (i + off);
		if (rest > 0) {
			struct bf_entry *after = &l[i + off];

			after->nr_loop_iter++;
			after->iter_cycles = 0;
			for (k = 0; k < off; k++)
				after->iter_cycles += l[i + k].e.cycles;
			memmove(l + i, l + i + off, rest * sizeof(*l));
		}
		nr -= off;
	}
	return nr;
}

static void
frame_branch_set(struct ses_frame_branch *fb, const struct bf_entry *b,
		 bool target)
{
	*fb = (struct ses_frame_branch){
		.branch = true,
		.predicted = b->e.predicted,
		.abort = b->e.abort,
		.type = b->e.type,
		.new_type = b->e.new_type,
		.cycles = b->e.cycles,
	};
	if (target) {
		fb->from = b->e.from;
	} else {
		fb->nr_loop_iter = b->nr_loop_iter;
		fb->iter_cycles = b->iter_cycles;
	}
}

/*
 * The chain word at i.  perf's overlap test can step past the chain's
 * end and read what follows it in memory; taken as 0 here, which never
 * overlaps (doc/errata.md).
 */
static uint64_t
chain_word(const struct pd_u64_array *cc, size_t i)
{
	return i < cc->nr ? pd_u64_array_get(cc, i) : 0;
}

/*
 * The entries in the order they enter the call stack: newest first in
 * callee order, oldest first in caller order.  In callee order
 * *first_call counts the chain's words at its start that perf takes for
 * the same places as the branches (a context marker, or a return
 * address at most 8 bytes after a branch's source).
 */
static size_t
branch_entries(const struct pd_sample *ps, bool caller, size_t max,
	       struct bf_entry *be, size_t *first_call)
{
	const struct pd_branch_stack *bs = &ps->branch;
	bool has_cc = pd_sample_has(ps, PD_SAMPLE_CALLCHAIN);
	size_t nr = bs->nr < max ? bs->nr : max, i;
	uint64_t ip;

	for (i = 0; i < nr; i++) {
		memset(&be[i], 0, sizeof(be[i]));
		if (pd_branch_entry_get(bs, caller ? bs->nr - 1 - i : i,
					&be[i].e))
			return i;
		if (caller || !has_cc)
			continue;
		ip = chain_word(&ps->callchain, *first_call);
		if (ip >= PD_CONTEXT_MAX ||
		    (be[i].e.from < ip && be[i].e.from >= ip - 8))
			(*first_call)++;
	}
	return nr;
}

/*
 * perf's find_prev_cpumode(): the mode of the last marker before word
 * end, walking back; false for an unknown marker (the chain is dropped).
 */
static bool
prev_cpumode(const struct pd_u64_array *cc, size_t end, uint8_t *mode)
{
	uint64_t ip;

	while (end-- > 0) {
		ip = pd_u64_array_get(cc, end);
		if (ip >= PD_CONTEXT_MAX) {
			*mode = ses_marker_mode(ip);
			return *mode != 0;
		}
	}
	return true;
}

/*
 * The recorded chain after the branch frames, as perf walks it there:
 * from word first_call, without the last nr_branches words (perf takes
 * that many off the chain's length), at most max frames.  Returns the
 * frames added after n, or -1 when perf drops the whole call stack.
 */
static ptrdiff_t
recorded_part(struct ses_session *s, struct ses_thread_int *t,
	      const struct pd_u64_array *cc, size_t first_call,
	      size_t nr_branches, size_t n)
{
	bool caller = s->opts.callchain_caller_order;
	size_t max = s->opts.max_stack, i, j, kept = 0, added = 0;
	size_t end = cc->nr > nr_branches ? cc->nr - nr_branches : 0;
	uint8_t mode = PD_MISC_USER;
	uint64_t ip;

	if (caller && !prev_cpumode(cc, cc->nr - first_call, &mode))
		return -1;
	for (i = first_call; i < end && kept < max; i++) {
		j = caller ? cc->nr - 1 - i : i;
		ip = pd_u64_array_get(cc, j);
		if (ip >= PD_CONTEXT_MAX) {
			if (caller) {
				if (!prev_cpumode(cc, j, &mode))
					return -1;
			} else if (!(mode = ses_marker_mode(ip))) {
				return -1;
			}
			continue;
		}
		kept++;
		ses_resolve_loc(s, t, mode, ip, &s->chain[n + added]);
		memset(&s->chain_br[n + added], 0, sizeof(*s->chain_br));
		added++;
	}
	return (ptrdiff_t)added;
}

static void
frames_reverse(struct ses_session *s, size_t nr)
{
	struct ses_frame_branch fb;
	struct ses_loc l;
	size_t i;

	for (i = 0; i < nr / 2; i++) {
		l = s->chain[i];
		s->chain[i] = s->chain[nr - 1 - i];
		s->chain[nr - 1 - i] = l;
		fb = s->chain_br[i];
		s->chain_br[i] = s->chain_br[nr - 1 - i];
		s->chain_br[nr - 1 - i] = fb;
	}
}

size_t
ses_resolve_branch_frames(struct ses_session *s, struct ses_thread_int *t,
			  const struct pd_sample *ps, size_t extra)
{
	const struct pd_u64_array *cc = &ps->callchain;
	bool caller = s->opts.callchain_caller_order;
	bool has_cc = pd_sample_has(ps, PD_SAMPLE_CALLCHAIN);
	struct bf_entry be[BRANCH_DEPTH_MAX];
	size_t nr = 0, first_call = 0, n = 0, i;
	ptrdiff_t added;

	ses_chain_reserve(s, 2 * BRANCH_DEPTH_MAX + (has_cc ? cc->nr : 0) +
			     extra);
	if (ps->branch.nr <= BRANCH_DEPTH_MAX) {
		nr = branch_entries(ps, caller, s->opts.max_stack, be,
				    &first_call);
		nr = remove_loops(be, nr);
		for (i = 0; i < nr; i++) {
			ses_resolve_any_loc(s, t, be[i].e.to, &s->chain[n]);
			frame_branch_set(&s->chain_br[n++], &be[i], true);
			ses_resolve_any_loc(s, t, be[i].e.from, &s->chain[n]);
			frame_branch_set(&s->chain_br[n++], &be[i], false);
		}
		if (!has_cc || !cc->nr)
			goto out;
	}
	if (has_cc) {
		added = recorded_part(s, t, cc, first_call, nr, n);
		if (added < 0)
			return 0;
		n += (size_t)added;
	}
out:
	/* the frames were made in perf's order: the chain is leaf first */
	if (caller)
		frames_reverse(s, n);
	return n;
}
