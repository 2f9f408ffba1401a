/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * tests/unit/test-hist.c - the histogram on hand-built samples: what
 * makes one entry, the output order and its ties, the column widths
 * (doc/perf-records.md §6.2, §6.3, §6.5), the filters' parsing.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/hist/hist.h"
#include "tests/unit/report-env.h"
#include "tests/unit/t.h"

static struct ses_thread thr = { .pid = 42, .tid = 42, .comm = "work" };

static struct sym_symbol sym_a = { .start = 0x1100, .end = 0x1180, .name = "aa" };
static struct sym_symbol sym_b = { .start = 0x1000, .end = 0x1100, .name = "b" };
static struct sym_symbol sym_c = { .start = 0x1180, .end = 0x1200, .name = "cc" };

/* A user sample at file offset off (sym may be NULL), or a kernel one. */
static struct ses_sample
sample(struct env *e, uint64_t off, const struct sym_symbol *sym, bool kernel,
       uint64_t period)
{
	struct ses_sample s = {
		.pid = 42, .tid = 42, .cpu = 0, .time = 1000, .period = period,
		.thread = &thr, .comm = thr.comm,
	};

	s.self.map = kernel ? &e->kmap : &e->map;
	s.self.dso = s.self.map->dso;
	s.self.sym = sym;
	s.self.ip = kernel ? off : e->map.start + off;
	s.self.al_addr = off;
	s.self.level = kernel ? 'k' : '.';
	return s;
}

/* The text of rep (freed) after the n samples of v. */
static char *
report_run(struct rep_report *rep, const struct ses_sample *v, size_t n)
{
	static const char *const titles[] = { "cpu-clock" };
	static const bool plural[] = { false };
	char *buf = NULL;
	size_t len = 0, i;
	FILE *f;

	for (i = 0; i < n; i++)
		rep_report_add(rep, &v[i]);
	f = open_memstream(&buf, &len);
	rep_report_print(rep, f, titles, plural);
	fclose(f);
	rep_report_free(rep);
	return buf;
}

static char *
report_text(struct rep_report_opts *o, struct env *e,
	    const struct ses_sample *v, size_t n)
{
	struct rep_report *rep;

	(void)e;
	rep = env_report_new(o);
	return rep ? report_run(rep, v, n) : NULL;
}

/*
 * Ties after the overhead: resolved symbols by name, then the unresolved
 * ones in address order, compared as signed values (kernel first).
 */
static void
test_sym_order(struct env *e)
{
	struct rep_report_opts o = { .hist.sort_str = "sym" };
	struct ses_sample v[] = {
		sample(e, 0x9000, NULL, false, 1),
		sample(e, 0xffffffff81000000ull, NULL, true, 1),
		sample(e, 0x2000, NULL, false, 2),
		sample(e, 0x1010, &sym_b, false, 1),
		sample(e, 0x1110, &sym_a, false, 1),
		sample(e, 0x1190, &sym_c, false, 1),
		sample(e, 0x9000, NULL, false, 1),
	};
	char *got = report_text(&o, e, v, ARRAY_SIZE(v));

	T_EQ_STR(got,
		 "    25.00%  [.] 0x0000000000002000\n"
		 "    25.00%  [.] 0x0000000000009000\n"
		 "    12.50%  [.] aa\n"
		 "    12.50%  [.] b\n"
		 "    12.50%  [.] cc\n"
		 "    12.50%  [k] 0xffffffff81000000\n"
		 "\n\n", "sort sym");
	free(got);
}

/* comm,dso,sym: a missing map sorts last; widths follow the longest text. */
static void
test_default_widths(struct env *e)
{
	struct rep_report_opts o = { 0 };
	struct ses_sample v[] = {
		sample(e, 0x1010, &sym_b, false, 3),
		sample(e, 0x10, NULL, true, 1),
		sample(e, 0x20, NULL, false, 1),
	};
	char *got;

	v[2].self.map = NULL;
	v[2].self.dso = NULL;
	v[2].self.ip = 0x7fff00000010ull;
	v[2].self.al_addr = 0x7fff00000010ull;
	got = report_text(&o, e, v, ARRAY_SIZE(v));
	T_EQ_STR(got,
		 "    60.00%  work     libwork.so         [.] b\n"
		 "    20.00%  work     [kernel.kallsyms]  [k] 0x0000000000000010\n"
		 "    20.00%  work     [unknown]          [.] 0x00007fff00000010\n"
		 "\n\n", "comm,dso,sym");
	free(got);
}

/*
 * Children mode, -g none: a frame shared by stacks of two comms credits
 * each comm's entry (the replay keeps a frame's entry per context), and
 * a recursive frame credits its entry once per sample.
 */
