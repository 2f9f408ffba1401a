/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * lib/u64map.h - a hash table from u64 keys to u64 values (open
 * addressing, slots by u64_mix()).
 */
#ifndef PD_LIB_U64MAP_H
#define PD_LIB_U64MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct u64map {
	uint64_t *keys;
	uint64_t *vals;
	unsigned char *used;
	size_t cap;		/* a power of two, or 0 */
	size_t nr;
};

#define U64MAP_INIT { .keys = NULL, .vals = NULL, .used = NULL, .cap = 0, .nr = 0 }

/* The value slot for key, created (as 0) when absent. */
uint64_t *u64map_slot(struct u64map *m, uint64_t key);
/* The value of key, or NULL. */
uint64_t *u64map_find(const struct u64map *m, uint64_t key);
void u64map_free(struct u64map *m);
/* A 64-bit finaliser (murmur3's fmix64): every input bit moves every output bit. */
static inline uint64_t
u64_mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

/* A key for a NUL-terminated string (64-bit FNV-1a); equal keys may differ in text. */
uint64_t u64map_str_key(const char *s);
/*
 * Walk the entries in no particular order: start with *pos = 0; each call
 * returns true with the next key and value, false at the end.
 */
bool u64map_next(const struct u64map *m, size_t *pos, uint64_t *key, uint64_t *val);

#endif /* PD_LIB_U64MAP_H */
