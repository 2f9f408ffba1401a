/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * tests/fuzz/fuzz-decode.c - libFuzzer target for the record decoders and
 * the text decoders of format/, on one record at a time, in memory.
 *
 * The first HDR_LEN bytes of an input are the attr the record is decoded
 * with (sample_type, read_format, flags, branch_sample_type, register
 * masks, stack size), the record's type, misc and byte order and the arch
 * its registers are named for; the rest is the record's body, behind an
 * 8-byte header made here.  The record goes through pd_sample_decode(),
 * pd_sample_key_decode(), pd_event_decode(), pd_sample_id_decode() (and
 * their explain functions when they fail); the body alone through
 * pd_attr_decode(), pd_feature_parse() of one feature and
 * pd_build_ids_parse().  Every decoded field with a text (data_src,
 * branch entries and flags, weights, transaction, registers, cpumode,
 * misc letters, page sizes, callchain markers, side-band records) is
 * printed by format/text-*.c into a buffer cut at a size taken from the
 * input, so both whole and cut texts are checked.
 */
#include "config.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pdata/abi.h"
#include "pdata/events.h"
#include "pdata/meta.h"
#include "pdata/records.h"
#include "pdata/sample.h"
#include "pdata/text.h"
#include "tests/fuzz/fuzz.h"

/* The input's head: the attr and the record's header fields. */
#define HDR_LEN 52

static const char *const arches[] = {
	"x86_64", "i686", "aarch64", "armv7l", "ppc64le", "s390x",
	"riscv64", "mips64", "loongarch64", "csky", "sparc64", "unknown",
	NULL,
};

struct in {
	const uint8_t *p;
	size_t len;
};

static uint64_t
take(struct in *in, size_t n)
{
	uint64_t v = 0;
	size_t i;

	for (i = 0; i < n && i < in->len; i++)
		v |= (uint64_t)in->p[i] << (8 * i);
	in->p += n < in->len ? n : in->len;
	in->len -= n < in->len ? n : in->len;
	return v;
}

/* A text buffer of cut bytes, so that truncated texts are seen too. */
static char text[1024];
static size_t cut;

static void
put(size_t n)
{
	sink += n;
	if (cut)
		sink += strlen(text);
}

static void
text_u64(uint64_t v)
{
	put(pd_datasrc_mem(text, cut, v));
	put(pd_datasrc_snoop(text, cut, v));
	put(pd_datasrc_tlb(text, cut, v));
	put(pd_datasrc_blk(text, cut, v));
	put(pd_datasrc_decode(text, cut, v));
	put(pd_datasrc_script(text, cut, v));
	sink += strlen(pd_datasrc_op(v)) + strlen(pd_datasrc_lock(v));
	put(pd_transaction_text(text, cut, v));
	put(pd_unit_number_text(text, cut, v));
	put(pd_page_size_text(text, cut, v));
	if (pd_callchain_context_name(v))
		sink++;
}

static void
text_weight(uint64_t w, uint64_t sample_type)
{
	struct pd_weight out;
	unsigned int rule;

	for (rule = PD_WEIGHT_RULE_X86; rule <= PD_WEIGHT_RULE_OTHER; rule++) {
		pd_weight_split(w, sample_type, (enum pd_weight_rule)rule,
				&out);
		sink += out.weight + out.ins_lat + out.p_stage_cyc;
	}
}

static void
text_branches(const struct pd_branch_stack *b)
{
	struct pd_branch_entry e;
	const char *s;
	size_t i;

	for (i = 0; i < b->nr; i++) {
		if (pd_branch_entry_get(b, i, &e))
			continue;
		put(pd_branch_entry_script(text, cut, &e, 0));
		put(pd_branch_entry_script(text, cut, &e,
					   PD_BRSTACK_SPEC | PD_BRSTACK_ARM64));
		s = pd_branch_entry_type(e.flags, i & 1);
		sink += s ? strlen(s) : 0;
		s = pd_branch_type_name(e.type);
		sink += s ? strlen(s) : 0;
		s = pd_branch_new_type_name(e.new_type, i & 1);
		sink += s ? strlen(s) : 0;
		s = pd_branch_spec_name(e.spec);
		sink += s ? strlen(s) : 0;
		s = pd_branch_priv_name(e.priv);
		sink += s ? strlen(s) : 0;
	}
}

static void
text_regs(const char *arch, const struct pd_regs *r)
{
	uint64_t m = r->mask;

	put(pd_regs_script(text, cut, arch, r));
	sink += strlen(pd_regs_abi_name(r->abi));
	while (m) {
		unsigned int reg = (unsigned int)__builtin_ctzll(m);

		sink += strlen(pd_reg_name(arch, reg));
		m &= m - 1;
	}
}

static void
text_sample(const char *arch, const struct pd_sample *s)
{
	size_t i;

	text_u64(s->data_src);
	text_u64(s->transaction);
	text_u64(s->data_page_size);
	text_u64(s->code_page_size);
	text_weight(s->weight, s->type);
	text_branches(&s->branch);
	text_regs(arch, &s->user_regs);
	text_regs(arch, &s->intr_regs);
	for (i = 0; i < s->callchain.nr; i++) {
		uint64_t ip = pd_u64_array_get(&s->callchain, i);

		if (pd_callchain_context_name(ip))
			sink++;
	}
}

