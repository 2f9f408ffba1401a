/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * format/text-misc.c - weights, transactions, cpumode, header.misc letters,
 * callchain markers and page sizes as perf 6.1 prints them
 * (doc/perf-records.md §1.2, §3.5, §3.8, §3.9, §3.12, §5.1, §7.2).
 */
#include "config.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "format/compiler.h"
#include "pdata/text.h"

size_t
pd_text_appendf(char *buf, size_t size, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	if (len < size)
		n = vsnprintf(buf + len, size - len, fmt, ap);
	else
		n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	return n > 0 ? len + (size_t)n : len;
}

/* Weight */

void
pd_weight_split(uint64_t raw, uint64_t sample_type, enum pd_weight_rule rule,
		struct pd_weight *out)
{
	/* the struct's parts are the u64's bit ranges on either byte order */
	*out = (struct pd_weight){
		.weight = raw,
		.var1 = (uint32_t)raw,
		.var2 = (uint16_t)(raw >> 32),
		.var3 = (uint16_t)(raw >> 48),
	};
	if (!(sample_type & PD_SAMPLE_WEIGHT_STRUCT) ||
	    (sample_type & PD_SAMPLE_WEIGHT))
		return;
	switch (rule) {
	case PD_WEIGHT_RULE_POWERPC:
		out->p_stage_cyc = out->var3;
		/* fall through */
	case PD_WEIGHT_RULE_X86:
		out->weight = out->var1;
		out->ins_lat = out->var2;
		break;
	case PD_WEIGHT_RULE_OTHER:
		break;
	}
}

enum pd_weight_rule
pd_weight_rule_for_arch(const char *arch)
{
	if (arch && !strcmp(arch, "x86"))
		return PD_WEIGHT_RULE_X86;
	if (arch && !strcmp(arch, "powerpc"))
		return PD_WEIGHT_RULE_POWERPC;
	return PD_WEIGHT_RULE_OTHER;
}

/* Transaction */

/* The order and the names of perf's `transaction` sort key (util/sort.c). */
static const struct {
	uint64_t bit;
	const char *name;
} txn_bits[] = {
	{ PD_TXN_ELISION,	 "EL " },
	{ PD_TXN_TRANSACTION,	 "TX " },
	{ PD_TXN_SYNC,		 "SYNC " },
	{ PD_TXN_ASYNC,		 "ASYNC " },
	{ PD_TXN_RETRY,		 "RETRY " },
	{ PD_TXN_CONFLICT,	 "CON " },
	{ PD_TXN_CAPACITY_WRITE, "CAP-WRITE " },
	{ PD_TXN_CAPACITY_READ,	 "CAP-READ " },
};

size_t
pd_transaction_text(char *buf, size_t size, uint64_t txn)
{
	size_t i, len = 0;

	if (size)
		buf[0] = '\0';
	for (i = 0; i < ARRAY_SIZE(txn_bits); i++)
		if (txn & txn_bits[i].bit)
			len = pd_text_appendf(buf, size, len, "%s",
					      txn_bits[i].name);
	/* perf says NEITHER even when only an abort code is set */
	if (txn && !(txn & (PD_TXN_SYNC | PD_TXN_ASYNC)))
		len = pd_text_appendf(buf, size, len, "NEITHER ");
	if (txn & PD_TXN_ABORT_MASK)
		len = pd_text_appendf(buf, size, len, ":%" PRIx64,
				      txn >> PD_TXN_ABORT_SHIFT);
	return len;
}

/* cpumode and misc */

char
pd_cpumode_level(unsigned int cpumode, bool guest)
{
	switch (cpumode) {
	case PD_MISC_KERNEL:
		return 'k';
	case PD_MISC_USER:
		return '.';
	case PD_MISC_GUEST_KERNEL:
		return guest ? 'g' : 'H';
	case PD_MISC_GUEST_USER:
		return guest ? 'u' : 'H';
	default:
		return 'H';
	}
}

