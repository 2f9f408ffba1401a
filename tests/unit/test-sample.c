/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * tests/unit/test-sample.c - pd_sample_decode(), pd_sample_id_decode(),
 * pd_sample_time() and the layout helpers, on byte images of both byte
 * orders.
 *
 * A model of every sample field is written by a small encoder that
 * follows doc/perf-records.md §3.1 on its own (it shares no code with
 * format/sample.c), decoded, and compared field by field.  Every
 * truncation of every image must fail, and nothing may be read past the
 * end: each cut is copied into a buffer of exactly that size and the
 * suite runs under ASan/UBSan.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pdata/errors.h"
#include "pdata/sample.h"
#include "tests/unit/buf.h"
#include "tests/unit/record.h"
#include "tests/unit/t.h"

#define MAX_N 8

/* Every value of a sample, as the encoder writes it. */
struct model {
	uint64_t sample_type, read_format, branch_type;
	uint64_t regs_user, regs_intr, attr_period;
	uint16_t misc;
	uint64_t identifier, ip;
	uint32_t pid, tid;
	uint64_t time, addr, id, stream_id;
	uint32_t cpu, cpu_res;
	uint64_t period;
	size_t read_nr;
	uint64_t time_enabled, time_running;
	struct pd_read_value rv[MAX_N];
	size_t cc_nr;
	uint64_t cc[MAX_N];
	uint32_t raw_size;
	unsigned char raw[40];
	size_t br_nr;
	uint64_t hw_idx;
	struct pd_branch_entry br[MAX_N];
	uint64_t br_reserved[MAX_N];
	uint64_t cntr[MAX_N];
	uint64_t uabi, uregs[64];
	uint64_t stack_size, dyn_size;
	unsigned char stack[64];
	uint64_t weight;
	uint64_t data_src, transaction;
	uint64_t iabi, iregs[64];
	uint64_t phys_addr, cgroup, data_page_size, code_page_size;
	uint64_t aux_size;
	unsigned char aux[48];
};

/* What varies between the images of one sample_type. */
struct variant {
	const char *name;
	uint64_t read_format;
	size_t read_nr;		/* group entries */
	uint64_t branch_type;
	size_t br_nr;
	uint64_t uabi, iabi;
	uint64_t stack_size;
	uint32_t raw_size;
	size_t cc_nr;
	uint64_t aux_size;
};

/* (shift, width) of each branch flag field, little-endian numbering */
static const unsigned int br_fields[][2] = {
	{ 0, 1 }, { 1, 1 }, { 2, 1 }, { 3, 1 }, { 4, 16 }, { 20, 4 },
	{ 24, 2 }, { 26, 4 }, { 30, 3 }, { 33, 31 },
};

/* sparse, with the edges: bits 0, 5, 17, 40 and 63 */
#define REGS_USER_MASK	((1ULL << 0) | (1ULL << 5) | (1ULL << 17) | \
			 (1ULL << 40) | (1ULL << 63))
#define REGS_INTR_MASK	((1ULL << 1) | (1ULL << 2) | (1ULL << 3) | \
			 (1ULL << 33) | (1ULL << 62))

static uint64_t
br_flags_le(const struct pd_branch_entry *e, uint64_t reserved)
{
	return (uint64_t)e->mispred | (uint64_t)e->predicted << 1 |
	       (uint64_t)e->in_tx << 2 | (uint64_t)e->abort << 3 |
	       (uint64_t)e->cycles << 4 | (uint64_t)e->type << 20 |
	       (uint64_t)e->spec << 24 | (uint64_t)e->new_type << 26 |
	       (uint64_t)e->priv << 30 | reserved << 33;
}

static void
model_fill(struct model *m, uint64_t sample_type, const struct variant *v)
{
	size_t i;

	memset(m, 0, sizeof(*m));
	m->sample_type = sample_type;
	m->read_format = v->read_format;
	m->branch_type = v->branch_type;
	m->regs_user = REGS_USER_MASK;
	m->regs_intr = REGS_INTR_MASK;
	m->attr_period = 4000;
	m->misc = PD_MISC_USER | PD_MISC_EXACT_IP;
	m->identifier = 0x1d1d1d1d00000001ULL;
	m->ip = 0xffffffff81000123ULL;
	m->pid = 0x01020304;
	m->tid = 0x05060708;
	m->time = 0x0011223344556677ULL;
	m->addr = 0x00007fff12345678ULL;
	m->id = 0x1d1d1d1d00000002ULL;
	m->stream_id = 0x5555666677778888ULL;
	m->cpu = 0x0a0b0c0d;
	m->cpu_res = 0x00000e0f;
	m->period = 0x0000000100000002ULL;

	m->time_enabled = 0x7e7e7e7e00000001ULL;
	m->time_running = 0x7e7e7e7e00000002ULL;
	m->read_nr = (v->read_format & PD_FORMAT_GROUP) ? v->read_nr : 1;
	for (i = 0; i < m->read_nr; i++) {
		m->rv[i].value = 0x1000000000000000ULL + 0x101 * i;
		if (v->read_format & PD_FORMAT_ID)
			m->rv[i].id = 0x2000000000000000ULL + 0x202 * i;
		if (v->read_format & PD_FORMAT_LOST)
			m->rv[i].lost = 0x3000000000000000ULL + 0x303 * i;
	}

	m->cc_nr = v->cc_nr;
	for (i = 0; i < m->cc_nr; i++)
		m->cc[i] = 0x0000555500001000ULL + 16 * i;
	/* context markers among the ips, the deferred cookie at the end */
	if (m->cc_nr >= 8) {
		m->cc[0] = PD_CONTEXT_KERNEL;
		m->cc[3] = PD_CONTEXT_USER;
		m->cc[6] = PD_CONTEXT_USER_DEFERRED;
		m->cc[7] = 0xc00c1e0000000042ULL;
	}

	m->raw_size = v->raw_size;
	for (i = 0; i < m->raw_size; i++)
		m->raw[i] = (unsigned char)(0x80 + i);

	m->br_nr = v->br_nr;
	if (v->branch_type & PD_BRANCH_HW_INDEX)
		m->hw_idx = 0x4444000000000007ULL;
	for (i = 0; i < m->br_nr; i++) {
		struct pd_branch_entry *e = &m->br[i];

		e->from = 0x0000400000001000ULL + 0x10 * i;
		e->to = 0x0000400000002000ULL + 0x20 * i;
		e->mispred = i & 1;
		e->predicted = !(i & 1);
		e->in_tx = (i & 2) != 0;
		e->abort = i == 0;
		e->cycles = (uint16_t)(0xbee0 + i);
		e->type = (uint8_t)(15 - i);
		e->spec = (uint8_t)((i + 2) & 3);
		e->new_type = (uint8_t)(6 + i);
		e->priv = (uint8_t)((5 + i) & 7);
		m->br_reserved[i] = i == 1 ? 0x55aa55aaULL : 0;
		e->flags = br_flags_le(e, m->br_reserved[i]);
		if (v->branch_type & PD_BRANCH_COUNTERS)
			m->cntr[i] = 0x0123456789abcdefULL >> i;
	}

	m->uabi = v->uabi;
	m->iabi = v->iabi;
	for (i = 0; i < 64; i++) {
		m->uregs[i] = 0xaaaa000000000000ULL + i;
		m->iregs[i] = 0xbbbb000000000000ULL + i;
	}

	m->stack_size = v->stack_size;
	m->dyn_size = v->stack_size ? v->stack_size - 8 : 0;
	for (i = 0; i < m->stack_size; i++)
		m->stack[i] = (unsigned char)(0x40 ^ i);

	if (sample_type & PD_SAMPLE_WEIGHT_STRUCT)
		m->weight = 0xfedc123489abcdefULL;
	else
		m->weight = 0x0000000000000321ULL;
	m->data_src = 0x0000012345678901ULL;
	m->transaction = 0x0000002a00000093ULL;
	m->phys_addr = 0x0000000123456000ULL;
	m->cgroup = 0x0000000000001234ULL;
	m->data_page_size = 4096;
	m->code_page_size = 2 * 1024 * 1024;
	m->aux_size = v->aux_size;
	for (i = 0; i < m->aux_size; i++)
		m->aux[i] = (unsigned char)(0xa0 + i);
}

