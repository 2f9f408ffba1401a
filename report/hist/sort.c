/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * report/hist/sort.c - the sort keys: what makes two samples one entry, the
 * output order, and each column's text and width, as perf 6.1's
 * util/sort.c and util/hist.c (hists__calc_col_len) define them
 * (doc/perf-records.md §6.2, §6.3).
 *
 * Signs follow perf: a comparison > 0 puts its left entry first, in the
 * output and among the ties, which keep the collapsed tree's order.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <xxhash.h>

#include "report/hist/branch.h"
#include "report/hist/hist-int.h"
#include "report/hist/loc.h"
#include "report/hist/mem.h"

/* strcmp(r, l): ascending names come first. */
static int
name_cmp(const char *l, const char *r)
{
	int c = strcmp(r, l);

	return (c > 0) - (c < 0);
}

static int
comm_cmp(const struct rep_report *rep, const struct rep_hent *l,
	 const struct rep_hent *r)
{
	(void)rep;
	return l->comm == r->comm ? 0 : name_cmp(l->comm, r->comm);
}

static int
comm_sort(const struct rep_hent *l, const struct rep_hent *r)
{
	return comm_cmp(NULL, l, r);
}

static int
pid_cmp(const struct rep_report *rep, const struct rep_hent *l,
	const struct rep_hent *r)
{
	(void)rep;
	return rep_sign64((int64_t)r->tid - l->tid);
}

static int
dso_cmp_ents(const struct rep_report *rep, const struct rep_hent *l,
	     const struct rep_hent *r)
{
	bool verbose = rep->o.hist.verbose;

	if (!l->dso || !r->dso)
		return rep_cmp_null(l->dso, r->dso);
	if (l->dso == r->dso)
		return 0;
	return name_cmp(rep_dso_name(l->dso, verbose),
			rep_dso_name(r->dso, verbose));
}

static int
dso_cmp(const struct rep_report *rep, const struct rep_hent *l,
	const struct rep_hent *r)
{
	return dso_cmp_ents(rep, l, r);
}

static int
sym_cmp_syms(const struct sym_symbol *l, const struct sym_symbol *r)
{
	if (!l || !r)
		return rep_cmp_null(l, r);
	if (l == r)
		return 0;
	/*
	 * An inline frame's symbol has the bounds of the one it is inlined
	 * in: names tell them apart, and the same name inlined in
	 * overlapping code is one (perf's _sort__sym_cmp).
	 */
	if (l->inlined || r->inlined) {
		int c = strcmp(l->name, r->name);

		if (c)
			return (c > 0) - (c < 0);
		if (l->start <= r->end && l->end >= r->start)
			return 0;
	}
	if (l->start != r->start)
		return rep_sign64((int64_t)(r->start - l->start));
	return rep_sign64((int64_t)(r->end - l->end));
}

static int
sym_cmp(const struct rep_report *rep, const struct rep_hent *l,
	const struct rep_hent *r)
{
	int c;

	if (!l->sym && !r->sym)
		return rep_sign64((int64_t)(r->ip - l->ip));
	if (!rep->has_key[REP_DIM_DSO]) {
		c = dso_cmp_ents(rep, l, r);
		if (c)
			return c;
	}
	return sym_cmp_syms(l->sym, r->sym);
}

static int
sym_sort(const struct rep_hent *l, const struct rep_hent *r)
{
	if (!l->sym || !r->sym)
		return rep_cmp_null(l->sym, r->sym);
	return name_cmp(l->sym->name, r->sym->name);
}

static int
parent_cmp(const struct rep_report *rep, const struct rep_hent *l,
	   const struct rep_hent *r)
{
	(void)rep;
	if (!l->parent || !r->parent)
		return rep_cmp_null(l->parent, r->parent);
	return name_cmp(l->parent->name, r->parent->name);
}

static int
cpu_cmp(const struct rep_report *rep, const struct rep_hent *l,
	const struct rep_hent *r)
{
	(void)rep;
	return rep_sign64((int64_t)r->cpu - l->cpu);
}

static int
socket_cmp(const struct rep_report *rep, const struct rep_hent *l,
	   const struct rep_hent *r)
{
	(void)rep;
	return rep_sign64((int64_t)r->socket - l->socket);
}

static int
srcline_cmp(const struct rep_report *rep, const struct rep_hent *l,
	    const struct rep_hent *r)
{
	(void)rep;
	return l->srcline == r->srcline ? 0 : name_cmp(l->srcline, r->srcline);
}

