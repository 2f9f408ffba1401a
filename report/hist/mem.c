/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * report/hist/mem.c - memory mode and the keys on a sample's own values:
 * what perf 6.1's util/sort.c compares and prints for them, the column
 * lengths util/hist.c gives them, and hist_iter_mem's additions
 * (doc/perf-records.md §6.8).
 *
 * Signs follow perf: > 0 puts the left entry first.  The data_src keys
 * compare one field (right minus left); the weights left minus right.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <xxhash.h>

#include "lib/u64map.h"
#include "lib/xalloc.h"
#include "pdata/abi.h"
#include "pdata/text.h"
#include "report/hist/loc.h"
#include "report/hist/mem.h"

#define MAP_SHARED_FLAG 0x01u	/* MAP_SHARED */
#define PROT_EXEC_FLAG 0x04u	/* PROT_EXEC */
#define UNRESOLVED_WIDTH 16	/* perf's BITS_PER_LONG / 4 */

struct rep_mem_mode {
	struct rep_keep copies;		/* of struct rep_mem */
};

bool
rep_mem_dim(enum rep_dim d)
{
	return d >= REP_DIM_SYM_DADDR && d <= REP_DIM_BLOCKED;
}

bool
rep_value_dim(enum rep_dim d)
{
	return d >= REP_DIM_LOCAL_WEIGHT && d <= REP_DIM_TRACE;
}

/* The data_src field a key compares, shifted down. */
static uint64_t
src_field(enum rep_dim d, uint64_t src)
{
	switch (d) {
	case REP_DIM_LOCKED:
		return (src >> PD_MEM_LOCK_SHIFT) & 0x3;
	case REP_DIM_TLB:
		return (src >> PD_MEM_TLB_SHIFT) & 0x7f;
	case REP_DIM_MEM:
		return (src >> PD_MEM_LVL_SHIFT) & 0x3fff;
	case REP_DIM_SNOOP:
		return (src >> PD_MEM_SNOOP_SHIFT) & 0x1f;
	default:	/* REP_DIM_BLOCKED */
		return (src >> PD_MEM_BLK_SHIFT) & 0x7;
	}
}

/* The value a key on the sample's values compares. */
static uint64_t
value_of(enum rep_dim d, const struct rep_hent *e)
{
	switch (d) {
	case REP_DIM_LOCAL_WEIGHT:
	case REP_DIM_WEIGHT:
		return e->weight;
	case REP_DIM_LOCAL_INS_LAT:
	case REP_DIM_INS_LAT:
		return e->ins_lat;
	case REP_DIM_LOCAL_P_STAGE_CYC:
	case REP_DIM_P_STAGE_CYC:
		return e->p_stage_cyc;
	case REP_DIM_CODE_PAGE_SIZE:
		return e->code_page_size;
	case REP_DIM_TRANSACTION:
		return e->transaction;
	case REP_DIM_CGROUP:
		return e->cgroup;
	default:	/* REP_DIM_CGROUP_ID: the device, then the inode */
		return e->cgroup_dev;
	}
}

/* This machine's L1 data cache line size, asked once (perf's cacheline_size()). */
static uint64_t
cacheline_size(void)
{
	static long n = -1;

	if (n < 0) {
		n = sysconf(_SC_LEVEL1_DCACHE_LINESIZE);
		if (n < 0)
			n = 0;
	}
	return (uint64_t)n;
}

static uint64_t
cl_address(uint64_t addr)
{
	uint64_t n = cacheline_size();

	return n ? addr & ~(n - 1) : addr;
}

/* perf's dso id of a map: empty when all four are 0. */
static bool
id_empty(const struct ses_map *m)
{
	return !m->id_maj && !m->id_min && !m->id_ino && !m->id_ino_gen;
}

static int
u64_order(uint64_t l, uint64_t r)
{
	return (l < r) - (l > r);
}

/*
 * perf's dso__cmp_id(): device, inode, then the generations when both
 * have one (perf's lookup of DSOs skips empty ids; this does not).
 */
