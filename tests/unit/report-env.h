/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * tests/unit/report-env.h - what the report unit tests (test-hist.c,
 * test-branch.c) build their samples on: a symbol context with one user
 * map and the kernel map, and a report of one event without callchains.
 */
#ifndef PD_TESTS_REPORT_ENV_H
#define PD_TESTS_REPORT_ENV_H

#include <stdint.h>

#include "report/hist/hist.h"
#include "report/report.h"

struct env {
	struct sym_ctx *syms;
	struct ses_map map;	/* [0x400000, end) of the user dso */
	struct ses_map kmap;	/* the identity map of [kernel.kallsyms] */
};

static void
env_init(struct env *e, uint64_t map_end, const char *dso)
{
	struct sym_opts so = { 0 };

	e->syms = sym_ctx_new(&so);
	e->map = (struct ses_map){
		.start = 0x400000, .end = map_end,
		.dso = sym_dso_get(e->syms, dso, NULL, 0),
	};
	e->kmap = (struct ses_map){
		.start = 0, .end = UINT64_MAX, .identity = true,
		.dso = sym_dso_get(e->syms, "[kernel.kallsyms]", NULL, 0),
	};
}

static void
env_fini(struct env *e)
{
	sym_ctx_free(e->syms);
}

/*
 * A quiet report for o of one event, its own group, without children or
 * callchains; NULL when o's sort keys are refused.
 */
static struct rep_report *
env_report_new(struct rep_report_opts *o)
{
	static const unsigned int zero = 0, one = 1;
	char err[128];

	o->quiet = true;
	o->cc.children = 0;
	o->cc.use_callchain = 0;
	rep_cc_param_init(&o->cc.param);
	o->cc.param.mode = REP_CC_NONE;
	if (rep_report_setup_dims(o, false, err, sizeof(err)))
		return NULL;
	return rep_report_new(o, 1, &zero, &zero, &one, NULL, 0, false);
}

#endif /* PD_TESTS_REPORT_ENV_H */
