/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * report/inspect/dump-sample.c - preport -D for PERF_RECORD_SAMPLE: perf 6.1's
 * headline "(IP, <misc>): <pid>/<tid>: <ip> period: ... addr: ..." and
 * the fields it dumps beneath it (util/session.c, dump_sample), then the
 * ones it leaves out.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>

#include "pdata/reader.h"
#include "pdata/sample.h"
#include "pdata/text.h"
#include "report/inspect/dump-int.h"

/* The arch perf names registers by: HEADER_ARCH, else the host's. */
static const char *
dump_arch(const struct rep_dump *d)
{
	const struct pd_meta *m = pd_reader_meta(d->r);

	if (m && m->arch)
		return pd_arch_normalize(m->arch);
	return pd_arch_normalize(d->host_arch);
}

/*
 * Byte offset in the record of the STACK_USER size word (perf's
 * "offset"): the stack view starts right after it (pdata/sample.h).
 */
static size_t
ustack_offset(const struct pd_record *rec, const struct pd_sample *s)
{
	return (size_t)(s->user_stack.data.p - rec->data) - 8;
}

static void
dump_read_values(const struct rep_dump *d, const struct pd_read *rd)
{
	struct pd_read_value v;
	size_t i;

	fputs("... sample_read:\n", d->out);
	if (rd->format & PD_FORMAT_TOTAL_TIME_ENABLED)
		fprintf(d->out, "...... time enabled %016" PRIx64 "\n",
			rd->time_enabled);
	if (rd->format & PD_FORMAT_TOTAL_TIME_RUNNING)
		fprintf(d->out, "...... time running %016" PRIx64 "\n",
			rd->time_running);
	if (rd->format & PD_FORMAT_GROUP)
		fprintf(d->out, ".... group nr %zu\n", rd->nr);
	for (i = 0; i < rd->nr && pd_read_value_get(rd, i, &v) == 0; i++) {
		fprintf(d->out, "..... id %016" PRIx64 ", value %016" PRIx64,
			v.id, v.value);
		if (rd->format & PD_FORMAT_LOST)
			fprintf(d->out, ", lost %" PRIu64, v.lost);
		fputc('\n', d->out);
	}
}

void
rep_dump_chain_entry(const struct rep_dump *d, size_t i, uint64_t ip)
{
	const char *marker = pd_callchain_context_name(ip);

	/* the marker names are newer perf's; 6.1 prints the bare value */
	fprintf(d->out, "..... %2zu: %016" PRIx64 "%s%s%s\n", i, ip,
		marker ? " (" : "", marker ? marker : "", marker ? ")" : "");
}

/* perf's LBR call chain: the kernel part, then the stack the LBR holds. */
static void
dump_lbr_callstack(const struct rep_dump *d, const struct pd_sample *s)
{
	const struct pd_u64_array *cc = &s->callchain;
	struct pd_branch_entry e;
	size_t i, k;

	for (k = 0; k < cc->nr; k++)
		if (pd_u64_array_get(cc, k) == PD_CONTEXT_USER)
			break;
	if (k == cc->nr || !s->branch.nr)
		return;
	fprintf(d->out, "... LBR call chain: nr:%zu\n",
		k + 1 + s->branch.nr + 1);
	for (i = 0; i <= k; i++)
		fprintf(d->out, "..... %2zu: %016" PRIx64 "\n", i,
			pd_u64_array_get(cc, i));
	pd_branch_entry_get(&s->branch, 0, &e);
	fprintf(d->out, "..... %2zu: %016" PRIx64 "\n", k + 1, e.to);
	for (i = 0; i < s->branch.nr; i++) {
		pd_branch_entry_get(&s->branch, i, &e);
		fprintf(d->out, "..... %2zu: %016" PRIx64 "\n", i + k + 2,
			e.from);
	}
}

static void
dump_callchain(const struct rep_dump *d, const struct pd_evsel *ev,
	       const struct pd_sample *s)
{
	size_t i;

	if (ev->attr.branch_sample_type & PD_BRANCH_CALL_STACK)
		dump_lbr_callstack(d, s);
	fprintf(d->out, "... FP chain: nr:%zu\n", s->callchain.nr);
	for (i = 0; i < s->callchain.nr; i++)
		rep_dump_chain_entry(d, i, pd_u64_array_get(&s->callchain, i));
}

