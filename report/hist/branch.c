/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * report/hist/branch.c - branch mode: every branch of a sample's branch stack
 * is one histogram entry of period 1, keyed by the sort keys, and the
 * branch keys compare, print and size their columns as perf 6.1's
 * util/sort.c and util/hist.c do (doc/perf-records.md §5.3).
 *
 * The common keys of such an entry see the branch target: its map, DSO
 * and symbol, its raw address as the entry's ip, and the level of the
 * sample (perf's iter_next_branch_entry() changes the addr_location's
 * map, symbol and address, not its level).
 */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "lib/xalloc.h"
#include "pdata/abi.h"
#include "report/hist/branch.h"
#include "report/hist/loc.h"

/* util/branch.c's struct branch_type_stat. */
struct type_stat {
	uint64_t counts[PD_BR_MAX];
	uint64_t new_counts[PD_BR_NEW_MAX];
	uint64_t cond_fwd, cond_bwd, cross_4k, cross_2m;
};

struct rep_branch_mode {
	struct rep_keep copies;		/* of struct ses_branch */
	struct type_stat st;
};

/* perf's sort__sym_from_cmp / sort__sym_to_cmp on one end. */
static int
sym_cmp_locs(const struct ses_loc *l, const struct ses_loc *r)
{
	const struct sym_symbol *sl = rep_loc_sym(l), *sr = rep_loc_sym(r);

	if (!sl && !sr)
		return rep_sign64((int64_t)(r->ip - l->ip));
	if (!sl || !sr)
		return rep_cmp_null(sl, sr);
	if (sl == sr)
		return 0;
	if (sl->start != sr->start)
		return rep_sign64((int64_t)(sr->start - sl->start));
	return rep_sign64((int64_t)(sr->end - sl->end));
}

int
rep_br_dso_from_cmp(const struct rep_report *rep, const struct rep_hent *l,
		    const struct rep_hent *r)
{
	if (!l->branch || !r->branch)
		return rep_cmp_null(l->branch, r->branch);
	return rep_loc_dso_cmp(&l->branch->from, &r->branch->from,
			       rep->o.hist.verbose);
}

int
rep_br_dso_to_cmp(const struct rep_report *rep, const struct rep_hent *l,
		  const struct rep_hent *r)
{
	if (!l->branch || !r->branch)
		return rep_cmp_null(l->branch, r->branch);
	return rep_loc_dso_cmp(&l->branch->to, &r->branch->to,
			       rep->o.hist.verbose);
}

int
rep_br_sym_from_cmp(const struct rep_report *rep, const struct rep_hent *l,
		    const struct rep_hent *r)
{
	(void)rep;
	if (!l->branch || !r->branch)
		return rep_cmp_null(l->branch, r->branch);
	return sym_cmp_locs(&l->branch->from, &r->branch->from);
}

int
rep_br_sym_to_cmp(const struct rep_report *rep, const struct rep_hent *l,
		  const struct rep_hent *r)
{
	(void)rep;
	if (!l->branch || !r->branch)
		return rep_cmp_null(l->branch, r->branch);
	return sym_cmp_locs(&l->branch->to, &r->branch->to);
}

/* perf's flag keys say only "different" (1), never which comes first. */
int
rep_br_mispredict_cmp(const struct rep_report *rep, const struct rep_hent *l,
		      const struct rep_hent *r)
{
	(void)rep;
	if (!l->branch || !r->branch)
		return rep_cmp_null(l->branch, r->branch);
	return l->branch->entry.mispred != r->branch->entry.mispred ||
	       l->branch->entry.predicted != r->branch->entry.predicted;
}

int
rep_br_in_tx_cmp(const struct rep_report *rep, const struct rep_hent *l,
		 const struct rep_hent *r)
{
	(void)rep;
	if (!l->branch || !r->branch)
		return rep_cmp_null(l->branch, r->branch);
	return l->branch->entry.in_tx != r->branch->entry.in_tx;
}

int
rep_br_abort_cmp(const struct rep_report *rep, const struct rep_hent *l,
		 const struct rep_hent *r)
{
	(void)rep;
	if (!l->branch || !r->branch)
		return rep_cmp_null(l->branch, r->branch);
	return l->branch->entry.abort != r->branch->entry.abort;
}

