/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * format/compiler.h - the few compiler and host facts the library's
 * sources share, so that no file spells them out on its own.
 */
#ifndef PD_FORMAT_COMPILER_H
#define PD_FORMAT_COMPILER_H

#include <stdbool.h>

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

/* lib/diag.h has the same definition for the tools */
#ifndef PD_PRINTF
#define PD_PRINTF(a, b)	__attribute__((format(printf, a, b)))
#endif

/*
 * For a walk that serves both a fast decoder and its explaining twin:
 * inlined into each caller, the explaining code folds away where the
 * caller passes a constant NULL sink.
 */
#define PD_ALWAYS_INLINE	inline __attribute__((always_inline))

#ifdef WORDS_BIGENDIAN
#define PD_HOST_BIG_ENDIAN	true
#else
#define PD_HOST_BIG_ENDIAN	false
#endif

/* A file in the other byte order came from a big-endian writer. */
static inline bool
pd_file_big_endian(bool swap)
{
	return PD_HOST_BIG_ENDIAN != swap;
}

#endif /* PD_FORMAT_COMPILER_H */