static void
put_regs(struct tbuf *b, uint64_t abi, uint64_t mask, const uint64_t *regs)
{
	unsigned int bit;

	tb_u64(b, abi);
	if (!abi)
		return;
	for (bit = 0; bit < 64; bit++)
		if ((mask >> bit) & 1)
			tb_u64(b, regs[bit]);
}

static void
encode(struct tbuf *b, const struct model *m)
{
	uint64_t t = m->sample_type, rf = m->read_format;
	size_t at = tb_begin_record(b, PD_RECORD_SAMPLE, m->misc);
	size_t i;

	tb_u64_if(b, t, PD_SAMPLE_IDENTIFIER, m->identifier);
	tb_u64_if(b, t, PD_SAMPLE_IP, m->ip);
	if (t & PD_SAMPLE_TID) {
		tb_u32(b, m->pid);
		tb_u32(b, m->tid);
	}
	tb_u64_if(b, t, PD_SAMPLE_TIME, m->time);
	tb_u64_if(b, t, PD_SAMPLE_ADDR, m->addr);
	tb_u64_if(b, t, PD_SAMPLE_ID, m->id);
	tb_u64_if(b, t, PD_SAMPLE_STREAM_ID, m->stream_id);
	if (t & PD_SAMPLE_CPU) {
		tb_u32(b, m->cpu);
		tb_u32(b, m->cpu_res);
	}
	tb_u64_if(b, t, PD_SAMPLE_PERIOD, m->period);
	if (t & PD_SAMPLE_READ) {
		if (rf & PD_FORMAT_GROUP) {
			tb_u64(b, m->read_nr);
			tb_u64_if(b, rf, PD_FORMAT_TOTAL_TIME_ENABLED,
				  m->time_enabled);
			tb_u64_if(b, rf, PD_FORMAT_TOTAL_TIME_RUNNING,
				  m->time_running);
			for (i = 0; i < m->read_nr; i++) {
				tb_u64(b, m->rv[i].value);
				tb_u64_if(b, rf, PD_FORMAT_ID, m->rv[i].id);
				tb_u64_if(b, rf, PD_FORMAT_LOST, m->rv[i].lost);
			}
		} else {
			tb_u64(b, m->rv[0].value);
			tb_u64_if(b, rf, PD_FORMAT_TOTAL_TIME_ENABLED,
				  m->time_enabled);
			tb_u64_if(b, rf, PD_FORMAT_TOTAL_TIME_RUNNING,
				  m->time_running);
			tb_u64_if(b, rf, PD_FORMAT_ID, m->rv[0].id);
			tb_u64_if(b, rf, PD_FORMAT_LOST, m->rv[0].lost);
		}
	}
	if (t & PD_SAMPLE_CALLCHAIN) {
		tb_u64(b, m->cc_nr);
		for (i = 0; i < m->cc_nr; i++)
			tb_u64(b, m->cc[i]);
	}
	if (t & PD_SAMPLE_RAW) {
		tb_u32(b, m->raw_size);
		tb_bytes(b, m->raw, m->raw_size);
	}
	if (t & PD_SAMPLE_BRANCH_STACK) {
		tb_u64(b, m->br_nr);
		if (m->branch_type & PD_BRANCH_HW_INDEX)
			tb_u64(b, m->hw_idx);
		for (i = 0; i < m->br_nr; i++) {
			tb_u64(b, m->br[i].from);
			tb_u64(b, m->br[i].to);
			tb_u64(b, tb_bitfield_word(b, m->br[i].flags,
						   ARRAY_SIZE(br_fields),
						   br_fields));
		}
		if (m->branch_type & PD_BRANCH_COUNTERS)
			for (i = 0; i < m->br_nr; i++)
				tb_u64(b, m->cntr[i]);
	}
	if (t & PD_SAMPLE_REGS_USER)
		put_regs(b, m->uabi, m->regs_user, m->uregs);
	if (t & PD_SAMPLE_STACK_USER) {
		tb_u64(b, m->stack_size);
		if (m->stack_size) {
			tb_bytes(b, m->stack, m->stack_size);
			tb_u64(b, m->dyn_size);
		}
	}
	tb_u64_if(b, t, PD_SAMPLE_WEIGHT_TYPE, m->weight);
	tb_u64_if(b, t, PD_SAMPLE_DATA_SRC, m->data_src);
	tb_u64_if(b, t, PD_SAMPLE_TRANSACTION, m->transaction);
	if (t & PD_SAMPLE_REGS_INTR)
		put_regs(b, m->iabi, m->regs_intr, m->iregs);
	tb_u64_if(b, t, PD_SAMPLE_PHYS_ADDR, m->phys_addr);
	tb_u64_if(b, t, PD_SAMPLE_CGROUP, m->cgroup);
	tb_u64_if(b, t, PD_SAMPLE_DATA_PAGE_SIZE, m->data_page_size);
	tb_u64_if(b, t, PD_SAMPLE_CODE_PAGE_SIZE, m->code_page_size);
	if (t & PD_SAMPLE_AUX) {
		tb_u64(b, m->aux_size);
		tb_bytes(b, m->aux, m->aux_size);
	}
	tb_end_record(b, at);
}

static void
model_attr(const struct model *m, struct pd_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = PD_ATTR_SIZE_VER8;
	attr->sample_type = m->sample_type;
	attr->read_format = m->read_format;
	attr->branch_sample_type = m->branch_type;
	attr->sample_regs_user = m->regs_user;
	attr->sample_regs_intr = m->regs_intr;
	attr->sample_period = m->attr_period;
	attr->flags = 1ULL << PD_ATTR_SAMPLE_ID_ALL;
}

