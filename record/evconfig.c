/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * record/evconfig.c - the attr bits each option sets, as perf 6.1's
 * evsel__config() and evlist__config() set them (tools/perf/util/evsel.c,
 * util/record.c).  Checked option by option against `perf evlist -v` of
 * files that perf record wrote (tests/record-attr.test).
 */
#include "config.h"

#include <string.h>

#include "pdata/abi.h"
#include "record/record.h"

/* arch/x86's PERF_REGS_MASK: every general register but DS, ES, FS, GS */
#define REC_X86_REGS_MASK	0xff0fffULL

static void
flag(struct pd_attr *a, unsigned int bit, bool on)
{
	if (on)
		a->flags |= 1ULL << bit;
	else
		a->flags &= ~(1ULL << bit);
}

static bool
is_dummy(const struct rec_event *ev)
{
	return ev->attr.type == PD_TYPE_SOFTWARE &&
	       ev->attr.config == PD_SW_DUMMY;
}

static void
config_period(struct rec_event *ev, const struct rec_opts *o)
{
	struct pd_attr *a = &ev->attr;

	if (a->sample_period && !o->freq_set && !o->period_set)
		return;
	if (o->period_set) {
		flag(a, PD_ATTR_FREQ, false);
		a->sample_period = o->period;
	} else {
		flag(a, PD_ATTR_FREQ, true);
		a->sample_period = o->freq;
	}
}

static void
config_callchain(struct rec_event *ev, const struct rec_opts *o)
{
	struct pd_attr *a = &ev->attr;

	a->sample_type |= PD_SAMPLE_CALLCHAIN;
	if (o->callgraph == REC_CG_LBR && !o->branch_stack &&
	    !pd_attr_has(a, PD_ATTR_EXCLUDE_USER)) {
		a->sample_type |= PD_SAMPLE_BRANCH_STACK;
		a->branch_sample_type = PD_BRANCH_USER | PD_BRANCH_CALL_STACK |
					PD_BRANCH_NO_CYCLES |
					PD_BRANCH_NO_FLAGS |
					PD_BRANCH_HW_INDEX;
	}
	if (o->callgraph == REC_CG_DWARF) {
		a->sample_type |= PD_SAMPLE_REGS_USER | PD_SAMPLE_STACK_USER;
		/* with --user-regs, only the minimal IP and SP are added */
		a->sample_regs_user |= o->user_regs ? (1ULL << 8 | 1ULL << 7)
						    : REC_X86_REGS_MASK;
		a->sample_stack_user = o->stack_dump_size;
		flag(a, PD_ATTR_EXCLUDE_CALLCHAIN_USER, true);
	}
	if (o->user_callchains)
		flag(a, PD_ATTR_EXCLUDE_CALLCHAIN_KERNEL, true);
	if (o->kernel_callchains)
		flag(a, PD_ATTR_EXCLUDE_CALLCHAIN_USER, true);
}

static void
config_samples(struct rec_event *ev, const struct rec_opts *o,
	       const struct rec_target *t, bool track)
{
	struct pd_attr *a = &ev->attr;

	if (o->sample_addr) {
		a->sample_type |= PD_SAMPLE_ADDR | PD_SAMPLE_DATA_SRC;
		flag(a, PD_ATTR_MMAP_DATA, track);
	}
	if (o->callgraph != REC_CG_NONE)
		config_callchain(ev, o);
	if (o->intr_regs && !is_dummy(ev)) {
		a->sample_regs_intr = o->intr_regs;
		a->sample_type |= PD_SAMPLE_REGS_INTR;
	}
	if (o->user_regs && !is_dummy(ev)) {
		a->sample_regs_user |= o->user_regs;
		a->sample_type |= PD_SAMPLE_REGS_USER;
	}
	if (t->has_cpu || o->sample_cpu)
		a->sample_type |= PD_SAMPLE_CPU;
	/* perf's targets are always per cpu here, so time is always on */
	a->sample_type |= PD_SAMPLE_TIME;
	if (o->raw_samples)
		a->sample_type |= PD_SAMPLE_TIME | PD_SAMPLE_RAW |
				  PD_SAMPLE_CPU;
	if (o->phys_data)
		a->sample_type |= PD_SAMPLE_PHYS_ADDR;
	if (o->branch_stack && !is_dummy(ev)) {
		a->sample_type |= PD_SAMPLE_BRANCH_STACK;
		a->branch_sample_type = o->branch_stack;
	}
	if (o->sample_weight)
		a->sample_type |= PD_SAMPLE_WEIGHT_STRUCT;
	if (o->all_cgroups)
		a->sample_type |= PD_SAMPLE_CGROUP;
	if (o->data_page_size)
		a->sample_type |= PD_SAMPLE_DATA_PAGE_SIZE;
	if (o->code_page_size)
		a->sample_type |= PD_SAMPLE_CODE_PAGE_SIZE;
}

