/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * symbol/buildid-cache.h - perf's build-id cache (the ~/.debug layout of
 * perf 6.1, util/build-id.c) and perf archive's tarball of it.
 *
 *   DIR/<long name>/<hex build-id>/elf        an ELF DSO (a copy or link)
 *   DIR/[kernel.kallsyms]/<hex>/kallsyms      the kernel's symbols
 *   DIR/[vdso]/<hex>/vdso                     the vDSO image
 *   DIR/.build-id/<hex[0:2]>/<hex[2:]>  ->  ../../<long name>/<hex>
 */
#ifndef PDATA_SYM_BUILDID_CACHE_H
#define PDATA_SYM_BUILDID_CACHE_H

#include <stddef.h>
#include <stdint.h>

/* $PERF_BUILDID_DIR, else $HOME/.debug; malloc'd, NULL when neither is set. */
char *sym_cache_dir(void);

/*
 * Put src, the file of DSO name (a path, "[kernel.kallsyms]" with src a
 * kallsyms text, "[vdso]" with src the vDSO image, or src NULL for this
 * process's own vDSO when its build-id is bid) with this build-id,
 * into the cache at dir as perf 6.1 does, creating directories.  An
 * entry already there is left as it is.  Returns 0 or -errno, err set.
 */
int sym_cache_add(const char *dir, const char *name, const uint8_t *bid,
		  size_t bid_size, const char *src, char *err, size_t errsz);

/* One DSO of a perf archive. */
struct sym_cache_ref {
	const char *name;
	uint8_t bid[20];
	size_t bid_size;
};

/*
 * Write out (a bzip2 tar, as perf archive writes PERF_DATA.tar.bz2) with,
 * for each ref present in the cache at dir, its .build-id link and the
 * directory it points to, names relative to dir.  Refs not in the cache
 * are counted in *missing (may be NULL).  Returns 0 or -errno, err set.
 */
int sym_perf_tar_write(const char *out, const char *dir,
		       const struct sym_cache_ref *refs, size_t nr_refs,
		       size_t *missing, char *err, size_t errsz);

#endif /* PDATA_SYM_BUILDID_CACHE_H */