/* Read every byte and element a sample's views reach. */
static uint64_t
touch_sample(const struct pd_sample *s)
{
	struct pd_branch_entry e;
	struct pd_read_value rv = { 0 };
	uint64_t sum = 0, v;
	size_t i;
	unsigned int reg;

	for (i = 0; i < s->read.nr; i++)
		if (!pd_read_value_get(&s->read, i, &rv))
			sum += rv.value + rv.id + rv.lost;
	for (i = 0; i < s->callchain.nr; i++)
		sum += pd_u64_array_get(&s->callchain, i);
	for (i = 0; i < s->raw.len; i++)
		sum += s->raw.p[i];
	for (i = 0; i < s->branch.nr; i++) {
		if (!pd_branch_entry_get(&s->branch, i, &e))
			sum += e.from + e.to + e.flags;
		sum += pd_branch_counter_get(&s->branch, i);
	}
	for (reg = 0; reg < 64; reg++) {
		if (pd_regs_get(&s->user_regs, reg, &v))
			sum += v;
		if (pd_regs_get(&s->intr_regs, reg, &v))
			sum += v;
	}
	for (i = 0; i < s->user_stack.data.len; i++)
		sum += s->user_stack.data.p[i];
	for (i = 0; i < s->aux.len; i++)
		sum += s->aux.p[i];
	return sum;
}

static void
check_regs(const struct pd_regs *r, bool present, uint64_t abi, uint64_t mask,
	   const uint64_t *regs, const char *name)
{
	char what[64];
	unsigned int reg;
	uint64_t v = 0;

	snprintf(what, sizeof(what), "%s abi", name);
	EQ(r->abi, present ? abi : 0, what);
	snprintf(what, sizeof(what), "%s nr", name);
	EQ(r->regs.nr, present && abi ? (size_t)__builtin_popcountll(mask) : 0,
	   what);
	for (reg = 0; reg < 64; reg++) {
		bool want = present && abi && ((mask >> reg) & 1);
		bool got = pd_regs_get(r, reg, &v);

		T(got == want, "%s: %s reg %u presence %d", ctx, name, reg,
		  got);
		if (got && want) {
			snprintf(what, sizeof(what), "%s reg %u", name, reg);
			EQ(v, regs[reg], what);
		}
	}
}

static void
check_sample(const struct model *m, const struct pd_sample *s)
{
	uint64_t t = m->sample_type;
	struct pd_read_value rv = { 0 };
	struct pd_branch_entry e = { 0 };
	size_t i;

	EQ(s->type, t, "type");
	EQ(s->misc, m->misc, "misc");
	EQ(s->cpumode, m->misc & 7, "cpumode");
	EQ(s->id, (t & PD_SAMPLE_ID) ? m->id :
	   (t & PD_SAMPLE_IDENTIFIER) ? m->identifier : (uint64_t)-1, "id");
	EQ(s->ip, (t & PD_SAMPLE_IP) ? m->ip : 0, "ip");
	EQ(s->pid, (t & PD_SAMPLE_TID) ? m->pid : (uint32_t)-1, "pid");
	EQ(s->tid, (t & PD_SAMPLE_TID) ? m->tid : (uint32_t)-1, "tid");
	EQ(s->time, (t & PD_SAMPLE_TIME) ? m->time : (uint64_t)-1, "time");
	EQ(s->addr, (t & PD_SAMPLE_ADDR) ? m->addr : 0, "addr");
	EQ(s->stream_id, (t & PD_SAMPLE_STREAM_ID) ? m->stream_id :
	   (uint64_t)-1, "stream_id");
	EQ(s->cpu, (t & PD_SAMPLE_CPU) ? m->cpu : (uint32_t)-1, "cpu");
	EQ(s->cpu_res, (t & PD_SAMPLE_CPU) ? m->cpu_res : 0, "cpu_res");
	EQ(s->period, (t & PD_SAMPLE_PERIOD) ? m->period : m->attr_period,
	   "period");

	if (t & PD_SAMPLE_READ) {
		bool te = m->read_format & PD_FORMAT_TOTAL_TIME_ENABLED;
		bool tr = m->read_format & PD_FORMAT_TOTAL_TIME_RUNNING;

		EQ(s->read.format, m->read_format, "read format");
		EQ(s->read.nr, m->read_nr, "read nr");
		EQ(s->read.time_enabled, te ? m->time_enabled : 0,
		   "time_enabled");
		EQ(s->read.time_running, tr ? m->time_running : 0,
		   "time_running");
		for (i = 0; i < m->read_nr; i++) {
			T(pd_read_value_get(&s->read, i, &rv) == 0,
			  "%s: read value %zu", ctx, i);
			EQ(rv.value, m->rv[i].value, "read value");
			EQ(rv.id, m->rv[i].id, "read id");
			EQ(rv.lost, m->rv[i].lost, "read lost");
		}
		T(pd_read_value_get(&s->read, m->read_nr, &rv) ==
		  -PD_E_INVAL, "%s: read value past nr", ctx);
	} else {
		EQ(s->read.nr, 0, "read nr (absent)");
	}

	EQ(s->callchain.nr, (t & PD_SAMPLE_CALLCHAIN) ? m->cc_nr : 0,
	   "callchain nr");
	for (i = 0; i < s->callchain.nr; i++)
		EQ(pd_u64_array_get(&s->callchain, i), m->cc[i],
		   "callchain ip");
	EQ(pd_u64_array_get(&s->callchain, s->callchain.nr), 0,
	   "callchain past nr");

	EQ(s->raw.len, (t & PD_SAMPLE_RAW) ? m->raw_size : 0, "raw size");
	if (s->raw.len)
		T(memcmp(s->raw.p, m->raw, s->raw.len) == 0,
		  "%s: raw bytes", ctx);

	if (t & PD_SAMPLE_BRANCH_STACK) {
		EQ(s->branch.nr, m->br_nr, "branch nr");
		EQ(s->branch.has_hw_idx,
		   (m->branch_type & PD_BRANCH_HW_INDEX) != 0, "has_hw_idx");
		EQ(s->branch.hw_idx, m->hw_idx, "hw_idx");
		EQ(s->branch.has_counters,
		   (m->branch_type & PD_BRANCH_COUNTERS) != 0, "has_counters");
		for (i = 0; i < m->br_nr; i++) {
			const struct pd_branch_entry *w = &m->br[i];

			T(pd_branch_entry_get(&s->branch, i, &e) == 0,
			  "%s: branch %zu", ctx, i);
			EQ(e.from, w->from, "br from");
			EQ(e.to, w->to, "br to");
			EQ(e.flags, w->flags, "br flags word");
			EQ(e.mispred, w->mispred, "br mispred");
			EQ(e.predicted, w->predicted, "br predicted");
			EQ(e.in_tx, w->in_tx, "br in_tx");
			EQ(e.abort, w->abort, "br abort");
			EQ(e.cycles, w->cycles, "br cycles");
			EQ(e.type, w->type, "br type");
			EQ(e.spec, w->spec, "br spec");
			EQ(e.new_type, w->new_type, "br new_type");
			EQ(e.priv, w->priv, "br priv");
			EQ(pd_branch_counter_get(&s->branch, i), m->cntr[i],
			   "br counters");
		}
		T(pd_branch_entry_get(&s->branch, m->br_nr, &e) ==
		  -PD_E_INVAL, "%s: branch past nr", ctx);
	} else {
		EQ(s->branch.nr, 0, "branch nr (absent)");
	}

	check_regs(&s->user_regs, t & PD_SAMPLE_REGS_USER, m->uabi,
		   m->regs_user, m->uregs, "uregs");
	check_regs(&s->intr_regs, t & PD_SAMPLE_REGS_INTR, m->iabi,
		   m->regs_intr, m->iregs, "iregs");

	if (t & PD_SAMPLE_STACK_USER) {
		EQ(s->user_stack.size, m->stack_size, "stack size");
		EQ(s->user_stack.data.len, m->stack_size, "stack len");
		EQ(s->user_stack.dyn_size, m->dyn_size, "stack dyn_size");
		if (m->stack_size)
			T(memcmp(s->user_stack.data.p, m->stack,
				 m->stack_size) == 0, "%s: stack bytes", ctx);
	} else {
		EQ(s->user_stack.size, 0, "stack size (absent)");
	}

	EQ(s->weight, (t & PD_SAMPLE_WEIGHT_TYPE) ? m->weight : 0, "weight");
	if (t & PD_SAMPLE_WEIGHT_STRUCT) {
		EQ(s->weight_struct.var1, 0x89abcdef, "weight var1");
		EQ(s->weight_struct.var2, 0x1234, "weight var2");
		EQ(s->weight_struct.var3, 0xfedc, "weight var3");
	} else {
		EQ(s->weight_struct.var1 | s->weight_struct.var2 |
		   s->weight_struct.var3, 0, "weight struct (absent)");
	}
	EQ(s->data_src, (t & PD_SAMPLE_DATA_SRC) ? m->data_src :
	   PD_MEM_DATA_SRC_NONE, "data_src");
	EQ(s->transaction, (t & PD_SAMPLE_TRANSACTION) ? m->transaction : 0,
	   "transaction");
	EQ(s->phys_addr, (t & PD_SAMPLE_PHYS_ADDR) ? m->phys_addr : 0,
	   "phys_addr");
	EQ(s->cgroup, (t & PD_SAMPLE_CGROUP) ? m->cgroup : 0, "cgroup");
	EQ(s->data_page_size, (t & PD_SAMPLE_DATA_PAGE_SIZE) ?
	   m->data_page_size : 0, "data_page_size");
	EQ(s->code_page_size, (t & PD_SAMPLE_CODE_PAGE_SIZE) ?
	   m->code_page_size : 0, "code_page_size");
	EQ(s->aux.len, (t & PD_SAMPLE_AUX) ? m->aux_size : 0, "aux size");
	if (s->aux.len)
		T(memcmp(s->aux.p, m->aux, s->aux.len) == 0,
		  "%s: aux bytes", ctx);
}

