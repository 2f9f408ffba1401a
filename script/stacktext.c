/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * script/stacktext.c - the text of a sample's stack (its ip or its
 * callchain, one frame a line), kept by the session's stack id: a
 * sample whose stack resolves as an earlier one's prints that text
 * again without being resolved or formatted.  The text is a function of
 * the stack key (session/model.h) and of the fields of its event, which
 * the key holds too.  What is kept is bounded: past the bound, stacks
 * not yet kept are formatted each time.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"
#include "script/scr.h"

#define TEXT_MAX	((size_t)64 << 20)

/* The kept text of stack id, or NULL. */
const char *
scr_stack_text_get(const struct scr_stacks *c, uint64_t id, size_t *len)
{
	if (!id || id >= c->nr || !c->ent[id].len)
		return NULL;
	*len = c->ent[id].len;
	return c->text + c->ent[id].off;
}

static void
ents_reserve(struct scr_stacks *c, uint64_t id)
{
	size_t cap = c->nr ? c->nr : 4096;

	if (id < c->nr)
		return;
	while (cap <= id)
		cap *= 2;
	c->ent = xreallocarray(c->ent, cap, sizeof(*c->ent));
	memset(c->ent + c->nr, 0, (cap - c->nr) * sizeof(*c->ent));
	c->nr = cap;
}

void
scr_stack_text_put(struct scr_stacks *c, uint64_t id, const char *text,
		   size_t len)
{
	if (!id || !len || len > UINT32_MAX || c->len + len > TEXT_MAX)
		return;
	ents_reserve(c, id);
	if (c->len + len > c->cap) {
		c->cap = c->cap ? c->cap : (size_t)1 << 20;
		while (c->cap < c->len + len)
			c->cap *= 2;
		c->text = xrealloc(c->text, c->cap);
	}
	memcpy(c->text + c->len, text, len);
	c->ent[id].off = c->len;
	c->ent[id].len = (uint32_t)len;
	c->len += len;
}

void
scr_stacks_free(struct scr_stacks *c)
{
	free(c->ent);
	free(c->text);
	memset(c, 0, sizeof(*c));
}