const char *
pd_cpumode_name(unsigned int cpumode)
{
	static const char *const names[] = {
		[PD_MISC_CPUMODE_UNKNOWN]	= "unknown",
		[PD_MISC_KERNEL]		= "kernel",
		[PD_MISC_USER]			= "user",
		[PD_MISC_HYPERVISOR]		= "hypervisor",
		[PD_MISC_GUEST_KERNEL]		= "guest kernel",
		[PD_MISC_GUEST_USER]		= "guest user",
	};

	return cpumode < ARRAY_SIZE(names) ? names[cpumode] : NULL;
}

/*
 * perf script tests each cpumode value as a bit pattern over the whole
 * misc word ((misc & v) == v), not as the value of misc & 7
 * (builtin-script.c, perf_sample__fprintf_start).
 */
static const struct {
	unsigned int value;
	char letter;
} cpumode_letters[] = {
	{ PD_MISC_KERNEL,	'K' },
	{ PD_MISC_USER,		'U' },
	{ PD_MISC_HYPERVISOR,	'H' },
	{ PD_MISC_GUEST_KERNEL,	'G' },
	{ PD_MISC_GUEST_USER,	'g' },
};

size_t
pd_misc_letters(char *buf, size_t size, uint32_t type, uint16_t misc)
{
	char s[8];
	size_t i, n = 0;

	for (i = 0; i < ARRAY_SIZE(cpumode_letters); i++)
		if ((misc & cpumode_letters[i].value) ==
		    cpumode_letters[i].value)
			s[n++] = cpumode_letters[i].letter;
	switch (type) {
	case PD_RECORD_MMAP:
	case PD_RECORD_MMAP2:
		if (misc & PD_MISC_MMAP_DATA)
			s[n++] = 'M';
		break;
	case PD_RECORD_COMM:
		if (misc & PD_MISC_COMM_EXEC)
			s[n++] = 'E';
		break;
	case PD_RECORD_SWITCH:
	case PD_RECORD_SWITCH_CPU_WIDE:
		if (misc & PD_MISC_SWITCH_OUT) {
			s[n++] = 'S';
			if (misc & PD_MISC_SWITCH_OUT_PREEMPT)
				s[n++] = 'p';
		}
		break;
	default:
		break;
	}
	s[n] = '\0';
	return pd_text_appendf(buf, size, 0, "%s", s);
}

size_t
pd_misc_field(char *buf, size_t size, uint32_t type, uint16_t misc)
{
	size_t len = pd_misc_letters(buf, size, type, misc);

	/* perf's "%*s" of " " with width 6 - len: one space at least */
	return pd_text_appendf(buf, size, len, "%*s",
			       len < 6 ? (int)(6 - len) : 1, " ");
}

/* Callchain markers */

static const struct {
	uint64_t ip;
	const char *name;
} context_names[] = {
	{ PD_CONTEXT_HV,		"PERF_CONTEXT_HV" },
	{ PD_CONTEXT_KERNEL,		"PERF_CONTEXT_KERNEL" },
	{ PD_CONTEXT_USER,		"PERF_CONTEXT_USER" },
	{ PD_CONTEXT_USER_DEFERRED,	"PERF_CONTEXT_USER_DEFERRED" },
	{ PD_CONTEXT_GUEST,		"PERF_CONTEXT_GUEST" },
	{ PD_CONTEXT_GUEST_KERNEL,	"PERF_CONTEXT_GUEST_KERNEL" },
	{ PD_CONTEXT_GUEST_USER,	"PERF_CONTEXT_GUEST_USER" },
};

const char *
pd_callchain_context_name(uint64_t ip)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(context_names); i++)
		if (context_names[i].ip == ip)
			return context_names[i].name;
	return NULL;
}

/* Page sizes and byte counts */

size_t
pd_unit_number_text(char *buf, size_t size, uint64_t bytes)
{
	static const char units[] = "BKMG";
	unsigned int i = 0;

	/* perf steps while more than one of the next unit is left */
	while (bytes / 1024 > 1 && i < 3) {
		bytes /= 1024;
		i++;
	}
	return pd_text_appendf(buf, size, 0, "%" PRIu64 "%c", bytes, units[i]);
}

size_t
pd_page_size_text(char *buf, size_t size, uint64_t bytes)
{
	if (!bytes)
		return pd_text_appendf(buf, size, 0, "N/A");
	return pd_unit_number_text(buf, size, bytes);
}
