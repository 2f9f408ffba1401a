/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * format/feat-int.h - what the feature-section parsers share.
 *
 * Every parser reads its payload through one bounded cursor and reports
 * the first problem with pd_feat_fail(), which records the payload offset
 * (buildid.c too).  Counts from the file are checked with
 * pd_feat_check_count() before any allocation is sized from them.
 */
#ifndef PD_FORMAT_FEAT_INT_H
#define PD_FORMAT_FEAT_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "format/compiler.h"
#include "format/cursor.h"
#include "pdata/meta.h"

struct feat_ctx {
	struct pd_cursor c;
	struct pd_meta *m;
	unsigned int feat;
	char *why;		/* may be NULL */
	size_t why_len;
};

/*
 * One row per feature id pdata knows (style E4): the name perf prints,
 * the parser of the payload and what resets the feature's fields to
 * their absent values.  clear is NULL where there is nothing to reset:
 * flag features, and BUILD_ID, whose records accumulate.
 */
struct feat_ops {
	const char *name;	/* NULL for RESERVED */
	int (*parse)(struct feat_ctx *x);
	void (*clear)(struct pd_meta *m, unsigned int feat);
	size_t str;		/* string features: the field's offset */
};

/* The row of feat, or NULL for an id pdata does not know. */
const struct feat_ops *pd_feat_ops_of(unsigned int feat);

/* Fill x->why with "payload offset AT: ..." and return err. */
int pd_feat_fail(struct feat_ctx *x, int err, size_t at, const char *fmt, ...)
	PD_PRINTF(4, 5);

/* -PD_E_TRUNCATED: "payload offset AT: the payload ends inside WHAT". */
int pd_feat_truncated(struct feat_ctx *x, size_t at, const char *what);

/*
 * Check that nr items of at least min_item bytes each can follow at the
 * cursor; returns 0 or fails with -PD_E_BAD_FEATURE, blaming the count
 * read at offset at.  min_item 0 is a bug of the caller: -PD_E_INVAL.
 */
int pd_feat_check_count(struct feat_ctx *x, size_t at, uint64_t nr,
		     uint64_t min_item, const char *what);

/* Read a u32 count of what at the cursor and check it as pd_feat_check_count(). */
int pd_feat_count(struct feat_ctx *x, size_t at, uint64_t min_item,
	       const char *what, uint32_t *nr);

/*
 * Read one perf_header_string into a new NUL-terminated copy of its text
 * (up to the first NUL, within len).  Returns 0 or -PD_E_*.
 */
int pd_feat_string(struct feat_ctx *x, const char *what, char **out);

/* u32 nr, then nr strings (perf_header_string_list). */
int pd_feat_strlist(struct feat_ctx *x, const char *what, struct pd_strlist *l);

/* calloc() that reports -PD_E_NOMEM through x; nr may be 0. */
void *pd_feat_calloc(struct feat_ctx *x, size_t nr, size_t size);

/* The hooks of the rows whose features have files of their own. */
int pd_feat_parse_build_id(struct feat_ctx *x);		/* buildid.c */
int pd_feat_parse_cpu_topology(struct feat_ctx *x);	/* feat-topo.c */
void pd_feat_clear_cpu_topology(struct pd_meta *m, unsigned int feat);
int pd_feat_parse_numa_topology(struct feat_ctx *x);
void pd_feat_clear_numa_topology(struct pd_meta *m, unsigned int feat);
int pd_feat_parse_cache(struct feat_ctx *x);
void pd_feat_clear_cache(struct pd_meta *m, unsigned int feat);
int pd_feat_parse_mem_topology(struct feat_ctx *x);
void pd_feat_clear_mem_topology(struct pd_meta *m, unsigned int feat);
int pd_feat_parse_hybrid_topology(struct feat_ctx *x);
void pd_feat_clear_hybrid_topology(struct pd_meta *m, unsigned int feat);
int pd_feat_parse_cpu_domain_info(struct feat_ctx *x);
void pd_feat_clear_cpu_domain_info(struct pd_meta *m, unsigned int feat);
int pd_feat_parse_bpf_prog_info(struct feat_ctx *x);	/* feat-bpf.c */
void pd_feat_clear_bpf_prog_info(struct pd_meta *m, unsigned int feat);
int pd_feat_parse_bpf_btf(struct feat_ctx *x);
void pd_feat_clear_bpf_btf(struct pd_meta *m, unsigned int feat);

#endif /* PD_FORMAT_FEAT_INT_H */