static int
srcfile_cmp(const struct rep_report *rep, const struct rep_hent *l,
	    const struct rep_hent *r)
{
	(void)rep;
	return l->srcfile == r->srcfile ? 0 : name_cmp(l->srcfile, r->srcfile);
}

/* perf's symbol__size(), 0 without a symbol */
static int64_t
sym_size(const struct rep_hent *e)
{
	return e->sym ? (int64_t)(e->sym->end - e->sym->start) : 0;
}

/* perf's map__size(), 0 without a map */
static int64_t
map_size(const struct rep_hent *e)
{
	return e->map ? (int64_t)(e->map->end - e->map->start) : 0;
}

static int
sym_size_cmp(const struct rep_report *rep, const struct rep_hent *l,
	     const struct rep_hent *r)
{
	(void)rep;
	return rep_sign64(sym_size(r) - sym_size(l));
}

static int
dso_size_cmp(const struct rep_report *rep, const struct rep_hent *l,
	     const struct rep_hent *r)
{
	(void)rep;
	return rep_sign64(map_size(r) - map_size(l));
}

static int
time_cmp(const struct rep_report *rep, const struct rep_hent *l,
	 const struct rep_hent *r)
{
	(void)rep;
	return rep_sign64((int64_t)(r->time - l->time));
}

/* perf's map__unmap_ip() of the entry's ip: the address the sample had. */
static uint64_t
unmapped_ip(const struct rep_hent *e)
{
	if (!e->map || e->map->identity)
		return e->ip;
	return e->ip + e->map->start - e->map->pgoff;
}

static int
addr_cmp(const struct rep_report *rep, const struct rep_hent *l,
	 const struct rep_hent *r)
{
	(void)rep;
	return rep_sign64((int64_t)(unmapped_ip(r) - unmapped_ip(l)));
}