static int
dso_id_cmp(const struct ses_map *l, const struct ses_map *r)
{
	int c = u64_order(l->id_maj, r->id_maj);

	if (!c)
		c = u64_order(l->id_min, r->id_min);
	if (!c)
		c = u64_order(l->id_ino, r->id_ino);
	if (!c && l->id_ino_gen && r->id_ino_gen)
		c = u64_order(l->id_ino_gen, r->id_ino_gen);
	return c;
}

static bool
anon_user(const struct rep_hent *e, const struct ses_map *m)
{
	return e->cpumode != PD_MISC_KERNEL && !(m->flags & MAP_SHARED_FLAG) &&
	       id_empty(m);
}

/* perf's sort__dcacheline_cmp(). */
static int
dcacheline_cmp(const struct rep_hent *l, const struct rep_hent *r)
{
	const struct ses_map *lm = l->mem->daddr.map, *rm = r->mem->daddr.map;
	int c;

	if (l->cpumode != r->cpumode)
		return l->cpumode > r->cpumode ? -1 : 1;
	if (lm || rm) {
		if (!lm)
			return -1;
		if (!rm)
			return 1;
		c = dso_id_cmp(lm, rm);
		if (c)
			return c;
		if (anon_user(l, lm) && l->thread->pid != r->thread->pid)
			return l->thread->pid > r->thread->pid ? -1 : 1;
	}
	return u64_order(cl_address(l->mem->daddr.al_addr),
			 cl_address(r->mem->daddr.al_addr));
}

static int
mem_key_cmp(enum rep_dim d, const struct rep_mem *l, const struct rep_mem *r,
	    bool verbose)
{
	switch (d) {
	case REP_DIM_SYM_DADDR:
		return rep_sign64((int64_t)(r->daddr.ip - l->daddr.ip));
	case REP_DIM_SYM_IADDR:
		return rep_sign64((int64_t)(r->iaddr.ip - l->iaddr.ip));
	case REP_DIM_DSO_DADDR:
		return rep_loc_dso_cmp(&l->daddr, &r->daddr, verbose);
	case REP_DIM_PHYS_DADDR:
		return rep_sign64((int64_t)(r->phys_addr - l->phys_addr));
	case REP_DIM_DATA_PAGE_SIZE:
		return rep_sign64((int64_t)(r->data_page_size - l->data_page_size));
	default:
		return rep_sign64((int64_t)(src_field(d, r->data_src) -
					    src_field(d, l->data_src)));
	}
}

static int
key_cmp(enum rep_dim d, const struct rep_hent *l, const struct rep_hent *r,
	bool verbose)
{
	if (d == REP_DIM_CODE_PAGE_SIZE)
		return rep_sign64((int64_t)(r->code_page_size - l->code_page_size));
	if (d == REP_DIM_CGROUP)
		return rep_sign64((int64_t)(r->cgroup - l->cgroup));
	/* perf compares the texts of a tracepoint's samples only */
	if (d == REP_DIM_TRACE)
		return l->trace && r->trace ? rep_sign64(strcmp(r->trace, l->trace)) : 0;
	if (d == REP_DIM_CGROUP_ID) {
		if (l->cgroup_dev != r->cgroup_dev)
			return rep_sign64((int64_t)(l->cgroup_dev - r->cgroup_dev));
		return rep_sign64((int64_t)(l->cgroup_ino - r->cgroup_ino));
	}
	if (rep_value_dim(d))
		return rep_sign64((int64_t)(value_of(d, l) - value_of(d, r)));
	/* memory keys are only taken in memory mode, where every entry has one */
	if (!l->mem || !r->mem)
		return rep_cmp_null(l->mem, r->mem);
	if (d == REP_DIM_DCACHELINE)
		return dcacheline_cmp(l, r);
	return mem_key_cmp(d, l->mem, r->mem, verbose);
}

