/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * lib/u64map.c - a hash table from u64 keys to u64 values.
 */
#include "config.h"

#include <stdlib.h>

#include "lib/u64map.h"
#include "lib/xalloc.h"

static size_t
slot_of(uint64_t key, size_t cap)
{
	return (size_t)u64_mix(key) & (cap - 1);
}

static void
u64map_grow(struct u64map *m)
{
	struct u64map bigger = U64MAP_INIT;
	size_t i;

	bigger.cap = m->cap ? m->cap * 2 : 64;
	bigger.keys = xcalloc(bigger.cap, sizeof(*bigger.keys));
	bigger.vals = xcalloc(bigger.cap, sizeof(*bigger.vals));
	bigger.used = xcalloc(bigger.cap, 1);
	for (i = 0; i < m->cap; i++)
		if (m->used[i])
			*u64map_slot(&bigger, m->keys[i]) = m->vals[i];
	u64map_free(m);
	*m = bigger;
}

uint64_t *
u64map_find(const struct u64map *m, uint64_t key)
{
	size_t s;

	if (!m->cap)
		return NULL;
	for (s = slot_of(key, m->cap); m->used[s]; s = (s + 1) & (m->cap - 1))
		if (m->keys[s] == key)
			return &m->vals[s];
	return NULL;
}

uint64_t *
u64map_slot(struct u64map *m, uint64_t key)
{
	uint64_t *found = u64map_find(m, key);
	size_t s;

	if (found)
		return found;
	if ((m->nr + 1) * 2 > m->cap)
		u64map_grow(m);
	for (s = slot_of(key, m->cap); m->used[s]; s = (s + 1) & (m->cap - 1))
		;
	m->used[s] = 1;
	m->keys[s] = key;
	m->vals[s] = 0;
	m->nr++;
	return &m->vals[s];
}

void
u64map_free(struct u64map *m)
{
	free(m->keys);
	free(m->vals);
	free(m->used);
	m->keys = m->vals = NULL;
	m->used = NULL;
	m->cap = m->nr = 0;
}

bool
u64map_next(const struct u64map *m, size_t *pos, uint64_t *key, uint64_t *val)
{
	for (; *pos < m->cap; (*pos)++) {
		if (m->used[*pos]) {
			*key = m->keys[*pos];
			*val = m->vals[*pos];
			(*pos)++;
			return true;
		}
	}
	return false;
}

uint64_t
u64map_str_key(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return h;
}
