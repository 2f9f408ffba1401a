/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * format/text-branch.c - the text of branch-stack entries.
 *
 * Names and the brstack item layout: doc/perf-records.md §3.7 and
 * §5.2 (perf 6.1, and the spec column newer perf added).
 */
#include "config.h"

#include <inttypes.h>

#include "format/compiler.h"
#include "pdata/sample.h"
#include "pdata/text.h"

static const char *const type_names[PD_BR_MAX] = {
	[PD_BR_UNKNOWN]		= "N/A",
	[PD_BR_COND]		= "COND",
	[PD_BR_UNCOND]		= "UNCOND",
	[PD_BR_IND]		= "IND",
	[PD_BR_CALL]		= "CALL",
	[PD_BR_IND_CALL]	= "IND_CALL",
	[PD_BR_RET]		= "RET",
	[PD_BR_SYSCALL]		= "SYSCALL",
	[PD_BR_SYSRET]		= "SYSRET",
	[PD_BR_COND_CALL]	= "COND_CALL",
	[PD_BR_COND_RET]	= "COND_RET",
	[PD_BR_ERET]		= "ERET",
	[PD_BR_IRQ]		= "IRQ",
	[PD_BR_SERROR]		= "SERROR",
	[PD_BR_NO_TX]		= "NO_TX",
	[PD_BR_EXTEND_ABI]	= "",
};

static const char *const new_type_names[PD_BR_NEW_MAX] = {
	[PD_BR_NEW_FAULT_ALGN]	= "FAULT_ALGN",
	[PD_BR_NEW_FAULT_DATA]	= "FAULT_DATA",
	[PD_BR_NEW_FAULT_INST]	= "FAULT_INST",
	[PD_BR_NEW_ARCH_1]	= "ARCH_1",
	[PD_BR_NEW_ARCH_2]	= "ARCH_2",
	[PD_BR_NEW_ARCH_3]	= "ARCH_3",
	[PD_BR_NEW_ARCH_4]	= "ARCH_4",
	[PD_BR_NEW_ARCH_5]	= "ARCH_5",
};

static const char *const new_type_names_arm64[PD_BR_NEW_MAX] = {
	[PD_BR_NEW_FAULT_ALGN]	= "FAULT_ALGN",
	[PD_BR_NEW_FAULT_DATA]	= "FAULT_DATA",
	[PD_BR_NEW_FAULT_INST]	= "FAULT_INST",
	[PD_BR_NEW_ARCH_1]	= "ARM64_FIQ",
	[PD_BR_NEW_ARCH_2]	= "ARM64_DEBUG_HALT",
	[PD_BR_NEW_ARCH_3]	= "ARM64_DEBUG_EXIT",
	[PD_BR_NEW_ARCH_4]	= "ARM64_DEBUG_INST",
	[PD_BR_NEW_ARCH_5]	= "ARM64_DEBUG_DATA",
};

static const char *const spec_names[1 << PD_BRFL_SPEC_WIDTH] = {
	[PD_BR_SPEC_NA]			= "N/A",
	[PD_BR_SPEC_WRONG_PATH]		= "SPEC_WRONG_PATH",
	[PD_BR_NON_SPEC_CORRECT_PATH]	= "NON_SPEC_CORRECT_PATH",
	[PD_BR_SPEC_CORRECT_PATH]	= "SPEC_CORRECT_PATH",
};

static const char *const priv_names[] = {
	[PD_BR_PRIV_UNKNOWN]	= "UNKNOWN",
	[PD_BR_PRIV_USER]	= "USER",
	[PD_BR_PRIV_KERNEL]	= "KERNEL",
	[PD_BR_PRIV_HV]		= "HV",
};

#define NAME_OR_NULL(table, i) \
	((i) < ARRAY_SIZE(table) ? (table)[i] : NULL)

const char *
pd_branch_type_name(unsigned int type)
{
	return NAME_OR_NULL(type_names, type);
}

const char *
pd_branch_new_type_name(unsigned int new_type, bool arm64)
{
	if (arm64)
		return NAME_OR_NULL(new_type_names_arm64, new_type);
	return NAME_OR_NULL(new_type_names, new_type);
}

const char *
pd_branch_spec_name(unsigned int spec)
{
	return NAME_OR_NULL(spec_names, spec);
}

const char *
pd_branch_priv_name(unsigned int priv)
{
	return NAME_OR_NULL(priv_names, priv);
}

const char *
pd_branch_entry_type(uint64_t flags, bool arm64)
{
	unsigned int type = pd_branch_flag_field(flags, PD_BRFL_TYPE_SHIFT,
						 PD_BRFL_TYPE_WIDTH);
	unsigned int new_type = pd_branch_flag_field(flags,
						     PD_BRFL_NEW_TYPE_SHIFT,
						     PD_BRFL_NEW_TYPE_WIDTH);

	if (type == PD_BR_UNKNOWN)
		return "";
	if (type == PD_BR_EXTEND_ABI)
		return pd_branch_new_type_name(new_type, arm64);
	return pd_branch_type_name(type);
}

static char
prediction_char(const struct pd_branch_entry *e)
{
	if (!e->mispred && !e->predicted)
		return '-';
	return e->predicted ? 'P' : 'M';
}

size_t
pd_branch_entry_script(char *buf, size_t size, const struct pd_branch_entry *e,
		       unsigned int opts)
{
	const char *type = pd_branch_entry_type(e->flags, opts & PD_BRSTACK_ARM64);
	size_t len;

	len = pd_text_appendf(buf, size, 0, " 0x%" PRIx64 "/0x%" PRIx64
			      "/%c/%c/%c/%u/%s", e->from, e->to, prediction_char(e),
			      e->in_tx ? 'X' : '-', e->abort ? 'A' : '-',
			      e->cycles, type ? type : "(null)");
	if (opts & PD_BRSTACK_SPEC)
		len = pd_text_appendf(buf, size, len, "/%s",
				      e->spec ? spec_names[e->spec] : "-");
	return pd_text_appendf(buf, size, len, " ");
}
