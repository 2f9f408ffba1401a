/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * tests/record-unit.c - precord's parsers and attr configuration, without
 * the kernel: the -e syntax, the modifiers as perf 6.1's
 * get_event_modifier() applies them, hardware cache configs, branch
 * filters, register names, cpu lists, and the attr bits of the options
 * that tests/record-attr-*.test compare against perf record.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "pdata/abi.h"
#include "record/record.h"
#include "tests/unit/t.h"

static bool
has(const struct pd_attr *a, unsigned int bit)
{
	return (a->flags >> bit) & 1;
}

static int
parse(struct rec_evlist *l, const char *text)
{
	char why[256];

	rec_evlist_free(l);
	return rec_events_parse(l, text, why, sizeof(why));
}

static void
test_symbols(void)
{
	struct rec_evlist l = { 0 };

	T(parse(&l, "cpu-clock") == 0 && l.nr == 1, "cpu-clock");
	T_EQ_U64(l.ev[0].attr.type, PD_TYPE_SOFTWARE, "cpu-clock type");
	T_EQ_U64(l.ev[0].attr.config, PD_SW_CPU_CLOCK, "cpu-clock config");
	T(has(&l.ev[0].attr, PD_ATTR_EXCLUDE_GUEST), "guests excluded");
	T(!strcmp(l.ev[0].name, "cpu-clock"), "name %s", l.ev[0].name);

	T(parse(&l, "cs,migrations,faults") == 0 && l.nr == 3, "aliases");
	T_EQ_U64(l.ev[0].attr.config, PD_SW_CONTEXT_SWITCHES, "cs");
	T_EQ_U64(l.ev[1].attr.config, PD_SW_CPU_MIGRATIONS, "migrations");
	T_EQ_U64(l.ev[2].attr.config, PD_SW_PAGE_FAULTS, "faults");

	T(parse(&l, "branches") == 0, "branches");
	T_EQ_U64(l.ev[0].attr.type, PD_TYPE_HARDWARE, "branches type");
	T_EQ_U64(l.ev[0].attr.config, PD_HW_BRANCH_INSTRUCTIONS, "branches");

	T(parse(&l, "r1a8") == 0, "raw");
	T_EQ_U64(l.ev[0].attr.type, PD_TYPE_RAW, "raw type");
	T_EQ_U64(l.ev[0].attr.config, 0x1a8, "raw config");

	T(parse(&l, "L1-dcache-load-misses") == 0, "L1-dcache-load-misses");
	T_EQ_U64(l.ev[0].attr.type, PD_TYPE_HW_CACHE, "cache type");
	T_EQ_U64(l.ev[0].attr.config, 0x10000, "L1d read miss");
	T(parse(&l, "LLC-stores") == 0, "LLC-stores");
	T_EQ_U64(l.ev[0].attr.config, 0x102, "LLC write access");
	T(parse(&l, "dTLB-prefetch-misses") == 0, "dTLB-prefetch-misses");
	T_EQ_U64(l.ev[0].attr.config, 0x10203, "dTLB prefetch miss");
	T(parse(&l, "branch-loads") == 0, "branch-loads");
	T_EQ_U64(l.ev[0].attr.config, 0x5, "bpu read access");

	T(parse(&l, "no-such-event") != 0, "unknown event refused");
	T(parse(&l, "cpu-clock,") != 0, "trailing comma refused");
	T(parse(&l, "") != 0, "empty refused");
	T(parse(&l, "{cpu-clock") != 0, "unbalanced group refused");
	T(parse(&l, "cpu-clock:pppp") != 0, "four p refused");
	T(parse(&l, "cpu-clock:x") != 0, "unknown modifier refused");
	rec_evlist_free(&l);
}