const struct rep_dim_ops rep_dims[REP_DIM_NR] = {
	[REP_DIM_COMM] = { "comm", "Command", comm_cmp, comm_sort },
	[REP_DIM_PID] = { "pid", "    Pid:Command", pid_cmp, NULL },
	[REP_DIM_DSO] = { "dso", "Shared Object", dso_cmp, NULL },
	[REP_DIM_SYM] = { "symbol", "Symbol", sym_cmp, sym_sort },
	[REP_DIM_PARENT] = { "parent", "Parent symbol", parent_cmp, NULL },
	[REP_DIM_CPU] = { "cpu", "CPU", cpu_cmp, NULL },
	[REP_DIM_SOCKET] = { "socket", "Socket", socket_cmp, NULL },
	[REP_DIM_SRCLINE] = { "srcline", "Source:Line", srcline_cmp, NULL },
	[REP_DIM_SRCFILE] = { "srcfile", "Source File", srcfile_cmp, NULL },
	[REP_DIM_SYM_SIZE] = { "symbol_size", "Symbol size", sym_size_cmp, NULL },
	[REP_DIM_DSO_SIZE] = { "dso_size", "DSO size", dso_size_cmp, NULL },
	[REP_DIM_TIME] = { "time", "Time", time_cmp, NULL },
	[REP_DIM_ADDR] = { "addr", "Address", addr_cmp, NULL },
	[REP_DIM_DSO_FROM] = { "dso_from", "Source Shared Object", rep_br_dso_from_cmp, NULL },
	[REP_DIM_DSO_TO] = { "dso_to", "Target Shared Object", rep_br_dso_to_cmp, NULL },
	[REP_DIM_SYM_FROM] = { "symbol_from", "Source Symbol", rep_br_sym_from_cmp, NULL },
	[REP_DIM_SYM_TO] = { "symbol_to", "Target Symbol", rep_br_sym_to_cmp, NULL },
	[REP_DIM_MISPREDICT] = { "mispredict", "Branch Mispredicted", rep_br_mispredict_cmp, NULL },
	[REP_DIM_IN_TX] = { "in_tx", "Branch in transaction", rep_br_in_tx_cmp, NULL },
	[REP_DIM_ABORT] = { "abort", "Transaction abort", rep_br_abort_cmp, NULL },
	[REP_DIM_CYCLES] = { "cycles", "Basic Block Cycles", rep_br_cycles_cmp, NULL },
	[REP_DIM_SRCLINE_FROM] = { "srcline_from", "From Source:Line", rep_br_srcline_from_cmp, NULL },
	[REP_DIM_SRCLINE_TO] = { "srcline_to", "To Source:Line", rep_br_srcline_to_cmp, NULL },
	[REP_DIM_ADDR_FROM] = { "addr_from", "Source Address", rep_br_addr_from_cmp, NULL },
	[REP_DIM_ADDR_TO] = { "addr_to", "Target Address", rep_br_addr_to_cmp, NULL },
	[REP_DIM_IPC_LBR] = { "ipc_lbr", "IPC   [IPC Coverage]", rep_br_ipc_cmp, NULL },
	[REP_DIM_IPC_NULL] = { "ipc_null", "IPC   [IPC Coverage]", rep_br_ipc_cmp, NULL },
	[REP_DIM_SYM_DADDR] = { "symbol_daddr", "Data Symbol", rep_mem_cmp_sym_daddr, NULL },
	[REP_DIM_SYM_IADDR] = { "symbol_iaddr", "Code Symbol", rep_mem_cmp_sym_iaddr, NULL },
	[REP_DIM_DSO_DADDR] = { "dso_daddr", "Data Object", rep_mem_cmp_dso_daddr, NULL },
	[REP_DIM_LOCKED] = { "locked", "Locked", rep_mem_cmp_locked, NULL },
	[REP_DIM_TLB] = { "tlb", "TLB access", rep_mem_cmp_tlb, NULL },
	[REP_DIM_MEM] = { "mem", "Memory access", rep_mem_cmp_mem, NULL },
	[REP_DIM_SNOOP] = { "snoop", "Snoop", rep_mem_cmp_snoop, NULL },
	[REP_DIM_DCACHELINE] = { "dcacheline", "Data Cacheline", rep_mem_cmp_dcacheline, NULL },
	[REP_DIM_PHYS_DADDR] = { "phys_daddr", "Data Physical Address", rep_mem_cmp_phys_daddr, NULL },
	[REP_DIM_DATA_PAGE_SIZE] = { "data_page_size", "Data Page Size", rep_mem_cmp_data_page_size, NULL },
	[REP_DIM_BLOCKED] = { "blocked", "Blocked", rep_mem_cmp_blocked, NULL },
	[REP_DIM_LOCAL_WEIGHT] = { "local_weight", "Local Weight", rep_mem_cmp_local_weight, NULL },
	[REP_DIM_WEIGHT] = { "weight", "Weight", rep_mem_cmp_weight, NULL },
	[REP_DIM_LOCAL_INS_LAT] = { "local_ins_lat", "Local INSTR Latency", rep_mem_cmp_local_ins_lat, NULL },
	[REP_DIM_INS_LAT] = { "ins_lat", "INSTR Latency", rep_mem_cmp_ins_lat, NULL },
	[REP_DIM_LOCAL_P_STAGE_CYC] = { "local_p_stage_cyc", "Local Pipeline Stage Cycle", rep_mem_cmp_local_p_stage_cyc, NULL },
	[REP_DIM_P_STAGE_CYC] = { "p_stage_cyc", "Pipeline Stage Cycle", rep_mem_cmp_p_stage_cyc, NULL },
	[REP_DIM_CODE_PAGE_SIZE] = { "code_page_size", "Code Page Size", rep_mem_cmp_code_page_size, NULL },
	[REP_DIM_TRANSACTION] = { "transaction", "Transaction                ", rep_mem_cmp_transaction, NULL },
	[REP_DIM_CGROUP] = { "cgroup", "Cgroup", rep_mem_cmp_cgroup, NULL },
	[REP_DIM_CGROUP_ID] = { "cgroup_id", "cgroup id (dev/inode)", rep_mem_cmp_cgroup_id, NULL },
	[REP_DIM_TRACE] = { "trace", "Trace output", rep_mem_cmp_trace, NULL },
	[REP_DIM_OVERHEAD] = { "overhead", "Overhead", NULL, NULL },
	[REP_DIM_CHILDREN] = { "overhead_children", "Children", NULL, NULL },
	[REP_DIM_SAMPLE] = { "sample", "Samples", NULL, NULL },
	[REP_DIM_PERIOD] = { "period", "Period", NULL, NULL },
	[REP_DIM_OVERHEAD_SYS] = { "overhead_sys", "sys", NULL, NULL },
	[REP_DIM_OVERHEAD_US] = { "overhead_us", "usr", NULL, NULL },
	[REP_DIM_OVERHEAD_GUEST_SYS] = { "overhead_guest_sys", "guest sys", NULL, NULL },
	[REP_DIM_OVERHEAD_GUEST_US] = { "overhead_guest_us", "guest usr", NULL, NULL },
};

