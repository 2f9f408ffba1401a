/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * session/arena.c - the session's bump arena and interned strings.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "lib/xalloc.h"
#include "session/session-int.h"

/* Chunks double from ARENA_CHUNK_FIRST to ARENA_CHUNK: a small file needs little. */
#define ARENA_CHUNK_FIRST (16 * 1024)
#define ARENA_CHUNK (256 * 1024)

struct ses_arena_chunk {
	struct ses_arena_chunk *next;
	size_t size;
	max_align_t data[];
};

static size_t
arena_next_size(const struct ses_arena *a)
{
	size_t last = a->head ? a->head->size : ARENA_CHUNK_FIRST / 2;

	return last >= ARENA_CHUNK / 2 ? ARENA_CHUNK : last * 2;
}

void *
ses_arena_alloc(struct ses_arena *a, size_t size)
{
	struct ses_arena_chunk *c;
	size_t want, align = sizeof(max_align_t);
	void *p;

	size = (size + align - 1) & ~(align - 1);
	if (!a->head || a->cap - a->used < size) {
		want = arena_next_size(a);
		if (size > want)
			want = size;
		c = xmalloc(sizeof(*c) + want);
		c->size = want;
		c->next = a->head;
		a->head = c;
		a->used = 0;
		a->cap = want;
	}
	p = (char *)a->head->data + a->used;
	a->used += size;
	return p;
}

char *
ses_arena_strndup(struct ses_arena *a, const char *s, size_t len)
{
	char *p = ses_arena_alloc(a, len + 1);

	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

void
ses_arena_free(struct ses_arena *a)
{
	struct ses_arena_chunk *c, *next;

	for (c = a->head; c; c = next) {
		next = c->next;
		free(c);
	}
	a->head = NULL;
	a->used = a->cap = 0;
}

uint64_t
ses_hash(const void *p, size_t len)
{
	return XXH3_64bits(p, len);
}

struct ses_str_ent {
	const char *s;
	size_t len;
	size_t next;		/* 1 + index of the next one with this hash */
};

const char *
ses_intern(struct ses_strtab *t, const char *s, size_t len)
{
	uint64_t *slot = u64map_slot(&t->index, ses_hash(s, len));
	size_t i;

	for (i = *slot; i; i = t->ents[i - 1].next) {
		struct ses_str_ent *e = &t->ents[i - 1];

		if (e->len == len && !memcmp(e->s, s, len))
			return e->s;
	}
	if (t->nr == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 64;
		t->ents = xreallocarray(t->ents, t->cap, sizeof(*t->ents));
	}
	t->ents[t->nr].s = ses_arena_strndup(t->arena, s, len);
	t->ents[t->nr].len = len;
	t->ents[t->nr].next = *slot;
	*slot = ++t->nr;
	return t->ents[t->nr - 1].s;
}

void
ses_strtab_free(struct ses_strtab *t)
{
	u64map_free(&t->index);
	free(t->ents);
	t->ents = NULL;
	t->nr = t->cap = 0;
}