/* Larger cycle counts first. */
int
rep_br_cycles_cmp(const struct rep_report *rep, const struct rep_hent *l,
		  const struct rep_hent *r)
{
	(void)rep;
	if (!l->branch || !r->branch)
		return rep_cmp_null(l->branch, r->branch);
	return rep_sign64((int64_t)l->branch->entry.cycles -
		      (int64_t)r->branch->entry.cycles);
}

int
rep_br_srcline_from_cmp(const struct rep_report *rep, const struct rep_hent *l,
			const struct rep_hent *r)
{
	(void)rep;
	if (!l->srcline_from || !r->srcline_from)
		return rep_cmp_null(l->srcline_from, r->srcline_from);
	return rep_sign64(strcmp(r->srcline_from, l->srcline_from));
}

int
rep_br_srcline_to_cmp(const struct rep_report *rep, const struct rep_hent *l,
		      const struct rep_hent *r)
{
	(void)rep;
	if (!l->srcline_to || !r->srcline_to)
		return rep_cmp_null(l->srcline_to, r->srcline_to);
	return rep_sign64(strcmp(r->srcline_to, l->srcline_to));
}

/* perf's sort__addr_from_cmp on one end: the DSO, then the raw address. */
static int
addr_cmp_locs(const struct ses_loc *l, const struct ses_loc *r, bool verbose)
{
	int c = rep_loc_dso_cmp(l, r, verbose);

	return c ? c : rep_sign64((int64_t)(r->ip - l->ip));
}

int
rep_br_addr_from_cmp(const struct rep_report *rep, const struct rep_hent *l,
		     const struct rep_hent *r)
{
	if (!l->branch || !r->branch)
		return rep_cmp_null(l->branch, r->branch);
	return addr_cmp_locs(&l->branch->from, &r->branch->from,
			     rep->o.hist.verbose);
}

int
rep_br_addr_to_cmp(const struct rep_report *rep, const struct rep_hent *l,
		   const struct rep_hent *r)
{
	if (!l->branch || !r->branch)
		return rep_cmp_null(l->branch, r->branch);
	return addr_cmp_locs(&l->branch->to, &r->branch->to,
			     rep->o.hist.verbose);
}

int
rep_br_ipc_cmp(const struct rep_report *rep, const struct rep_hent *l,
	       const struct rep_hent *r)
{
	return rep_dims[REP_DIM_SYM].cmp(rep, l, r);
}

bool
rep_branch_dim(enum rep_dim d)
{
	switch (d) {
	case REP_DIM_DSO_FROM:
	case REP_DIM_DSO_TO:
	case REP_DIM_SYM_FROM:
	case REP_DIM_SYM_TO:
	case REP_DIM_MISPREDICT:
	case REP_DIM_IN_TX:
	case REP_DIM_ABORT:
	case REP_DIM_CYCLES:
	case REP_DIM_SRCLINE_FROM:
	case REP_DIM_SRCLINE_TO:
	case REP_DIM_ADDR_FROM:
	case REP_DIM_ADDR_TO:
	case REP_DIM_IPC_LBR:
		return true;
	default:
		return false;
	}
}

/*
 * perf's _hist_entry__addr_snprintf(): the symbol (cut to the width) and
 * the offset of the branch end in it, or the address; the sample's level.
 */
static void
addr_snprint(const struct ses_loc *l, char level, int w, char *buf,
	     size_t size)
{
	const struct sym_symbol *sym = rep_loc_sym(l);
	uint64_t offs;
	int n;

	if (!sym || sym->is_object) {
		rep_loc_sym_snprint(l, l->al_addr, level, false, w, buf, size);
		return;
	}
	n = snprintf(buf, size, "[%c] %.*s", level, w - 4 > 0 ? w - 4 : 0,
		     sym->name);
	offs = l->al_addr - sym->start;
	if (offs && n > 0 && (size_t)n < size)
		snprintf(buf + n, size - (size_t)n, "+0x%" PRIx64, offs);
}

/*
 * perf's hist_entry__mispredict_snprintf() keeps its answer in a static:
 * an entry neither predicted nor mispredicted prints what the entry
 * before it printed ("N/A" at first).
 */
static const char *mispredict_last = "N/A";