static void
test_children_contexts(struct env *e)
{
	static const unsigned int zero = 0, one = 1;
	static struct ses_thread other = { .pid = 43, .tid = 43, .comm = "other" };
	struct rep_report_opts o = { .hist.sort_str = "comm,sym", .quiet = true };
	struct ses_sample v[3];
	struct ses_loc chain[3];
	struct rep_report *rep;
	char *got, err[128];
	size_t i;

	o.cc.children = 1;
	o.cc.use_callchain = 0;
	rep_cc_param_init(&o.cc.param);
	o.cc.param.mode = REP_CC_NONE;
	T(!rep_report_setup_dims(&o, true, err, sizeof(err)), "dims: %s", err);
	rep = rep_report_new(&o, 1, &zero, &zero, &one, NULL, 0, true);
	/* leaf first: cc called by aa called by aa */
	chain[0] = sample(e, 0x1190, &sym_c, false, 1).self;
	chain[1] = sample(e, 0x1110, &sym_a, false, 1).self;
	chain[2] = sample(e, 0x1120, &sym_a, false, 1).self;
	for (i = 0; i < 3; i++) {
		v[i] = sample(e, 0x1190, &sym_c, false, i == 2 ? 2 : 1);
		v[i].chain = chain;
		v[i].nr_chain = i == 1 ? 2 : 3;
	}
	v[2].thread = &other;
	v[2].comm = other.comm;
	v[2].pid = v[2].tid = 43;
	got = report_run(rep, v, 3);
	T_EQ_STR(got,
		 "    50.00%    50.00%  other    [.] cc\n"
		 "    50.00%    50.00%  work     [.] cc\n"
		 "    50.00%     0.00%  other    [.] aa\n"
		 "    50.00%     0.00%  work     [.] aa\n"
		 "\n\n", "children, comm,sym");
	free(got);
}

/*
 * A report without call graphs or addresses keeps a function's samples
 * at the function's address in its stacks (frame_put()); where the
 * address shows, each entry keeps its first sample's: a data object's
 * offset, and -v's address column.
 */
static void
test_addresses_kept(struct env *e)
{
	static const struct sym_symbol obj = {
		.start = 0x1200, .end = 0x1280, .name = "table",
		.is_object = true,
	};
	struct rep_report_opts o = { .hist.sort_str = "sym" };
	struct ses_sample v[] = {
		sample(e, 0x1120, &sym_a, true, 1),
		sample(e, 0x1110, &sym_a, true, 1),
		sample(e, 0x1218, &obj, true, 1),
		sample(e, 0x1208, &obj, true, 1),
	};
	char *got = report_text(&o, e, v, ARRAY_SIZE(v));

	T_EQ_STR(got,
		 "    50.00%  [k] aa\n"
		 "    50.00%  [k] table+0x18\n"
		 "\n\n", "sort sym: a data object's offset");
	free(got);
	o = (struct rep_report_opts){ .hist.sort_str = "sym",
				      .hist.verbose = true };
	got = report_text(&o, e, v, ARRAY_SIZE(v));
	T_EQ_STR(got,
		 "    50.00%  0x1120             ! [k] aa\n"
		 "    50.00%  0x1218             ! [k] table+0x18\n"
		 "\n\n", "-v: the first sample's address");
	free(got);
}

/*
 * Call graphs under the address key keep each frame's address: two
 * calls from one function at two places are two branches (under the
 * function key, one).
 */
static void
test_graph_addresses(struct env *e)
{
	static const unsigned int zero = 0, one = 1;
	struct rep_report_opts o = { .hist.sort_str = "sym", .quiet = true };
	struct ses_sample v[2];
	struct ses_loc chain[2][2];
	struct rep_report *rep;
	char *got, err[128];
	size_t i;
	int key;

	for (key = 0; key < 2; key++) {
		o.cc.children = 0;
		o.cc.use_callchain = 1;
		rep_cc_param_init(&o.cc.param);
		o.cc.param.key = key ? REP_CC_KEY_ADDRESS : REP_CC_KEY_FUNCTION;
		T(!rep_report_setup_dims(&o, false, err, sizeof(err)),
		  "dims: %s", err);
		rep = rep_report_new(&o, 1, &zero, &zero, &one, NULL, 0, true);
		for (i = 0; i < 2; i++) {
			chain[i][0] = sample(e, 0x1190, &sym_c, true, 1).self;
			chain[i][1] = sample(e, 0x1110 + 0x10 * i, &sym_a, true,
					     1).self;
			v[i] = sample(e, 0x1190, &sym_c, true, 1);
			v[i].chain = chain[i];
			v[i].nr_chain = 2;
		}
		got = report_run(rep, v, 2);
		T_EQ_STR(got, key ?
			 "   100.00%  [k] cc\n"
			 "            |          \n"
			 "            |--50.00%--aa +32\n"
			 "            |          \n"
			 "             --50.00%--aa +16\n"
			 "\n\n\n" :
			 "   100.00%  [k] cc\n"
			 "            |\n"
			 "            ---aa\n"
			 "\n\n\n", key ? "address key" : "function key");
		free(got);
	}
}