/* perf's evsel__reset_callgraph(): the options' call chains taken off */
static void
reset_callchain(struct pd_attr *a, const struct rec_opts *o)
{
	a->sample_type &= ~PD_SAMPLE_CALLCHAIN;
	if (o->callgraph == REC_CG_LBR) {
		a->sample_type &= ~PD_SAMPLE_BRANCH_STACK;
		a->branch_sample_type &= ~(PD_BRANCH_USER |
					   PD_BRANCH_CALL_STACK |
					   PD_BRANCH_HW_INDEX);
	}
	/*
	 * perf 6.1 takes the sample bits off and leaves the registers, the
	 * stack size and exclude_callchain_user set (doc/errata.md)
	 */
	if (o->callgraph == REC_CG_DWARF)
		a->sample_type &= ~(PD_SAMPLE_REGS_USER | PD_SAMPLE_STACK_USER);
}

/*
 * The event's call-graph, stack-size and max-stack terms: any of them
 * takes the options' call chains off the event; call-graph puts its own
 * on (dwarf with data addresses, as perf does).
 */
static void
terms_callchain(struct rec_event *ev, const struct rec_opts *o, bool track)
{
	const struct rec_terms *tm = &ev->terms;
	struct pd_attr *a = &ev->attr;
	struct rec_opts own = *o;

	if (!(tm->set & REC_TERM_CALLGRAPH) &&
	    !((tm->set & REC_TERM_STACK_SIZE) && tm->stack_size) &&
	    !((tm->set & REC_TERM_MAX_STACK) && tm->max_stack))
		return;
	if (o->callgraph != REC_CG_NONE)
		reset_callchain(a, o);
	if (!(tm->set & REC_TERM_CALLGRAPH) || tm->callgraph == REC_CG_NONE)
		return;
	if (tm->callgraph == REC_CG_DWARF) {
		a->sample_type |= PD_SAMPLE_ADDR | PD_SAMPLE_DATA_SRC;
		flag(a, PD_ATTR_MMAP_DATA, track);
	}
	own.callgraph = tm->callgraph;
	own.stack_dump_size = tm->stack_size;
	config_callchain(ev, &own);
	a->sample_max_stack = tm->max_stack;
}

/* perf's evsel__apply_config_terms() */
static void
apply_terms(struct rec_event *ev, const struct rec_opts *o, bool track)
{
	const struct rec_terms *tm = &ev->terms;
	struct pd_attr *a = &ev->attr;

	if (tm->set & REC_TERM_PERIOD) {
		a->sample_period = tm->period;
		flag(a, PD_ATTR_FREQ, false);
		a->sample_type &= ~PD_SAMPLE_PERIOD;
	}
	if (tm->set & REC_TERM_FREQ) {
		a->sample_period = tm->freq;
		flag(a, PD_ATTR_FREQ, true);
		a->sample_type |= PD_SAMPLE_PERIOD;
	}
	if (tm->set & REC_TERM_TIME) {
		if (tm->time)
			a->sample_type |= PD_SAMPLE_TIME;
		else
			a->sample_type &= ~PD_SAMPLE_TIME;
	}
	if (tm->set & REC_TERM_INHERIT)
		flag(a, PD_ATTR_INHERIT, tm->inherit);
	terms_callchain(ev, o, track);
}

