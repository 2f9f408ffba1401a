/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * lib/xalloc.c - allocators that exit on failure.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "lib/diag.h"
#include "lib/xalloc.h"

void *
xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (!p)
		die_oom();
	return p;
}

void *
xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (!p)
		die_oom();
	return p;
}

void *
xrealloc(void *ptr, size_t size)
{
	void *p = realloc(ptr, size ? size : 1);

	if (!p)
		die_oom();
	return p;
}

void *
xreallocarray(void *ptr, size_t nmemb, size_t size)
{
	size_t bytes;

	if (__builtin_mul_overflow(nmemb, size, &bytes))
		die_oom();
	return xrealloc(ptr, bytes);
}

char *
xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *
xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

void
xalloc_large_apart(void)
{
#if defined(__GLIBC__) && defined(M_MMAP_THRESHOLD)
	/*
	 * glibc's threshold otherwise rises to 32 MiB once such a block is
	 * freed, and a table under it grows by copying on the heap, whose
	 * top may stay mapped after.
	 */
	mallopt(M_MMAP_THRESHOLD, 1 << 20);
#endif
}