static void
dump_branch_entry(const struct rep_dump *d, size_t i,
		  const struct pd_branch_entry *e)
{
	const char *type = pd_branch_entry_type(e->flags, false);

	fprintf(d->out, "..... %2zu: %016" PRIx64 " -> %016" PRIx64
		" %hu cycles %s%s%s%s %x %s", i, e->from, e->to, e->cycles,
		e->mispred ? "M" : " ", e->predicted ? "P" : " ",
		e->abort ? "A" : " ", e->in_tx ? "T" : " ",
		(unsigned int)(e->flags >> PD_BRFL_INFO_BITS),
		type ? type : "(null)");
	/* what 6.1 does not print */
	if (e->spec || e->priv)
		fprintf(d->out, " spec:%s priv:%s",
			pd_branch_spec_name(e->spec),
			pd_branch_priv_name(e->priv) ?
			pd_branch_priv_name(e->priv) : "?");
	fputc('\n', d->out);
}

/* nr + 1 frames: the first target, then every source */
static void
dump_branch_callstack(const struct rep_dump *d,
		      const struct pd_branch_stack *b)
{
	struct pd_branch_entry e;
	size_t i;

	fprintf(d->out, "... branch callstack: nr:%zu\n", b->nr + 1);
	for (i = 0; i < b->nr; i++) {
		pd_branch_entry_get(b, i, &e);
		if (i == 0)
			fprintf(d->out, "..... %2zu: %016" PRIx64 "\n", i,
				e.to);
		fprintf(d->out, "..... %2zu: %016" PRIx64 "\n", i + 1,
			e.from);
	}
}

static void
dump_branch_stack(const struct rep_dump *d, const struct pd_evsel *ev,
		  const struct pd_sample *s)
{
	const struct pd_branch_stack *b = &s->branch;
	struct pd_branch_entry e;
	size_t i;

	if (b->has_hw_idx)
		fprintf(d->out, "... branch stack hw_idx: %#" PRIx64 "\n",
			b->hw_idx);
	if (ev->attr.branch_sample_type & PD_BRANCH_CALL_STACK) {
		dump_branch_callstack(d, b);
	} else {
		fprintf(d->out, "... branch stack: nr:%zu\n", b->nr);
		for (i = 0; i < b->nr; i++) {
			pd_branch_entry_get(b, i, &e);
			dump_branch_entry(d, i, &e);
		}
	}
	if (b->counters) {
		fprintf(d->out, "... branch stack counters: nr:%zu\n", b->nr);
		for (i = 0; i < b->nr; i++)
			fprintf(d->out, "..... %2zu: %016" PRIx64 "\n", i,
				pd_branch_counter_get(b, i));
	}
}

static void
dump_regs(const struct rep_dump *d, const char *kind,
	  const struct pd_regs *regs)
{
	const char *arch = dump_arch(d);
	uint64_t rest = regs->mask, val;
	unsigned int reg;

	/* ABI none: the task had no user context; perf prints nothing then */
	if (regs->abi == PD_REGS_ABI_NONE)
		return;
	fprintf(d->out, "... %s regs: mask %#" PRIx64 " ABI %s\n", kind,
		regs->mask, pd_regs_abi_name(regs->abi));
	while (pd_regs_next(regs, &rest, &reg, &val))
		fprintf(d->out, ".... %-5s 0x%016" PRIx64 "\n",
			pd_reg_name(arch, reg), val);
}

static void
dump_weight(const struct rep_dump *d, const struct pd_sample *s)
{
	struct pd_weight w;

	/* the split the reference perf (an x86 build) makes */
	pd_weight_split(s->weight, s->type, PD_WEIGHT_RULE_X86, &w);
	fprintf(d->out, "... weight: %" PRIu64, w.weight);
	if (s->type & PD_SAMPLE_WEIGHT_STRUCT)
		fprintf(d->out, ",0x%" PRIx16 ",0x%" PRIx16, w.ins_lat,
			w.p_stage_cyc);
	fputc('\n', d->out);
	if (s->type & PD_SAMPLE_WEIGHT_STRUCT)
		fprintf(d->out, "... weight struct: var1_dw %" PRIu32
			", var2_w %" PRIu16 ", var3_w %" PRIu16 "\n",
			w.var1, w.var2, w.var3);
}

static void
dump_page_size(const struct rep_dump *d, const char *what, uint64_t bytes)
{
	char buf[PD_PAGE_SIZE_TEXT_MAX];

	pd_page_size_text(buf, sizeof(buf), bytes);
	fprintf(d->out, " .. %s page size: %s\n", what, buf);
}

/* perf's "size" is dyn_size, its offset the size word's */
static void
dump_user_stack(const struct rep_dump *d, const struct pd_record *rec,
		const struct pd_sample *s)
{
	fprintf(d->out, "... ustack: size %" PRIu64 ", offset %#zx\n",
		s->user_stack.dyn_size, ustack_offset(rec, s));
	fprintf(d->out, "... user stack: size %" PRIu64 ", dyn_size %" PRIu64
		"\n", s->user_stack.size, s->user_stack.dyn_size);
}

