/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * record/opts.c - the value parsers of precord's options: x86 register
 * names (perf's arch/x86/util/perf_regs.c sample_reg_masks) and branch
 * filters (util/parse-branch-options.c).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/xalloc.h"
#include "pdata/abi.h"
#include "record/record.h"

/* bit = PERF_REG_X86_* of asm/perf_regs.h */
static const struct {
	const char *name;
	unsigned int bit;
} x86_regs[] = {
	{ "ax", 0 }, { "bx", 1 }, { "cx", 2 }, { "dx", 3 }, { "si", 4 },
	{ "di", 5 }, { "bp", 6 }, { "sp", 7 }, { "ip", 8 }, { "flags", 9 },
	{ "cs", 10 }, { "ss", 11 }, { "r8", 16 }, { "r9", 17 }, { "r10", 18 },
	{ "r11", 19 }, { "r12", 20 }, { "r13", 21 }, { "r14", 22 },
	{ "r15", 23 },
};

int
rec_parse_regs(const char *s, uint64_t *mask)
{
	char *copy = xstrdup(s), *save = NULL;
	int err = 0;

	*mask = 0;
	for (char *t = strtok_r(copy, ",", &save); t && !err;
	     t = strtok_r(NULL, ",", &save)) {
		size_t i;

		for (i = 0; i < sizeof(x86_regs) / sizeof(x86_regs[0]); i++)
			if (!strcasecmp(t, x86_regs[i].name))
				break;
		if (i == sizeof(x86_regs) / sizeof(x86_regs[0]))
			err = -1;
		else
			*mask |= 1ULL << x86_regs[i].bit;
	}
	free(copy);
	return err || !*mask ? -1 : 0;
}

static const struct {
	const char *name;
	uint64_t mode;
} branch_modes[] = {
	{ "u", PD_BRANCH_USER },
	{ "k", PD_BRANCH_KERNEL },
	{ "hv", PD_BRANCH_HV },
	{ "any", PD_BRANCH_ANY },
	{ "any_call", PD_BRANCH_ANY_CALL },
	{ "any_ret", PD_BRANCH_ANY_RETURN },
	{ "ind_call", PD_BRANCH_IND_CALL },
	{ "abort_tx", PD_BRANCH_ABORT_TX },
	{ "in_tx", PD_BRANCH_IN_TX },
	{ "no_tx", PD_BRANCH_NO_TX },
	{ "cond", PD_BRANCH_COND },
	{ "ind_jmp", PD_BRANCH_IND_JUMP },
	{ "call", PD_BRANCH_CALL },
	{ "save_type", PD_BRANCH_TYPE_SAVE },
	{ "stack", PD_BRANCH_CALL_STACK },
	{ "priv", PD_BRANCH_PRIV_SAVE },
};

int
rec_parse_branch_filter(const char *s, uint64_t *mask)
{
	const uint64_t plm = PD_BRANCH_USER | PD_BRANCH_KERNEL | PD_BRANCH_HV;
	char *copy = xstrdup(s), *save = NULL;
	int err = 0;

	for (char *t = strtok_r(copy, ",", &save); t && !err;
	     t = strtok_r(NULL, ",", &save)) {
		size_t i, n = sizeof(branch_modes) / sizeof(branch_modes[0]);

		for (i = 0; i < n; i++)
			if (!strcasecmp(t, branch_modes[i].name))
				break;
		if (i == n)
			err = -1;
		else
			*mask |= branch_modes[i].mode;
	}
	free(copy);
	/* only privilege levels: any branch */
	if (!err && !(*mask & ~plm))
		*mask = PD_BRANCH_ANY;
	return err;
}