/*
 * perf 6.1's key tables in the order it searches them, each name matched
 * by any prefix in any case (sort_dimension__add, output_field_add).
 */
struct dim_name {
	const char *name;
	enum rep_dim dim;
};

static const struct dim_name common_names[] = {
	{ "pid", REP_DIM_PID }, { "comm", REP_DIM_COMM }, { "dso", REP_DIM_DSO },
	{ "symbol", REP_DIM_SYM }, { "parent", REP_DIM_PARENT },
	{ "cpu", REP_DIM_CPU }, { "socket", REP_DIM_SOCKET },
	{ "srcline", REP_DIM_SRCLINE }, { "srcfile", REP_DIM_SRCFILE },
	{ "local_weight", REP_DIM_LOCAL_WEIGHT }, { "weight", REP_DIM_WEIGHT },
	{ "transaction", REP_DIM_TRANSACTION }, { "trace", REP_DIM_TRACE },
	{ "symbol_size", REP_DIM_SYM_SIZE }, { "dso_size", REP_DIM_DSO_SIZE },
	{ "cgroup", REP_DIM_CGROUP }, { "cgroup_id", REP_DIM_CGROUP_ID }, { "ipc_null", REP_DIM_IPC_NULL },
	{ "time", REP_DIM_TIME }, { "code_page_size", REP_DIM_CODE_PAGE_SIZE },
	{ "local_ins_lat", REP_DIM_LOCAL_INS_LAT }, { "ins_lat", REP_DIM_INS_LAT },
	{ "local_p_stage_cyc", REP_DIM_LOCAL_P_STAGE_CYC },
	{ "p_stage_cyc", REP_DIM_P_STAGE_CYC }, { "addr", REP_DIM_ADDR },
};

static const struct dim_name hpp_names[] = {
	{ "overhead", REP_DIM_OVERHEAD }, { "overhead_sys", REP_DIM_OVERHEAD_SYS },
	{ "overhead_us", REP_DIM_OVERHEAD_US },
	{ "overhead_guest_sys", REP_DIM_OVERHEAD_GUEST_SYS },
	{ "overhead_guest_us", REP_DIM_OVERHEAD_GUEST_US },
	{ "overhead_children", REP_DIM_CHILDREN }, { "sample", REP_DIM_SAMPLE },
	{ "period", REP_DIM_PERIOD },
};

static const struct dim_name bstack_names[] = {
	{ "dso_from", REP_DIM_DSO_FROM }, { "dso_to", REP_DIM_DSO_TO },
	{ "symbol_from", REP_DIM_SYM_FROM }, { "symbol_to", REP_DIM_SYM_TO },
	{ "mispredict", REP_DIM_MISPREDICT }, { "in_tx", REP_DIM_IN_TX },
	{ "abort", REP_DIM_ABORT }, { "cycles", REP_DIM_CYCLES },
	{ "srcline_from", REP_DIM_SRCLINE_FROM }, { "srcline_to", REP_DIM_SRCLINE_TO },
	{ "ipc_lbr", REP_DIM_IPC_LBR }, { "addr_from", REP_DIM_ADDR_FROM },
	{ "addr_to", REP_DIM_ADDR_TO },
};

static const struct dim_name memory_names[] = {
	{ "symbol_daddr", REP_DIM_SYM_DADDR }, { "symbol_iaddr", REP_DIM_SYM_IADDR },
	{ "dso_daddr", REP_DIM_DSO_DADDR }, { "locked", REP_DIM_LOCKED },
	{ "tlb", REP_DIM_TLB }, { "mem", REP_DIM_MEM }, { "snoop", REP_DIM_SNOOP },
	{ "dcacheline", REP_DIM_DCACHELINE }, { "phys_daddr", REP_DIM_PHYS_DADDR },
	{ "data_page_size", REP_DIM_DATA_PAGE_SIZE }, { "blocked", REP_DIM_BLOCKED },
};

#define NAMES(t) { t, sizeof(t) / sizeof(t[0]) }

static const struct {
	const struct dim_name *v;
	size_t n;
} tables[] = {
	NAMES(common_names), NAMES(hpp_names), NAMES(bstack_names),
	NAMES(memory_names),
};