static void
check_sample_id(const struct model *m, const struct pd_sample_id *id)
{
	uint64_t t = m->sample_type;

	EQ(id->pid, (t & PD_SAMPLE_TID) ? m->pid : (uint32_t)-1, "sid pid");
	EQ(id->tid, (t & PD_SAMPLE_TID) ? m->tid : (uint32_t)-1, "sid tid");
	EQ(id->time, (t & PD_SAMPLE_TIME) ? m->time : (uint64_t)-1,
	   "sid time");
	EQ(id->id, (t & PD_SAMPLE_ID) ? m->id :
	   (t & PD_SAMPLE_IDENTIFIER) ? m->identifier : (uint64_t)-1,
	   "sid id");
	EQ(id->stream_id, (t & PD_SAMPLE_STREAM_ID) ? m->stream_id :
	   (uint64_t)-1, "sid stream_id");
	EQ(id->cpu, (t & PD_SAMPLE_CPU) ? m->cpu : (uint32_t)-1, "sid cpu");
}

/*
 * pd_sample_explain() of a record that fails: a text, whose "at byte N"
 * lies inside the record, and whose "but K are left" adds up to its size.
 */
static void
check_explained(const struct pd_attr *attr, const struct pd_record *rec)
{
	char why[512];
	size_t n = pd_sample_explain(attr, rec, why, sizeof(why));
	const char *at = strstr(why, " at byte ");
	unsigned long long off, left;

	T(n > 0 && n == strlen(why), "%s: cut %" PRIu32 ": explained as \"%s\"",
	  ctx, rec->size, why);
	if (!at || sscanf(at, " at byte %llu", &off) != 1)
		return;
	T(off <= rec->size, "%s: cut %" PRIu32 ": offset past the end: %s",
	  ctx, rec->size, why);
	at = strstr(at, ", but ");
	if (at && sscanf(at, ", but %llu are left", &left) == 1)
		T(off + left == rec->size,
		  "%s: cut %" PRIu32 ": offset and bytes left disagree: %s", ctx,
		  rec->size, why);
}

/*
 * Every cut of the image: its bytes copied into a buffer of exactly that
 * size, header.size patched to match.
 */
/*
 * pd_sample_key_decode() gives what pd_sample_decode() gives, fails when
 * it fails, and declines (1) a sample_type with other fields.
 */
static void
check_key(const struct pd_attr *attr, const struct pd_record *rec)
{
	const uint64_t key_bits = PD_SAMPLE_IDENTIFIER | PD_SAMPLE_IP |
		PD_SAMPLE_TID | PD_SAMPLE_TIME | PD_SAMPLE_ADDR | PD_SAMPLE_ID |
		PD_SAMPLE_STREAM_ID | PD_SAMPLE_CPU | PD_SAMPLE_PERIOD |
		PD_SAMPLE_CALLCHAIN | PD_SAMPLE_RAW;
	struct pd_sample_key k;
	struct pd_sample s;
	int krc = pd_sample_key_decode(attr, rec, &k);
	int rc = pd_sample_decode(attr, rec, &s);
	size_t i;

	if (attr->sample_type & ~key_bits) {
		T(krc == 1, "%s: key decode took other fields: %d", ctx, krc);
		return;
	}
	T(krc == rc, "%s: key decode %d, full decode %d", ctx, krc, rc);
	if (krc || rc)
		return;
	T(k.id == s.id && k.ip == s.ip && k.time == s.time &&
	  k.period == s.period && k.pid == s.pid && k.tid == s.tid &&
	  k.cpu == s.cpu && k.cpumode == s.cpumode &&
	  k.callchain.nr == s.callchain.nr && k.raw.len == s.raw.len &&
	  k.raw.p == s.raw.p, "%s: key fields differ", ctx);
	for (i = 0; i < k.callchain.nr && i < s.callchain.nr; i++)
		T(pd_u64_array_get(&k.callchain, i) ==
		  pd_u64_array_get(&s.callchain, i),
		  "%s: key callchain[%zu] differs", ctx, i);
}

static unsigned int nr_times;

/*
 * pd_sample_id_decode(), checking that pd_sample_time() returns what it
 * does and the same time.
 */
static int
id_decode(const struct pd_attr *attr, const struct pd_record *rec,
	  struct pd_sample_id *id)
{
	uint64_t time = 0;
	int rc = pd_sample_id_decode(attr, rec, id);
	int trc = pd_sample_time(attr, rec, &time);

	T(trc == rc, "%s: pd_sample_time returns %d, not %d", ctx, trc, rc);
	if (rc == 0 && trc == 0)
		T(time == id->time, "%s: pd_sample_time %#llx, not %#llx", ctx,
		  (unsigned long long)time, (unsigned long long)id->time);
	nr_times++;
	return rc;
}

