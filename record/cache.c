/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * record/cache.c - fill perf's build-id cache at the end of a recording,
 * as perf 6.1 does while it writes the BUILD_ID feature
 * (perf_session__cache_build_ids, util/build-id.c): every DSO of the
 * list goes in; a file whose build-id is no longer the recorded one is
 * left out without a word, as perf leaves it; any other problem is a
 * warning and the recording goes on.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/diag.h"
#include "lib/safefile.h"
#include "pdata/meta.h"
#include "record/record.h"
#include "symbol/buildid-cache.h"

#define KALLSYMS_NAME	"[kernel.kallsyms]"
#define VDSO_NAME	"[vdso]"

/*
 * The file to cache for entry name, NULL for this process's vDSO; ""
 * when there is none (a module known only as "[name]", a 32-bit vDSO).
 */
static const char *
cache_src(const char *name)
{
	if (!strcmp(name, KALLSYMS_NAME))
		return "/proc/kallsyms";
	if (!strcmp(name, VDSO_NAME))
		return NULL;
	if (name[0] != '/')
		return "";
	return name;
}

static void
cache_one(const char *dir, const struct pd_build_id *b,
	  const struct rec_opts *o)
{
	const char *src = cache_src(b->filename);
	char err[512] = "";
	int r;

	if (src && !*src) {
		if (o->verbose)
			warn_msg("build-id cache: no file for %s", b->filename);
		return;
	}
	r = sym_cache_add(dir, b->filename, b->id, b->size, src, err,
			  sizeof(err));
	if (!r)
		return;
	/* perf's dso__build_id_mismatch(): skipped quietly */
	if (r == -EBADE && !o->verbose)
		return;
	warn_msg("cannot add %s to the build-id cache: %s", b->filename,
		 *err ? err : sfile_strerror(r));
}

void
rec_cache_fill(const struct pd_meta *meta, const struct rec_opts *o)
{
	char *dir;

	if (!meta->nr_build_ids)
		return;
	dir = sym_cache_dir();
	if (!dir) {
		if (o->verbose)
			warn_msg("no build-id cache: neither PERF_BUILDID_DIR "
				 "nor HOME is set");
		return;
	}
	/*
	 * perf makes the top directory alone (mode 0755), not its parents,
	 * and says nothing when the home directory does not exist
	 */
	if (mkdir(dir, 0755) && errno != EEXIST) {
		if (errno != ENOENT || o->verbose) {
			warn_msg("cannot create the build-id cache '%s': %s",
				 dir, strerror(errno));
			hint_msg("-N records without filling it");
		}
		free(dir);
		return;
	}
	for (size_t i = 0; i < meta->nr_build_ids; i++)
		cache_one(dir, &meta->build_ids[i], o);
	free(dir);
}
