/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * format/idmap.c - event id -> evsel index, an open-addressing hash table.
 *
 * Files carry one id per event fd (events x CPUs x threads), so a
 * system-wide recording of a large machine has tens of thousands; every
 * sample of a multi-event file needs one lookup.  The ids come from the
 * file, so the hash is keyed with a random seed: a crafted file cannot
 * pile its ids into one chain.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "format/reader-int.h"

static uint64_t
random_seed(void)
{
	uint64_t seed = 0;

	if (getrandom(&seed, sizeof(seed), GRND_NONBLOCK) != sizeof(seed))
		seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32) ^
		       (uint64_t)(uintptr_t)&seed;
	return seed;
}

/* splitmix64's finaliser: every bit of the key moves every bit of the slot */
static size_t
slot_of(const struct pd_idmap *m, uint64_t id)
{
	uint64_t x = id ^ m->seed;

	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	x ^= x >> 31;
	return (size_t)x & (m->cap - 1);
}

static int
idmap_grow(struct pd_idmap *m)
{
	struct pd_idmap bigger = {
		.cap = m->cap ? m->cap * 2 : 64,
		.seed = m->cap ? m->seed : random_seed(),
	};
	size_t i;

	bigger.keys = calloc(bigger.cap, sizeof(*bigger.keys));
	bigger.vals = calloc(bigger.cap, sizeof(*bigger.vals));
	if (!bigger.keys || !bigger.vals) {
		free(bigger.keys);
		free(bigger.vals);
		return -PD_E_NOMEM;
	}
	for (i = 0; i < m->cap; i++) {
		size_t s;

		if (!m->keys[i])
			continue;
		s = slot_of(&bigger, m->keys[i]);
		while (bigger.keys[s])
			s = (s + 1) & (bigger.cap - 1);
		bigger.keys[s] = m->keys[i];
		bigger.vals[s] = m->vals[i];
	}
	bigger.nr = m->nr;
	free(m->keys);
	free(m->vals);
	*m = bigger;
	return 0;
}

/* Later entries do not replace earlier ones: the first owner of an id wins. */
int
pd_idmap_put(struct pd_idmap *m, uint64_t id, uint32_t val)
{
	size_t s;

	if (id == 0)
		return 0;
	if ((m->nr + 1) * 2 > m->cap) {
		int err = idmap_grow(m);

		if (err)
			return err;
	}
	s = slot_of(m, id);
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
pd_idmap_get(const struct pd_idmap *m, uint64_t id, uint32_t *val)
{
	size_t s;

	if (!m->cap || id == 0)
		return false;
	s = slot_of(m, id);
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
pd_idmap_free(struct pd_idmap *m)
{
	free(m->keys);
	free(m->vals);
	m->keys = NULL;
	m->vals = NULL;
	m->cap = m->nr = 0;
}
