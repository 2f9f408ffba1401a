/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * symbol/vdso-self.c - this process's own vDSO image as a file.
 *
 * perf 6.1 gives every [vdso] DSO, as its file of last resort, a copy of
 * the vDSO mapped into perf itself (util/vdso.c).  On the recording
 * machine that is the recorded vDSO, which is how perf resolves vDSO
 * samples of pipe-mode streams, whose build-ids come too late to look in
 * the build-id cache.  The copy goes into a memfd, read through
 * /proc/self/fd like any other file; a build-id check still guards it.
 */
#include "config.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "symbol/sym-dso.h"
#include "symbol/sym-int.h"

static pthread_once_t vdso_once = PTHREAD_ONCE_INIT;
static char vdso_path[64];

static int
vdso_range(uintptr_t *start, uintptr_t *end)
{
	char line[512];
	FILE *f = fopen("/proc/self/maps", "r");
	int found = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		uint64_t lo, hi;

		if (!strstr(line, "[vdso]"))
			continue;
		if (sscanf(line, "%" SCNx64 "-%" SCNx64, &lo, &hi) == 2 &&
		    hi > lo && hi - lo <= (64u << 20)) {
			*start = (uintptr_t)lo;
			*end = (uintptr_t)hi;
			found = 0;
		}
		break;
	}
	fclose(f);
	return found;
}

static void
vdso_copy(void)
{
	uintptr_t start, end;
	int fd;

	if (vdso_range(&start, &end))
		return;
	fd = memfd_create("perf-vdso.so", MFD_CLOEXEC);
	if (fd < 0)
		return;
	if (write(fd, (const void *)start, end - start) !=
	    (ssize_t)(end - start)) {
		close(fd);
		return;
	}
	/* the fd stays open for the life of the process: it is the file */
	snprintf(vdso_path, sizeof(vdso_path), "/proc/self/fd/%d", fd);
}

const char *
sym_self_vdso_path(void)
{
	pthread_once(&vdso_once, vdso_copy);
	return vdso_path[0] ? vdso_path : NULL;
}

bool
sym_dso_is_host_vdso(const struct sym_dso *dso)
{
	return !strcmp(dso->short_name, "[vdso]") && sym_self_vdso_path();
}