int
rep_dim_parse(const char *name)
{
	size_t len = strlen(name), t, i;

	if (!len)
		return -1;
	for (t = 0; t < sizeof(tables) / sizeof(tables[0]); t++)
		for (i = 0; i < tables[t].n; i++)
			if (!strncasecmp(name, tables[t].v[i].name, len))
				return tables[t].v[i].dim;
	return -1;
}

const char *
rep_dim_name(enum rep_dim d)
{
	return rep_dims[d].name;
}

/* Dimension d of l and r as perf's cmp (field keys included). */
static int
dim_cmp(const struct rep_report *rep, enum rep_dim d, const struct rep_hent *l,
	const struct rep_hent *r, bool sym_by_name)
{
	if (rep_field_dim(d))
		return rep_field_cmp(rep, d, l, r);
	if (d == REP_DIM_SYM && sym_by_name)
		return sym_sort(l, r);
	return rep_dims[d].cmp(rep, l, r);
}

/* The bit of a lazily worked out key in a reach mask. */
static uint64_t
reach_bit(enum rep_dim d)
{
	if (rep_field_dim(d))
		return 1ULL << (d - REP_DIM_FIELD);
	if (d == REP_DIM_SRCLINE)
		return REP_REACH_SRCLINE;
	return d == REP_DIM_SRCFILE ? REP_REACH_SRCFILE : 0;
}

/*
 * perf's hist_entry__cmp(): the keys in order, another event's field
 * keys skipped; *reach (when not NULL) gets the lazily worked out keys
 * (fields, srcline, srcfile) it came to.
 */
static int
keys_cmp(const struct rep_report *rep, const struct rep_hent *l,
	 const struct rep_hent *r, bool sym_by_name, uint64_t *reach)
{
	size_t i;
	int c;

	for (i = 0; i < rep->o.hist.nr_sort; i++) {
		enum rep_dim d = rep->o.hist.sort[i];

		if (rep_dim_is_hpp(d) || !rep_field_applies(rep, d, l->evsel))
			continue;
		if (reach)
			*reach |= reach_bit(d);
		c = dim_cmp(rep, d, l, r, sym_by_name);
		if (c)
			return c;
	}
	return 0;
}

uint64_t
rep_hent_cmp_reach(const struct rep_report *rep, const struct rep_hent *l,
		   const struct rep_hent *r)
{
	uint64_t reach = 0;

	(void)keys_cmp(rep, l, r, false, &reach);
	return reach;
}

int
rep_hent_cmp(const struct rep_report *rep, const struct rep_hent *l,
	     const struct rep_hent *r)
{
	return keys_cmp(rep, l, r, false, NULL);
}

int
rep_hent_cmp_by_name(const struct rep_report *rep, const struct rep_hent *l,
		     const struct rep_hent *r)
{
	return keys_cmp(rep, l, r, true, NULL);
}

static int
field_cmp(uint64_t a, uint64_t b)
{
	return (a > b) - (a < b);
}

static int
member_cmp(const struct rep_hval *va, const struct rep_hval *vb,
	   unsigned int m, size_t off)
{
	uint64_t x, y;

	memcpy(&x, (const char *)&va[m] + off, sizeof(x));
	memcpy(&y, (const char *)&vb[m] + off, sizeof(y));
	return field_cmp(x, y);
}

/*
 * perf's __hpp__sort: the leader's value, then each member's.  With
 * --group-sort-idx N, perf's __hpp__group_sort_idx: member N's, then the
 * other members' and never the leader's; for an N that is no member
 * (and no group), the leader's alone.
 */
static int
hpp_sort_members(const struct rep_report *rep, const struct rep_hist *h,
		 size_t a, size_t b, size_t off)
{
	const struct rep_hval *va = &h->vals[a * h->nr_members];
	const struct rep_hval *vb = &h->vals[b * h->nr_members];
	unsigned int idx = rep->o.hist.group_sort_idx, m;
	int c;

	if (idx && idx < h->nr_members) {
		c = member_cmp(va, vb, idx, off);
		for (m = 1; !c && m < h->nr_members; m++)
			if (m != idx)
				c = member_cmp(va, vb, m, off);
		return c;
	}
	if (idx)
		return member_cmp(va, vb, 0, off);
	for (m = 0; m < h->nr_members; m++) {
		c = member_cmp(va, vb, m, off);
		if (c)
			return c;
	}
	return 0;
}