static void
test_modifiers(void)
{
	struct rec_evlist l = { 0 };
	const struct pd_attr *a;

	T(parse(&l, "cpu-clock:u") == 0, ":u");
	a = &l.ev[0].attr;
	T(!has(a, PD_ATTR_EXCLUDE_USER) && has(a, PD_ATTR_EXCLUDE_KERNEL) &&
	  has(a, PD_ATTR_EXCLUDE_HV) && has(a, PD_ATTR_EXCLUDE_GUEST), ":u bits");
	T(!strcmp(l.ev[0].name, "cpu-clock:u"), ":u name %s", l.ev[0].name);

	T(parse(&l, "cpu-clock:k") == 0, ":k");
	a = &l.ev[0].attr;
	T(has(a, PD_ATTR_EXCLUDE_USER) && !has(a, PD_ATTR_EXCLUDE_KERNEL) &&
	  !has(a, PD_ATTR_EXCLUDE_GUEST), ":k bits (guests not excluded)");

	T(parse(&l, "cpu-clock:G") == 0, ":G");
	a = &l.ev[0].attr;
	T(has(a, PD_ATTR_EXCLUDE_HOST) && !has(a, PD_ATTR_EXCLUDE_GUEST), ":G");

	T(parse(&l, "cpu-clock:ppp") == 0, ":ppp");
	T_EQ_U64(pd_attr_precise_ip(&l.ev[0].attr), 3, "precise_ip");

	T(parse(&l, "cpu-clock:PS") == 0, ":PS");
	T(l.ev[0].precise_max && l.ev[0].sample_read, ":P and :S");

	T(parse(&l, "{cpu-clock,task-clock}:u") == 0 && l.nr == 2, "group:u");
	T(l.nr_groups == 1 && l.ev[0].nr_members == 2 && l.ev[1].leader == 0,
	  "group shape");
	for (size_t i = 0; i < l.nr; i++)
		T(has(&l.ev[i].attr, PD_ATTR_EXCLUDE_KERNEL) &&
		  has(&l.ev[i].attr, PD_ATTR_EXCLUDE_GUEST), "member %zu :u", i);

	T(parse(&l, "cpu-clock,{task-clock,page-faults},dummy") == 0 &&
	  l.nr == 4, "mixed list");
	T(l.ev[0].leader == 0 && l.ev[2].leader == 1 && l.ev[3].leader == 3,
	  "leaders");
	rec_evlist_free(&l);
}

