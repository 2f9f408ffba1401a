/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * record/evterms.c - the terms any event takes between slashes
 * ("cpu-clock/period=1000,name=foo/", "cpu/event=0x3c,call-graph=fp/"):
 * perf 6.1's config terms, kept with the event (struct rec_terms) and
 * applied over the command line's options once those are configured
 * (rec_terms_apply(), as evsel__apply_config_terms() does).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"
#include "pdata/abi.h"
#include "record/record.h"

/* perf's default dwarf stack copy, and its cap below 64 KiB */
#define DWARF_STACK_DEFAULT	8192u
#define DWARF_STACK_MAX		65528u

static int
term_number(const char *t, const char *value, uint64_t *v, char *why,
	    size_t why_len)
{
	char *end;

	errno = 0;
	*v = value ? strtoull(value, &end, 0) : 1;
	if (value && (errno || end == value || *end || value[0] == '-')) {
		snprintf(why, why_len, "bad value '%s' for term '%s'", value,
			 t);
		return -1;
	}
	return 0;
}

static int
term_callgraph(struct rec_terms *tm, const char *value, char *why,
	       size_t why_len)
{
	if (!value)
		value = "";
	if (!strcmp(value, "fp")) {
		tm->callgraph = REC_CG_FP;
	} else if (!strcmp(value, "dwarf")) {
		tm->callgraph = REC_CG_DWARF;
		if (!(tm->set & REC_TERM_STACK_SIZE))
			tm->stack_size = DWARF_STACK_DEFAULT;
	} else if (!strcmp(value, "lbr")) {
		tm->callgraph = REC_CG_LBR;
	} else if (!strcmp(value, "no")) {
		tm->callgraph = REC_CG_NONE;
	} else {
		snprintf(why, why_len, "bad call-graph '%s' (fp, dwarf, lbr "
			 "or no)", value);
		return -1;
	}
	tm->set |= REC_TERM_CALLGRAPH;
	return 0;
}

int
rec_event_term(struct rec_event *ev, const char *t, const char *value,
	       char *why, size_t why_len)
{
	struct rec_terms *tm = &ev->terms;
	uint64_t v = 0;

	if (!strcmp(t, "name")) {
		if (!value || !*value) {
			snprintf(why, why_len, "term 'name' needs a value");
			return -1;
		}
		free(ev->name);
		ev->name = xstrdup(value);
		return 1;
	}
	if (!strcmp(t, "call-graph"))
		return term_callgraph(tm, value, why, why_len) ? -1 : 1;
	if (strcmp(t, "period") && strcmp(t, "freq") && strcmp(t, "time") &&
	    strcmp(t, "stack-size") && strcmp(t, "max-stack") &&
	    strcmp(t, "inherit") && strcmp(t, "no-inherit"))
		return 0;
	if (term_number(t, value, &v, why, why_len))
		return -1;
	if (!strcmp(t, "period")) {
		tm->period = v;
		tm->set = (tm->set & ~REC_TERM_FREQ) | REC_TERM_PERIOD;
	} else if (!strcmp(t, "freq")) {
		tm->freq = v;
		tm->set = (tm->set & ~REC_TERM_PERIOD) | REC_TERM_FREQ;
	} else if (!strcmp(t, "time")) {
		tm->time = v != 0;
		tm->set |= REC_TERM_TIME;
	} else if (!strcmp(t, "stack-size")) {
		if (!v || v > DWARF_STACK_MAX) {
			snprintf(why, why_len, "stack-size %llu is not in "
				 "1..%u", (unsigned long long)v,
				 DWARF_STACK_MAX);
			return -1;
		}
		tm->stack_size = (uint32_t)((v + 7) & ~7ULL);
		tm->set |= REC_TERM_STACK_SIZE;
	} else if (!strcmp(t, "max-stack")) {
		tm->max_stack = (uint16_t)(v > UINT16_MAX ? UINT16_MAX : v);
		tm->set |= REC_TERM_MAX_STACK;
	} else {
		tm->inherit = !strcmp(t, "inherit") ? v != 0 : false;
		tm->set |= REC_TERM_INHERIT;
	}
	return 1;
}
