/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * lib/xalloc.h - allocators that exit on failure (tools only; libpdata
 * returns -PD_E_NOMEM instead).
 */
#ifndef PD_LIB_XALLOC_H
#define PD_LIB_XALLOC_H

#include <stddef.h>

void *xmalloc(size_t size);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *ptr, size_t size);
/* realloc for nmemb elements of size bytes, checking the product */
void *xreallocarray(void *ptr, size_t nmemb, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/*
 * Take blocks of 1 MiB or more from the system apart (glibc; elsewhere
 * nothing changes): a large table then grows in place, not by a copy
 * beside the old one, and goes back to the system when freed.  For
 * tools that grow tables with what they read; call before allocating.
 */
void xalloc_large_apart(void);

#endif /* PD_LIB_XALLOC_H */
