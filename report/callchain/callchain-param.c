/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * report/callchain/callchain-param.c - perf report's -g/--call-graph
 * option string.
 *
 * perf 6.1 reads comma-separated tokens; each may be any prefix of a
 * keyword, tried in a fixed order (modes, then orders, sort keys and
 * values), so "f" is flat, "c" caller and "p" percent.  A token that is
 * no keyword is the threshold the first time, the print limit after.
 * "none" (or "n") ends the parsing and turns callchains off.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "report/callchain/callchain.h"

/* Whether tok is a prefix of word, as perf compares them. */
static bool
word_is(const char *tok, size_t len, const char *word)
{
	return strncmp(tok, word, len) == 0;
}

static bool
parse_mode(struct rep_cc_param *p, const char *tok, size_t len)
{
	static const struct {
		const char *word;
		enum rep_cc_mode mode;
	} modes[] = {
		{ "graph", REP_CC_GRAPH },
		{ "flat", REP_CC_FLAT },
		{ "fractal", REP_CC_FRACTAL },
		{ "folded", REP_CC_FOLDED },
	};
	size_t i;

	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		if (word_is(tok, len, modes[i].word)) {
			p->mode = modes[i].mode;
			return true;
		}
	}
	return false;
}

static bool
parse_order(struct rep_cc_param *p, const char *tok, size_t len)
{
	if (word_is(tok, len, "caller"))
		p->caller = true;
	else if (word_is(tok, len, "callee"))
		p->caller = false;
	else
		return false;
	p->order_set = true;
	return true;
}

static bool
parse_key(struct rep_cc_param *p, const char *tok, size_t len)
{
	if (word_is(tok, len, "function"))
		p->key = REP_CC_KEY_FUNCTION;
	else if (word_is(tok, len, "address"))
		p->key = REP_CC_KEY_ADDRESS;
	else if (word_is(tok, len, "srcline"))
		p->key = REP_CC_KEY_SRCLINE;
	else if (word_is(tok, len, "branch"))
		p->branch = true;
	else
		return false;
	return true;
}

static bool
parse_value(struct rep_cc_param *p, const char *tok, size_t len)
{
	if (word_is(tok, len, "percent"))
		p->value = REP_CC_VALUE_PERCENT;
	else if (word_is(tok, len, "period"))
		p->value = REP_CC_VALUE_PERIOD;
	else if (word_is(tok, len, "count"))
		p->value = REP_CC_VALUE_COUNT;
	else
		return false;
	return true;
}

void
rep_cc_param_init(struct rep_cc_param *param)
{
	*param = (struct rep_cc_param){
		.mode = REP_CC_GRAPH,
		.min_percent = 0.5,
		.key = REP_CC_KEY_FUNCTION,
		.value = REP_CC_VALUE_PERCENT,
	};
}

/* A number token: the threshold first, then the print limit. */
static int
parse_number(struct rep_cc_param *p, const char *tok, bool *pct_set)
{
	char *end;

	if (!*pct_set) {
		double v = strtod(tok, &end);

		if (end == tok)
			return -1;
		p->min_percent = v;
		*pct_set = true;
	} else {
		unsigned long v = strtoul(tok, &end, 0);

		if (end == tok)
			return -1;
		p->print_limit = (unsigned int)v;
	}
	return 0;
}

int
rep_cc_param_parse(struct rep_cc_param *param, const char *arg,
		   const char **bad)
{
	bool pct_set = false;
	char tok[256];
	const char *s = arg;

	*bad = NULL;
	while (*s) {
		size_t len = strcspn(s, ",");

		if (len == 0) {
			s++;
			continue;
		}
		if (len >= sizeof(tok)) {
			*bad = s;
			return -1;
		}
		memcpy(tok, s, len);
		tok[len] = '\0';
		if (word_is(tok, len, "none")) {
			param->mode = REP_CC_NONE;
			return 0;
		}
		if (!parse_mode(param, tok, len) &&
		    !parse_order(param, tok, len) &&
		    !parse_key(param, tok, len) &&
		    !parse_value(param, tok, len) &&
		    parse_number(param, tok, &pct_set) < 0) {
			*bad = s;
			return -1;
		}
		s += len;
	}
	return 0;
}
