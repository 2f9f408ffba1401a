/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * report/hist/mem.h - preport's memory-access mode, perf 6.1's --mem-mode
 * (builtin-report.c, SORT_MODE__MEMORY): one entry per sample whose period
 * is the sample's weight (1 when it has none), the memory keys (mem,
 * snoop, tlb, locked, blocked, symbol_daddr, dso_daddr, dcacheline,
 * symbol_iaddr, phys_daddr, data_page_size) on the sample's data_src and
 * its data address resolved in the thread's maps, and the keys on a
 * sample's own values (local_weight, weight, local_ins_lat, ins_lat,
 * local_p_stage_cyc, p_stage_cyc, code_page_size, transaction, cgroup,
 * cgroup_id, trace), which any mode takes
 * (doc/perf-records.md §6.8).
 */
#ifndef PD_REPORT_HIST_MEM_H
#define PD_REPORT_HIST_MEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pdata/reader.h"
#include "report/hist/hist-int.h"

/* What perf's struct mem_info holds of one sample. */
struct rep_mem {
	struct ses_loc iaddr;		/* the ip, in any CPU mode's maps */
	struct ses_loc daddr;		/* the data address, in the sample's mode */
	uint64_t data_src;
	uint64_t phys_addr;
	uint64_t data_page_size;
};

/* perf's default sort order in memory mode. */
#define REP_MEM_DEFAULT_SORT "local_weight,mem,sym,dso,symbol_daddr," \
	"dso_daddr,snoop,tlb,locked,blocked,local_ins_lat,local_p_stage_cyc"

/* Whether d is one of the memory keys (perf accepts them in memory mode only). */
bool rep_mem_dim(enum rep_dim d);
/* Whether d is a key on the sample's own values (weights, code page size). */
bool rep_value_dim(enum rep_dim d);

/* The keys of both kinds, for sort.c's table (perf's signs: > 0 puts l first). */
#define REP_MEM_CMP(name) \
	int rep_mem_cmp_##name(const struct rep_report *rep, \
			       const struct rep_hent *l, const struct rep_hent *r)
REP_MEM_CMP(sym_daddr);
REP_MEM_CMP(sym_iaddr);
REP_MEM_CMP(dso_daddr);
REP_MEM_CMP(locked);
REP_MEM_CMP(tlb);
REP_MEM_CMP(mem);
REP_MEM_CMP(snoop);
REP_MEM_CMP(dcacheline);
REP_MEM_CMP(phys_daddr);
REP_MEM_CMP(data_page_size);
REP_MEM_CMP(blocked);
REP_MEM_CMP(local_weight);
REP_MEM_CMP(weight);
REP_MEM_CMP(local_ins_lat);
REP_MEM_CMP(ins_lat);
REP_MEM_CMP(local_p_stage_cyc);
REP_MEM_CMP(p_stage_cyc);
REP_MEM_CMP(code_page_size);
REP_MEM_CMP(transaction);
REP_MEM_CMP(cgroup);
REP_MEM_CMP(cgroup_id);
REP_MEM_CMP(trace);
void rep_mem_snprint(const struct rep_report *rep, enum rep_dim d,
		     const struct rep_hent *e, int w, char *buf, size_t size);
void rep_mem_calc_len(const struct rep_report *rep, const struct rep_hent *e,
		      int *len);
uint64_t rep_mem_hash(const struct rep_report *rep, const struct rep_hent *e);

/*
 * --mem-mode: -1 with perf's message when branch mode is on too;
 * otherwise children off and, without -s, perf's default sort order.
 */
int rep_mem_setup(struct rep_report_opts *o, char *err, size_t errsz);
/* -1 with perf's message: memory mode asked for, the samples have no data_src. */
int rep_mem_check_file(const struct rep_report_opts *o, struct pd_reader *r,
		       char *err, size_t errsz);
/* After rep_report_setup_dims(): -1 with a message for a memory key outside memory mode. */
int rep_mem_check_dims(const struct rep_report_opts *o, char *err, size_t errsz);
/*
 * Whether samples go into the histogram one by one (rep_mem_add), not
 * through the interned stacks: in memory mode, and with a key on values
 * the stacks do not keep.
 */
bool rep_mem_direct(const struct rep_report_opts *o);

struct rep_mem_mode;

struct rep_mem_mode *rep_mem_mode_new(void);
void rep_mem_mode_free(struct rep_mem_mode *mm);

/*
 * Memory mode: the copy the next sample's access is resolved into, by the
 * caller (perf's sample__resolve_mem()); it stays free until
 * rep_mem_add() keeps it for a new entry.
 */
struct rep_mem *rep_mem_next(struct rep_mem_mode *mm);

/*
 * Add s at once: in memory mode with the access in rep_mem_next() and
 * its weight as period (perf's hist_iter_mem); else as a sample of its
 * own, for the keys on its values.
 */
void rep_mem_add(struct rep_mem_mode *mm, struct rep_report *rep,
		 const struct ses_sample *s);

#endif /* PD_REPORT_HIST_MEM_H */