static void
decode_sample(const struct pd_attr *attr, const struct pd_record *rec,
	      const char *arch)
{
	struct pd_sample_key key;
	struct pd_sample s;
	char why[256];

	if (pd_sample_decode(attr, rec, &s) == 0) {
		touch_sample(&s);
		text_sample(arch, &s);
	} else {
		sink += pd_sample_explain(attr, rec, why, sizeof(why));
	}
	if (pd_sample_key_decode(attr, rec, &key) == 0) {
		sink += key.id + key.ip + key.time + key.period + key.cpu;
		touch_u64s(&key.callchain);
	}
}

static void
decode_event(const struct pd_attr *attr, const struct pd_record *rec)
{
	union pd_event e;
	char why[256];

	if (pd_event_decode(attr, rec, &e) == 0) {
		touch_event(&e);
		put(pd_event_text(text, cut, rec->header.type, rec->header.misc,
				  &e));
	} else {
		sink += pd_event_explain(attr, rec, why, sizeof(why));
	}
	if (pd_event_decode(NULL, rec, &e) == 0)
		touch_event(&e);
}

static void
decode_record(const struct pd_attr *attr, const struct pd_record *rec,
	      const char *arch)
{
	struct pd_sample_id id;
	char *s;

	put(pd_misc_letters(text, cut, rec->header.type, rec->header.misc));
	put(pd_misc_field(text, cut, rec->header.type, rec->header.misc));
	s = (char *)pd_cpumode_name(rec->header.misc & PD_MISC_CPUMODE_MASK);
	sink += s ? strlen(s) : 0;
	sink += (uint64_t)pd_cpumode_level(rec->header.misc & 7, true);
	if (rec->header.type == PD_RECORD_SAMPLE)
		decode_sample(attr, rec, arch);
	else
		decode_event(attr, rec);
	pd_sample_id_init(&id);
	if (pd_sample_id_decode(attr, rec, &id) == 0)
		sink += id.pid + id.tid + id.time + id.id + id.stream_id;
}

/* The body alone as an attr, a feature section and build-id records. */
static void
decode_body(const uint8_t *p, size_t len, bool swap, unsigned int feat)
{
	static struct pd_meta m;
	struct pd_attr attr;
	char why[256];

	if (pd_attr_decode(p, len, swap, &attr) == 0)
		sink += attr.sample_type + attr.read_format;
	pd_meta_init(&m);
	sink += (uint64_t)pd_feature_parse(&m, feat, p, len, swap, why,
					   sizeof(why));
	pd_meta_free(&m);
	pd_meta_init(&m);
	sink += (uint64_t)pd_build_ids_parse(&m, p, len, swap, why,
					     sizeof(why));
	pd_meta_free(&m);
}

static void
put_header(unsigned char *buf, uint32_t type, uint16_t misc, uint16_t size,
	   bool swap)
{
	if (swap) {
		type = __builtin_bswap32(type);
		misc = __builtin_bswap16(misc);
		size = __builtin_bswap16(size);
	}
	memcpy(buf, &type, 4);
	memcpy(buf + 4, &misc, 2);
	memcpy(buf + 6, &size, 2);
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct in in = { data, size };
	struct pd_attr attr = { 0 };
	struct pd_record rec = { 0 };
	unsigned char *buf;
	unsigned int sel, feat;
	const char *arch;
	size_t body;
	bool swap;

	if (size < HDR_LEN || size - HDR_LEN > PD_RECORD_MAX_SIZE - 8)
		return 0;
	attr.sample_type = take(&in, 8) & PD_SAMPLE_KNOWN_MASK;
	attr.read_format = take(&in, 1);
	attr.flags = take(&in, 8);
	attr.branch_sample_type = take(&in, 8);
	attr.sample_regs_user = take(&in, 8);
	attr.sample_regs_intr = take(&in, 8);
	attr.sample_stack_user = (uint32_t)take(&in, 4);
	attr.sample_period = 1;
	attr.size = PD_ATTR_SIZE_MAX;
	rec.header.type = (uint32_t)take(&in, 1);
	rec.header.misc = (uint16_t)take(&in, 2);
	sel = (unsigned int)take(&in, 1);
	feat = (unsigned int)take(&in, 1);
	cut = (size_t)take(&in, 2) % (sizeof(text) + 1);
	arch = arches[sel % (sizeof(arches) / sizeof(arches[0]))];
	swap = sel & 0x80;
	text_u64(attr.sample_type ^ attr.flags);
	text_weight(attr.branch_sample_type, attr.sample_type);

	body = in.len;
	buf = malloc(8 + body);
	if (!buf)
		abort();
	put_header(buf, rec.header.type, rec.header.misc,
		   (uint16_t)(8 + body), swap);
	memcpy(buf + 8, in.p, body);
	rec.header.size = (uint16_t)(8 + body);
	rec.size = rec.header.size;
	rec.data = buf;
	rec.swap = swap;
	rec.evsel = 0;
	decode_record(&attr, &rec, arch);
	decode_body(buf + 8, body, swap, feat);
	free(buf);
	return 0;
}