static void
test_config(void)
{
	struct rec_evlist l = { 0 };
	int cpus[] = { 0, 1 };
	pid_t thr[] = { 100 };
	struct rec_target t = {
		.cpus = cpus, .nr_cpus = 2, .threads = thr, .nr_threads = 1,
		.workload = true, .per_cpu_rings = true,
	};
	struct rec_opts o = { .freq = 4000 };
	const struct pd_attr *a;

	/* perf record -e cpu-clock -- cmd */
	parse(&l, "cpu-clock");
	l.ev[0].tracking = true;
	rec_evlist_config(&l, &o, &t);
	a = &l.ev[0].attr;
	T_EQ_U64(a->sample_type, PD_SAMPLE_IP | PD_SAMPLE_TID |
		 PD_SAMPLE_TIME | PD_SAMPLE_PERIOD, "default sample_type");
	T_EQ_U64(a->read_format, PD_FORMAT_ID | PD_FORMAT_LOST, "read_format");
	T_EQ_U64(a->sample_period, 4000, "freq");
	T(has(a, PD_ATTR_FREQ) && has(a, PD_ATTR_DISABLED) &&
	  has(a, PD_ATTR_ENABLE_ON_EXEC) && has(a, PD_ATTR_INHERIT) &&
	  has(a, PD_ATTR_MMAP2) && has(a, PD_ATTR_COMM_EXEC) &&
	  has(a, PD_ATTR_SAMPLE_ID_ALL), "default flags");

	/* -c 10000 --call-graph dwarf (which implies -d) */
	o.period = 10000;
	o.period_set = true;
	o.callgraph = REC_CG_DWARF;
	o.stack_dump_size = 8192;
	o.sample_addr = true;
	parse(&l, "cpu-clock");
	l.ev[0].tracking = true;
	rec_evlist_config(&l, &o, &t);
	a = &l.ev[0].attr;
	T_EQ_U64(a->sample_type, PD_SAMPLE_IP | PD_SAMPLE_TID |
		 PD_SAMPLE_TIME | PD_SAMPLE_ADDR | PD_SAMPLE_CALLCHAIN |
		 PD_SAMPLE_REGS_USER | PD_SAMPLE_STACK_USER |
		 PD_SAMPLE_DATA_SRC, "dwarf sample_type");
	T_EQ_U64(a->sample_regs_user, 0xff0fff, "dwarf regs");
	T_EQ_U64(a->sample_stack_user, 8192, "dwarf stack");
	T(!has(a, PD_ATTR_FREQ) && a->sample_period == 10000, "-c period");
	T(has(a, PD_ATTR_MMAP_DATA) &&
	  has(a, PD_ATTR_EXCLUDE_CALLCHAIN_USER), "dwarf flags");

	/* two events with equal sample_type: ID; different: IDENTIFIER */
	memset(&o, 0, sizeof(o));
	o.freq = 4000;
	parse(&l, "cpu-clock,task-clock");
	l.ev[0].tracking = true;
	rec_evlist_config(&l, &o, &t);
	T(l.ev[0].attr.sample_type & PD_SAMPLE_ID, "ID with two events");
	T(!has(&l.ev[1].attr, PD_ATTR_MMAP), "only the first tracks");
	parse(&l, "cpu-clock");
	rec_events_add_dummy(&l);
	l.ev[1].tracking = true;
	l.ev[1].immediate = true;
	t.has_cpu = true;
	rec_evlist_config(&l, &o, &t);
	T(l.ev[0].attr.sample_type & PD_SAMPLE_IDENTIFIER &&
	  l.ev[1].attr.sample_type & PD_SAMPLE_IDENTIFIER, "IDENTIFIER");
	T(l.ev[0].attr.sample_type & PD_SAMPLE_CPU, "CPU with -a");
	T(!has(&l.ev[1].attr, PD_ATTR_DISABLED) &&
	  l.ev[1].attr.sample_period == 1 &&
	  !has(&l.ev[1].attr, PD_ATTR_FREQ), "the -a dummy");
	rec_evlist_free(&l);
}

static void
test_values(void)
{
	uint64_t m = 0;
	int *cpus;
	size_t n;

	T(rec_parse_branch_filter("any,u", &m) == 0, "any,u");
	T_EQ_U64(m, PD_BRANCH_ANY | PD_BRANCH_USER, "any,u mask");
	m = 0;
	T(rec_parse_branch_filter("u", &m) == 0, "u alone");
	T_EQ_U64(m, PD_BRANCH_ANY, "privilege only means any");
	m = 0;
	T(rec_parse_branch_filter("bogus", &m) != 0, "unknown filter");
	T(rec_parse_regs("ax,bx,sp,ip", &m) == 0, "regs");
	T_EQ_U64(m, 0x183, "ax bx sp ip");
	T(rec_parse_regs("r15", &m) == 0 && m == 1ULL << 23, "r15");
	T(rec_parse_regs("xyz", &m) != 0, "unknown register");
	T(rec_parse_cpulist("3,0-1,1", &cpus, &n) == 0 && n == 3 &&
	  cpus[0] == 0 && cpus[1] == 1 && cpus[2] == 3, "cpu list");
	free(cpus);
	T(rec_parse_cpulist("1-0", &cpus, &n) != 0, "reversed range");
	T(rec_parse_cpulist("x", &cpus, &n) != 0, "not a list");
}

int
main(void)
{
	test_symbols();
	test_modifiers();
	test_config();
	test_values();
	return t_done("record-unit");
}