/* perf's __hpp__sort_acc: equal totals put the caller above its callee. */
static int
children_sort(const struct rep_report *rep, const struct rep_hist *h,
	      size_t a, size_t b)
{
	const struct rep_hent *ea = &h->ents[a], *eb = &h->ents[b];
	int64_t d;
	int c;

	if (!rep->children)
		return 0;
	c = field_cmp(h->vals[a * h->nr_members].acc,
		      h->vals[b * h->nr_members].acc);
	if (c)
		return c;
	if (ea->thread != eb->thread || !rep->use_callchain)
		return 0;
	d = (int64_t)eb->cc_depth - (int64_t)ea->cc_depth;
	if (rep->caller)
		d = -d;
	return rep_sign64(d);
}

static int
dim_sort(const struct rep_report *rep, const struct rep_hist *h,
	 enum rep_dim d, size_t a, size_t b)
{
	const struct rep_hent *ea = &h->ents[a], *eb = &h->ents[b];

	switch (d) {
	case REP_DIM_OVERHEAD:
		return hpp_sort_members(rep, h, a, b, offsetof(struct rep_hval, period));
	case REP_DIM_CHILDREN:
		return children_sort(rep, h, a, b);
	case REP_DIM_SAMPLE:
		return hpp_sort_members(rep, h, a, b, offsetof(struct rep_hval, nr));
	case REP_DIM_PERIOD:
		return hpp_sort_members(rep, h, a, b, offsetof(struct rep_hval, period));
	case REP_DIM_OVERHEAD_SYS:
	case REP_DIM_OVERHEAD_US:
	case REP_DIM_OVERHEAD_GUEST_SYS:
	case REP_DIM_OVERHEAD_GUEST_US:
		return hpp_sort_members(rep, h, a, b,
			offsetof(struct rep_hval, mode_period) +
			(size_t)(d - REP_DIM_OVERHEAD_SYS) * sizeof(uint64_t));
	default:
		if (rep_dims[d].sort)
			return rep_dims[d].sort(ea, eb);
		return dim_cmp(rep, d, ea, eb, false);
	}
}

/* perf's hist_entry__sort(): elided keys and another event's fields skipped. */
static int
entries_sort(const struct rep_report *rep, const struct rep_hist *h,
	     size_t a, size_t b, uint64_t *reach)
{
	size_t i;
	int c;

	for (i = 0; i < rep->o.hist.nr_sort; i++) {
		enum rep_dim d = rep->o.hist.sort[i];

		if (rep->elide[d] || !rep_field_applies(rep, d, h->evsel))
			continue;
		if (reach)
			*reach |= reach_bit(d);
		c = dim_sort(rep, h, d, a, b);
		if (c)
			return c;
	}
	return 0;
}

int
rep_hent_sort(const struct rep_report *rep, const struct rep_hist *h,
	      size_t a, size_t b)
{
	return entries_sort(rep, h, a, b, NULL);
}

uint64_t
rep_hent_sort_reach(const struct rep_report *rep, const struct rep_hist *h,
		    size_t a, size_t b)
{
	uint64_t reach = 0;

	(void)entries_sort(rep, h, a, b, &reach);
	return reach;
}

int
rep_hent_key_sort(const struct rep_report *rep, const struct rep_hent *l,
		  const struct rep_hent *r)
{
	size_t i;
	int c;

	for (i = 0; i < rep->o.hist.nr_sort; i++) {
		enum rep_dim d = rep->o.hist.sort[i];

		if (rep->elide[d] || rep_dim_is_hpp(d) ||
		    !rep_field_applies(rep, d, l->evsel))
			continue;
		c = rep_dims[d].sort ? rep_dims[d].sort(l, r) :
			dim_cmp(rep, d, l, r, false);
		if (c)
			return c;
	}
	return 0;
}

static uint64_t
hash_str(const char *s)
{
	return s ? XXH3_64bits(s, strlen(s)) : 0x5bd1e995;
}

/* The hash of a DSO's short name, cached per DSO. */
static uint64_t
hash_dso(const struct rep_report *rep, struct sym_dso *dso)
{
	struct rep_dso_hash *dh = rep->dso_hash;
	uint64_t *slot;

	if (!dso)
		return 0x5bd1e995;
	if (dso == dh->last)
		return dh->last_hash;
	slot = u64map_slot(&dh->map, (uintptr_t)dso);
	if (!*slot)
		*slot = hash_str(sym_dso_short_name(dso)) | 1;
	dh->last = dso;
	dh->last_hash = *slot;
	return *slot;
}