#define DEFINE_CMP(name, dim) \
	REP_MEM_CMP(name) \
	{ \
		return key_cmp(dim, l, r, rep->o.hist.verbose); \
	}
DEFINE_CMP(sym_daddr, REP_DIM_SYM_DADDR)
DEFINE_CMP(sym_iaddr, REP_DIM_SYM_IADDR)
DEFINE_CMP(dso_daddr, REP_DIM_DSO_DADDR)
DEFINE_CMP(locked, REP_DIM_LOCKED)
DEFINE_CMP(tlb, REP_DIM_TLB)
DEFINE_CMP(mem, REP_DIM_MEM)
DEFINE_CMP(snoop, REP_DIM_SNOOP)
DEFINE_CMP(dcacheline, REP_DIM_DCACHELINE)
DEFINE_CMP(phys_daddr, REP_DIM_PHYS_DADDR)
DEFINE_CMP(data_page_size, REP_DIM_DATA_PAGE_SIZE)
DEFINE_CMP(blocked, REP_DIM_BLOCKED)
DEFINE_CMP(local_weight, REP_DIM_LOCAL_WEIGHT)
DEFINE_CMP(weight, REP_DIM_WEIGHT)
DEFINE_CMP(local_ins_lat, REP_DIM_LOCAL_INS_LAT)
DEFINE_CMP(ins_lat, REP_DIM_INS_LAT)
DEFINE_CMP(local_p_stage_cyc, REP_DIM_LOCAL_P_STAGE_CYC)
DEFINE_CMP(p_stage_cyc, REP_DIM_P_STAGE_CYC)
DEFINE_CMP(code_page_size, REP_DIM_CODE_PAGE_SIZE)
DEFINE_CMP(transaction, REP_DIM_TRANSACTION)
DEFINE_CMP(cgroup, REP_DIM_CGROUP)
DEFINE_CMP(cgroup_id, REP_DIM_CGROUP_ID)
DEFINE_CMP(trace, REP_DIM_TRACE)

/* perf's hist_entry__dcacheline_snprintf(): [s] for shared data mmaps. */
static void
dcacheline_snprint(const struct rep_hent *e, bool verbose, int w, char *buf,
		   size_t size)
{
	const struct ses_map *m = e->mem->daddr.map;
	char level = e->level;

	if (e->cpumode != PD_MISC_KERNEL && m && !(m->prot & PROT_EXEC_FLAG) &&
	    (m->flags & MAP_SHARED_FLAG) && !id_empty(m))
		level = 's';
	else if (!m)
		level = 'X';
	rep_loc_sym_snprint(&e->mem->daddr, cl_address(e->mem->daddr.al_addr),
			    level, verbose, w, buf, size);
}

/* perf's hist_entry__phys_daddr_snprintf(), padded or cut to w. */
static void
phys_snprint(const struct rep_hent *e, int w, char *buf, size_t size)
{
	char text[64];

	snprintf(text, sizeof(text), "[%c] %-#.*" PRIx64, e->level,
		 UNRESOLVED_WIDTH, e->mem->phys_addr);
	snprintf(buf, size, "%-*.*s", w, w, text);
}

/* The column text of a data_src key: perf's buffers cut it as here. */
static void
src_snprint(enum rep_dim d, uint64_t src, int w, char *buf, size_t size)
{
	char out[PD_DATASRC_TEXT_MAX];

	switch (d) {
	case REP_DIM_LOCKED:
		snprintf(buf, size, "%.*s", w, pd_datasrc_lock(src));
		return;
	case REP_DIM_BLOCKED:
		pd_datasrc_blk(out, 16, src);
		snprintf(buf, size, "%.*s", w, out);
		return;
	case REP_DIM_TLB:
		pd_datasrc_tlb(out, 64, src);
		break;
	case REP_DIM_MEM:
		pd_datasrc_mem(out, 64, src);
		break;
	default:	/* REP_DIM_SNOOP */
		pd_datasrc_snoop(out, 64, src);
		break;
	}
	snprintf(buf, size, "%-*s", w, out);
}

