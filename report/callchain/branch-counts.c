/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * report/callchain/branch-counts.c - what perf 6.1's --branch-history
 * prints after a call graph frame (util/callchain.c counts_str_build(),
 * util/branch.c branch_type_str(); doc/perf-records.md §6.11): for a
 * branch's target, the kinds of branch into it and how often they were
 * predicted or aborted; for a branch's source, its average cycles and
 * the loops removed after it; " (calltrace)" for a frame no branch
 * passed through.
 */
#include "config.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

#include "report/callchain/callchain-int.h"

/* perf's names of the branch kinds, and of the extended ones (x86) */
static const char *const type_names[PD_BR_MAX] = {
	"N/A", "COND", "UNCOND", "IND", "CALL", "IND_CALL", "RET",
	"SYSCALL", "SYSRET", "COND_CALL", "COND_RET", "ERET", "IRQ",
	"SERROR", "NO_TX", "",
};

static const char *const new_type_names[PD_BR_NEW_MAX] = {
	"FAULT_ALGN", "FAULT_DATA", "FAULT_INST",
	"ARCH_1", "ARCH_2", "ARCH_3", "ARCH_4", "ARCH_5",
};

/* Text appended to buf[*len..size), snprintf-style and clipped. */
static void
put(char *buf, size_t size, size_t *len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void
put(char *buf, size_t size, size_t *len, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*len + 1 >= size)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *len, size - *len, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	*len += (size_t)n < size - *len ? (size_t)n : size - *len - 1;
}

/* Each item opens the parentheses or follows the one before it. */
static const char *
item_sep(unsigned int idx)
{
	return idx ? " " : " (";
}

/* perf's branch_type_str(): the kinds, without the closing parenthesis */
static unsigned int
type_list(const struct cc_brtype *st, char *buf, size_t size, size_t *len)
{
	uint64_t total = 0;
	unsigned int i, idx = 0;

	for (i = 0; i < PD_BR_MAX; i++)
		total += st->counts[i];
	for (i = 0; i < PD_BR_NEW_MAX; i++)
		total += st->new_counts[i];
	if (!total)
		return 0;
	if (st->cond_fwd)
		put(buf, size, len, "%sCOND_FWD", item_sep(idx++));
	if (st->cond_bwd)
		put(buf, size, len, "%sCOND_BWD", item_sep(idx++));
	for (i = 0; i < PD_BR_MAX; i++)
		if (i != PD_BR_COND && st->counts[i])
			put(buf, size, len, "%s%s", item_sep(idx++),
			    type_names[i]);
	for (i = 0; i < PD_BR_NEW_MAX; i++)
		if (st->new_counts[i])
			put(buf, size, len, "%s%s", item_sep(idx++),
			    new_type_names[i]);
	if (st->cross_4k)
		put(buf, size, len, "%sCROSS_4K", item_sep(idx++));
	if (st->cross_2m)
		put(buf, size, len, "%sCROSS_2M", item_sep(idx++));
	return idx ? 1 : 0;
}

/*
 * perf's count_float_printf(): a percentage as a float, left out below
 * threshold (the item still counts, so a lone ")" may follow).
 */
static void
put_percent(char *buf, size_t size, size_t *len, unsigned int idx,
	    const char *name, float value, float threshold)
{
	if (threshold != 0.0f && value < threshold)
		return;
	put(buf, size, len, "%s%s:%.1f%%", item_sep(idx), name, (double)value);
}

static void
target_text(const struct cc_bcount *bc, char *buf, size_t size, size_t *len)
{
	unsigned int idx = type_list(&bc->st, buf, size, len);

	if (bc->predicted_count < bc->branch_count)
		put_percent(buf, size, len, idx++, "predicted",
			    (float)((double)bc->predicted_count * 100.0 /
				    (double)bc->branch_count), 0.0f);
	if (bc->abort_count)
		put_percent(buf, size, len, idx++, "abort",
			    (float)((double)bc->abort_count * 100.0 /
				    (double)bc->branch_count), 0.1f);
	if (idx)
		put(buf, size, len, ")");
}

static void
source_text(const struct cc_bcount *bc, char *buf, size_t size, size_t *len)
{
	uint64_t cycles = bc->cycles_count / bc->branch_count, iters;
	unsigned int idx = 0;

	/* perf prints these u64 with PRId64 */
	if (cycles)
		put(buf, size, len, "%scycles:%" PRId64, item_sep(idx++),
		    (int64_t)cycles);
	if (bc->iter_count && bc->from_count) {
		iters = bc->iter_count / bc->from_count;
		if (iters) {
			put(buf, size, len, "%siter:%" PRId64, item_sep(idx++),
			    (int64_t)iters);
			put(buf, size, len, "%savg_cycles:%" PRId64,
			    item_sep(idx++),
			    (int64_t)(bc->iter_cycles / bc->iter_count));
		}
	}
	if (idx)
		put(buf, size, len, ")");
}

void
cc_bcount_text(const struct cc_bcount *bc, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	if (!bc || !bc->branch_count)
		put(buf, size, &len, " (calltrace)");
	else if (bc->st.branch_to)
		target_text(bc, buf, size, &len);
	else
		source_text(bc, buf, size, &len);
}