/* The field keys of e's section, together. */
static uint64_t
fields_hash(const struct rep_report *rep, const struct rep_hent *e)
{
	uint64_t h = 0;
	size_t i;

	for (i = 0; i < rep->o.hist.nr_sort; i++) {
		enum rep_dim d = rep->o.hist.sort[i];

		if (rep_field_dim(d) && rep_field_applies(rep, d, e->evsel))
			h = (h ^ rep_field_hash(rep, d, e)) * 0x9e3779b97f4a7c15ULL;
	}
	return h;
}

/* Equal entries (rep_hent_cmp() == 0) hash alike. */
uint64_t
rep_hent_hash(const struct rep_report *rep, const struct rep_hent *e)
{
	uint64_t v[24];
	size_t n = 0;

	if (rep->has_key[REP_DIM_COMM])
		v[n++] = (uintptr_t)e->comm;
	if (rep->has_key[REP_DIM_PID])
		v[n++] = (uint32_t)e->tid;
	if (rep->has_key[REP_DIM_DSO])
		v[n++] = hash_dso(rep, e->dso);
	if (rep->has_key[REP_DIM_SYM]) {
		if (!e->sym) {
			v[n++] = e->ip;
		} else {
			if (!rep->has_key[REP_DIM_DSO])
				v[n++] = hash_dso(rep, e->dso);
			v[n++] = e->sym->start;
			v[n++] = e->sym->end;
		}
	}
	if (rep->has_key[REP_DIM_PARENT])
		v[n++] = hash_str(e->parent ? e->parent->name : NULL);
	if (rep->has_key[REP_DIM_CPU])
		v[n++] = (uint32_t)e->cpu;
	if (rep->has_key[REP_DIM_SOCKET])
		v[n++] = (uint32_t)e->socket;
	if (rep->has_key[REP_DIM_SRCLINE])
		v[n++] = hash_str(e->srcline);
	if (rep->has_key[REP_DIM_SRCFILE])
		v[n++] = hash_str(e->srcfile);
	if (rep->has_key[REP_DIM_SYM_SIZE])
		v[n++] = (uint64_t)sym_size(e);
	if (rep->has_key[REP_DIM_DSO_SIZE])
		v[n++] = (uint64_t)map_size(e);
	if (rep->has_key[REP_DIM_TIME])
		v[n++] = e->time;
	if (rep->has_key[REP_DIM_ADDR])
		v[n++] = unmapped_ip(e);
	if (e->branch)
		v[n++] = rep_branch_hash(rep, e);
	if (rep->has_mem_keys)
		v[n++] = rep_mem_hash(rep, e);
	if (rep->o.hist.nr_fields)
		v[n++] = fields_hash(rep, e);
	return XXH3_64bits(v, n * sizeof(v[0]));
}

/* perf's _hist_entry__sym_snprintf of the entry's own address. */
static void
sym_snprint(const struct rep_report *rep, const struct rep_hent *e, int w,
	    char *buf, size_t size)
{
	struct ses_loc l = {
		.map = e->map, .dso = e->dso, .sym = e->sym, .ip = e->ip,
		.al_addr = e->ip, .level = e->level,
	};

	rep_loc_sym_snprint(&l, e->ip, e->level, rep->o.hist.verbose, w, buf,
			    size);
}

/* perf's size columns: "%*d" of an int, "unknown" without the object */
static void
size_snprint(char *buf, size_t size, int w, bool known, int64_t v)
{
	if (known)
		snprintf(buf, size, "%*d", w, (int)v);
	else
		snprintf(buf, size, "%*s", w, "unknown");
}

/* perf's timestamp__scnprintf_usec (or _nsec with --ns), cut to w */
static void
time_snprint(char *buf, size_t size, int w, uint64_t t, bool ns)
{
	char text[48];

	if (ns)
		snprintf(text, sizeof(text), "%" PRIu64 ".%09" PRIu64,
			 t / 1000000000, t % 1000000000);
	else
		snprintf(text, sizeof(text), "%" PRIu64 ".%06" PRIu64,
			 t / 1000000000, t % 1000000000 / 1000);
	snprintf(buf, size, "%-.*s", w, text);
}

