/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * format/feat-int.h - what the feature-section parsers share.
 *
 * Every parser reads its payload through one bounded cursor and reports
 * the first problem with feat_fail(), which records the payload offset.
 * Counts from the file are checked with feat_check_count() before any
 * allocation is sized from them.
 */
#ifndef PD_FORMAT_FEAT_INT_H
#define PD_FORMAT_FEAT_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "format/cursor.h"
#include "pdata/meta.h"

struct feat_ctx {
	struct pd_cursor c;
	struct pd_meta *m;
	unsigned int feat;
	char *why;		/* may be NULL */
	size_t why_len;
};

/* Fill x->why with "payload offset AT: ..." and return err. */
int feat_fail(struct feat_ctx *x, int err, size_t at, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* -PD_E_TRUNCATED: "payload offset AT: the payload ends inside WHAT". */
int feat_truncated(struct feat_ctx *x, size_t at, const char *what);

/*
 * Check that nr items of at least min_item bytes each can follow at the
 * cursor; returns 0 or fails with -PD_E_BAD_FEATURE, blaming the count
 * read at offset at.
 */
int feat_check_count(struct feat_ctx *x, size_t at, uint64_t nr,
		     size_t min_item, const char *what);

/*
 * Read one perf_header_string into a new NUL-terminated copy of its text
 * (up to the first NUL, within len).  Returns 0 or -PD_E_*.
 */
/* Read a u32 count of what at the cursor and check it as feat_check_count(). */
int feat_count(struct feat_ctx *x, size_t at, size_t min_item, const char *what,
	       uint32_t *nr);
int feat_string(struct feat_ctx *x, const char *what, char **out);

/* u32 nr, then nr strings (perf_header_string_list). */
int feat_strlist(struct feat_ctx *x, const char *what, struct pd_strlist *l);

/* calloc() that reports -PD_E_NOMEM through x; nr may be 0. */
void *feat_calloc(struct feat_ctx *x, size_t nr, size_t size);

void feat_strlist_free(struct pd_strlist *l);

/* Reset the fields of one feature to their absent values. */
void pd_meta_clear_feature(struct pd_meta *m, unsigned int feat);

/* Per-feature parsers in feat-topo.c and feat-bpf.c. */
int feat_parse_cpu_topology(struct feat_ctx *x);
int feat_parse_numa_topology(struct feat_ctx *x);
int feat_parse_cache(struct feat_ctx *x);
int feat_parse_mem_topology(struct feat_ctx *x);
int feat_parse_hybrid_topology(struct feat_ctx *x);
int feat_parse_cpu_domain_info(struct feat_ctx *x);
int feat_parse_bpf_prog_info(struct feat_ctx *x);
int feat_parse_bpf_btf(struct feat_ctx *x);

#endif /* PD_FORMAT_FEAT_INT_H */
