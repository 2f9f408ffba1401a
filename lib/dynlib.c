/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * lib/dynlib.c - libraries loaded at their first use.
 */
#include "config.h"

#include <dlfcn.h>
#include <string.h>

#include "lib/dynlib.h"

void *
dynlib_open(const char *soname, const char **why)
{
	void *h = dlopen(soname, RTLD_NOW | RTLD_LOCAL);

	if (!h)
		*why = dlerror();
	return h;
}

bool
dynlib_sym(void *handle, const char *name, void *fn)
{
	void *p = dlsym(handle, name);

	if (!p)
		return false;
	/* POSIX: a data pointer from dlsym() converts to a function's */
	memcpy(fn, &p, sizeof(p));
	return true;
}
