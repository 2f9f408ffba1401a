/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * pdata/bitfield.h - C bitfield words written by a writer of the other
 * byte order.
 *
 * A little-endian writer allocates bitfields from the least significant
 * bit, a big-endian one from the most significant: a field at bit p of
 * width w in the one sits at bit nbits - p - w in the other.  Such a word
 * is converted field by field, never byte-swapped alone
 * (doc/perf-data-format.md §14.4).  The attr flag word, attr.aux_action
 * and the branch entry flags all go through pd_bitfield_move().
 */
#ifndef PDATA_BITFIELD_H
#define PDATA_BITFIELD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A field wider than one bit, in the little-endian numbering. */
struct pd_bitfield {
	unsigned char shift;
	unsigned char width;
};

/*
 * Move each field of an nbits-wide word (nbits <= 64) from the one
 * numbering to the other: to the big-endian one when to_be, else from it.
 * The fields in wide[] move as wholes, every bit that no field covers
 * moves alone, as a one-bit flag.  The wrappers below name the direction.
 */
static inline uint64_t
pd_bitfield_move(uint64_t word, unsigned int nbits,
		 const struct pd_bitfield *wide, size_t nr, bool to_be)
{
	uint64_t all = nbits >= 64 ? ~0ULL : (1ULL << nbits) - 1;
	uint64_t out = 0, rest = all;
	size_t i;

	for (i = 0; i < nr; i++) {
		unsigned int le = wide[i].shift, w = wide[i].width;
		unsigned int be = nbits - le - w;
		uint64_t mask = w >= 64 ? ~0ULL : (1ULL << w) - 1;

		if (to_be)
			out |= ((word >> le) & mask) << be;
		else
			out |= ((word >> be) & mask) << le;
		rest &= ~(mask << le);
	}
	/* a lone bit p and bit nbits - 1 - p trade places either way */
	for (; rest; rest &= rest - 1) {
		unsigned int p = (unsigned int)__builtin_ctzll(rest);

		if (to_be)
			out |= ((word >> p) & 1) << (nbits - 1 - p);
		else
			out |= ((word >> (nbits - 1 - p)) & 1) << p;
	}
	return out;
}

/* A big-endian writer's word, in the little-endian numbering. */
static inline uint64_t
pd_bitfield_from_be(uint64_t word, unsigned int nbits,
		    const struct pd_bitfield *wide, size_t nr)
{
	return pd_bitfield_move(word, nbits, wide, nr, false);
}

/* A word in the little-endian numbering, as a big-endian writer has it. */
static inline uint64_t
pd_bitfield_to_be(uint64_t word, unsigned int nbits,
		  const struct pd_bitfield *wide, size_t nr)
{
	return pd_bitfield_move(word, nbits, wide, nr, true);
}

#endif /* PDATA_BITFIELD_H */