/* perf's transaction flags, in its order; "skip" ones are not in the width. */
static const struct {
	uint64_t flag;
	const char *name;
	bool skip_for_len;
} txn_bits[] = {
	{ PD_TXN_ELISION, "EL ", false },
	{ PD_TXN_TRANSACTION, "TX ", true },
	{ PD_TXN_SYNC, "SYNC ", true },
	{ PD_TXN_ASYNC, "ASYNC ", false },
	{ PD_TXN_RETRY, "RETRY ", false },
	{ PD_TXN_CONFLICT, "CON ", false },
	{ PD_TXN_CAPACITY_WRITE, "CAP-WRITE ", true },
	{ PD_TXN_CAPACITY_READ, "CAP-READ ", false },
};

/* perf's hist_entry__transaction_len(): the names not skipped, and ":XX ". */
static int
txn_len(void)
{
	size_t i;
	int n = 4;

	for (i = 0; i < sizeof(txn_bits) / sizeof(txn_bits[0]); i++)
		if (!txn_bits[i].skip_for_len)
			n += (int)strlen(txn_bits[i].name);
	return n;
}

/* perf's hist_entry__transaction_snprintf(). */
static void
txn_snprint(uint64_t t, int w, char *buf, size_t size)
{
	char text[128];
	size_t i, n = 0;

	text[0] = '\0';
	for (i = 0; i < sizeof(txn_bits) / sizeof(txn_bits[0]); i++)
		if (t & txn_bits[i].flag)
			n = pd_text_appendf(text, sizeof(text), n, "%s",
					    txn_bits[i].name);
	if (t && !(t & (PD_TXN_SYNC | PD_TXN_ASYNC)))
		n = pd_text_appendf(text, sizeof(text), n, "NEITHER ");
	if (t & PD_TXN_ABORT_MASK)
		pd_text_appendf(text, sizeof(text), n, ":%" PRIx64,
				(uint64_t)((t & PD_TXN_ABORT_MASK) >>
					   PD_TXN_ABORT_SHIFT));
	snprintf(buf, size, "%-*s", w, text);
}

/* perf's cgroup__find() name: N/A for none, unknown when no record named it. */
static const char *
cgroup_name(const struct rep_report *rep, uint64_t id)
{
	const uint64_t *v;

	if (!id)
		return "N/A";
	v = rep->cgroup_names ? u64map_find(rep->cgroup_names, id) : NULL;
	return v ? (const char *)(uintptr_t)*v : "unknown";
}

static void
value_snprint(const struct rep_report *rep, enum rep_dim d,
	      const struct rep_hent *e, int w, char *buf, size_t size)
{
	char page[32];

	switch (d) {
	case REP_DIM_LOCAL_WEIGHT:
		snprintf(buf, size, "%-*" PRIu64, w, e->weight);
		break;
	case REP_DIM_WEIGHT:
		snprintf(buf, size, "%-*" PRIu64, w, e->weight * e->nr_events);
		break;
	/* perf prints these u64s with %u: their low 32 bits */
	case REP_DIM_LOCAL_INS_LAT:
	case REP_DIM_LOCAL_P_STAGE_CYC:
		snprintf(buf, size, "%-*u", w, (unsigned int)value_of(d, e));
		break;
	case REP_DIM_INS_LAT:
	case REP_DIM_P_STAGE_CYC:
		snprintf(buf, size, "%-*u", w,
			 (unsigned int)(value_of(d, e) * e->nr_events));
		break;
	case REP_DIM_CODE_PAGE_SIZE:
		pd_page_size_text(page, sizeof(page), e->code_page_size);
		snprintf(buf, size, "%-*s", w, page);
		break;
	case REP_DIM_TRANSACTION:
		txn_snprint(e->transaction, w, buf, size);
		break;
	case REP_DIM_CGROUP_ID:
		/* perf prints it unpadded: the columns' alignment pads it */
		snprintf(buf, size, "%" PRIu64 "/0x%" PRIx64, e->cgroup_dev,
			 e->cgroup_ino);
		break;
	case REP_DIM_TRACE:
		snprintf(buf, size, "%-.*s", w, e->trace ? e->trace : "N/A");
		break;
	default:	/* REP_DIM_CGROUP */
		snprintf(buf, size, "%s", cgroup_name(rep, e->cgroup));
		break;
	}
}