static void
dump_data_src(const struct rep_dump *d, uint64_t data_src)
{
	char buf[PD_DATASRC_TEXT_MAX];

	fprintf(d->out, " . data_src: 0x%" PRIx64 "\n", data_src);
	pd_datasrc_decode(buf, sizeof(buf), data_src);
	fprintf(d->out, "... data_src decode: %s\n", buf);
}

static void
dump_transaction(const struct rep_dump *d, uint64_t txn)
{
	char buf[64];	/* the longest text is 55 bytes */
	size_t n;

	fprintf(d->out, "... transaction: %" PRIx64 "\n", txn);
	n = pd_transaction_text(buf, sizeof(buf), txn);
	while (n > 0 && buf[n - 1] == ' ')
		buf[--n] = '\0';
	if (n)
		fprintf(d->out, "... transaction decode: %s\n", buf);
}

/* The fields after the headline, in perf's order */
static void
dump_sample_fields(const struct rep_dump *d, const struct pd_evsel *ev,
		   const struct pd_record *rec, const struct pd_sample *s)
{
	if (s->type & (PD_SAMPLE_IDENTIFIER | PD_SAMPLE_ID))
		fprintf(d->out, "... id: %" PRIu64 "\n", s->id);
	if (s->type & PD_SAMPLE_STREAM_ID)
		fprintf(d->out, "... stream_id: %" PRIu64 "\n", s->stream_id);
	if (s->type & PD_SAMPLE_CALLCHAIN)
		dump_callchain(d, ev, s);
	if (s->type & PD_SAMPLE_RAW)
		fprintf(d->out, "... raw: size %zu\n", s->raw.len);
	if (s->type & PD_SAMPLE_BRANCH_STACK)
		dump_branch_stack(d, ev, s);
	if (s->type & PD_SAMPLE_REGS_USER)
		dump_regs(d, "user", &s->user_regs);
	if (s->type & PD_SAMPLE_REGS_INTR)
		dump_regs(d, "intr", &s->intr_regs);
	if (s->type & PD_SAMPLE_STACK_USER)
		dump_user_stack(d, rec, s);
	if (s->type & PD_SAMPLE_WEIGHT_TYPE)
		dump_weight(d, s);
	if (s->type & PD_SAMPLE_DATA_SRC)
		dump_data_src(d, s->data_src);
	if (s->type & PD_SAMPLE_PHYS_ADDR)
		fprintf(d->out, " .. phys_addr: 0x%" PRIx64 "\n", s->phys_addr);
	if (s->type & PD_SAMPLE_DATA_PAGE_SIZE)
		dump_page_size(d, "data", s->data_page_size);
	if (s->type & PD_SAMPLE_CODE_PAGE_SIZE)
		dump_page_size(d, "code", s->code_page_size);
	if (s->type & PD_SAMPLE_TRANSACTION)
		dump_transaction(d, s->transaction);
	if (s->type & PD_SAMPLE_READ)
		dump_read_values(d, &s->read);
	if (s->type & PD_SAMPLE_CGROUP)
		fprintf(d->out, "... cgroup: %" PRIu64 "\n", s->cgroup);
	if (s->type & PD_SAMPLE_AUX)
		fprintf(d->out, "... aux: size %zu\n", s->aux.len);
}

/* The error, then which field failed, where and why. */
static void
dump_sample_error(const struct rep_dump *d, const struct pd_attr *attr,
		  const struct pd_record *rec, int err)
{
	char why[256];

	rep_dump_error(d, "the sample", err);
	if (pd_sample_explain(attr, rec, why, sizeof(why)))
		fprintf(d->out, "... %s\n", why);
}

void
rep_dump_sample(const struct rep_dump *d, const struct pd_record *rec)
{
	const struct pd_evsel *ev = rep_dump_evsel(d, rec);
	struct pd_sample s;
	int err;

	if (!ev) {
		rep_dump_headline(d, rec, (uint32_t)-1, (uint64_t)-1);
		fprintf(d->out, "(IP, 0x%" PRIx16 "): unknown event\n",
			rec->header.misc);
		return;
	}
	err = pd_sample_decode(&ev->attr, rec, &s);
	if (err) {
		rep_dump_headline(d, rec, (uint32_t)-1, (uint64_t)-1);
		fputc('\n', d->out);
		dump_sample_error(d, &ev->attr, rec, err);
		return;
	}
	rep_dump_headline(d, rec, s.cpu, s.time);
	fprintf(d->out, "(IP, 0x%" PRIx16 "): %d/%d: %#" PRIx64 " period: %"
		PRIu64 " addr: %#" PRIx64 "\n", rec->header.misc, (int)s.pid,
		(int)s.tid, s.ip, s.period, s.addr);
	dump_sample_fields(d, ev, rec, &s);
}