static void
flag_snprint(enum rep_dim d, const struct pd_branch_entry *b, int w,
	     char *buf, size_t size)
{
	const char *out;

	switch (d) {
	case REP_DIM_MISPREDICT:
		if (b->predicted)
			mispredict_last = "N";
		else if (b->mispred)
			mispredict_last = "Y";
		snprintf(buf, size, "%-*.*s", w, w, mispredict_last);
		return;
	case REP_DIM_IN_TX:
		out = b->in_tx ? "T" : ".";
		break;
	case REP_DIM_ABORT:
		out = b->abort ? "A" : ".";
		break;
	default:
		if (b->cycles) {
			/* perf prints the u16 count with %hd */
			snprintf(buf, size, "%-*hd", w, (short)b->cycles);
			return;
		}
		out = "-";
		break;
	}
	snprintf(buf, size, "%-*s", w, out);
}

/*
 * perf's IPC column needs the symbol disassembled (annotation); preport
 * does not disassemble, and prints what perf prints for a symbol none of
 * whose instructions were covered.
 */
static void
ipc_snprint(const struct rep_hent *e, int w, char *buf, size_t size)
{
	if (!e->sym)
		snprintf(buf, size, "%-*s", w, "-");
	else
		snprintf(buf, size, "%-*s", w, "0.00  [  0.0%]");
}

void
rep_branch_snprint(const struct rep_report *rep, enum rep_dim d,
		   const struct rep_hent *e, int w, char *buf, size_t size)
{
	const struct ses_branch *b = e->branch;

	if (d == REP_DIM_IPC_NULL) {
		snprintf(buf, size, "%-*s", w, "-      -");
		return;
	}
	if (!b) {
		if (d == REP_DIM_CYCLES)
			snprintf(buf, size, "%-.*s", w, "N/A");
		else
			snprintf(buf, size, "%-*.*s", w, w, "N/A");
		return;
	}
	switch (d) {
	case REP_DIM_DSO_FROM:
		rep_loc_dso_snprint(&b->from, rep->o.hist.verbose, w, buf, size);
		break;
	case REP_DIM_DSO_TO:
		rep_loc_dso_snprint(&b->to, rep->o.hist.verbose, w, buf, size);
		break;
	case REP_DIM_SYM_FROM:
		rep_loc_sym_snprint(&b->from, b->from.al_addr, b->from.level,
				    rep->o.hist.verbose, w,
				    buf, size);
		break;
	case REP_DIM_SYM_TO:
		rep_loc_sym_snprint(&b->to, b->to.al_addr, b->to.level,
				    rep->o.hist.verbose, w,
				    buf, size);
		break;
	case REP_DIM_MISPREDICT:
	case REP_DIM_IN_TX:
	case REP_DIM_ABORT:
	case REP_DIM_CYCLES:
		flag_snprint(d, &b->entry, w, buf, size);
		break;
	case REP_DIM_SRCLINE_FROM:
		snprintf(buf, size, "%-*.*s", w, w, e->srcline_from);
		break;
	case REP_DIM_SRCLINE_TO:
		snprintf(buf, size, "%-*.*s", w, w, e->srcline_to);
		break;
	case REP_DIM_ADDR_FROM:
		addr_snprint(&b->from, e->level, w, buf, size);
		break;
	case REP_DIM_ADDR_TO:
		addr_snprint(&b->to, e->level, w, buf, size);
		break;
	case REP_DIM_IPC_LBR:
		ipc_snprint(e, w, buf, size);
		break;
	default:
		buf[0] = '\0';
		break;
	}
}


/*
 * One end: a resolved symbol sizes the symbol and DSO columns; an
 * unresolved one asks for an address's width, and 16 for the DSO column
 * (not the DSO name's length), unless --dsos is given.
 */
static void
calc_len_loc(const struct rep_report *rep, const struct ses_loc *l,
	     enum rep_dim sym_dim, enum rep_dim dso_dim, int *len)
{
	const struct sym_symbol *sym = rep_loc_sym(l);

	if (sym) {
		rep_grow_len(len, sym_dim, (int)strlen(sym->name) + 4 +
			     (rep->o.hist.verbose ? REP_VERBOSE_SYM_LEN : 0));
		rep_grow_len(len, dso_dim,
			     (int)strlen(rep_dso_name(l->dso, rep->o.hist.verbose)));
		return;
	}
	rep_grow_len(len, sym_dim, 16 + 4 + 2);
	if (len[dso_dim] < 16 && !rep->o.hist.filt.nr_dsos)
		len[dso_dim] = 16;
}