void
rep_mem_snprint(const struct rep_report *rep, enum rep_dim d,
		const struct rep_hent *e, int w, char *buf, size_t size)
{
	const struct rep_mem *m = e->mem;
	char page[32];

	if (rep_value_dim(d)) {
		value_snprint(rep, d, e, w, buf, size);
		return;
	}
	if (!m) {
		snprintf(buf, size, "%-*s", w, "");
		return;
	}
	switch (d) {
	case REP_DIM_SYM_DADDR:
		rep_loc_sym_snprint(&m->daddr, m->daddr.ip, e->level,
				    rep->o.hist.verbose, w, buf, size);
		break;
	case REP_DIM_SYM_IADDR:
		rep_loc_sym_snprint(&m->iaddr, m->iaddr.ip, e->level,
				    rep->o.hist.verbose, w, buf, size);
		break;
	case REP_DIM_DSO_DADDR:
		rep_loc_dso_snprint(&m->daddr, rep->o.hist.verbose, w, buf, size);
		break;
	case REP_DIM_DCACHELINE:
		dcacheline_snprint(e, rep->o.hist.verbose, w, buf, size);
		break;
	case REP_DIM_PHYS_DADDR:
		phys_snprint(e, w, buf, size);
		break;
	case REP_DIM_DATA_PAGE_SIZE:
		pd_page_size_text(page, sizeof(page), m->data_page_size);
		snprintf(buf, size, "%-*s", w, page);
		break;
	default:
		src_snprint(d, m->data_src, w, buf, size);
		break;
	}
}

/* The unresolved DSO width, as perf's hists__set_unres_dso_col_len(). */
static void
unres_dso(int *len, enum rep_dim d)
{
	if (len[d] < UNRESOLVED_WIDTH)
		len[d] = UNRESOLVED_WIDTH;
}

/* perf's hists__calc_col_len() for these keys. */
void
rep_mem_calc_len(const struct rep_report *rep, const struct rep_hent *e,
		 int *len)
{
	const struct rep_mem *m = e->mem;
	const int unres = UNRESOLVED_WIDTH + 4 + 2;

	if (m && m->daddr.map && m->daddr.sym) {
		int n = (int)strlen(m->daddr.sym->name) + 4 + UNRESOLVED_WIDTH + 2;

		rep_grow_len(len, REP_DIM_SYM_DADDR, n);
		rep_grow_len(len, REP_DIM_DCACHELINE, n + 1);
	} else {
		rep_grow_len(len, REP_DIM_SYM_DADDR, unres);
		if (m)
			rep_grow_len(len, REP_DIM_DCACHELINE, unres);
	}
	if (m && m->iaddr.map && m->iaddr.sym)
		rep_grow_len(len, REP_DIM_SYM_IADDR,
		     (int)strlen(m->iaddr.sym->name) + 4 + UNRESOLVED_WIDTH + 2);
	else
		rep_grow_len(len, REP_DIM_SYM_IADDR, unres);
	if (m && m->daddr.map)
		rep_grow_len(len, REP_DIM_DSO_DADDR,
		     (int)strlen(rep_dso_name(m->daddr.dso, rep->o.hist.verbose)));
	else
		unres_dso(len, REP_DIM_DSO_DADDR);
	if (m) {
		rep_grow_len(len, REP_DIM_PHYS_DADDR, unres);
		rep_grow_len(len, REP_DIM_DATA_PAGE_SIZE, unres);
	}
	rep_grow_len(len, REP_DIM_LOCKED, 6);
	rep_grow_len(len, REP_DIM_TLB, 22);
	rep_grow_len(len, REP_DIM_SNOOP, 12);
	rep_grow_len(len, REP_DIM_MEM, 21 + 3);
	rep_grow_len(len, REP_DIM_LOCAL_WEIGHT, 12);
	rep_grow_len(len, REP_DIM_WEIGHT, 12);
	rep_grow_len(len, REP_DIM_BLOCKED, 10);
	rep_grow_len(len, REP_DIM_LOCAL_INS_LAT, 13);
	rep_grow_len(len, REP_DIM_INS_LAT, 13);
	rep_grow_len(len, REP_DIM_LOCAL_P_STAGE_CYC, 13);
	rep_grow_len(len, REP_DIM_P_STAGE_CYC, 13);
	rep_grow_len(len, REP_DIM_CODE_PAGE_SIZE, 6);
	if (e->transaction)
		rep_grow_len(len, REP_DIM_TRANSACTION, txn_len());
	if (e->trace && e->trace_sized)
		rep_grow_len(len, REP_DIM_TRACE, (int)strlen(e->trace));
	rep_grow_len(len, REP_DIM_CGROUP, 6);
	rep_grow_len(len, REP_DIM_CGROUP_ID, 20);
}

