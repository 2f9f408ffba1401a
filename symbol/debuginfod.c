/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * symbol/debuginfod.c - the last place symbols are looked for, when
 * pdata is built with libdebuginfod and DEBUGINFOD_URLS names servers:
 * the debug file or executable with a DSO's build-id, fetched into
 * libdebuginfod's own cache ($DEBUGINFOD_CACHE_PATH, else
 * ~/.cache/debuginfod_client).  perf 6.1 uses debuginfod only when it
 * fills its build-id cache; we use it for the symbols as well.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef HAVE_LIBDEBUGINFOD
#include <elfutils/debuginfod.h>
#endif

#include "symbol/sym-dso.h"

#ifdef HAVE_LIBDEBUGINFOD

bool
sym_debuginfod_enabled(void)
{
	const char *urls = getenv("DEBUGINFOD_URLS");

	return urls && urls[strspn(urls, " \t")];
}

char *
sym_debuginfod_fetch(const uint8_t *bid, size_t size, bool debug)
{
	debuginfod_client *c = debuginfod_begin();
	char *path = NULL;
	int fd;

	if (!c)
		return NULL;
	if (debug)
		fd = debuginfod_find_debuginfo(c, bid, (int)size, &path);
	else
		fd = debuginfod_find_executable(c, bid, (int)size, &path);
	if (fd >= 0)
		close(fd);
	else
		path = NULL;
	debuginfod_end(c);
	return path;
}

#else

bool
sym_debuginfod_enabled(void)
{
	return false;
}

char *
sym_debuginfod_fetch(const uint8_t *bid, size_t size, bool debug)
{
	(void)bid;
	(void)size;
	(void)debug;
	return NULL;
}

#endif
