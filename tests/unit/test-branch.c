/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * tests/unit/test-branch.c - branch mode on hand-built branch stacks:
 * one entry of period 1 per branch, the branch keys' columns, and the
 * "Branch Statistics" block (doc/perf-records.md §5.3), which no
 * committed fixture exercises (their branches carry no type).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pdata/abi.h"
#include "report/hist/branch.h"
#include "report/hist/hist.h"
#include "tests/unit/report-env.h"
#include "tests/unit/t.h"

static struct ses_thread thr = { .pid = 7, .tid = 7, .comm = "loop" };
static struct sym_symbol sym_f = { .start = 0x1000, .end = 0x1100, .name = "f" };

/* One end of a branch: in the user map when addr is in it, else unmapped. */
static struct ses_loc
loc(struct env *e, uint64_t addr)
{
	struct ses_loc l = { .ip = addr, .al_addr = addr, .level = 'H' };

	if (addr >= e->map.start && addr < e->map.end) {
		l.map = &e->map;
		l.dso = e->map.dso;
		l.al_addr = addr - e->map.start;
		l.level = '.';
		if (l.al_addr >= sym_f.start && l.al_addr < sym_f.end)
			l.sym = &sym_f;
	}
	return l;
}

static struct ses_branch
br(struct env *e, uint64_t from, uint64_t to, uint8_t type, uint8_t new_type,
   uint16_t cycles)
{
	struct ses_branch b = { .from = loc(e, from), .to = loc(e, to) };

	b.entry.from = from;
	b.entry.to = to;
	b.entry.type = type;
	b.entry.new_type = new_type;
	b.entry.cycles = cycles;
	return b;
}

static char *
branch_report(struct env *e, const struct ses_branch *bv, size_t nb,
	      unsigned int nr_samples, size_t *nr_entries)
{
	static const char *const titles[] = { "cycles" };
	static const bool plural[] = { false };
	struct rep_report_opts o = {
		.hist.sort_str = "comm,dso_from,symbol_from,symbol_to,cycles",
		.hist.branch_mode = true,
	};
	struct ses_sample s = {
		.pid = 7, .tid = 7, .cpu = 0, .time = 1000, .period = 12345,
		.thread = &thr, .comm = thr.comm, .branches = bv, .nr_branches = nb,
	};
	struct rep_branch_mode *bm = rep_branch_mode_new();
	struct rep_report *rep;
	char *buf = NULL;
	size_t len = 0;
	unsigned int i;
	FILE *f;

	s.self = loc(e, 0x401010);
	rep = env_report_new(&o);
	if (!rep) {
		rep_branch_mode_free(bm);
		return NULL;
	}
	for (i = 0; i < nr_samples; i++)
		rep_branch_mode_add(bm, rep, &s);
	rep_report_flush(rep);
	*nr_entries = rep_report_nr_entries(rep);
	f = open_memstream(&buf, &len);
	rep_report_print(rep, f, titles, plural);
	rep_branch_mode_print_stats(bm, f);
	fclose(f);
	rep_report_free(rep);
	rep_branch_mode_free(bm);
	return buf;
}

/* Each branch is an entry of its own; two equal stacks add up. */
static void
test_entries(struct env *e)
{
	struct ses_branch v[] = {
		br(e, 0x401010, 0x401080, PD_BR_UNKNOWN, 0, 0),
		br(e, 0x402000, 0x401010, PD_BR_UNKNOWN, 0, 3),
		br(e, 0xffffffff81000000ull, 0x402000, PD_BR_UNKNOWN, 0, 0),
	};
	size_t n = 0;
	char *got = branch_report(e, v, ARRAY_SIZE(v), 2, &n);

	T_EQ_U64(n, 3, "one entry per branch");
	T_EQ_STR(got,
		 "    33.33%  loop     [unknown]             [H] 0xffffffff81000000  [.] 0x0000000000002000  -                 \n"
		 "    33.33%  loop     loop                  [.] f                   [.] f                   -                 \n"
		 "    33.33%  loop     loop                  [.] 0x0000000000002000  [.] f                   3                 \n"
		 "\n\n", "default branch sort");
	free(got);
}

/*
 * The statistics: untyped branches and those from 0 are left out, the
 * extended types are printed but not in the total.
 */
static void
test_stats(struct env *e)
{
	struct ses_branch v[] = {
		br(e, 0x401000, 0x402000, PD_BR_COND, 0, 0),
		br(e, 0x403000, 0x402f00, PD_BR_COND, 0, 0),
		br(e, 0x400000, 0x600000, PD_BR_CALL, 0, 0),
		br(e, 0x600010, 0x400008, PD_BR_RET, 0, 0),
		br(e, 0, 0x401000, PD_BR_CALL, 0, 0),
		br(e, 0x401000, 0x401010, PD_BR_UNKNOWN, 0, 0),
		br(e, 0x401000, 0x401f00, PD_BR_EXTEND_ABI, PD_BR_NEW_FAULT_DATA, 0),
		/* counted with the flags of the entry it joins: UNKNOWN */
		br(e, 0x401000, 0x401020, PD_BR_EXTEND_ABI, PD_BR_NEW_FAULT_INST, 0),
	};
	size_t n = 0;
	char *got = branch_report(e, v, ARRAY_SIZE(v), 1, &n);
	const char *stats = got ? strstr(got, "\n\n\n#") : NULL;

	/* the last one joins the entry f to f, no cycles */
	T_EQ_U64(n, 7, "entries");
	T_EQ_STR(stats ? stats + 2 : "(none)",
		 "\n#\n# Branch Statistics:\n#"
		 "\nCOND_FWD:  25.0%"
		 "\nCOND_BWD:  25.0%"
		 "\nCROSS_4K:  50.0%"
		 "\nCROSS_2M:  50.0%"
		 "\n    COND:  50.0%"
		 "\n    CALL:  25.0%"
		 "\n     RET:  25.0%"
		 "\nFAULT_DATA:  25.0%", "branch statistics");
	free(got);
}

int
main(void)
{
	struct env e;

	env_init(&e, 0x800000, "/opt/x/loop");
	test_entries(&e);
	test_stats(&e);
	env_fini(&e);
	return t_done("test-branch");
}