/* What equal entries share of a key. */
static uint64_t
key_word(enum rep_dim d, const struct rep_hent *e, bool verbose)
{
	const struct rep_mem *m = e->mem;

	if (d == REP_DIM_CGROUP_ID)
		return e->cgroup_dev * 0x9e3779b97f4a7c15ULL ^ e->cgroup_ino;
	if (d == REP_DIM_TRACE)
		return e->trace ? XXH3_64bits(e->trace, strlen(e->trace)) : 0;
	if (rep_value_dim(d))
		return value_of(d, e);
	if (!m)
		return 0;
	switch (d) {
	case REP_DIM_SYM_DADDR:
		return m->daddr.ip;
	case REP_DIM_SYM_IADDR:
		return m->iaddr.ip;
	case REP_DIM_DSO_DADDR:
		return rep_loc_dso_hash(&m->daddr, verbose);
	case REP_DIM_DCACHELINE:
		return cl_address(m->daddr.al_addr);
	case REP_DIM_PHYS_DADDR:
		return m->phys_addr;
	case REP_DIM_DATA_PAGE_SIZE:
		return m->data_page_size;
	default:
		return src_field(d, m->data_src);
	}
}

uint64_t
rep_mem_hash(const struct rep_report *rep, const struct rep_hent *e)
{
	uint64_t v[REP_MAX_DIMS];
	size_t n = 0, i;

	for (i = 0; i < rep->o.hist.nr_sort; i++) {
		enum rep_dim d = rep->o.hist.sort[i];

		if (rep_mem_dim(d) || rep_value_dim(d))
			v[n++] = key_word(d, e, rep->o.hist.verbose);
	}
	return n ? XXH3_64bits(v, n * sizeof(v[0])) : 0;
}

/* The sort list made here: the options point to it until the next setup. */
static char *sort_made;

int
rep_mem_setup(struct rep_report_opts *o, char *err, size_t errsz)
{
	if (!o->hist.mem_mode)
		return 0;
	if (o->hist.branch_mode) {
		snprintf(err, errsz, "branch and mem mode incompatible");
		return -1;
	}
	/*
	 * perf chose the callchain order while children were still on
	 * (they are by default): caller order, unless -g said one
	 */
	if (o->cc.children != 0 && !o->cc.param.order_set) {
		o->cc.param.caller = true;
		o->cc.param.order_set = true;
	}
	o->cc.children = 0;
	/* perf takes an -F list without '+' as the whole order */
	if (!o->hist.sort_str &&
	    (!o->hist.fields_str || o->hist.fields_str[0] == '+'))
		o->hist.sort_str = REP_MEM_DEFAULT_SORT;
	/* perf's setup_sort_order(): '+' adds to the mode's default */
	if (o->hist.sort_str && o->hist.sort_str[0] == '+' &&
	    o->hist.sort_str[1]) {
		free(sort_made);
		sort_made = xmalloc(strlen(REP_MEM_DEFAULT_SORT) +
				    strlen(o->hist.sort_str) + 1);
		sprintf(sort_made, "%s,%s", REP_MEM_DEFAULT_SORT,
			o->hist.sort_str + 1);
		o->hist.sort_str = sort_made;
	}
	return 0;
}