static void
truncations(const struct pd_attr *attr, const struct tbuf *b)
{
	struct pd_sample s;
	struct pd_sample_id id;
	struct pd_record rec;
	size_t cut;
	int rc;

	for (cut = 0; cut < b->len; cut++) {
		unsigned char *copy = cut_rec(&rec, b, cut);

		check_key(attr, &rec);
		rc = pd_sample_decode(attr, &rec, &s);
		T(rc < 0, "%s: cut at %zu of %zu decoded", ctx, cut, b->len);
		if (rc == 0)
			(void)touch_sample(&s);
		else
			check_explained(attr, &rec);
		rc = id_decode(attr, &rec, &id);
		T(rc == 0 || cut < 8 + pd_sample_fixed_size(attr->sample_type),
		  "%s: sample_id at cut %zu: %d", ctx, cut, rc);
		free(copy);
		nr_cuts++;
	}
}

static char ctx_why[512];

/* The stack view starts right after the size word, even for size 0. */
static void
check_stack_view(const struct pd_record *rec, const struct pd_sample *s,
		 const struct model *m, bool big_endian)
{
	const unsigned char *p = s->user_stack.data.p;

	T(p && p >= rec->data + 16 && p <= rec->data + rec->size,
	  "%s: stack view outside the record", ctx);
	if (p)
		EQ(tb_get_uint(p - 8, 8, big_endian), m->stack_size,
		   "the size word before the stack view");
}

static void
run_case(uint64_t sample_type, const struct variant *v, bool big_endian,
	 bool cut)
{
	struct model m;
	struct pd_attr attr;
	struct pd_record rec;
	struct pd_sample s;
	struct pd_sample_id id;
	struct tbuf b;
	int rc;

	snprintf(ctx, sizeof(ctx), "type %#llx %s %s",
		 (unsigned long long)sample_type, v->name,
		 big_endian ? "BE" : "LE");
	model_fill(&m, sample_type, v);
	model_attr(&m, &attr);
	tb_init(&b, big_endian);
	encode(&b, &m);
	make_rec(&rec, &b, b.p, b.len);

	rc = pd_sample_decode(&attr, &rec, &s);
	T(rc == 0, "%s: decode: %d", ctx, rc);
	if (rc == 0)
		check_sample(&m, &s);
	check_key(&attr, &rec);
	if (rc == 0 && (sample_type & PD_SAMPLE_STACK_USER))
		check_stack_view(&rec, &s, &m, big_endian);
	T(pd_sample_explain(&attr, &rec, ctx_why, sizeof(ctx_why)) == 0 &&
	  !ctx_why[0], "%s: a good sample explained: %s", ctx, ctx_why);
	rc = id_decode(&attr, &rec, &id);
	T(rc == 0, "%s: sample_id decode: %d", ctx, rc);
	if (rc == 0)
		check_sample_id(&m, &id);
	nr_images++;
	if (cut)
		truncations(&attr, &b);
	tb_free(&b);
}

static const struct variant plain = {
	.name = "plain", .read_format = PD_FORMAT_ID, .cc_nr = 3,
	.raw_size = 12, .br_nr = 2, .uabi = PD_REGS_ABI_64,
	.iabi = PD_REGS_ABI_64, .stack_size = 16, .aux_size = 8,
};

static const struct variant variants[] = {
	{ .name = "read-one-all", .read_format = PD_FORMAT_TOTAL_TIME_ENABLED |
	  PD_FORMAT_TOTAL_TIME_RUNNING | PD_FORMAT_ID | PD_FORMAT_LOST,
	  .cc_nr = 8, .raw_size = 12, .br_nr = 3, .uabi = 2, .iabi = 2,
	  .stack_size = 24, .aux_size = 16 },
	{ .name = "read-one-bare", .read_format = 0, .cc_nr = 0,
	  .raw_size = 4, .br_nr = 0, .uabi = 0, .iabi = 0, .stack_size = 0,
	  .aux_size = 0 },
	{ .name = "group-all", .read_format = PD_FORMAT_GROUP |
	  PD_FORMAT_TOTAL_TIME_ENABLED | PD_FORMAT_TOTAL_TIME_RUNNING |
	  PD_FORMAT_ID | PD_FORMAT_LOST, .read_nr = 3,
	  .branch_type = PD_BRANCH_HW_INDEX, .cc_nr = 8, .raw_size = 20,
	  .br_nr = 4, .uabi = 2, .iabi = 1, .stack_size = 8, .aux_size = 24 },
	{ .name = "group-id", .read_format = PD_FORMAT_GROUP | PD_FORMAT_ID,
	  .read_nr = 2, .branch_type = PD_BRANCH_COUNTERS, .cc_nr = 1,
	  .raw_size = 28, .br_nr = 4, .uabi = 1, .iabi = 0,
	  .stack_size = 0, .aux_size = 40 },
	{ .name = "group-empty", .read_format = PD_FORMAT_GROUP |
	  PD_FORMAT_LOST, .read_nr = 0, .branch_type = PD_BRANCH_HW_INDEX |
	  PD_BRANCH_COUNTERS, .cc_nr = 8, .raw_size = 12, .br_nr = 3,
	  .uabi = 0, .iabi = 2, .stack_size = 64, .aux_size = 8 },
	{ .name = "hwidx-cntr-empty", .read_format = PD_FORMAT_ID,
	  .branch_type = PD_BRANCH_HW_INDEX | PD_BRANCH_COUNTERS,
	  .cc_nr = 2, .raw_size = 36, .br_nr = 0, .uabi = 2, .iabi = 2,
	  .stack_size = 32, .aux_size = 0 },
	/* not what a kernel writes: every later field is unaligned */
	{ .name = "odd-raw", .read_format = PD_FORMAT_ID, .cc_nr = 3,
	  .raw_size = 5, .br_nr = 2, .branch_type = PD_BRANCH_HW_INDEX |
	  PD_BRANCH_COUNTERS, .uabi = 2, .iabi = 2, .stack_size = 13,
	  .aux_size = 3 },
};

#define ALL_BITS_WEIGHT	(PD_SAMPLE_KNOWN_MASK & ~PD_SAMPLE_WEIGHT_STRUCT)
#define ALL_BITS_WSTRUCT	(PD_SAMPLE_KNOWN_MASK & ~PD_SAMPLE_WEIGHT)