void
rep_dim_snprint(const struct rep_report *rep, enum rep_dim d,
		const struct rep_hent *e, int w, char *buf, size_t size)
{
	switch (d) {
	case REP_DIM_COMM:
		snprintf(buf, size, "%-*.*s", w, w, e->comm);
		break;
	case REP_DIM_PID:
		snprintf(buf, size, "%7d:%-*.*s", e->tid, w - 8 > 0 ? w - 8 : 0,
			 w - 8 > 0 ? w - 8 : 0, e->thread->comm);
		break;
	case REP_DIM_DSO:
		snprintf(buf, size, "%-*.*s", w, w, e->dso ?
			 rep_dso_name(e->dso, rep->o.hist.verbose) : "[unknown]");
		break;
	case REP_DIM_SYM:
		sym_snprint(rep, e, w, buf, size);
		break;
	case REP_DIM_PARENT:
		snprintf(buf, size, "%-*.*s", w, w,
			 e->parent ? e->parent->name : "[other]");
		break;
	case REP_DIM_CPU:
		snprintf(buf, size, "%*.*d", w, w, e->cpu);
		break;
	case REP_DIM_SOCKET:
		snprintf(buf, size, "%*.*d", w, w - 3 > 0 ? w - 3 : 0, e->socket);
		break;
	case REP_DIM_SRCLINE:
		snprintf(buf, size, "%-.*s", w, e->srcline);
		break;
	case REP_DIM_SRCFILE:
		snprintf(buf, size, "%-.*s", w, e->srcfile);
		break;
	case REP_DIM_SYM_SIZE:
		size_snprint(buf, size, w, e->sym != NULL, sym_size(e));
		break;
	case REP_DIM_DSO_SIZE:
		size_snprint(buf, size, w, e->map != NULL, map_size(e));
		break;
	case REP_DIM_TIME:
		time_snprint(buf, size, w, e->time, rep->o.hist.time_ns);
		break;
	case REP_DIM_ADDR:
		snprintf(buf, size, "%-#*" PRIx64, w, unmapped_ip(e));
		break;
	default:
		if (rep_field_dim(d))
			rep_field_snprint(rep, d, e, w, buf, size);
		else if (rep_mem_dim(d) || rep_value_dim(d))
			rep_mem_snprint(rep, d, e, w, buf, size);
		else
			rep_branch_snprint(rep, d, e, w, buf, size);
		break;
	}
}


/*
 * perf's hists__calc_col_len for the keys we have; the header lengths
 * come in later (hists__reset_column_width at printing).
 */
void
rep_dims_calc_len(const struct rep_report *rep, const struct rep_hent *e,
		  int *len)
{
	int comm_len = (int)strlen(e->thread->comm);

	if (e->sym) {
		rep_grow_len(len, REP_DIM_SYM, (int)strlen(e->sym->name) + 4 +
			     (rep->o.hist.verbose ? REP_VERBOSE_SYM_LEN : 0));
	} else {
		rep_grow_len(len, REP_DIM_SYM, 16 + 4 + 2);
		if (len[REP_DIM_DSO] < 16 && !rep->o.hist.filt.nr_dsos)
			len[REP_DIM_DSO] = 16;
	}
	if (e->parent)
		rep_grow_len(len, REP_DIM_PARENT, (int)strlen(e->parent->name));
	if (comm_len > len[REP_DIM_COMM]) {
		len[REP_DIM_COMM] = comm_len;
		len[REP_DIM_PID] = comm_len + 8;
	}
	if (e->dso)
		rep_grow_len(len, REP_DIM_DSO,
			     (int)strlen(rep_dso_name(e->dso, rep->o.hist.verbose)));
	if (e->srcline && e->srcline_sized)
		rep_grow_len(len, REP_DIM_SRCLINE, (int)strlen(e->srcline));
	if (e->srcfile && e->srcfile_sized)
		rep_grow_len(len, REP_DIM_SRCFILE, (int)strlen(e->srcfile));
	rep_grow_len(len, REP_DIM_TIME, rep->o.hist.time_ns ? 16 : 12);
	rep_grow_len(len, REP_DIM_ADDR, 16 + 2);
	rep_grow_len(len, REP_DIM_CPU, 3);
	rep_grow_len(len, REP_DIM_SOCKET, 6);
	rep_branch_calc_len(rep, e, len);
	rep_mem_calc_len(rep, e, len);
}