void
rep_branch_calc_len(const struct rep_report *rep, const struct rep_hent *e,
		    int *len)
{
	if (!e->branch)
		return;
	calc_len_loc(rep, &e->branch->from, REP_DIM_SYM_FROM, REP_DIM_DSO_FROM, len);
	calc_len_loc(rep, &e->branch->to, REP_DIM_SYM_TO, REP_DIM_DSO_TO, len);
	/* an unresolved end widens the address column too */
	if (!rep_loc_sym(&e->branch->from))
		rep_grow_len(len, REP_DIM_ADDR_FROM, 16 + 4 + 2);
	if (!rep_loc_sym(&e->branch->to))
		rep_grow_len(len, REP_DIM_ADDR_TO, 16 + 4 + 2);
	if (e->srcline_from)
		rep_grow_len(len, REP_DIM_SRCLINE_FROM, (int)strlen(e->srcline_from));
	if (e->srcline_to)
		rep_grow_len(len, REP_DIM_SRCLINE_TO, (int)strlen(e->srcline_to));
}

static void
hash_sym_loc(const struct ses_loc *l, uint64_t *v, size_t *n)
{
	const struct sym_symbol *sym = rep_loc_sym(l);

	if (sym) {
		v[(*n)++] = sym->start;
		v[(*n)++] = sym->end;
	} else {
		v[(*n)++] = l->ip;
	}
}

uint64_t
rep_branch_hash(const struct rep_report *rep, const struct rep_hent *e)
{
	const struct ses_branch *b = e->branch;
	uint64_t v[20];
	size_t n = 0;

	if (!b)
		return 0;
	if (rep->has_key[REP_DIM_DSO_FROM])
		v[n++] = rep_loc_dso_hash(&b->from, rep->o.hist.verbose);
	if (rep->has_key[REP_DIM_DSO_TO])
		v[n++] = rep_loc_dso_hash(&b->to, rep->o.hist.verbose);
	if (rep->has_key[REP_DIM_SYM_FROM])
		hash_sym_loc(&b->from, v, &n);
	if (rep->has_key[REP_DIM_SYM_TO])
		hash_sym_loc(&b->to, v, &n);
	if (rep->has_key[REP_DIM_MISPREDICT])
		v[n++] = (uint64_t)b->entry.mispred << 1 | b->entry.predicted;
	if (rep->has_key[REP_DIM_IN_TX])
		v[n++] = b->entry.in_tx;
	if (rep->has_key[REP_DIM_ABORT])
		v[n++] = b->entry.abort;
	if (rep->has_key[REP_DIM_CYCLES])
		v[n++] = b->entry.cycles;
	if (rep->has_key[REP_DIM_SRCLINE_FROM])
		v[n++] = XXH3_64bits(e->srcline_from, strlen(e->srcline_from));
	if (rep->has_key[REP_DIM_SRCLINE_TO])
		v[n++] = XXH3_64bits(e->srcline_to, strlen(e->srcline_to));
	if (rep->has_key[REP_DIM_ADDR_FROM]) {
		v[n++] = rep_loc_dso_hash(&b->from, rep->o.hist.verbose);
		v[n++] = b->from.ip;
	}
	if (rep->has_key[REP_DIM_ADDR_TO]) {
		v[n++] = rep_loc_dso_hash(&b->to, rep->o.hist.verbose);
		v[n++] = b->to.ip;
	}
	return n ? XXH3_64bits(v, n * sizeof(v[0])) : 0;
}

static bool
file_has_branch_stack(struct pd_reader *r)
{
	size_t i, n = pd_reader_nr_evsels(r);
	uint64_t all = 0;

	for (i = 0; i < n; i++)
		all |= pd_reader_evsel(r, i)->attr.sample_type;
	return all & PD_SAMPLE_BRANCH_STACK;
}