static const uint64_t realistic[] = {
	/* perf record -g */
	PD_SAMPLE_IP | PD_SAMPLE_TID | PD_SAMPLE_TIME | PD_SAMPLE_CALLCHAIN |
	PD_SAMPLE_PERIOD,
	/* the same in pipe mode, and with several events */
	PD_SAMPLE_IP | PD_SAMPLE_TID | PD_SAMPLE_TIME | PD_SAMPLE_ID |
	PD_SAMPLE_PERIOD,
	PD_SAMPLE_IDENTIFIER | PD_SAMPLE_IP | PD_SAMPLE_TID | PD_SAMPLE_TIME |
	PD_SAMPLE_CPU | PD_SAMPLE_PERIOD | PD_SAMPLE_RAW,
	/* perf mem */
	PD_SAMPLE_IP | PD_SAMPLE_TID | PD_SAMPLE_TIME | PD_SAMPLE_ADDR |
	PD_SAMPLE_ID | PD_SAMPLE_CPU | PD_SAMPLE_PERIOD |
	PD_SAMPLE_WEIGHT_STRUCT | PD_SAMPLE_DATA_SRC | PD_SAMPLE_PHYS_ADDR |
	PD_SAMPLE_DATA_PAGE_SIZE,
	/* --call-graph dwarf */
	PD_SAMPLE_IP | PD_SAMPLE_TID | PD_SAMPLE_TIME | PD_SAMPLE_CALLCHAIN |
	PD_SAMPLE_PERIOD | PD_SAMPLE_REGS_USER | PD_SAMPLE_STACK_USER,
	/* -b, --intr-regs, transactions */
	PD_SAMPLE_IP | PD_SAMPLE_TID | PD_SAMPLE_BRANCH_STACK |
	PD_SAMPLE_REGS_INTR | PD_SAMPLE_TRANSACTION | PD_SAMPLE_WEIGHT,
	/* ID and IDENTIFIER both: ID wins, as in perf */
	PD_SAMPLE_IDENTIFIER | PD_SAMPLE_ID | PD_SAMPLE_STREAM_ID |
	PD_SAMPLE_READ | PD_SAMPLE_CGROUP | PD_SAMPLE_CODE_PAGE_SIZE |
	PD_SAMPLE_AUX,
	0,
};

static void
test_layouts(void)
{
	unsigned int bit;
	size_t i, j;
	int be;

	/* every bit alone, both orders, every truncation */
	for (bit = 0; bit < 25; bit++)
		for (be = 0; be < 2; be++)
			run_case(1ULL << bit, &plain, be, true);
	/* everything at once, in every variant */
	for (i = 0; i < ARRAY_SIZE(variants); i++)
		for (be = 0; be < 2; be++) {
			run_case(ALL_BITS_WEIGHT, &variants[i], be, true);
			run_case(ALL_BITS_WSTRUCT, &variants[i], be, true);
		}
	/* what perf writes, in every variant */
	for (i = 0; i < ARRAY_SIZE(realistic); i++)
		for (j = 0; j < ARRAY_SIZE(variants); j++)
			for (be = 0; be < 2; be++)
				run_case(realistic[i], &variants[j], be,
					 j == 0);
	/* pairs of bits: every field next to every other */
	for (bit = 0; bit < 25; bit++) {
		unsigned int other;

		for (other = bit + 1; other < 25; other++) {
			uint64_t t = (1ULL << bit) | (1ULL << other);

			if ((t & PD_SAMPLE_WEIGHT_TYPE) ==
			    PD_SAMPLE_WEIGHT_TYPE)
				continue;
			run_case(t, &variants[other % ARRAY_SIZE(variants)],
				 bit & 1, false);
		}
	}
}

/* A hand-built image for the malformed cases. */
static void
image(struct tbuf *b, bool be, uint64_t sample_type, const uint64_t *words,
      size_t n, struct pd_attr *attr, struct pd_record *rec)
{
	size_t at, i;

	memset(attr, 0, sizeof(*attr));
	attr->sample_type = sample_type;
	attr->sample_regs_user = REGS_USER_MASK;
	attr->read_format = PD_FORMAT_GROUP | PD_FORMAT_ID;
	tb_init(b, be);
	at = tb_begin_record(b, PD_RECORD_SAMPLE, PD_MISC_USER);
	for (i = 0; i < n; i++)
		tb_u64(b, words[i]);
	tb_end_record(b, at);
	make_rec(rec, b, b->p, b->len);
}

static void
expect_rc(bool be, uint64_t sample_type, const uint64_t *words, size_t n,
	  int want, const char *what)
{
	struct pd_attr attr;
	struct pd_record rec;
	struct pd_sample s;
	struct tbuf b;
	int rc;

	image(&b, be, sample_type, words, n, &attr, &rec);
	rc = pd_sample_decode(&attr, &rec, &s);
	T(rc == want, "%s (%s): got %d (%s), want %d", what, be ? "BE" : "LE",
	  rc, pd_strerror(rc), want);
	if (rc == 0)
		(void)touch_sample(&s);
	tb_free(&b);
}

static void
test_malformed(void)
{
	static const uint64_t huge[] = {
		(uint64_t)-1, 1ULL << 63, 1ULL << 61, 1ULL << 59,
		0x0aaaaaaaaaaaaaabULL, 0x100,
	};
	struct pd_attr attr;
	struct pd_record rec;
	struct pd_sample s;
	struct tbuf b;
	uint64_t w[4];
	size_t i;
	int be;

	for (be = 0; be < 2; be++) {
		/* counts that would overflow a multiplication, or just lie */
		for (i = 0; i < ARRAY_SIZE(huge); i++) {
			w[0] = huge[i];
			w[1] = w[2] = w[3] = 0x1111;
			expect_rc(be, PD_SAMPLE_CALLCHAIN, w, 3,
				  -PD_E_BAD_SAMPLE, "callchain nr");
			expect_rc(be, PD_SAMPLE_READ, w, 4, -PD_E_BAD_SAMPLE,
				  "read group nr");
			expect_rc(be, PD_SAMPLE_BRANCH_STACK, w, 4,
				  -PD_E_BAD_SAMPLE, "branch nr");
			expect_rc(be, PD_SAMPLE_AUX, w, 4, -PD_E_BAD_SAMPLE,
				  "aux size");
			expect_rc(be, PD_SAMPLE_STACK_USER, w, 4,
				  -PD_E_BAD_SAMPLE, "stack size");
		}
		/* raw size as large as a u32 goes */
		w[0] = be ? 0xffffffff00000000ULL : 0xffffffffULL;
		expect_rc(be, PD_SAMPLE_RAW, w, 2, -PD_E_BAD_SAMPLE,
			  "raw size");
		/* dyn_size larger than size */
		w[0] = 8;
		w[1] = 0;
		w[2] = 9;
		expect_rc(be, PD_SAMPLE_STACK_USER, w, 3, -PD_E_BAD_SAMPLE,
			  "dyn_size > size");
		w[2] = 8;
		expect_rc(be, PD_SAMPLE_STACK_USER, w, 3, 0,
			  "dyn_size == size");
		/* user regs: abi set, fewer values than the mask has bits */
		w[0] = 2;
		expect_rc(be, PD_SAMPLE_REGS_USER, w, 4, -PD_E_BAD_SAMPLE,
			  "regs short");
		/* abi 0: no values, whatever the mask */
		w[0] = 0;
		expect_rc(be, PD_SAMPLE_REGS_USER, w, 1, 0, "regs abi 0");
		/* trailing bytes are ignored, as perf ignores them */
		expect_rc(be, PD_SAMPLE_IP, w, 3, 0, "trailing bytes");
		/* fixed part shorter than sample_type says */
		expect_rc(be, PD_SAMPLE_IP | PD_SAMPLE_TID | PD_SAMPLE_TIME,
			  w, 2, -PD_E_BAD_SAMPLE, "fixed part");
		/* a sample_type bit beyond what we know */
		expect_rc(be, PD_SAMPLE_IP | PD_SAMPLE_MAX, w, 2,
			  -PD_E_UNSUPPORTED, "unknown bit 25");
		expect_rc(be, PD_SAMPLE_IP | (1ULL << 63), w, 2,
			  -PD_E_UNSUPPORTED, "unknown bit 63");
	}

	/* not a SAMPLE; no attr; below the header */
	image(&b, false, PD_SAMPLE_IP, w, 1, &attr, &rec);
	rec.header.type = PD_RECORD_MMAP;
	T(pd_sample_decode(&attr, &rec, &s) == -PD_E_INVAL, "not a sample");
	rec.header.type = PD_RECORD_SAMPLE;
	T(pd_sample_decode(NULL, &rec, &s) == -PD_E_INVAL, "no attr");
	rec.size = 7;
	T(pd_sample_decode(&attr, &rec, &s) == -PD_E_BAD_SIZE, "size 7");
	rec.data = NULL;
	rec.size = 16;
	T(pd_sample_decode(&attr, &rec, &s) == -PD_E_BAD_SIZE, "no data");
	tb_free(&b);

	/* sample_type 0: an empty body, everything at its default */
	image(&b, true, 0, w, 0, &attr, &rec);
	attr.sample_period = 77;
	T(pd_sample_decode(&attr, &rec, &s) == 0, "empty sample");
	T_EQ_U64(s.period, 77, "empty: period from attr");
	T_EQ_U64(s.data_src, PD_MEM_DATA_SRC_NONE, "empty: data_src");
	T_EQ_U64(s.cpu, (uint32_t)-1, "empty: cpu");
	T_EQ_U64(s.cpumode, PD_MISC_USER, "empty: cpumode");
	tb_free(&b);
}

