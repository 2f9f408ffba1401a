/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * format/idmap.c - event id -> evsel index, an open-addressing hash table.
 *
 * Files carry one id per event fd (events x CPUs x threads), so a
 * system-wide recording of a large machine has tens of thousands; every
 * sample of a multi-event file needs one lookup.
 */
#include "config.h"

#include <stdlib.h>

#include "format/reader-int.h"

static size_t
slot_of(uint64_t id, size_t cap)
{
	/* Fibonacci hashing spreads the sequential ids the kernel hands out. */
	return (size_t)((id * 0x9e3779b97f4a7c15ULL) >> 32) & (cap - 1);
}

static int
idmap_grow(struct pd_idmap *m)
{
	size_t cap = m->cap ? m->cap * 2 : 64;
	uint64_t *keys = calloc(cap, sizeof(*keys));
	uint32_t *vals = calloc(cap, sizeof(*vals));
	size_t i;

	if (!keys || !vals) {
		free(keys);
		free(vals);
		return -PD_E_NOMEM;
	}
	for (i = 0; i < m->cap; i++) {
		size_t s;

		if (!m->keys[i])
			continue;
		s = slot_of(m->keys[i], cap);
		while (keys[s])
			s = (s + 1) & (cap - 1);
		keys[s] = m->keys[i];
		vals[s] = m->vals[i];
	}
	free(m->keys);
	free(m->vals);
	m->keys = keys;
	m->vals = vals;
	m->cap = cap;
	return 0;
}

/* Later entries do not replace earlier ones: the first owner of an id wins. */
int
idmap_put(struct pd_idmap *m, uint64_t id, uint32_t val)
{
	size_t s;

	if (id == 0)
		return 0;
	if ((m->nr + 1) * 2 > m->cap) {
		int err = idmap_grow(m);

		if (err)
			return err;
	}
	s = slot_of(id, m->cap);
	while (m->keys[s]) {
		if (m->keys[s] == id)
			return 0;
		s = (s + 1) & (m->cap - 1);
	}
	m->keys[s] = id;
	m->vals[s] = val;
	m->nr++;
	return 0;
}

bool
idmap_get(const struct pd_idmap *m, uint64_t id, uint32_t *val)
{
	size_t s;

	if (!m->cap || id == 0)
		return false;
	s = slot_of(id, m->cap);
	while (m->keys[s]) {
		if (m->keys[s] == id) {
			*val = m->vals[s];
			return true;
		}
		s = (s + 1) & (m->cap - 1);
	}
	return false;
}

void
idmap_free(struct pd_idmap *m)
{
	free(m->keys);
	free(m->vals);
	m->keys = NULL;
	m->vals = NULL;
	m->cap = m->nr = 0;
}
