/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * tests/progs/dlopen.c - a program that loads a shared library at run
 * time and spends its time there.
 *
 *   dlopen [MSEC] [LIBRARY]
 *
 * dlopens LIBRARY (default: libpdhot.so next to this program) and calls
 * its pdhot_burn for MSEC milliseconds (default 300), after MSEC/5
 * milliseconds in its own main_burn.
 */
#include <dlfcn.h>

#include "progs.h"

HOT_FN uint64_t main_burn(uint64_t end);

HOT_FN uint64_t
main_burn(uint64_t end)
{
	return progs_burn_until(5, end);
}

int
main(int argc, char **argv)
{
	char lib[4096];
	unsigned long msec = 300;
	uint64_t (*burn)(unsigned long);
	void *handle, *sym;

	if (argc > 3) {
		fprintf(stderr, "usage: dlopen [MSEC] [LIBRARY]\n");
		return 2;
	}
	if (argc > 1)
		msec = progs_arg("dlopen", "MSEC", argv[1]);
	if (argc > 2)
		snprintf(lib, sizeof(lib), "%s", argv[2]);
	else
		progs_sibling("dlopen", "libpdhot.so", lib, sizeof(lib));

	main_burn(progs_now_ns() + (uint64_t)msec * 200000);
	handle = dlopen(lib, RTLD_NOW);
	if (!handle) {
		fprintf(stderr, "dlopen: %s\n", dlerror());
		return 1;
	}
	sym = dlsym(handle, "pdhot_burn");
	if (!sym) {
		fprintf(stderr, "dlopen: %s\n", dlerror());
		return 1;
	}
	/* POSIX guarantees that a data pointer from dlsym converts */
	memcpy(&burn, &sym, sizeof(burn));
	progs_sink = burn(msec);
	dlclose(handle);
	return 0;
}