int
rep_mem_check_file(const struct rep_report_opts *o, struct pd_reader *r,
		   char *err, size_t errsz)
{
	size_t i, n = pd_reader_nr_evsels(r);

	if (!o->hist.mem_mode || pd_reader_info(r)->mode == PD_MODE_PIPE)
		return 0;
	for (i = 0; i < n; i++)
		if (pd_reader_evsel(r, i)->attr.sample_type & PD_SAMPLE_DATA_SRC)
			return 0;
	snprintf(err, errsz, "Selected --mem-mode but no mem data. "
		 "Did you call perf record without -d?");
	return -1;
}

int
rep_mem_check_dims(const struct rep_report_opts *o, char *err, size_t errsz)
{
	size_t i;

	if (!o->hist.mem_mode) {
		for (i = 0; i < o->hist.nr_sort; i++) {
			if (rep_mem_dim(o->hist.sort[i])) {
				snprintf(err, errsz, "Invalid --sort key: `%s' "
					 "(a memory key: only with --mem-mode)",
					 rep_dim_name(o->hist.sort[i]));
				return -1;
			}
		}
	}
	for (i = 0; i < o->hist.nr_sort; i++) {
		if (o->hist.sort[i] == REP_DIM_DCACHELINE && !cacheline_size()) {
			snprintf(err, errsz, "Invalid --sort key: `dcacheline' "
				 "(this machine's cache line size is unknown)");
			return -1;
		}
	}
	return 0;
}

bool
rep_mem_direct(const struct rep_report_opts *o)
{
	size_t i;

	if (o->hist.mem_mode)
		return true;
	for (i = 0; i < o->hist.nr_sort; i++)
		if (rep_value_dim(o->hist.sort[i]) ||
		    rep_field_dim(o->hist.sort[i]))
			return true;
	for (i = 0; i < o->hist.nr_cols; i++)
		if (rep_value_dim(o->hist.cols[i]))
			return true;
	return false;
}

struct rep_mem_mode *
rep_mem_mode_new(void)
{
	struct rep_mem_mode *mm = xcalloc(1, sizeof(*mm));

	mm->copies.size = sizeof(struct rep_mem);
	return mm;
}

void
rep_mem_mode_free(struct rep_mem_mode *mm)
{
	if (!mm)
		return;
	rep_keep_free(&mm->copies);
	free(mm);
}

struct rep_mem *
rep_mem_next(struct rep_mem_mode *mm)
{
	return rep_keep_next(&mm->copies);
}

/* perf's sample->weight: a weight struct's first part, else the whole u64. */
static uint64_t
sample_weight(const struct pd_sample *ps)
{
	if (ps->type & PD_SAMPLE_WEIGHT_STRUCT)
		return ps->weight_struct.var1;
	return ps->weight;
}

void
rep_mem_add(struct rep_mem_mode *mm, struct rep_report *rep,
	    const struct ses_sample *s)
{
	struct ses_sample ms = *s;
	struct rep_mem *m = NULL;
	uint64_t cost;

	if (!s->raw)
		return;
	if (rep->o.hist.mem_mode) {
		m = rep_mem_next(mm);
		/* perf's iter_add_single_mem_entry(): the weight is the period */
		cost = sample_weight(s->raw);
		ms.period = cost ? cost : 1;
	}
	if (rep_report_add_one(rep, &ms, m) == m && m)
		rep_keep_commit(&mm->copies);
}
