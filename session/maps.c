/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * session/maps.c - one address space: maps sorted by start.  A new user
 * map replaces the parts of older maps it covers; an older map that
 * sticks out on either side keeps those parts as new maps, with the
 * pgoff of the right-hand part moved on (doc/perf-records.md §7.3).
 * Map objects never change once made, so copying a map set for a new
 * process copies pointers.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"
#include "session/session-int.h"

static void
maps_reserve(struct ses_maps *m, size_t extra)
{
	if (m->nr + extra <= m->cap)
		return;
	while (m->nr + extra > m->cap)
		m->cap = m->cap ? 2 * m->cap : 16;
	m->v = xreallocarray(m->v, m->cap, sizeof(*m->v));
}

/* The index of the first map whose start is > addr. */
static size_t
maps_upper(const struct ses_maps *m, uint64_t addr)
{
	size_t lo = 0, hi = m->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->v[mid]->pub.start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * A change of m: a generation no map set had before, so that a cache
 * keyed by a map set's address and generation never takes a freed set
 * for a new one at the same address.
 */
static void
maps_changed(struct ses_maps *m)
{
	static uint64_t last_gen;

	m->gen = __atomic_add_fetch(&last_gen, 1, __ATOMIC_RELAXED);
}

/* Insert keeping start order; equal starts go after the older maps. */
void
ses_maps_insert(struct ses_maps *m, struct ses_map_int *map)
{
	size_t at;

	maps_reserve(m, 1);
	at = maps_upper(m, map->pub.start);
	memmove(&m->v[at + 1], &m->v[at], (m->nr - at) * sizeof(*m->v));
	m->v[at] = map;
	m->nr++;
	m->hint = 0;
	maps_changed(m);
}

void
ses_maps_remove(struct ses_maps *m, const struct ses_map_int *map)
{
	size_t i;

	for (i = 0; i < m->nr; i++) {
		if (m->v[i] == map) {
			memmove(&m->v[i], &m->v[i + 1],
				(m->nr - i - 1) * sizeof(*m->v));
			m->nr--;
			m->hint = 0;
			maps_changed(m);
			return;
		}
	}
}

static struct ses_map_int *
map_piece(struct ses_arena *arena, const struct ses_map_int *from,
	  uint64_t start, uint64_t end)
{
	struct ses_map_int *p = ses_arena_alloc(arena, sizeof(*p));

	*p = *from;
	p->pub.pgoff = from->pub.pgoff + (start - from->pub.start);
	p->pub.start = start;
	p->pub.end = end;
	return p;
}

void
ses_maps_insert_fixup(struct ses_maps *m, struct ses_map_int *map,
		      struct ses_arena *arena)
{
	uint64_t start = map->pub.start, end = map->pub.end;
	struct ses_map_int *keep[2];
	size_t first, i, nr_keep = 0, nr_gone;

	/* the first map ending after start (no overlaps: ends are sorted) */
	for (first = maps_upper(m, start); first > 0; first--)
		if (m->v[first - 1]->pub.end <= start)
			break;
	for (i = first; i < m->nr && m->v[i]->pub.start < end; i++) {
		struct ses_map_int *pos = m->v[i];

		if (pos->pub.end <= start)
			continue;
		if (start > pos->pub.start && nr_keep < 2)
			keep[nr_keep++] = map_piece(arena, pos,
						    pos->pub.start, start);
		if (end < pos->pub.end && nr_keep < 2)
			keep[nr_keep++] = map_piece(arena, pos,
						    end, pos->pub.end);
	}
	nr_gone = i - first;
	if (nr_gone) {
		memmove(&m->v[first], &m->v[i], (m->nr - i) * sizeof(*m->v));
		m->nr -= nr_gone;
	}
	for (i = 0; i < nr_keep; i++)
		ses_maps_insert(m, keep[i]);
	ses_maps_insert(m, map);
}

struct ses_map_int *
ses_maps_find(struct ses_maps *m, uint64_t ip)
{
	struct ses_map_int *map;
	/* two threads may look up at once (session/ahead.c): a relaxed hint */
	size_t at = __atomic_load_n(&m->hint, __ATOMIC_RELAXED);

	if (at < m->nr && !m->may_overlap) {
		map = m->v[at];
		if (ip >= map->pub.start && ip < map->pub.end)
			return map;
	}
	at = maps_upper(m, ip);
	/* kernel maps may overlap: take the nearest one that covers ip */
	while (at > 0) {
		map = m->v[--at];
		if (ip < map->pub.end) {
			__atomic_store_n(&m->hint, at, __ATOMIC_RELAXED);
			return map;
		}
		if (!m->may_overlap)
			break;
	}
	return NULL;
}

void
ses_maps_copy(struct ses_maps *dst, const struct ses_maps *src)
{
	size_t i;

	if (dst->nr) {
		for (i = 0; i < src->nr; i++)
			ses_maps_insert(dst, src->v[i]);
		return;
	}
	maps_reserve(dst, src->nr);
	if (src->nr)
		memcpy(dst->v, src->v, src->nr * sizeof(*src->v));
	dst->nr = src->nr;
	dst->hint = 0;
	maps_changed(dst);
}

void
ses_maps_free(struct ses_maps *m)
{
	free(m->v);
	m->v = NULL;
	m->nr = m->cap = 0;
}