/* perf's has_br_stack: the feature bit, and no user stack dumps. */
static bool
file_default_branch_mode(struct pd_reader *r)
{
	const struct pd_meta *meta = pd_reader_meta(r);
	size_t i, n = pd_reader_nr_evsels(r);
	uint64_t all = 0;

	for (i = 0; i < n; i++)
		all |= pd_reader_evsel(r, i)->attr.sample_type;
	return meta && pd_meta_has(meta, PD_FEAT_BRANCH_STACK) &&
	       !(all & PD_SAMPLE_STACK_USER);
}

#define DEFAULT_BRANCH_SORT "comm,dso_from,symbol_from,symbol_to,cycles"
#define DEFAULT_HISTORY_SORT "srcline,symbol,dso"

/* The sort list made here: the options point to it until the next setup. */
static char *sort_made;

/*
 * The sort list as perf 6.1's cmd_report() makes it: a list that names a
 * symbol key gets ipc_lbr (branch mode) or ipc_null (else) appended, and
 * in branch mode a leading '+' adds to the branch default.
 */
static const char *
sort_list(const char *user, bool branch_mode)
{
	bool plus = user[0] == '+' && branch_mode;
	const char *rest = plus ? user + 1 : user;
	const char *ipc = !strstr(user, "symbol") ? "" :
		branch_mode ? ",ipc_lbr" : ",ipc_null";
	size_t len = strlen(DEFAULT_BRANCH_SORT) + strlen(rest) + 16;

	if (!plus && !ipc[0])
		return user;
	free(sort_made);
	sort_made = xmalloc(len);
	snprintf(sort_made, len, "%s%s%s%s", plus ? DEFAULT_BRANCH_SORT : "",
		 plus ? "," : "", rest, ipc);
	return sort_made;
}

int
rep_branch_setup(struct rep_report_opts *o, struct pd_reader *r,
		 char *err, size_t errsz)
{
	bool has_br_stack = file_default_branch_mode(r);

	/* --branch-history puts the branches in the call graphs instead */
	o->hist.branch_mode = !o->cc.branch_history &&
		(o->hist.branch_stack ||
		 (!o->hist.no_branch_stack && has_br_stack));
	if (o->cc.branch_history) {
		o->cc.branch_counts = has_br_stack;
		o->cc.param.key = REP_CC_KEY_ADDRESS;
		o->cc.param.branch = true;
		o->cc.use_callchain = 1;
		if (!o->hist.sort_str)
			o->hist.sort_str = DEFAULT_HISTORY_SORT;
	}
	if (o->hist.sort_str && strstr(o->hist.sort_str, "ipc")) {
		snprintf(err, errsz, "the ipc keys are not for --sort");
		return -1;
	}
	if (o->hist.sort_str)
		o->hist.sort_str = sort_list(o->hist.sort_str,
					     o->hist.branch_mode);
	if (o->hist.branch_mode) {
		o->cc.children = 0;
		if (!o->hist.sort_str)
			o->hist.sort_str = DEFAULT_BRANCH_SORT;
	}
	return 0;
}

int
rep_branch_check_file(const struct rep_report_opts *o, struct pd_reader *r,
		      char *err, size_t errsz)
{
	bool pipe = pd_reader_info(r)->mode == PD_MODE_PIPE;

	if (o->hist.branch_mode && !pipe && !file_has_branch_stack(r)) {
		snprintf(err, errsz, "Selected -b but no branch data. "
			 "Did you call perf record without -b?");
		return -1;
	}
	return 0;
}

int
rep_branch_check_dims(const struct rep_report_opts *o, char *err, size_t errsz)
{
	size_t i;

	if (o->hist.branch_mode)
		return 0;
	for (i = 0; i < o->hist.nr_sort; i++) {
		if (rep_branch_dim(o->hist.sort[i])) {
			snprintf(err, errsz, "Invalid --sort key: `%s' (a branch key: "
				 "the file has no branch stacks, or --no-branch-stack)",
				 rep_dim_name(o->hist.sort[i]));
			return -1;
		}
	}
	return 0;
}

struct rep_branch_mode *
rep_branch_mode_new(void)
{
	struct rep_branch_mode *bm = xcalloc(1, sizeof(*bm));

	bm->copies.size = sizeof(struct ses_branch);
	return bm;
}

void
rep_branch_mode_free(struct rep_branch_mode *bm)
{
	if (!bm)
		return;
	rep_keep_free(&bm->copies);
	free(bm);
}

