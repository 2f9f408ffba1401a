/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * script/stacktext.c - the text of a sample's stack (its ip or its
 * callchain, one frame a line), kept by the session's stack id: a
 * sample whose stack resolves as an earlier one's prints that text
 * again without being resolved or formatted.  The text is a function of
 * the stack key (session/model.h) and of the fields of its event, which
 * the key holds too.  What is kept is bounded: past the bound, stacks
 * not yet kept are formatted each time.  Kept text stays where it was
 * put, so that the output can refer to it (scr_out_ref()).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"
#include "script/scr.h"

#define TEXT_MAX	((size_t)64 << 20)
#define BLOCK_SIZE	((size_t)1 << 20)

/* The kept text of stack id, or NULL. */
const char *
scr_stack_text_get(const struct scr_stacks *c, uint64_t id, size_t *len)
{
	if (!id || id >= c->nr || !c->ent[id].len)
		return NULL;
	*len = c->ent[id].len;
	return c->ent[id].text;
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

/* room for len bytes that will not move */
static char *
text_room(struct scr_stacks *c, size_t len)
{
	size_t size = len > BLOCK_SIZE ? len : BLOCK_SIZE;
	char *p;

	if (c->room < len) {
		c->blocks = xreallocarray(c->blocks, c->nr_blocks + 1,
					  sizeof(*c->blocks));
		c->next = c->blocks[c->nr_blocks++] = xmalloc(size);
		c->room = size;
		c->total += size;
	}
	p = c->next;
	c->next += len;
	c->room -= len;
	return p;
}

void
scr_stack_text_put(struct scr_stacks *c, uint64_t id, const char *text,
		   size_t len)
{
	char *p;

	if (!id || !len || len > UINT32_MAX ||
	    (c->room < len && c->total + BLOCK_SIZE + len > TEXT_MAX))
		return;
	ents_reserve(c, id);
	p = text_room(c, len);
	memcpy(p, text, len);
	c->ent[id].text = p;
	c->ent[id].len = (uint32_t)len;
}

void
scr_stacks_free(struct scr_stacks *c)
{
	size_t i;

	for (i = 0; i < c->nr_blocks; i++)
		free(c->blocks[i]);
	free(c->blocks);
	free(c->ent);
	memset(c, 0, sizeof(*c));
}