static void
test_filters(void)
{
	struct rep_filters f = { 0 };
	char err[128];

	T(rep_filter_parse_time(&f, "10.5,11", err, sizeof(err)) == 0, "time: %s", err);
	T(f.nr_times == 1, "one range");
	T_EQ_U64(f.times[0].start, 10500000000ull, "start");
	T_EQ_U64(f.times[0].end, 11000000000ull, "end");
	T(rep_filter_parse_time(&f, "12,11", err, sizeof(err)) != 0, "reversed range");
	T(rep_filter_parse_time(&f, "0%-10%,30%-40%", err, sizeof(err)) == 0 &&
	  rep_filter_resolve_time(&f, 1000, 2000, err, sizeof(err)) == 0 &&
	  f.nr_times == 2, "percent ranges: %s", err);
	T_EQ_U64(f.times[0].start, 1000, "0%");
	T_EQ_U64(f.times[0].end, 1099, "10%, less one");
	T_EQ_U64(f.times[1].start, 1300, "30%");
	T(rep_filter_parse_time(&f, "10%/2", err, sizeof(err)) == 0 &&
	  rep_filter_resolve_time(&f, 1000, 2000, err, sizeof(err)) == 0 &&
	  f.nr_times == 1 && f.times[0].start == 1100 && f.times[0].end == 1199,
	  "second 10%% slice");
	T(rep_filter_parse_time(&f, "50%", err, sizeof(err)) == 0 &&
	  rep_filter_resolve_time(&f, 1000, 2000, err, sizeof(err)) == 0 &&
	  f.times[0].start == 1000 && f.times[0].end == 1499, "first half");
	T(rep_filter_parse_time(&f, "x%/2", err, sizeof(err)) == 0 &&
	  rep_filter_resolve_time(&f, 1000, 2000, err, sizeof(err)) != 0, "bad percent");
	T(rep_filter_parse_time(&f, "10%", err, sizeof(err)) == 0 &&
	  rep_filter_resolve_time(&f, 0, 0, err, sizeof(err)) != 0, "no SAMPLE_TIME");
	T(rep_filter_parse_cpus(&f, "0-2,5", err, sizeof(err)) == 0, "cpus: %s", err);
	T(f.cpus[0] && f.cpus[2] && !f.cpus[3] && f.cpus[5], "cpu bits");
	T(rep_filter_parse_cpus(&f, "3-1", err, sizeof(err)) != 0, "bad cpu range");
	T(rep_filter_parse_ints(&f.pids, &f.nr_pids, "1,x", "pid", err, sizeof(err)) != 0,
	  "bad pid");
	T(rep_filter_parse_list(&f.comms, &f.nr_comms, "a,,b") == 0 && f.nr_comms == 2,
	  "comm list");
	T(rep_filter_parse_ints(&f.tids, &f.nr_tids, "7,8,07", "tid", err,
				sizeof(err)) != 0 &&
	  !strcmp(err, "problems parsing tid list: '07' is in it twice"),
	  "repeated tid: %s", err);
	T(rep_filter_parse_names(&f.dsos, &f.nr_dsos, "a,b,a", "dso", err,
				 sizeof(err)) != 0 &&
	  !strcmp(err, "problems parsing dso list: 'a' is in it twice"),
	  "repeated dso: %s", err);
	T(rep_filter_parse_names(&f.syms, &f.nr_syms, "a,b", "symbol", err,
				 sizeof(err)) == 0 && f.nr_syms == 2, "symbol list");
	rep_filters_free(&f);
	T(rep_dim_parse("sym") == REP_DIM_SYM && rep_dim_parse("symbol") == REP_DIM_SYM,
	  "sym names");
	T(rep_dim_parse("nosuchkey") < 0, "unknown key");
	/* perf's matching: any prefix, any case, the first in its tables */
	T(rep_dim_parse("s") == REP_DIM_SYM && rep_dim_parse("D") == REP_DIM_DSO &&
	  rep_dim_parse("p") == REP_DIM_PID && rep_dim_parse("Over") == REP_DIM_OVERHEAD &&
	  rep_dim_parse("local_w") == REP_DIM_LOCAL_WEIGHT &&
	  rep_dim_parse("w") == REP_DIM_WEIGHT && rep_dim_parse("mem") == REP_DIM_MEM &&
	  rep_dim_parse("dcache") == REP_DIM_DCACHELINE &&
	  rep_dim_parse("sample") == REP_DIM_SAMPLE, "key prefixes");
	/* the first of perf's keys a prefix names, whatever comes later */
	T(rep_dim_parse("t") == REP_DIM_TRANSACTION &&
	  rep_dim_parse("trac") == REP_DIM_TRACE && rep_dim_parse("cg") == REP_DIM_CGROUP &&
	  rep_dim_parse("ti") == REP_DIM_TIME && rep_dim_parse("zz") == -1 &&
	  rep_dim_parse("") == -1, "first in perf's order");
}

int
main(void)
{
	struct env e;

	env_init(&e, 0x500000, "/opt/x/libwork.so");
	test_sym_order(&e);
	test_default_widths(&e);
	test_children_contexts(&e);
	test_addresses_kept(&e);
	test_graph_addresses(&e);
	test_filters();
	env_fini(&e);
	return t_done("test-hist");
}
