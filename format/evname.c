/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * format/evname.c - the name perf gives an event whose file carries none.
 *
 * Files without EVENT_DESC (old perf, simpleperf, pipe streams before
 * their features) still get names like "cycles:HG" or "raw 0x1cd": perf
 * derives them from the attr (tables and modifier rules of perf 6.1's
 * evsel__name), and reports print them, so we derive the same.
 */
#include "config.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "format/compiler.h"
#include "pdata/records.h"

static const char *const hw_names[PD_HW_MAX] = {
	"cycles", "instructions", "cache-references", "cache-misses",
	"branches", "branch-misses", "bus-cycles", "stalled-cycles-frontend",
	"stalled-cycles-backend", "ref-cycles",
};

/* perf 6.1 names only the first ten software events */
static const char *const sw_names[] = {
	"cpu-clock", "task-clock", "page-faults", "context-switches",
	"cpu-migrations", "minor-faults", "major-faults", "alignment-faults",
	"emulation-faults", "dummy",
};

static const char *const cache_names[PD_HW_CACHE_MAX] = {
	"L1-dcache", "L1-icache", "LLC", "dTLB", "iTLB", "branch", "node",
};

/* [op][0] is used with a result, [op][1] without */
static const char *const cache_ops[PD_HW_CACHE_OP_MAX][2] = {
	{ "load", "loads" },
	{ "store", "stores" },
	{ "prefetch", "prefetches" },
};

static const char *const cache_results[PD_HW_CACHE_RESULT_MAX] = {
	"refs", "misses",
};

/* which ops each cache supports: bit op */
static const unsigned char cache_valid_ops[PD_HW_CACHE_MAX] = {
	[PD_HW_CACHE_L1D] = 7, [PD_HW_CACHE_L1I] = 5, [PD_HW_CACHE_LL] = 7,
	[PD_HW_CACHE_DTLB] = 7, [PD_HW_CACHE_ITLB] = 1, [PD_HW_CACHE_BPU] = 1,
	[PD_HW_CACHE_NODE] = 7,
};

struct namebuf {
	char *p;
	size_t len, used;
};

static void PD_PRINTF(2, 3)
nb_add(struct namebuf *nb, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (nb->used >= nb->len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(nb->p + nb->used, nb->len - nb->used, fmt, ap);
	va_end(ap);
	if (n > 0)
		nb->used += (size_t)n < nb->len - nb->used ? (size_t)n : nb->len - nb->used - 1;
}

/*
 * ":k", ":u", ":h" when some privilege level is excluded, "p" per
 * precise_ip level, then "H"/"G" when host or guest differ from the
 * default, all after one colon.
 */
static void
add_modifiers(struct namebuf *nb, const struct pd_attr *a)
{
	bool guest_default = false;
	char mods[16];
	size_t n = 0;
	unsigned int i;

#define MOD(flag, c)	do { if (!pd_attr_has(a, flag)) mods[n++] = (c); } while (0)
	if (pd_attr_has(a, PD_ATTR_EXCLUDE_KERNEL) || pd_attr_has(a, PD_ATTR_EXCLUDE_USER) ||
	    pd_attr_has(a, PD_ATTR_EXCLUDE_HV)) {
		MOD(PD_ATTR_EXCLUDE_KERNEL, 'k');
		MOD(PD_ATTR_EXCLUDE_USER, 'u');
		MOD(PD_ATTR_EXCLUDE_HV, 'h');
		guest_default = true;
	}
	for (i = 0; i < pd_attr_precise_ip(a); i++)
		mods[n++] = 'p';
	if (pd_attr_precise_ip(a))
		guest_default = true;
	if (pd_attr_has(a, PD_ATTR_EXCLUDE_HOST) ||
	    pd_attr_has(a, PD_ATTR_EXCLUDE_GUEST) == guest_default) {
		MOD(PD_ATTR_EXCLUDE_HOST, 'H');
		MOD(PD_ATTR_EXCLUDE_GUEST, 'G');
	}
#undef MOD
	if (n)
		nb_add(nb, ":%.*s", (int)n, mods);
}

static void
hw_cache_name(struct namebuf *nb, uint64_t config)
{
	unsigned int type = config & 0xff, op = (config >> 8) & 0xff;
	unsigned int result = (config >> 16) & 0xff;

	if (type >= PD_HW_CACHE_MAX)
		nb_add(nb, "unknown-ext-hardware-cache-type");
	else if (op >= PD_HW_CACHE_OP_MAX)
		nb_add(nb, "unknown-ext-hardware-cache-op");
	else if (result >= PD_HW_CACHE_RESULT_MAX)
		nb_add(nb, "unknown-ext-hardware-cache-result");
	else if (!(cache_valid_ops[type] & (1u << op)))
		nb_add(nb, "invalid-cache");
	else if (result)
		nb_add(nb, "%s-%s-%s", cache_names[type], cache_ops[op][0],
		       cache_results[result]);
	else
		nb_add(nb, "%s-%s", cache_names[type], cache_ops[op][1]);
}

/* x86 perf names hybrid events (PMU type in config bits 32..63) "cpu/cycles/". */
static void
hw_name(struct namebuf *nb, uint64_t config)
{
	uint64_t event = config & 0xffffffffULL;
	const char *name = event < PD_HW_MAX ? hw_names[event] : "unknown-hardware";

	if (config >> 32)
		nb_add(nb, "cpu/%s/", name);
	else
		nb_add(nb, "%s", name);
}

static void
bp_name(struct namebuf *nb, const struct pd_attr *a)
{
	nb_add(nb, "mem:0x%" PRIx64 ":", a->config1);
	if (a->bp_type & 1)
		nb_add(nb, "r");
	if (a->bp_type & 2)
		nb_add(nb, "w");
	if (a->bp_type & 4)
		nb_add(nb, "x");
}

size_t
pd_attr_default_name(const struct pd_attr *a, char *buf, size_t len)
{
	struct namebuf nb = { .p = buf, .len = len, .used = 0 };

	if (!len)
		return 0;
	buf[0] = '\0';
	switch (a->type) {
	case PD_TYPE_HARDWARE:
		hw_name(&nb, a->config);
		break;
	case PD_TYPE_SOFTWARE:
		nb_add(&nb, "%s", a->config < ARRAY_SIZE(sw_names) ?
		       sw_names[a->config] : "unknown-software");
		break;
	case PD_TYPE_HW_CACHE:
		hw_cache_name(&nb, a->config);
		break;
	case PD_TYPE_RAW:
		nb_add(&nb, "raw 0x%" PRIx64, a->config);
		break;
	case PD_TYPE_BREAKPOINT:
		bp_name(&nb, a);
		break;
	case PD_TYPE_TRACEPOINT:
		nb_add(&nb, "unknown tracepoint");
		return nb.used;
	default:
		nb_add(&nb, "unknown attr type: %u", a->type);
		return nb.used;
	}
	add_modifiers(&nb, a);
	return nb.used;
}
