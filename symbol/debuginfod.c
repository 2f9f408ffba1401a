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

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef HAVE_LIBDEBUGINFOD
#include <elfutils/debuginfod.h>
#endif

#include "lib/dynlib.h"
#include "symbol/sym-dso.h"

#ifdef HAVE_LIBDEBUGINFOD

/* libdebuginfod, loaded when first asked for (lib/dynlib.h) */
#define DI_FUNCS(X) \
	X(debuginfod_begin) X(debuginfod_find_debuginfo) \
	X(debuginfod_find_executable) X(debuginfod_end)
static struct {
	DI_FUNCS(DYNLIB_FIELD)
} di;
static bool di_loaded;
static pthread_once_t di_once = PTHREAD_ONCE_INIT;

static void
di_load(void)
{
	const char *why;
	void *h = dynlib_open(DEBUGINFOD_SONAME, &why);

#define DI_SYM(name) dynlib_sym(h, #name, &di.name) &&
	di_loaded = h && DI_FUNCS(DI_SYM) true;
#undef DI_SYM
}

/* DEBUGINFOD_URLS names a server, and libdebuginfod can be loaded. */
bool
sym_debuginfod_enabled(void)
{
	const char *urls = getenv("DEBUGINFOD_URLS");

	if (!urls || !urls[strspn(urls, " \t")])
		return false;
	pthread_once(&di_once, di_load);
	return di_loaded;
}

char *
sym_debuginfod_fetch(const uint8_t *bid, size_t size, bool debug)
{
	debuginfod_client *c;
	char *path = NULL;
	int fd;

	if (!sym_debuginfod_enabled() || !(c = di.debuginfod_begin()))
		return NULL;
	if (debug)
		fd = di.debuginfod_find_debuginfo(c, bid, (int)size, &path);
	else
		fd = di.debuginfod_find_executable(c, bid, (int)size, &path);
	if (fd >= 0)
		close(fd);
	else
		path = NULL;
	di.debuginfod_end(c);
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