static void
expect_why(bool be, uint64_t sample_type, const uint64_t *words, size_t n,
	   const char *want)
{
	struct pd_attr attr;
	struct pd_record rec;
	struct pd_sample s;
	struct tbuf b;
	char why[256];
	size_t len;

	image(&b, be, sample_type, words, n, &attr, &rec);
	T(pd_sample_decode(&attr, &rec, &s) < 0, "%s: decodes", want);
	len = pd_sample_explain(&attr, &rec, why, sizeof(why));
	T_EQ_STR(why, want, be ? "explain (BE)" : "explain (LE)");
	T_EQ_U64(len, strlen(want), want);
	tb_free(&b);
}

static void
test_explain(void)
{
	const uint64_t ip_tid_period = PD_SAMPLE_IP | PD_SAMPLE_TID |
				       PD_SAMPLE_PERIOD;
	struct pd_attr attr;
	struct pd_record rec;
	struct tbuf b;
	char why[256], small[12];
	uint64_t w[6] = { 0x1000, 0x2a0000002a, 4000, 1000, 0x1001, 0 };
	size_t n;
	int be;

	for (be = 0; be < 2; be++) {
		/* a callchain nr of 1000 in a 48-byte record */
		expect_why(be, ip_tid_period | PD_SAMPLE_CALLCHAIN, w, 5,
			   "callchain: 1000 entries need 8000 bytes at byte 40 of the record, but 8 are left");
		expect_why(be, PD_SAMPLE_IP | PD_SAMPLE_TID | PD_SAMPLE_TIME,
			   w, 2,
			   "the fixed fields (IDENTIFIER to PERIOD): 24 bytes at byte 8 of the record, but 16 are left");
		expect_why(be, PD_SAMPLE_IP | PD_SAMPLE_WEIGHT, w, 1,
			   "weight: 8 bytes at byte 16 of the record, but 0 are left");
		expect_why(be, ip_tid_period | PD_SAMPLE_CALLCHAIN, w, 3,
			   "callchain nr: 8 bytes at byte 32 of the record, but 0 are left");
		w[0] = (uint64_t)-1;
		expect_why(be, PD_SAMPLE_READ, w, 2,
			   "read group: 18446744073709551615 entries of 16 bytes each at byte 16 of the record overflow a 64-bit size, and 8 bytes are left");
		w[0] = 3;
		expect_why(be, PD_SAMPLE_BRANCH_STACK, w, 2,
			   "branch stack: 3 entries need 72 bytes at byte 16 of the record, but 8 are left");
		w[0] = be ? 0xffffffff00000000ULL : 0xffffffffULL;
		expect_why(be, PD_SAMPLE_RAW, w, 2,
			   "raw: 4294967295 bytes at byte 12 of the record, but 12 are left");
		w[0] = 2;
		expect_why(be, PD_SAMPLE_REGS_USER, w, 4,
			   "user regs: 5 entries need 40 bytes at byte 16 of the record, but 24 are left");
		w[0] = 8;
		w[1] = 0;
		w[2] = 9;
		expect_why(be, PD_SAMPLE_STACK_USER, w, 3,
			   "user stack dyn_size: 9 at byte 24 of the record is larger than the size 8");
		w[0] = 100;
		expect_why(be, PD_SAMPLE_AUX, w, 2,
			   "aux: 100 bytes at byte 16 of the record, but 8 are left");
		w[0] = 0x1000;
		expect_why(be, PD_SAMPLE_IP | PD_SAMPLE_MAX, w, 1,
			   "sample_type 0x2000001: bits 0x2000000 are beyond those pdata knows");
	}

	/* a good sample has nothing to tell; a small buffer is cut */
	image(&b, false, PD_SAMPLE_IP, w, 1, &attr, &rec);
	why[0] = 'x';
	T_EQ_U64(pd_sample_explain(&attr, &rec, why, sizeof(why)), 0,
		 "explain good sample");
	T_EQ_STR(why, "", "explain good sample text");
	attr.sample_type |= PD_SAMPLE_WEIGHT;
	n = pd_sample_explain(&attr, &rec, small, sizeof(small));
	T_EQ_U64(n, strlen("weight: 8 bytes at byte 16 of the record, but 0 are left"),
		 "explain cut: whole length");
	T_EQ_STR(small, "weight: 8 b", "explain cut: text");
	T_EQ_U64(pd_sample_explain(&attr, &rec, NULL, 0), n,
		 "explain measures");
	rec.header.type = PD_RECORD_MMAP;
	pd_sample_explain(&attr, &rec, why, sizeof(why));
	T_EQ_STR(why, "record type 1 is not a SAMPLE (9)", "explain not a sample");
	rec.header.type = PD_RECORD_SAMPLE;
	rec.size = 7;
	pd_sample_explain(&attr, &rec, why, sizeof(why));
	T_EQ_STR(why, "record size 7 is below the 8-byte header",
		 "explain size 7");
	pd_sample_explain(NULL, &rec, why, sizeof(why));
	T_EQ_STR(why, "no attr", "explain no attr");
	tb_free(&b);
}