/* util/branch.c's branch_type_count(). */
static void
count_type(struct type_stat *st, const struct pd_branch_entry *b)
{
	uint64_t from = b->from, to = b->to;

	if (b->type == PD_BR_UNKNOWN || from == 0)
		return;
	if (b->type == PD_BR_EXTEND_ABI) {
		if (b->new_type < PD_BR_NEW_MAX)
			st->new_counts[b->new_type]++;
	} else if (b->type < PD_BR_MAX) {
		st->counts[b->type]++;
	}
	if (b->type == PD_BR_COND) {
		if (to > from)
			st->cond_fwd++;
		else
			st->cond_bwd++;
	}
	if ((from & ~(uint64_t)(2 * 1024 * 1024 - 1)) !=
	    (to & ~(uint64_t)(2 * 1024 * 1024 - 1)))
		st->cross_2m++;
	else if ((from & ~(uint64_t)4095) != (to & ~(uint64_t)4095))
		st->cross_4k++;
}

/*
 * perf counts a branch's type from the entry it credits, whose flags and
 * addresses are those of the first branch that made it.
 */
void
rep_branch_mode_add(struct rep_branch_mode *bm, struct rep_report *rep,
		    const struct ses_sample *s)
{
	bool hide = rep_report_hides_unresolved(rep);
	size_t i;

	for (i = 0; i < s->nr_branches; i++) {
		struct ses_branch *copy;
		struct ses_sample bs = *s;
		const struct ses_branch *got;

		/* -U: perf's iter_add_next_branch_entry() */
		if (hide && !(s->branches[i].from.sym && s->branches[i].to.sym))
			continue;
		copy = rep_keep_next(&bm->copies);
		*copy = s->branches[i];
		bs.self = copy->to;
		bs.self.al_addr = copy->to.ip;
		bs.self.level = s->self.level;
		bs.self.cpumode = s->self.cpumode;
		bs.period = 1;
		bs.chain = NULL;
		bs.nr_chain = 0;
		bs.branches = copy;
		bs.nr_branches = 1;
		got = rep_report_add_branch(rep, &bs, s);
		if (!got)
			continue;
		if (got == copy)
			rep_keep_commit(&bm->copies);
		count_type(&bm->st, &got->entry);
	}
}

static const char *const type_names[PD_BR_MAX] = {
	"N/A", "COND", "UNCOND", "IND", "CALL", "IND_CALL", "RET", "SYSCALL",
	"SYSRET", "COND_CALL", "COND_RET", "ERET", "IRQ", "SERROR", "NO_TX", "",
};

/* The names perf 6.1 built for x86 gives the extended types. */
static const char *const new_type_names[PD_BR_NEW_MAX] = {
	"FAULT_ALGN", "FAULT_DATA", "FAULT_INST",
	"ARCH_1", "ARCH_2", "ARCH_3", "ARCH_4", "ARCH_5",
};

static void
print_stat_line(FILE *out, const char *name, uint64_t n, uint64_t total)
{
	fprintf(out, "\n%8s: %5.1f%%", name, 100.0 * (double)n / (double)total);
}

void
rep_branch_mode_print_stats(const struct rep_branch_mode *bm, FILE *out)
{
	const struct type_stat *st = &bm->st;
	uint64_t total = 0;
	size_t i;

	for (i = 0; i < PD_BR_MAX; i++)
		total += st->counts[i];
	if (!total)
		return;
	fputs("\n#\n# Branch Statistics:\n#", out);
	if (st->cond_fwd)
		print_stat_line(out, "COND_FWD", st->cond_fwd, total);
	if (st->cond_bwd)
		print_stat_line(out, "COND_BWD", st->cond_bwd, total);
	if (st->cross_4k)
		print_stat_line(out, "CROSS_4K", st->cross_4k, total);
	if (st->cross_2m)
		print_stat_line(out, "CROSS_2M", st->cross_2m, total);
	for (i = 0; i < PD_BR_MAX; i++)
		if (st->counts[i])
			print_stat_line(out, type_names[i], st->counts[i], total);
	for (i = 0; i < PD_BR_NEW_MAX; i++)
		if (st->new_counts[i])
			print_stat_line(out, new_type_names[i], st->new_counts[i], total);
}