static void
config_one(struct rec_evlist *list, struct rec_event *ev,
	   const struct rec_opts *o, const struct rec_target *t)
{
	struct pd_attr *a = &ev->attr;
	bool track = ev->tracking;
	bool leader = ev->leader == (size_t)(ev - list->ev);

	flag(a, PD_ATTR_SAMPLE_ID_ALL, true);
	flag(a, PD_ATTR_INHERIT, !o->no_inherit);
	flag(a, PD_ATTR_WRITE_BACKWARD, o->overwrite);
	a->read_format = PD_FORMAT_LOST;
	a->sample_type |= PD_SAMPLE_IP | PD_SAMPLE_TID;
	if (ev->sample_read) {
		a->sample_type |= PD_SAMPLE_READ | PD_SAMPLE_ID;
		a->read_format |= PD_FORMAT_ID;
		if (list->ev[ev->leader].nr_members > 1) {
			a->read_format |= PD_FORMAT_GROUP;
			flag(a, PD_ATTR_INHERIT, false);
		}
	}
	config_period(ev, o);
	if (pd_attr_has(a, PD_ATTR_FREQ))
		a->sample_type |= PD_SAMPLE_PERIOD;
	/* -n: the events count, the kernel takes no sample */
	if (o->no_samples)
		a->sample_period = 0;
	config_samples(ev, o, t, track);
	if (o->inherit_stat) {
		flag(a, PD_ATTR_INHERIT_STAT, true);
		a->read_format |= PD_FORMAT_TOTAL_TIME_ENABLED |
				  PD_FORMAT_TOTAL_TIME_RUNNING;
	}
	if (o->all_user || o->all_kernel) {
		flag(a, PD_ATTR_EXCLUDE_KERNEL, o->all_user);
		flag(a, PD_ATTR_EXCLUDE_USER, o->all_kernel);
	}
	if (o->use_clockid) {
		flag(a, PD_ATTR_USE_CLOCKID, true);
		a->clockid = (uint32_t)o->clockid;
	}
	apply_terms(ev, o, track);

	flag(a, PD_ATTR_TASK, track);
	flag(a, PD_ATTR_MMAP, track);
	flag(a, PD_ATTR_MMAP2, track);
	flag(a, PD_ATTR_COMM, track);
	flag(a, PD_ATTR_COMM_EXEC, track);
	flag(a, PD_ATTR_KSYMBOL, track);
	flag(a, PD_ATTR_BPF_EVENT, track);
	/* --buildid-mmap: the kernel's MMAP2s carry build-ids */
	if (o->buildid_mmap)
		flag(a, PD_ATTR_BUILD_ID, track);
	if (o->namespaces)
		flag(a, PD_ATTR_NAMESPACES, track);
	if (o->all_cgroups)
		flag(a, PD_ATTR_CGROUP, track);
	if (o->switch_events)
		flag(a, PD_ATTR_CONTEXT_SWITCH, track);

	if (leader)
		flag(a, PD_ATTR_DISABLED, true);
	if (t->workload && leader && !rec_opts_delayed(o))
		flag(a, PD_ATTR_ENABLE_ON_EXEC, true);
	if (ev->immediate) {
		flag(a, PD_ATTR_DISABLED, false);
		flag(a, PD_ATTR_ENABLE_ON_EXEC, false);
	}
	if (ev->precise_max) {
		a->flags &= ~(3ULL << PD_ATTR_PRECISE_IP);
		a->flags |= 3ULL << PD_ATTR_PRECISE_IP;
	}
	/* the id is read from the fd, as perf's evlist does */
	a->read_format |= PD_FORMAT_ID;
	if (is_dummy(ev)) {
		a->sample_type &= ~PD_SAMPLE_BRANCH_STACK;
		/* evsel__config() leaves the side-band dummy at period 1 */
	}
}

void
rec_evlist_config(struct rec_evlist *list, const struct rec_opts *o,
		  const struct rec_target *t)
{
	bool use_identifier = false;

	for (size_t i = 0; i < list->nr; i++)
		config_one(list, &list->ev[i], o, t);
	/*
	 * Leader sampling (:S on a group): only the leader samples; the
	 * members follow its sample_type (evsel__config_leader_sampling).
	 */
	for (size_t i = 0; i < list->nr; i++) {
		struct rec_event *ev = &list->ev[i];
		const struct rec_event *leader = &list->ev[ev->leader];

		if (!leader->sample_read || ev == leader)
			continue;
		flag(&ev->attr, PD_ATTR_FREQ, false);
		ev->attr.sample_period = 0;
		ev->attr.sample_type = leader->attr.sample_type;
	}
	if (list->nr < 2)
		return;
	for (size_t i = 1; i < list->nr; i++) {
		uint64_t st = list->ev[i].attr.sample_type;

		if (st != list->ev[0].attr.sample_type)
			use_identifier = true;
	}
	for (size_t i = 0; i < list->nr; i++) {
		struct pd_attr *a = &list->ev[i].attr;

		if (use_identifier) {
			a->sample_type &= ~PD_SAMPLE_ID;
			a->sample_type |= PD_SAMPLE_IDENTIFIER;
		} else {
			a->sample_type |= PD_SAMPLE_ID;
		}
		a->read_format |= PD_FORMAT_ID;
	}
}
