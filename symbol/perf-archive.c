/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * symbol/perf-archive.c - `preport --perf-archive`: the DSOs a report
 * looked up, put into perf's build-id cache where missing, then written
 * as perf archive's tarball (perf-archive.sh of perf 6.1).  When none
 * of them has a build-id nothing is written and st->nr_dsos is 0 (perf
 * archive then says "no build-ids found"); when none of them could be
 * put into the cache, the tarball's writer fails with -ENOENT.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "symbol/buildid-cache.h"
#include "symbol/sym-dso.h"

/* The name perf's cache keeps dso under, or NULL when it keeps none. */
static const char *
perf_cache_name(struct sym_dso *dso)
{
	const char *name = sym_dso_long_name(dso);

	switch (sym_dso_kind(dso)) {
	case SYM_DSO_FILE:
		return name[0] == '/' ? name : NULL;
	case SYM_DSO_KERNEL:
		return strcmp(name, "[kernel.kallsyms]") ? NULL : name;
	case SYM_DSO_VDSO:
		return "[vdso]";
	case SYM_DSO_MODULE:
		/* perf names a module by its .ko file */
		if (name[0] == '/')
			return name;
		return sym_dso_image_path(dso);
	default:
		return NULL;
	}
}

static bool
cache_has(const char *dir, const struct sym_cache_ref *ref)
{
	char hex[2 * SYM_BUILD_ID_MAX + 1];
	struct stat st;
	char *link;
	bool r;

	sym_build_id_hex(ref->bid, ref->bid_size, hex);
	if (asprintf(&link, "%s/.build-id/%.2s/%s", dir, hex, hex + 2) < 0)
		return false;
	r = stat(link, &st) == 0;
	free(link);
	return r;
}

/* Make sure the cache at dir holds dso; a problem goes to the warning. */
static void
perf_cache_dso(struct sym_ctx *ctx, const char *dir, struct sym_dso *dso,
	       const struct sym_cache_ref *ref)
{
	char hex[2 * SYM_BUILD_ID_MAX + 1];
	char err[512];
	const char *src;

	if (cache_has(dir, ref))
		return;
	sym_dso_load(dso);
	src = sym_dso_image_path(dso);
	if (!src) {
		sym_build_id_hex(ref->bid, ref->bid_size, hex);
		sym_warn(ctx, "%s with build-id %s: no file to put into the "
			 "build-id cache, left out of the perf archive",
			 ref->name, hex);
		return;
	}
	if (sym_cache_add(dir, ref->name, ref->bid, ref->bid_size, src, err,
			  sizeof(err)) < 0)
		sym_warn(ctx, "cannot add %s to the build-id cache: %s; left "
			 "out of the perf archive", ref->name, err);
}

/* The noted DSOs perf archive would take, each put into the cache. */
static size_t
perf_archive_refs(struct sym_ctx *ctx, const char *dir,
		  struct sym_cache_ref *refs, struct sym_dso **dsos,
		  size_t nr)
{
	size_t i, n = 0;

	for (i = 0; i < nr; i++) {
		struct sym_cache_ref *ref = &refs[n];

		sym_dso_load(dsos[i]);
		ref->bid_size = sym_dso_build_id(dsos[i], ref->bid);
		if (!ref->bid_size)
			continue;
		ref->name = perf_cache_name(dsos[i]);
		if (!ref->name)
			continue;
		perf_cache_dso(ctx, dir, dsos[i], ref);
		n++;
	}
	return n;
}

int
sym_ctx_write_perf_archive(struct sym_ctx *ctx, const char *path,
			   const char *cache_dir,
			   struct sym_archive_stats *st, char *err,
			   size_t errsz)
{
	struct sym_archive_stats dummy;
	struct sym_cache_ref *refs;
	struct sym_dso **dsos;
	char *dir = NULL;
	size_t nr, n, missing = 0;
	struct stat sb;
	int r;

	if (!st)
		st = &dummy;
	memset(st, 0, sizeof(*st));
	if (!cache_dir) {
		dir = sym_cache_dir();
		if (!dir) {
			snprintf(err, errsz, "perf archive: no build-id cache "
				 "directory: neither PERF_BUILDID_DIR nor HOME "
				 "is set");
			return -EINVAL;
		}
		cache_dir = dir;
	}
	nr = sym_ctx_noted_dsos(ctx, &dsos);
	refs = calloc(nr ? nr : 1, sizeof(*refs));
	if (!refs) {
		free(dir);
		snprintf(err, errsz, "perf archive: %s", strerror(ENOMEM));
		return -ENOMEM;
	}
	n = perf_archive_refs(ctx, cache_dir, refs, dsos, nr);
	if (n && stat(cache_dir, &sb) != 0 && errno == ENOENT) {
		/* nothing could be cached: as empty a cache as none */
		st->nr_missing = n;
		n = 0;
	}
	/* nothing with a build-id: no tarball, st->nr_dsos says so */
	r = n ? sym_perf_tar_write(path, cache_dir, refs, n, &missing, err,
				   errsz) : 0;
	if (r == 0 && n) {
		st->nr_dsos = n - missing;
		st->nr_missing = missing;
		if (stat(path, &sb) == 0)
			st->bytes = (uint64_t)sb.st_size;
	}
	free(refs);
	free(dir);
	return r;
}
