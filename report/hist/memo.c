/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * report/hist/memo.c - children mode's replay: the entry each chain
 * frame credits, kept by frame, level and context (hist-int.h, struct
 * rep_memo), so that a frame shared by many stacks makes its key and is
 * looked up in the histogram once per context, not once per stack.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "lib/xalloc.h"
#include "report/hist/hist-int.h"

/* Context ids fit in 24 bits of a memo key, beside the level's 8. */
#define MEMO_MAX_CTXS	((size_t)1 << 24)
/*
 * Frames kept, at most: past this (a recording of many processes, whose
 * frames are theirs alone) the memo only answers for those it has.
 */
#define MEMO_MAX_ENTS	((size_t)1 << 18)

void
rep_memo_begin(struct rep_memo *m, bool on)
{
	m->on = on;
	m->ctx = 0;
}

static void
memo_clear(struct rep_memo *m)
{
	free(m->ctxs);
	m->ctxs = NULL;
	m->nr_ctxs = m->cap_ctxs = 0;
	u64map_free(&m->ctx_ids);
	u64map_free(&m->ents);
	m->ctx = 0;
}

/* The frame ids of a chain of nr frames are kept by the caller here. */
uint32_t *
rep_memo_ids(struct rep_memo *m, size_t nr)
{
	if (nr > m->cap_ids) {
		m->cap_ids = nr;
		m->ids = xreallocarray(m->ids, nr, sizeof(*m->ids));
	}
	return m->ids;
}

/* A frame id is only good until the replay ends: the memo goes with it. */
void
rep_memo_end(struct rep_memo *m)
{
	m->on = false;
	memo_clear(m);
}

void
rep_memo_free(struct rep_memo *m)
{
	memo_clear(m);
	free(m->ids);
	m->ids = NULL;
	m->cap_ids = 0;
}

/*
 * The context of the stack being replayed (s, its thread and comm when
 * the keys read them, and the parent and filter bits of its own entry's
 * key): its id, made when new; none when a hash names another context or
 * there are too many.
 */
void
rep_memo_stack(struct rep_memo *m, const struct ses_sample *s,
	       const struct rep_hent *self_key, bool by_thread)
{
	struct rep_memo_ctx c;
	uint64_t *slot;

	m->ctx = 0;
	if (!m->on)
		return;
	memset(&c, 0, sizeof(c));
	/* no key reads them otherwise: every thread finds the same entries */
	if (by_thread) {
		c.thread = s->thread;
		c.comm = s->comm;
	}
	c.parent = self_key->parent;
	c.time = s->time;
	c.cpu = s->cpu;
	c.evsel = s->evsel;
	c.cpumode = s->self.cpumode;
	c.filtered = self_key->filtered;
	slot = u64map_slot(&m->ctx_ids, XXH3_64bits(&c, sizeof(c)));
	if (*slot) {
		if (!memcmp(&m->ctxs[*slot - 1], &c, sizeof(c)))
			m->ctx = *slot;
		return;
	}
	if (m->nr_ctxs + 1 >= MEMO_MAX_CTXS)
		return;
	if (m->nr_ctxs == m->cap_ctxs) {
		m->cap_ctxs = m->cap_ctxs ? m->cap_ctxs * 2 : 64;
		m->ctxs = xreallocarray(m->ctxs, m->cap_ctxs, sizeof(*m->ctxs));
	}
	m->ctxs[m->nr_ctxs++] = c;
	*slot = m->nr_ctxs;
	m->ctx = *slot;
}

/*
 * The memo's slot for chain frame c of the stack (1 + the entry index,
 * 0 when not known yet), or NULL when the stack has no context id or
 * the memo is full.
 */
uint64_t *
rep_memo_slot(struct rep_memo *m, size_t c, char level)
{
	uint64_t key, *slot;

	if (!m->ctx)
		return NULL;
	key = (uint64_t)m->ids[c] << 32 | m->ctx << 8 | (unsigned char)level;
	slot = u64map_find(&m->ents, key);
	if (slot || m->ents.nr >= MEMO_MAX_ENTS)
		return slot;
	return u64map_slot(&m->ents, key);
}
