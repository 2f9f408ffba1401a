/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * symbol/sym-dso.h - the context and DSO structures, inside symbol/ only.
 */
#ifndef PDATA_SYM_DSO_H
#define PDATA_SYM_DSO_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "lib/u64map.h"
#include "symbol/sym-int.h"

struct sym_srcline_cache;

struct sym_ctx {
	struct sym_opts opts;		/* strings point at the copies below */
	char *symfs, *kallsyms_path, *os_release, *buildid_dir;
	pthread_mutex_t lock;		/* dsos, tables, kallsyms */
	struct u64map dsos;		/* key hash -> chain of sym_dso */
	struct u64map tables;		/* build-id hash -> sym_table */
	struct sym_dso *kernel;		/* the first [kernel.kallsyms] seen */
	bool kallsyms_loaded;
	bool kallsyms_ok;
	struct sym_kallsyms kallsyms;
	char kallsyms_origin;
};

struct sym_dso {
	struct sym_ctx *ctx;
	struct sym_dso *hash_next;
	enum sym_dso_kind kind;
	char *long_name;
	char *short_name;
	uint8_t bid[SYM_BUILD_ID_MAX];
	size_t bid_size;
	pthread_mutex_t lock;		/* loading, srcline */
	bool loaded;			/* read with acquire */
	bool own_table;			/* table is not shared: free it */
	struct sym_table *table;
	char origin;
	char *symsrc_path;		/* the file symbols came from */
	struct sym_srcline_cache *srcline;
	uint64_t text_offset;		/* .text sh_addr - sh_offset */
};

void sym_warn(struct sym_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
struct sym_table *sym_ctx_share_table(struct sym_ctx *ctx, const uint8_t *bid,
				      size_t size, struct sym_table *t,
				      bool *shared);
struct sym_table *sym_ctx_cached_table(struct sym_ctx *ctx, const uint8_t *bid,
				       size_t size);
/* Fill dso->table and dso->origin; called once under dso->lock. */
void sym_dso_do_load(struct sym_dso *dso);
void sym_srcline_free(struct sym_dso *dso);
/* Remember the runtime image's .text sh_addr - sh_offset. */
void sym_dso_save_text_offset(struct sym_dso *dso, Elf *elf);

#endif /* PDATA_SYM_DSO_H */