static void
test_helpers(void)
{
	const uint64_t fixed = PD_SAMPLE_IDENTIFIER | PD_SAMPLE_IP |
		PD_SAMPLE_TID | PD_SAMPLE_TIME | PD_SAMPLE_ADDR |
		PD_SAMPLE_ID | PD_SAMPLE_STREAM_ID | PD_SAMPLE_CPU |
		PD_SAMPLE_PERIOD;

	T(pd_sample_id_pos(PD_SAMPLE_IDENTIFIER | PD_SAMPLE_IP |
			   PD_SAMPLE_ID) == 0, "id_pos identifier");
	T(pd_sample_id_pos(PD_SAMPLE_IP | PD_SAMPLE_TID | PD_SAMPLE_TIME |
			   PD_SAMPLE_ADDR | PD_SAMPLE_ID |
			   PD_SAMPLE_CPU) == 4, "id_pos after 4");
	T(pd_sample_id_pos(PD_SAMPLE_IP | PD_SAMPLE_TID | PD_SAMPLE_TIME |
			   PD_SAMPLE_ID | PD_SAMPLE_PERIOD) == 3,
	  "id_pos 0x147");
	T(pd_sample_id_pos(PD_SAMPLE_ID) == 0, "id_pos id alone");
	T(pd_sample_id_pos(PD_SAMPLE_IP | PD_SAMPLE_TID) == -1,
	  "id_pos none");
	T(pd_sample_is_pos(PD_SAMPLE_IDENTIFIER | PD_SAMPLE_CPU) == 1,
	  "is_pos identifier");
	T(pd_sample_is_pos(PD_SAMPLE_ID | PD_SAMPLE_CPU |
			   PD_SAMPLE_STREAM_ID | PD_SAMPLE_TIME) == 3,
	  "is_pos cpu+stream");
	T(pd_sample_is_pos(PD_SAMPLE_TID | PD_SAMPLE_TIME | PD_SAMPLE_ID) == 1,
	  "is_pos last");
	T(pd_sample_is_pos(PD_SAMPLE_TID | PD_SAMPLE_TIME) == -1,
	  "is_pos none");
	T_EQ_U64(pd_sample_fixed_size(fixed), 72, "fixed size all");
	T_EQ_U64(pd_sample_fixed_size(PD_SAMPLE_KNOWN_MASK), 72,
		 "fixed size known mask");
	T_EQ_U64(pd_sample_fixed_size(PD_SAMPLE_IP | PD_SAMPLE_CALLCHAIN |
				      PD_SAMPLE_WEIGHT), 8, "fixed size ip");
	T_EQ_U64(pd_sample_fixed_size(0), 0, "fixed size none");
	T_EQ_U64(pd_sample_id_trailer_size(PD_SAMPLE_KNOWN_MASK), 48,
		 "trailer all");
	T_EQ_U64(pd_sample_id_trailer_size(PD_SAMPLE_IP | PD_SAMPLE_TID |
					   PD_SAMPLE_TIME), 16,
		 "trailer tid+time");
	T_EQ_U64(pd_sample_id_trailer_size(PD_SAMPLE_IP), 0, "trailer none");
}

/* The sample_id trailer of a non-SAMPLE record, parsed from the end. */
static void
test_trailer(void)
{
	static const struct pd_sample_id vals = {
		.pid = 0x11112222,
		.tid = 0x33334444,
		.time = 0x0102030405060708ULL,
		.id = 0x1d00000000000001ULL,
		.stream_id = 0x5500000000000005ULL,
		.cpu = 3,
		.cpu_res = 0x77,
	};
	static const uint64_t types[] = {
		PD_SAMPLE_TID | PD_SAMPLE_TIME,
		PD_SAMPLE_TID | PD_SAMPLE_TIME | PD_SAMPLE_ID,
		PD_SAMPLE_IP | PD_SAMPLE_TID | PD_SAMPLE_TIME | PD_SAMPLE_CPU |
		PD_SAMPLE_IDENTIFIER | PD_SAMPLE_CALLCHAIN,
		PD_SAMPLE_TID | PD_SAMPLE_TIME | PD_SAMPLE_ID |
		PD_SAMPLE_STREAM_ID | PD_SAMPLE_CPU | PD_SAMPLE_IDENTIFIER,
		PD_SAMPLE_STREAM_ID,
		0,
	};
	struct pd_attr attr;
	struct pd_record rec;
	struct pd_sample_id id;
	struct tbuf b;
	size_t i, at, cut;
	int be, rc;

	for (be = 0; be < 2; be++)
		for (i = 0; i < ARRAY_SIZE(types); i++) {
			uint64_t t = types[i];

			snprintf(ctx, sizeof(ctx), "trailer %#llx %s",
				 (unsigned long long)t, be ? "BE" : "LE");
			memset(&attr, 0, sizeof(attr));
			attr.sample_type = t;
			attr.flags = 1ULL << PD_ATTR_SAMPLE_ID_ALL;
			tb_init(&b, be);
			at = tb_begin_record(&b, PD_RECORD_LOST, 0);
			tb_u64(&b, 0x4242);		/* LOST id */
			tb_u64(&b, 0x4343);		/* LOST lost */
			tb_sample_id(&b, t, &vals);
			tb_end_record(&b, at);
			make_rec(&rec, &b, b.p, b.len);
			rc = id_decode(&attr, &rec, &id);
			T(rc == 0, "%s: rc %d", ctx, rc);
			check_trailer_fields(&id, t, &vals, "");

			/* without sample_id_all: nothing, and no error */
			attr.flags = 0;
			rc = id_decode(&attr, &rec, &id);
			T(rc == 0 && id.type == 0 && id.time == (uint64_t)-1,
			  "%s: no sample_id_all", ctx);
			attr.flags = 1ULL << PD_ATTR_SAMPLE_ID_ALL;

			/* every cut shorter than the trailer fails */
			for (cut = 0; cut < b.len; cut++) {
				unsigned char *copy = malloc(cut ? cut : 1);

				memcpy(copy, b.p, cut);
				make_rec(&rec, &b, copy, cut);
				rc = id_decode(&attr, &rec, &id);
				if (cut < 8)
					T(rc == -PD_E_BAD_SIZE,
					  "%s: cut %zu: %d", ctx, cut, rc);
				else if (cut < 8 + pd_sample_id_trailer_size(t))
					T(rc == -PD_E_BAD_RECORD,
					  "%s: cut %zu: %d", ctx, cut, rc);
				else
					T(rc == 0, "%s: cut %zu: %d", ctx, cut,
					  rc);
				free(copy);
			}
			tb_free(&b);
		}

	/* user records never have a trailer */
	memset(&attr, 0, sizeof(attr));
	attr.sample_type = SAMPLE_ID_BITS;
	attr.flags = 1ULL << PD_ATTR_SAMPLE_ID_ALL;
	tb_init(&b, false);
	at = tb_begin_record(&b, PD_RECORD_FINISHED_ROUND, 0);
	tb_end_record(&b, at);
	make_rec(&rec, &b, b.p, b.len);
	T(id_decode(&attr, &rec, &id) == 0 && id.type == 0,
	  "user record: no trailer");
	T(pd_sample_id_decode(NULL, &rec, &id) == -PD_E_INVAL, "no attr");
	attr.sample_type |= 1ULL << 40;
	rec.header.type = PD_RECORD_MMAP;
	T(id_decode(&attr, &rec, &id) == -PD_E_UNSUPPORTED,
	  "unknown bit");
	tb_free(&b);
}

int
main(void)
{
	test_helpers();
	test_layouts();
	test_malformed();
	test_explain();
	test_trailer();
	printf("sample: %u images, %u truncations, %u times\n", nr_images,
	       nr_cuts, nr_times);
	return t_done("sample");
}
