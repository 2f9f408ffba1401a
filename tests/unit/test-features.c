/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * tests/unit/test-features.c - pd_feature_parse() and pd_build_ids_parse()
 * on hand-built payloads of every feature (doc/perf-data-format.md §5),
 * in both byte orders.
 *
 * Each payload is also cut at every length: a cut must give an error,
 * except at the places the builder marks as complete payloads (optional
 * trailing parts, whole build-id records).  Cut payloads are copied into
 * buffers of exactly their size, so a read past the end trips ASan.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "format/feat-int.h"
#include "pdata/errors.h"
#include "pdata/meta.h"
#include "tests/unit/attr.h"
#include "tests/unit/buf.h"
#include "tests/unit/t.h"

#define MAX_CUTS	64

/* Payload lengths at which the payload under construction is complete. */
static size_t ok_cuts[MAX_CUTS];
static size_t nr_ok_cuts;

static void
ok_cut(const struct tbuf *b)
{
	if (nr_ok_cuts < MAX_CUTS)
		ok_cuts[nr_ok_cuts++] = b->len;
}

/* The next eight lengths too: the reader stops with fewer than 8 bytes left. */
static void
ok_next8(const struct tbuf *b)
{
	size_t k;

	for (k = 0; k < 8 && nr_ok_cuts < MAX_CUTS; k++)
		ok_cuts[nr_ok_cuts++] = b->len + k;
}

static bool
is_ok_cut(size_t len)
{
	size_t i;

	for (i = 0; i < nr_ok_cuts; i++)
		if (ok_cuts[i] == len)
			return true;
	return false;
}

static bool
has_bit(const uint64_t *bits, unsigned int feat)
{
	return (bits[feat / 64] >> (feat % 64)) & 1;
}

/* One check that a count is want; true if so, and its entries can be read. */
static bool
count_is(uint64_t got, uint64_t want, const char *ctx)
{
	T_EQ_U64(got, want, ctx);
	return got == want;
}

static int
parse_copy(struct pd_meta *m, unsigned int feat, const unsigned char *p,
	   size_t len, bool be, char *why, size_t why_len)
{
	unsigned char *copy = malloc(len ? len : 1);
	int err;

	if (!copy)
		abort();
	if (len)
		memcpy(copy, p, len);
	err = pd_feature_parse(m, feat, copy, len, be != HOST_BE, why, why_len);
	free(copy);
	return err;
}

/* A value of a payload, and the field of struct pd_meta it goes to. */
struct scalar {
	size_t at;
	unsigned int width;	/* of the field, and in the payload */
	uint64_t value;
};

#define SCALAR(field, v)						\
	{ offsetof(struct pd_meta, field),				\
	  sizeof(((struct pd_meta *)0)->field), (v) }

#define TEXT(field, s)							\
	.text = (s), .text_at = offsetof(struct pd_meta, field)

#define MAX_SCALARS	5

/*
 * A feature, its payload and what parsing it must give.  The payload is
 * what build() writes, else text as a perf_header_string, else scalars;
 * text is then expected at text_at, each scalar in its field, and
 * check() says the rest.
 */
struct fcase {
	const char *name;
	unsigned int feat;
	void (*setup)(struct pd_meta *m, bool be); /* earlier features */
	void (*build)(struct tbuf *b);
	const char *text;
	size_t text_at;			/* a char * of struct pd_meta */
	struct scalar scalars[MAX_SCALARS];
	void (*check)(const struct pd_meta *m, const char *ctx);
	void (*check_absent)(const struct pd_meta *m, const char *ctx);
};

static void
build_payload(const struct fcase *fc, struct tbuf *b)
{
	size_t i;

	if (fc->build)
		fc->build(b);
	else if (fc->text)
		tb_header_string(b, fc->text);
	else
		for (i = 0; i < MAX_SCALARS && fc->scalars[i].width; i++)
			tb_uint(b, fc->scalars[i].value, fc->scalars[i].width);
}

static void
check_parsed(const struct fcase *fc, const struct pd_meta *m, const char *ctx)
{
	const char *base = (const char *)m;
	size_t i;

	if (fc->text)
		T_EQ_STR(*(char *const *)(base + fc->text_at), fc->text, ctx);
	for (i = 0; i < MAX_SCALARS && fc->scalars[i].width; i++) {
		const struct scalar *sc = &fc->scalars[i];
		uint64_t v = 0;

		if (sc->width == 8) {
			memcpy(&v, base + sc->at, 8);
		} else {
			uint32_t v32;

			memcpy(&v32, base + sc->at, 4);
			v = v32;
		}
		T_EQ_U64(v, sc->value, ctx);
	}
	if (fc->check)
		fc->check(m, ctx);
}

static void
run_case(const struct fcase *fc)
{
	int order;

	for (order = 0; order < 2; order++) {
		bool be = order == 1;
		char ctx[96], why[256];
		struct pd_meta m;
		struct tbuf b;
		size_t cut;
		int err;

		tb_init(&b, be);
		nr_ok_cuts = 0;
		build_payload(fc, &b);
		snprintf(ctx, sizeof(ctx), "%s (%s)", fc->name,
			 be ? "BE" : "LE");

		pd_meta_init(&m);
		if (fc->setup)
			fc->setup(&m, be);
		err = parse_copy(&m, fc->feat, b.p, b.len, be, why,
				 sizeof(why));
		T(err == 0, "%s: full payload: %s (%s)", ctx, pd_strerror(err),
		  why);
		T(pd_meta_has(&m, fc->feat), "%s: not marked present", ctx);
		T(!has_bit(m.bad_features, fc->feat), "%s: marked bad", ctx);
		if (!err)
			check_parsed(fc, &m, ctx);
		pd_meta_free(&m);

		for (cut = 0; cut < b.len; cut++) {
			pd_meta_init(&m);
			if (fc->setup)
				fc->setup(&m, be);
			why[0] = 'x';
			why[1] = '\0';
			err = parse_copy(&m, fc->feat, b.p, cut, be, why,
					 sizeof(why));
			if (is_ok_cut(cut)) {
				T(err == 0,
				  "%s: cut at %zu should parse: %s (%s)", ctx,
				  cut, pd_strerror(err), why);
			} else {
				T(err < 0, "%s: cut at %zu parsed", ctx, cut);
				T(strncmp(why, "payload offset ", 15) == 0,
				  "%s: cut at %zu: why is \"%s\"", ctx, cut,
				  why);
				T(has_bit(m.bad_features, fc->feat),
				  "%s: cut at %zu: not marked bad", ctx, cut);
				if (fc->check_absent)
					fc->check_absent(&m, ctx);
			}
			pd_meta_free(&m);
		}
		tb_free(&b);
	}
}

/* Strings, with perf's 64-byte padding unless noted (the others: .text) */

static void
check_no_hostname(const struct pd_meta *m, const char *ctx)
{
	T(m->hostname == NULL, "%s: hostname left behind", ctx);
}

/* len not padded, no NUL: the text is the len bytes */
static void
build_osrelease_raw(struct tbuf *b)
{
	tb_u32(b, 5);
	tb_bytes(b, "6.1.0", 5);
}

static void
build_version_empty(struct tbuf *b)
{
	tb_u32(b, 0);
}

/* the text stops at the first NUL; bytes after it are ignored */
static void
build_arch(struct tbuf *b)
{
	tb_u32(b, 12);
	tb_bytes(b, "x86_64\0junk!", 12);
}

/* Scalars (their values: .scalars) */

static void
check_no_nrcpus(const struct pd_meta *m, const char *ctx)
{
	T(m->nr_cpus_avail == 0 && m->nr_cpus_online == 0, "%s: counts left",
	  ctx);
}

static void
check_no_compressed(const struct pd_meta *m, const char *ctx)
{
	T(m->comp_type == PD_COMP_NONE && m->comp_level == 0 &&
		  m->comp_mmap_len == 0,
	  "%s: fields left", ctx);
}

static void
build_tracing_data(struct tbuf *b)
{
	static const unsigned char magic[] = { 0x17, 0x08, 0x44 };

	static const char tag[] = "tracing0.6";
	size_t i;

	/* the blob is not parsed: any length is fine */
	for (i = 0; i < sizeof(magic); i++) {
		ok_cut(b);
		tb_u8(b, magic[i]);
	}
	for (i = 0; i < sizeof(tag); i++) {
		ok_cut(b);
		tb_u8(b, (uint8_t)tag[i]);
	}
}

static void
check_tracing_data(const struct pd_meta *m, const char *ctx)
{
	T_EQ_U64(m->tracing_data_size, 14, ctx);
}

/* String lists */

static const char *const argv_words[] = {
	"/usr/bin/perf", "record", "-e", "cpu-clock", "--", "sh", "-c",
	"echo 'hi'",
};

static void
build_cmdline(struct tbuf *b)
{
	size_t i;

	tb_u32(b, ARRAY_SIZE(argv_words));
	for (i = 0; i < ARRAY_SIZE(argv_words); i++)
		tb_header_string(b, argv_words[i]);
}

static void
check_cmdline(const struct pd_meta *m, const char *ctx)
{
	size_t i;

	T_EQ_U64(m->cmdline.nr, ARRAY_SIZE(argv_words),
		 ctx);
	for (i = 0; i < m->cmdline.nr; i++)
		T_EQ_STR(m->cmdline.s[i], argv_words[i], ctx);
}

static void
check_no_cmdline(const struct pd_meta *m, const char *ctx)
{
	T(m->cmdline.nr == 0 && m->cmdline.s == NULL, "%s: argv left", ctx);
}

/* EVENT_DESC: attrs laid out as a writer of the buffer's byte order would */

static const struct pd_attr ev0_attr = {
	.type = PD_TYPE_SOFTWARE,
	.config = PD_SW_CPU_CLOCK,
	.sample_period = 4000,
	.sample_type = PD_SAMPLE_IP | PD_SAMPLE_TID | PD_SAMPLE_TIME |
		       PD_SAMPLE_PERIOD,
	.read_format = PD_FORMAT_ID | PD_FORMAT_LOST,
	.flags = (1ULL << PD_ATTR_DISABLED) | (1ULL << PD_ATTR_INHERIT) |
		 (1ULL << PD_ATTR_FREQ) | (1ULL << PD_ATTR_PRECISE_IP) |
		 (1ULL << PD_ATTR_SAMPLE_ID_ALL) |
		 (1ULL << PD_ATTR_USE_CLOCKID) | (1ULL << PD_ATTR_BPF_EVENT),
	.wakeup_events = 3,
	.config1 = 0x1234,
	.config2 = 0xa7c3dddd00000000ULL,
	.branch_sample_type = PD_BRANCH_ANY | PD_BRANCH_HW_INDEX,
	.sample_regs_user = 0xff0fff,
	.sample_stack_user = 8192,
	.clockid = 1,
	.sample_regs_intr = 0x3,
	.aux_watermark = 4096,
	.sample_max_stack = 127,
	.aux_sample_size = 64,
	.aux_action = PD_AUX_PAUSE,
	.sig_data = 0xdeadbeefULL,
	.config3 = 0x77,
};

static const struct pd_attr ev1_attr = {
	.type = PD_TYPE_HARDWARE,
	.config = PD_HW_INSTRUCTIONS,
	.sample_period = 100003,
	.sample_type = PD_SAMPLE_IP | PD_SAMPLE_IDENTIFIER,
	.flags = (3ULL << PD_ATTR_PRECISE_IP) |
		 (1ULL << PD_ATTR_EXCLUDE_KERNEL),
};

static void
build_event_desc_sized(struct tbuf *b, uint32_t attr_size)
{
	tb_u32(b, 2);
	tb_u32(b, attr_size);
	tb_attr(b, &ev0_attr, attr_size, attr_size, 0);
	tb_u32(b, 3);
	tb_header_string(b, "cpu-clock:u");
	tb_u64(b, 549);
	tb_u64(b, 550);
	tb_u64(b, 1ULL << 40);
	tb_attr(b, &ev1_attr, attr_size, attr_size, 0);
	tb_u32(b, 0);
	tb_header_string(b, "instructions:ppp");
}

static void
build_event_desc(struct tbuf *b)
{
	build_event_desc_sized(b, PD_ATTR_SIZE_VER8);
}

static void
build_event_desc_v0(struct tbuf *b)
{
	build_event_desc_sized(b, PD_ATTR_SIZE_VER0);
}

static void
check_attr_common(const struct pd_attr *a, const struct pd_attr *want,
		  uint32_t attr_size, const char *ctx)
{
	T_EQ_U64(a->type, want->type, ctx);
	T_EQ_U64(a->size, attr_size, ctx);
	T_EQ_U64(a->config, want->config, ctx);
	T_EQ_U64(a->sample_period, want->sample_period, ctx);
	T_EQ_U64(a->sample_type, want->sample_type, ctx);
	T_EQ_U64(a->read_format, want->read_format, ctx);
	T_EQ_U64(a->flags, want->flags, ctx);
	T_EQ_U64(a->wakeup_events, want->wakeup_events, ctx);
	T_EQ_U64(a->config1, want->config1, ctx);
}

static void
check_event_desc_sized(const struct pd_meta *m, const char *ctx, uint32_t size)
{
	const struct pd_event_desc *e;
	bool full = size >= PD_ATTR_SIZE_VER8;

	if (!count_is(m->nr_event_desc, 2, ctx))
		return;
	e = &m->event_desc[0];
	check_attr_common(&e->attr, &ev0_attr, size, ctx);
	T_EQ_U64(pd_attr_precise_ip(&e->attr), 1, ctx);
	T_EQ_U64(e->attr.config2, full ? ev0_attr.config2 : 0, ctx);
	T_EQ_U64(e->attr.branch_sample_type,
		 full ? ev0_attr.branch_sample_type : 0, ctx);
	T_EQ_U64(e->attr.sample_regs_user, full ? ev0_attr.sample_regs_user : 0,
		 ctx);
	T_EQ_U64(e->attr.sample_stack_user,
		 full ? ev0_attr.sample_stack_user : 0, ctx);
	T_EQ_U64((uint32_t)e->attr.clockid, full ? 1 : 0, ctx);
	T_EQ_U64(e->attr.sample_regs_intr, full ? 3 : 0, ctx);
	T_EQ_U64(e->attr.aux_watermark, full ? 4096 : 0, ctx);
	T_EQ_U64(e->attr.sample_max_stack, full ? 127 : 0, ctx);
	T_EQ_U64(e->attr.aux_sample_size, full ? 64 : 0, ctx);
	T_EQ_U64(e->attr.aux_action, full ? PD_AUX_PAUSE : 0, ctx);
	T_EQ_U64(e->attr.sig_data, full ? 0xdeadbeefULL : 0, ctx);
	T_EQ_U64(e->attr.config3, full ? 0x77 : 0, ctx);
	T_EQ_STR(e->name, "cpu-clock:u", ctx);
	if (count_is(e->nr_ids, 3, ctx)) {
		T_EQ_U64(e->ids[0], 549, ctx);
		T_EQ_U64(e->ids[1], 550, ctx);
		T_EQ_U64(e->ids[2], 1ULL << 40, ctx);
	}
	e = &m->event_desc[1];
	check_attr_common(&e->attr, &ev1_attr, size, ctx);
	T_EQ_U64(pd_attr_precise_ip(&e->attr), 3, ctx);
	T_EQ_STR(e->name, "instructions:ppp", ctx);
	T(e->nr_ids == 0 && e->ids == NULL, "%s: ids of event 1", ctx);
}

static void
check_event_desc(const struct pd_meta *m, const char *ctx)
{
	check_event_desc_sized(m, ctx, PD_ATTR_SIZE_VER8);
}

static void
check_event_desc_v0(const struct pd_meta *m, const char *ctx)
{
	check_event_desc_sized(m, ctx, PD_ATTR_SIZE_VER0);
}

static void
check_no_event_desc(const struct pd_meta *m, const char *ctx)
{
	T(m->event_desc == NULL && m->nr_event_desc == 0, "%s: events left",
	  ctx);
}

/* CPU_TOPOLOGY: 4 CPUs from NRCPUS, then lists, ids and dies */

static void
setup_nrcpus4(struct pd_meta *m, bool be)
{
	struct tbuf b;
	int err;

	tb_init(&b, be);
	tb_u32(&b, 4);
	tb_u32(&b, 4);
	err = parse_copy(m, PD_FEAT_NRCPUS, b.p, b.len, be, NULL, 0);
	T(err == 0, "NRCPUS setup: %s", pd_strerror(err));
	tb_free(&b);
}

static void
build_topo_lists(struct tbuf *b)
{
	tb_u32(b, 2);
	tb_header_string(b, "0-1");
	tb_header_string(b, "2-3");
	tb_u32(b, 2);
	tb_header_string(b, "0,2");
	tb_header_string(b, "1,3");
}

static void
build_topo_full(struct tbuf *b)
{
	uint32_t i;

	build_topo_lists(b);
	ok_cut(b);
	for (i = 0; i < 4; i++) {
		tb_u32(b, i / 2 + 10);		    /* core */
		tb_u32(b, i < 2 ? 0 : 0xffffffffU); /* socket, -1 allowed */
	}
	ok_cut(b);
	tb_u32(b, 1);
	tb_header_string(b, "0-3");
	for (i = 0; i < 4; i++)
		tb_u32(b, 7 + i);
}

static void
check_topo_lists(const struct pd_meta *m, const char *ctx)
{
	if (count_is(m->package_cpus.nr, 2, ctx)) {
		T_EQ_STR(m->package_cpus.s[0], "0-1", ctx);
		T_EQ_STR(m->package_cpus.s[1], "2-3", ctx);
	}
	if (count_is(m->thread_cpus.nr, 2, ctx)) {
		T_EQ_STR(m->thread_cpus.s[0], "0,2", ctx);
		T_EQ_STR(m->thread_cpus.s[1], "1,3", ctx);
	}
}

static void
check_topo_full(const struct pd_meta *m, const char *ctx)
{
	size_t i;

	check_topo_lists(m, ctx);
	T(m->topo_has_ids && m->topo_has_die, "%s: optional parts missed", ctx);
	T_EQ_U64(m->nr_topo_cpus, 4, ctx);
	for (i = 0; i < m->nr_topo_cpus; i++) {
		T_EQ_U64(m->topo_cpus[i].core_id, i / 2 + 10, ctx);
		T_EQ_U64(m->topo_cpus[i].socket_id, i < 2 ? 0 : 0xffffffffU,
			 ctx);
		T_EQ_U64(m->topo_cpus[i].die_id, 7 + i, ctx);
	}
	if (count_is(m->die_cpus.nr, 1, ctx))
		T_EQ_STR(m->die_cpus.s[0], "0-3", ctx);
}

static void
check_topo_only_lists(const struct pd_meta *m, const char *ctx)
{
	check_topo_lists(m, ctx);
	T(!m->topo_has_ids && !m->topo_has_die && !m->topo_cpus,
	  "%s: optional parts invented", ctx);
}

static void
check_no_topo(const struct pd_meta *m, const char *ctx)
{
	T(!m->package_cpus.nr && !m->thread_cpus.nr && !m->die_cpus.nr &&
		  !m->topo_cpus && !m->topo_has_ids && !m->topo_has_die,
	  "%s: topology left", ctx);
}

/*
 * Strings padded to 4 instead of 64: perf's size estimate exceeds the
 * payload, so it sees no ids; neither do we (§5.8).
 */
static void
build_topo_short_pad(struct tbuf *b)
{
	uint32_t i;

	tb_u32(b, 1);
	tb_u32(b, 4);
	tb_bytes(b, "0-3", 4);
	tb_u32(b, 1);
	tb_u32(b, 4);
	tb_bytes(b, "0-3", 4);
	for (i = 0; i < 4 * 8; i++) {
		ok_cut(b);
		tb_u8(b, (uint8_t)(i % 8 == 0 ? i / 8 : 0));
	}
}

static void
check_topo_short_pad(const struct pd_meta *m, const char *ctx)
{
	T(!m->topo_has_ids, "%s: perf would not see these ids", ctx);
	T_EQ_U64(m->package_cpus.nr, 1, ctx);
}

/* NUMA_TOPOLOGY */

static void
build_numa(struct tbuf *b)
{
	tb_u32(b, 2);
	tb_u32(b, 0);
	tb_u64(b, 32791336);
	tb_u64(b, 31378016);
	tb_header_string(b, "0-15");
	tb_u32(b, 3);
	tb_u64(b, 1024);
	tb_u64(b, 0);
	tb_u32(b, 0); /* an empty cpu list, len 0 */
}

static void
check_numa(const struct pd_meta *m, const char *ctx)
{
	if (!count_is(m->nr_numa_nodes, 2, ctx))
		return;
	T_EQ_U64(m->numa_nodes[0].node, 0, ctx);
	T_EQ_U64(m->numa_nodes[0].mem_total_kb, 32791336, ctx);
	T_EQ_U64(m->numa_nodes[0].mem_free_kb, 31378016, ctx);
	T_EQ_STR(m->numa_nodes[0].cpus, "0-15", ctx);
	T_EQ_U64(m->numa_nodes[1].node, 3, ctx);
	T_EQ_U64(m->numa_nodes[1].mem_total_kb, 1024, ctx);
	T_EQ_STR(m->numa_nodes[1].cpus, "", ctx);
}

static void
check_no_numa(const struct pd_meta *m, const char *ctx)
{
	T(!m->numa_nodes && !m->nr_numa_nodes, "%s: nodes left", ctx);
}

/* PMU_MAPPINGS, GROUP_DESC, AUXTRACE */

static const struct {
	uint32_t type;
	const char *name;
} pmu_mappings[] = {
	{ 1, "software" }, { 2, "tracepoint" }, { 10, "armv8_pmuv3_0" },
};

static void
build_pmu_mappings(struct tbuf *b)
{
	size_t i;

	tb_u32(b, ARRAY_SIZE(pmu_mappings));
	for (i = 0; i < ARRAY_SIZE(pmu_mappings); i++) {
		tb_u32(b, pmu_mappings[i].type);
		tb_header_string(b, pmu_mappings[i].name);
	}
}

static void
check_pmu_mappings(const struct pd_meta *m, const char *ctx)
{
	size_t i;

	if (!count_is(m->nr_pmu_mappings, ARRAY_SIZE(pmu_mappings), ctx))
		return;
	for (i = 0; i < ARRAY_SIZE(pmu_mappings); i++) {
		T_EQ_U64(m->pmu_mappings[i].type, pmu_mappings[i].type, ctx);
		T_EQ_STR(m->pmu_mappings[i].name, pmu_mappings[i].name, ctx);
	}
}

static void
build_group_desc(struct tbuf *b)
{
	tb_u32(b, 2);
	tb_header_string(b, "{anon_group}");
	tb_u32(b, 0);
	tb_u32(b, 2);
	tb_header_string(b, "mygroup");
	tb_u32(b, 2);
	tb_u32(b, 3);
}

static void
check_group_desc(const struct pd_meta *m, const char *ctx)
{
	if (!count_is(m->nr_groups, 2, ctx))
		return;
	T_EQ_STR(m->groups[0].name, "{anon_group}", ctx);
	T_EQ_U64(m->groups[0].leader_idx, 0, ctx);
	T_EQ_U64(m->groups[0].nr_members, 2, ctx);
	T_EQ_STR(m->groups[1].name, "mygroup", ctx);
	T_EQ_U64(m->groups[1].leader_idx, 2, ctx);
	T_EQ_U64(m->groups[1].nr_members, 3, ctx);
}

static void
build_auxtrace(struct tbuf *b)
{
	tb_u64(b, 2);
	tb_u64(b, 0x26a8);
	tb_u64(b, 0x30);
	tb_u64(b, 0x1000000000ULL);
	tb_u64(b, 0x40);
}

static void
check_auxtrace(const struct pd_meta *m, const char *ctx)
{
	if (!count_is(m->nr_auxtrace, 2, ctx))
		return;
	T_EQ_U64(m->auxtrace[0].file_offset, 0x26a8, ctx);
	T_EQ_U64(m->auxtrace[0].size, 0x30, ctx);
	T_EQ_U64(m->auxtrace[1].file_offset, 0x1000000000ULL, ctx);
	T_EQ_U64(m->auxtrace[1].size, 0x40, ctx);
}

/* CACHE, MEM_TOPOLOGY, HYBRID_TOPOLOGY */

static void
build_cache(struct tbuf *b)
{
	tb_u32(b, 1);
	tb_u32(b, 2);
	tb_u32(b, 1);
	tb_u32(b, 64);
	tb_u32(b, 64);
	tb_u32(b, 12);
	tb_header_string(b, "Data");
	tb_header_string(b, "48K");
	tb_header_string(b, "0-1");
	tb_u32(b, 3);
	tb_u32(b, 64);
	tb_u32(b, 16384);
	tb_u32(b, 12);
	tb_header_string(b, "Unified");
	tb_header_string(b, "12288K");
	tb_header_string(b, "0-11");
}

static void
check_cache(const struct pd_meta *m, const char *ctx)
{
	const struct pd_cache_level *c;

	T_EQ_U64(m->cache_version, 1, ctx);
	if (!count_is(m->nr_caches, 2, ctx))
		return;
	c = &m->caches[0];
	T(c->level == 1 && c->line_size == 64 && c->sets == 64 && c->ways == 12,
	  "%s: L1 numbers", ctx);
	T_EQ_STR(c->type, "Data", ctx);
	T_EQ_STR(c->size, "48K", ctx);
	T_EQ_STR(c->map, "0-1", ctx);
	c = &m->caches[1];
	T(c->level == 3 && c->line_size == 64 && c->sets == 16384 &&
		  c->ways == 12,
	  "%s: L3 numbers", ctx);
	T_EQ_STR(c->type, "Unified", ctx);
	T_EQ_STR(c->size, "12288K", ctx);
	T_EQ_STR(c->map, "0-11", ctx);
}

static void
check_no_cache(const struct pd_meta *m, const char *ctx)
{
	T(!m->caches && !m->nr_caches && !m->cache_version, "%s: cache left",
	  ctx);
}

static void
build_mem_topology(struct tbuf *b)
{
	tb_u64(b, 1);
	tb_u64(b, 0x8000000);
	tb_u64(b, 2);
	tb_u64(b, 0);
	tb_u64(b, 100);
	tb_u64(b, 100); /* bitmap: 100 bits, 2 words */
	tb_u64(b, 0xffffffULL);
	tb_u64(b, 0xf00000000ULL);
	tb_u64(b, 1);
	tb_u64(b, 0);
	tb_u64(b, 0); /* an empty bitmap */
}

static void
check_mem_topology(const struct pd_meta *m, const char *ctx)
{
	T_EQ_U64(m->mem_version, 1, ctx);
	T_EQ_U64(m->mem_block_size, 0x8000000, ctx);
	if (!count_is(m->nr_mem_nodes, 2, ctx))
		return;
	T_EQ_U64(m->mem_nodes[0].node, 0, ctx);
	T_EQ_U64(m->mem_nodes[0].size, 100, ctx);
	T_EQ_U64(m->mem_nodes[0].bitmap[0], 0xffffff, ctx);
	T_EQ_U64(m->mem_nodes[0].bitmap[1], 0xf00000000ULL, ctx);
	T_EQ_U64(m->mem_nodes[1].node, 1, ctx);
	T_EQ_U64(m->mem_nodes[1].size, 0, ctx);
	T(m->mem_nodes[1].bitmap == NULL, "%s: bitmap of 0 bits", ctx);
}

/* A count, then that many pairs of perf_header_strings. */
static void
tb_string_pairs(struct tbuf *b, const char *const (*pairs)[2], size_t n)
{
	size_t i;

	tb_u32(b, (uint32_t)n);
	for (i = 0; i < n; i++) {
		tb_header_string(b, pairs[i][0]);
		tb_header_string(b, pairs[i][1]);
	}
}

/*
 * What tb_string_pairs() wrote, parsed into nr structs of stride bytes
 * at arr, each with its two strings at off0 and off1.
 */
static void
check_string_pairs(const void *arr, size_t nr, size_t stride, size_t off0,
		   size_t off1, const char *const (*pairs)[2], size_t n,
		   const char *ctx)
{
	size_t i;

	if (!count_is(nr, n, ctx))
		return;
	for (i = 0; i < n; i++) {
		const char *e = (const char *)arr + i * stride;

		T_EQ_STR(*(char *const *)(e + off0), pairs[i][0], ctx);
		T_EQ_STR(*(char *const *)(e + off1), pairs[i][1], ctx);
	}
}

#define CHECK_STRING_PAIRS(arr, nr, field0, field1, pairs, ctx)		\
	check_string_pairs((arr), (nr), sizeof(*(arr)),			\
			   offsetof(__typeof__(*(arr)), field0),	\
			   offsetof(__typeof__(*(arr)), field1),	\
			   (pairs), ARRAY_SIZE(pairs), (ctx))

static const char *const hybrid_nodes[][2] = {
	{ "cpu_core", "0-3" }, { "cpu_atom", "4-11" },
};

static void
build_hybrid(struct tbuf *b)
{
	tb_string_pairs(b, hybrid_nodes, ARRAY_SIZE(hybrid_nodes));
}

static void
check_hybrid(const struct pd_meta *m, const char *ctx)
{
	CHECK_STRING_PAIRS(m->hybrid_nodes, m->nr_hybrid_nodes, pmu_name, cpus,
			   hybrid_nodes, ctx);
}

/* CPU_PMU_CAPS, PMU_CAPS */

static const char *const cpu_pmu_caps[][2] = {
	{ "branches", "32" }, { "pmu_name", "skylake" },
};

static void
build_cpu_pmu_caps(struct tbuf *b)
{
	tb_string_pairs(b, cpu_pmu_caps, ARRAY_SIZE(cpu_pmu_caps));
}

static void
check_cpu_pmu_caps(const struct pd_meta *m, const char *ctx)
{
	CHECK_STRING_PAIRS(m->cpu_pmu_caps, m->nr_cpu_pmu_caps, name, value,
			   cpu_pmu_caps, ctx);
}

static void
build_pmu_caps(struct tbuf *b)
{
	tb_u32(b, 2);
	tb_u32(b, 1);
	tb_header_string(b, "max_precise");
	tb_header_string(b, "3");
	tb_header_string(b, "cpu_core");
	tb_u32(b, 0);
	tb_header_string(b, "intel_pt");
}

static void
check_pmu_caps(const struct pd_meta *m, const char *ctx)
{
	if (!count_is(m->nr_pmu_caps, 2, ctx))
		return;
	T_EQ_STR(m->pmu_caps[0].pmu_name, "cpu_core", ctx);
	if (count_is(m->pmu_caps[0].nr_caps, 1, ctx)) {
		T_EQ_STR(m->pmu_caps[0].caps[0].name, "max_precise", ctx);
		T_EQ_STR(m->pmu_caps[0].caps[0].value, "3", ctx);
	}
	T_EQ_STR(m->pmu_caps[1].pmu_name, "intel_pt", ctx);
	T(m->pmu_caps[1].nr_caps == 0 && m->pmu_caps[1].caps == NULL,
	  "%s: caps of intel_pt", ctx);
}

/* CPU_DOMAIN_INFO, with and without domain names (schedstat 17) */

static void
build_domains(struct tbuf *b, uint32_t version)
{
	uint32_t cpu, d;

	tb_u32(b, version);
	tb_u32(b, 2);
	ok_next8(b);
	for (cpu = 0; cpu < 2; cpu++) {
		tb_u32(b, cpu * 2);
		tb_u32(b, 2);
		for (d = 0; d < 2; d++) {
			tb_u32(b, d);
			if (version >= 17)
				tb_header_string(b, d ? "PKG" : "SMT");
			tb_header_string(b, d ? "ff" : "03");
			tb_header_string(b, d ? "0-7" : "0-1");
		}
		ok_next8(b);
	}
	/* pipe-mode padding: fewer than 8 bytes are not an entry */
	tb_zeros(b, 4);
}

static void
build_domains_v17(struct tbuf *b)
{
	build_domains(b, 17);
}

static void
build_domains_v16(struct tbuf *b)
{
	build_domains(b, 16);
}

static void
check_domains(const struct pd_meta *m, const char *ctx, bool named)
{
	size_t cpu, d;

	T_EQ_U64(m->schedstat_version, named ? 17 : 16, ctx);
	T_EQ_U64(m->max_sched_domains, 2, ctx);
	T_EQ_U64(m->nr_cpu_domains, 2, ctx);
	for (cpu = 0; cpu < m->nr_cpu_domains; cpu++) {
		const struct pd_cpu_domains *cd = &m->cpu_domains[cpu];

		T_EQ_U64(cd->cpu, cpu * 2, ctx);
		T_EQ_U64(cd->nr_domains, 2, ctx);
		for (d = 0; d < cd->nr_domains; d++) {
			T_EQ_U64(cd->domains[d].domain, d, ctx);
			if (named)
				T_EQ_STR(cd->domains[d].dname,
					 d ? "PKG" : "SMT", ctx);
			else
				T(cd->domains[d].dname == NULL, "%s: dname",
				  ctx);
			T_EQ_STR(cd->domains[d].cpumask, d ? "ff" : "03", ctx);
			T_EQ_STR(cd->domains[d].cpulist, d ? "0-7" : "0-1",
				 ctx);
		}
	}
}

static void
check_domains_v17(const struct pd_meta *m, const char *ctx)
{
	check_domains(m, ctx, true);
}

static void
check_domains_v16(const struct pd_meta *m, const char *ctx)
{
	check_domains(m, ctx, false);
}

/* BPF_PROG_INFO and BPF_BTF */

#define BPI_SIZE	232

/* A BTF blob: [1] int, [2] func_proto, [3] FUNC main_fn, [4] FUNC sub_fn */
static void
tb_btf(struct tbuf *b)
{
	static const char strs[] = "\0int\0main_fn\0sub_fn";
	uint32_t type_len = 16 + 20 + 12 + 12;

	tb_u16(b, 0xeb9f);
	tb_u8(b, 1);
	tb_u8(b, 0);
	tb_u32(b, 24);
	tb_u32(b, 0);
	tb_u32(b, type_len);
	tb_u32(b, type_len);
	tb_u32(b, sizeof(strs));
	tb_u32(b, 1); /* int */
	tb_u32(b, 1U << 24);
	tb_u32(b, 4);
	tb_u32(b, 0x20);
	tb_u32(b, 0); /* func_proto, 1 param */
	tb_u32(b, 13U << 24 | 1);
	tb_u32(b, 1);
	tb_u32(b, 0);
	tb_u32(b, 1);
	tb_u32(b, 5); /* FUNC main_fn */
	tb_u32(b, 12U << 24);
	tb_u32(b, 2);
	tb_u32(b, 13); /* FUNC sub_fn */
	tb_u32(b, 12U << 24);
	tb_u32(b, 2);
	tb_bytes(b, strs, sizeof(strs));
}

static void
build_bpf_prog_info(struct tbuf *b)
{
	static const unsigned char tags[2][8] = {
		{ 0x53, 0x0f, 0x69, 0x19, 0x0e, 0x63, 0xcf, 0xa0 },
		{ 1, 2, 3, 4, 5, 6, 7, 8 },
	};
	size_t info;

	tb_u32(b, 2);
	/* program 7: two sub-programs, all arrays */
	tb_u32(b, BPI_SIZE);
	tb_u32(b, 56);
	tb_u64(b, 1U << 3 | 1U << 4 | 1U << 5 | 1U << 8);
	info = b->len;
	tb_zeros(b, BPI_SIZE);
	tb_patch(b, info + 4, 7, 4);
	memcpy(b->p + info + 64, "my_prog_name_16c", 16); /* no NUL */
	tb_patch(b, info + 104, 2, 4);
	tb_patch(b, info + 108, 2, 4);
	tb_patch(b, info + 112, 0, 8);
	tb_patch(b, info + 120, 16, 8);
	tb_patch(b, info + 128, 42, 4);
	tb_patch(b, info + 132, 8, 4);
	tb_patch(b, info + 136, 40, 8);
	tb_patch(b, info + 144, 2, 4);
	tb_patch(b, info + 180, 2, 4);
	tb_patch(b, info + 184, 24, 8);
	tb_u64(b, 0xffffffffc0248588ULL);
	tb_u64(b, 0xffffffffc02441b8ULL);
	tb_u32(b, 72);
	tb_u32(b, 249);
	tb_bytes(b, tags, sizeof(tags));
	tb_u32(b, 0);
	tb_u32(b, 3);
	tb_u32(b, 12);
	tb_u32(b, 4);
	/* program 9: an old, short info without arrays */
	tb_u32(b, 80);
	tb_u32(b, 0);
	tb_u64(b, 0);
	info = b->len;
	tb_zeros(b, 80);
	tb_patch(b, info + 4, 9, 4);
	memcpy(b->p + info + 64, "short", 5);
}

static void
check_bpf_prog_info(const struct pd_meta *m, const char *ctx)
{
	const struct pd_bpf_prog_info *p;
	struct pd_bpf_subprog sp;

	if (!count_is(m->nr_bpf_progs, 2, ctx))
		return;
	p = &m->bpf_progs[0];
	T_EQ_U64(p->id, 7, ctx);
	T_EQ_U64(p->btf_id, 42, ctx);
	T_EQ_STR(p->name, "my_prog_name_16c", ctx);
	T_EQ_U64(p->nr_jited_ksyms, 2, ctx);
	T_EQ_U64(p->info_len, BPI_SIZE, ctx);
	T_EQ_U64(p->data_len, 56, ctx);
	T(pd_bpf_subprog_get(p, 0, &sp) == 0, "%s: subprog 0", ctx);
	T_EQ_U64(sp.addr, 0xffffffffc0248588ULL, ctx);
	T_EQ_U64(sp.len, 72, ctx);
	T(sp.tag[0] == 0x53 && sp.tag[7] == 0xa0, "%s: tag 0", ctx);
	T(sp.has_func && sp.func_type_id == 3, "%s: func 0", ctx);
	T(pd_bpf_subprog_get(p, 1, &sp) == 0, "%s: subprog 1", ctx);
	T_EQ_U64(sp.addr, 0xffffffffc02441b8ULL, ctx);
	T_EQ_U64(sp.len, 249, ctx);
	T(sp.tag[0] == 1 && sp.tag[7] == 8, "%s: tag 1", ctx);
	T(sp.has_func && sp.func_type_id == 4, "%s: func 1", ctx);
	T(pd_bpf_subprog_get(p, 2, &sp) < 0, "%s: subprog 2 exists", ctx);
	p = &m->bpf_progs[1];
	T_EQ_U64(p->id, 9, ctx);
	T_EQ_STR(p->name, "short", ctx);
	T_EQ_U64(p->btf_id, 0, ctx);
	T_EQ_U64(p->nr_jited_ksyms, 0, ctx);
	T(pd_bpf_subprog_get(p, 0, &sp) < 0, "%s: arrays of a short info", ctx);
}

static void
build_bpf_btf(struct tbuf *b)
{
	size_t at;

	tb_u32(b, 2);
	tb_u32(b, 42);
	at = b->len;
	tb_u32(b, 0);
	tb_btf(b);
	tb_patch(b, at, b->len - at - 4, 4);
	tb_u32(b, 43);
	tb_u32(b, 3);
	tb_bytes(b, "bad", 3);
}

static void
check_bpf_btf(const struct pd_meta *m, const char *ctx)
{
	const struct pd_bpf_btf *btf;

	T_EQ_U64(m->nr_bpf_btfs, 2, ctx);
	btf = pd_meta_find_btf(m, 42);
	T(btf != NULL, "%s: btf 42", ctx);
	if (btf) {
		T_EQ_STR(pd_btf_type_name(btf, 3), "main_fn", ctx);
		T_EQ_STR(pd_btf_type_name(btf, 4), "sub_fn", ctx);
		T_EQ_STR(pd_btf_type_name(btf, 1), "int", ctx);
		T_EQ_STR(pd_btf_type_name(btf, 0), "", ctx);
		T(pd_btf_type_name(btf, 5) == NULL, "%s: type 5", ctx);
	}
	btf = pd_meta_find_btf(m, 43);
	T(btf && btf->data_size == 3, "%s: btf 43", ctx);
	if (btf)
		T(pd_btf_type_name(btf, 0) == NULL, "%s: bad BTF read", ctx);
	T(pd_meta_find_btf(m, 44) == NULL, "%s: btf 44", ctx);
}

/* BUILD_ID */

static const uint8_t bid20[20] = {
	0x93, 0xac, 0x61, 0xec, 0x5a, 0x8e, 0xb1, 0x39, 0x6f, 0x9f,
	0xbd, 0x35, 0x0e, 0x31, 0x69, 0xa5, 0x58, 0x52, 0x8a, 0x40,
};

enum bid_pad { PAD_NAME64, PAD_NAME8, PAD_ALL8, PAD_612 };

static void
tb_bid(struct tbuf *b, uint16_t misc, int32_t pid, uint8_t idsize,
       const char *name, enum bid_pad pad, size_t trailer)
{
	size_t at = b->len, n = strlen(name) + 1, name_len;

	switch (pad) {
	case PAD_NAME64:
		name_len = (n + 63) / 64 * 64;
		break;
	case PAD_NAME8:
		name_len = (n + 7) / 8 * 8;
		break;
	default:
		name_len = (36 + n + 7) / 8 * 8 - 36;
		break;
	}
	tb_u32(b, 0);
	tb_u16(b, misc);
	tb_u16(b, 0);
	tb_u32(b, (uint32_t)pid);
	tb_bytes(b, bid20, idsize);
	tb_zeros(b, 20 - idsize);
	tb_u8(b, idsize);
	tb_zeros(b, 3);
	tb_bytes(b, name, n);
	tb_zeros(b, name_len - n);
	tb_zeros(b, trailer);
	/* with PAD_612 the caller appends the 36 bytes the size leaves out */
	tb_patch(b, at + 6, b->len - at, 2);
}

static void
build_build_ids(struct tbuf *b)
{
	ok_cut(b);
	tb_bid(b, PD_MISC_KERNEL | PD_MISC_BUILD_ID_SIZE, -1, 20,
	       "[kernel.kallsyms]", PAD_NAME64, 0);
	ok_cut(b);
	tb_bid(b, PD_MISC_USER | PD_MISC_BUILD_ID_SIZE, -1, 16,
	       "/usr/lib/libmd5.so", PAD_NAME8, 0);
	ok_cut(b);
	tb_bid(b, PD_MISC_USER, 1234, 20, "/usr/bin/x", PAD_ALL8, 24);
	ok_cut(b);
	tb_bid(b, PD_MISC_GUEST_KERNEL | PD_MISC_BUILD_ID_SIZE, 0, 20,
	       "[guest.kernel.kallsyms]", PAD_NAME64, 0);
	ok_cut(b);
}

static void
check_build_ids(const struct pd_meta *m, const char *ctx)
{
	const struct pd_build_id *bi = m->build_ids;

	if (!count_is(m->nr_build_ids, 4, ctx))
		return;
	T_EQ_U64(bi[0].misc, PD_MISC_KERNEL | PD_MISC_BUILD_ID_SIZE, ctx);
	T_EQ_U64((uint32_t)bi[0].pid, 0xffffffffU, ctx);
	T_EQ_U64(bi[0].size, 20, ctx);
	T(memcmp(bi[0].id, bid20, 20) == 0, "%s: id 0", ctx);
	T_EQ_STR(bi[0].filename, "[kernel.kallsyms]", ctx);
	T_EQ_U64(bi[1].size, 16, ctx);
	T(memcmp(bi[1].id, bid20, 16) == 0, "%s: id 1", ctx);
	T_EQ_STR(bi[1].filename, "/usr/lib/libmd5.so", ctx);
	T_EQ_U64(bi[2].misc, PD_MISC_USER, ctx);
	T_EQ_U64(bi[2].pid, 1234, ctx);
	T_EQ_U64(bi[2].size, 20, ctx);
	T_EQ_STR(bi[2].filename, "/usr/bin/x", ctx);
	T_EQ_U64(bi[3].pid, 0, ctx);
	T_EQ_STR(bi[3].filename, "[guest.kernel.kallsyms]", ctx);
}

static void
check_no_build_ids(const struct pd_meta *m, const char *ctx)
{
	T(m->nr_build_ids == 0, "%s: %zu build ids appended from a bad payload",
	  ctx, m->nr_build_ids);
}

static void
build_build_ids_612(struct tbuf *b)
{
	ok_cut(b);
	tb_bid(b, PD_MISC_KERNEL | PD_MISC_BUILD_ID_SIZE, -1, 20,
	       "[kernel.kallsyms]", PAD_612, 0);
	ok_cut(b);
	tb_zeros(b, 36);
	ok_cut(b);
	tb_bid(b, PD_MISC_USER | PD_MISC_BUILD_ID_SIZE, -1, 20,
	       "/lib/libc.so.6", PAD_612, 0);
	ok_cut(b);
	tb_zeros(b, 36);
}

static void
check_build_ids_612(const struct pd_meta *m, const char *ctx)
{
	if (count_is(m->nr_build_ids, 2, ctx)) {
		T_EQ_STR(m->build_ids[0].filename, "[kernel.kallsyms]", ctx);
		T_EQ_STR(m->build_ids[1].filename, "/lib/libc.so.6", ctx);
	}
}

/* The pre-pid layout: header, 24 id bytes, name (§5.2) */
static void
tb_old_bid(struct tbuf *b, uint16_t misc, const char *name)
{
	size_t at = b->len, n = strlen(name) + 1;

	tb_u32(b, 0);
	tb_u16(b, misc);
	tb_u16(b, 0);
	tb_bytes(b, bid20, 20);
	tb_zeros(b, 4);
	tb_bytes(b, name, n);
	tb_zeros(b, (n + 63) / 64 * 64 - n);
	tb_patch(b, at + 6, b->len - at, 2);
}

static void
build_build_ids_old(struct tbuf *b)
{
	ok_cut(b);
	tb_old_bid(b, PD_MISC_KERNEL, "[kernel.kallsyms]");
	/* shorter cuts no longer look like the old layout */
	ok_cut(b);
	tb_old_bid(b, PD_MISC_GUEST_USER, "/bin/guest");
	ok_cut(b);
	tb_old_bid(b, PD_MISC_USER, "/bin/host");
}

static void
check_build_ids_old(const struct pd_meta *m, const char *ctx)
{
	if (!count_is(m->nr_build_ids, 3, ctx))
		return;
	T_EQ_STR(m->build_ids[0].filename, "[kernel.kallsyms]", ctx);
	T_EQ_U64((uint32_t)m->build_ids[0].pid, 0xffffffffU, ctx);
	T(memcmp(m->build_ids[0].id, bid20, 20) == 0, "%s: old id", ctx);
	T_EQ_U64(m->build_ids[0].size, 20, ctx);
	T_EQ_STR(m->build_ids[1].filename, "/bin/guest", ctx);
	T_EQ_U64(m->build_ids[1].pid, 0, ctx);
	T_EQ_STR(m->build_ids[2].filename, "/bin/host", ctx);
	T_EQ_U64((uint32_t)m->build_ids[2].pid, 0xffffffffU, ctx);
}

static const struct fcase cases[] = {
	{ .name = "HOSTNAME", .feat = PD_FEAT_HOSTNAME,
	  TEXT(hostname, "build-host.example"),
	  .check_absent = check_no_hostname },
	{ .name = "OSRELEASE unpadded", .feat = PD_FEAT_OSRELEASE,
	  .build = build_osrelease_raw, TEXT(os_release, "6.1.0") },
	{ .name = "VERSION empty", .feat = PD_FEAT_VERSION,
	  .build = build_version_empty, TEXT(version, "") },
	{ .name = "ARCH", .feat = PD_FEAT_ARCH, .build = build_arch,
	  TEXT(arch, "x86_64") },
	{ .name = "CPUDESC", .feat = PD_FEAT_CPUDESC,
	  TEXT(cpu_desc, "Intel(R) Xeon(R) CPU @ 2.20GHz") },
	{ .name = "CPUID", .feat = PD_FEAT_CPUID,
	  TEXT(cpuid, "GenuineIntel,6,143,8") },
	{ .name = "NRCPUS", .feat = PD_FEAT_NRCPUS,
	  .scalars = { SCALAR(nr_cpus_avail, 8), SCALAR(nr_cpus_online, 6) },
	  .check_absent = check_no_nrcpus },
	{ .name = "TOTAL_MEM", .feat = PD_FEAT_TOTAL_MEM,
	  .scalars = { SCALAR(total_mem_kb, 32791336) } },
	{ .name = "CMDLINE", .feat = PD_FEAT_CMDLINE, .build = build_cmdline,
	  .check = check_cmdline, .check_absent = check_no_cmdline },
	{ .name = "EVENT_DESC", .feat = PD_FEAT_EVENT_DESC,
	  .build = build_event_desc, .check = check_event_desc,
	  .check_absent = check_no_event_desc },
	{ .name = "EVENT_DESC attr 64", .feat = PD_FEAT_EVENT_DESC,
	  .build = build_event_desc_v0, .check = check_event_desc_v0,
	  .check_absent = check_no_event_desc },
	{ .name = "CPU_TOPOLOGY", .feat = PD_FEAT_CPU_TOPOLOGY,
	  .setup = setup_nrcpus4, .build = build_topo_full,
	  .check = check_topo_full, .check_absent = check_no_topo },
	{ .name = "CPU_TOPOLOGY lists only", .feat = PD_FEAT_CPU_TOPOLOGY,
	  .setup = setup_nrcpus4, .build = build_topo_lists,
	  .check = check_topo_only_lists, .check_absent = check_no_topo },
	{ .name = "CPU_TOPOLOGY short padding", .feat = PD_FEAT_CPU_TOPOLOGY,
	  .setup = setup_nrcpus4, .build = build_topo_short_pad,
	  .check = check_topo_short_pad, .check_absent = check_no_topo },
	{ .name = "NUMA_TOPOLOGY", .feat = PD_FEAT_NUMA_TOPOLOGY,
	  .build = build_numa, .check = check_numa,
	  .check_absent = check_no_numa },
	/* empty payloads */
	{ .name = "BRANCH_STACK", .feat = PD_FEAT_BRANCH_STACK },
	{ .name = "STAT", .feat = PD_FEAT_STAT },
	{ .name = "PMU_MAPPINGS", .feat = PD_FEAT_PMU_MAPPINGS,
	  .build = build_pmu_mappings, .check = check_pmu_mappings },
	{ .name = "GROUP_DESC", .feat = PD_FEAT_GROUP_DESC,
	  .build = build_group_desc, .check = check_group_desc },
	{ .name = "AUXTRACE", .feat = PD_FEAT_AUXTRACE, .build = build_auxtrace,
	  .check = check_auxtrace },
	{ .name = "CACHE", .feat = PD_FEAT_CACHE, .build = build_cache,
	  .check = check_cache, .check_absent = check_no_cache },
	{ .name = "SAMPLE_TIME", .feat = PD_FEAT_SAMPLE_TIME,
	  .scalars = { SCALAR(first_sample_time, 101132490123ULL),
		       SCALAR(last_sample_time, 101132592456ULL) } },
	{ .name = "MEM_TOPOLOGY", .feat = PD_FEAT_MEM_TOPOLOGY,
	  .build = build_mem_topology, .check = check_mem_topology },
	{ .name = "CLOCKID", .feat = PD_FEAT_CLOCKID,
	  .scalars = { SCALAR(clockid_res_ns, 1) } },
	{ .name = "DIR_FORMAT", .feat = PD_FEAT_DIR_FORMAT,
	  .scalars = { SCALAR(dir_format_version, 1) } },
	{ .name = "BPF_PROG_INFO", .feat = PD_FEAT_BPF_PROG_INFO,
	  .build = build_bpf_prog_info, .check = check_bpf_prog_info },
	{ .name = "BPF_BTF", .feat = PD_FEAT_BPF_BTF, .build = build_bpf_btf,
	  .check = check_bpf_btf },
	{ .name = "COMPRESSED", .feat = PD_FEAT_COMPRESSED,
	  .scalars = { SCALAR(comp_version, 0), SCALAR(comp_type, PD_COMP_ZSTD),
		       SCALAR(comp_level, 3), SCALAR(comp_ratio, 2),
		       SCALAR(comp_mmap_len, 528384) },
	  .check_absent = check_no_compressed },
	{ .name = "CPU_PMU_CAPS", .feat = PD_FEAT_CPU_PMU_CAPS,
	  .build = build_cpu_pmu_caps, .check = check_cpu_pmu_caps },
	{ .name = "CLOCK_DATA", .feat = PD_FEAT_CLOCK_DATA,
	  .scalars = { SCALAR(clock_data_version, 1),
		       SCALAR(clock_data_clockid, 1),
		       SCALAR(clock_tod_ns, 1767545218014657123ULL),
		       SCALAR(clock_clockid_ns, 405068949598ULL) } },
	{ .name = "HYBRID_TOPOLOGY", .feat = PD_FEAT_HYBRID_TOPOLOGY,
	  .build = build_hybrid, .check = check_hybrid },
	{ .name = "PMU_CAPS", .feat = PD_FEAT_PMU_CAPS, .build = build_pmu_caps,
	  .check = check_pmu_caps },
	{ .name = "CPU_DOMAIN_INFO v17", .feat = PD_FEAT_CPU_DOMAIN_INFO,
	  .build = build_domains_v17, .check = check_domains_v17 },
	{ .name = "CPU_DOMAIN_INFO v16", .feat = PD_FEAT_CPU_DOMAIN_INFO,
	  .build = build_domains_v16, .check = check_domains_v16 },
	{ .name = "TRACING_DATA", .feat = PD_FEAT_TRACING_DATA,
	  .build = build_tracing_data, .check = check_tracing_data },
	{ .name = "BUILD_ID", .feat = PD_FEAT_BUILD_ID,
	  .build = build_build_ids, .check = check_build_ids,
	  .check_absent = check_no_build_ids },
	{ .name = "BUILD_ID perf 6.12", .feat = PD_FEAT_BUILD_ID,
	  .build = build_build_ids_612, .check = check_build_ids_612,
	  .check_absent = check_no_build_ids },
	{ .name = "BUILD_ID pre-pid", .feat = PD_FEAT_BUILD_ID,
	  .build = build_build_ids_old, .check = check_build_ids_old,
	  .check_absent = check_no_build_ids },
};

/*
 * Payloads whose first count is huge: the parser must refuse them from
 * the payload length alone (ASan aborts on an oversized allocation).
 */
struct huge {
	const char *name;
	unsigned int feat;
	unsigned int count_width; /* 4 or 8 */
	unsigned int lead;	  /* u32 words before the count */
	uint32_t lead_value;
};

static const struct huge huges[] = {
	{ .name = "CMDLINE", .feat = PD_FEAT_CMDLINE, .count_width = 4 },
	{ .name = "EVENT_DESC", .feat = PD_FEAT_EVENT_DESC, .count_width = 4 },
	{ .name = "NUMA_TOPOLOGY", .feat = PD_FEAT_NUMA_TOPOLOGY,
	  .count_width = 4 },
	{ .name = "PMU_MAPPINGS", .feat = PD_FEAT_PMU_MAPPINGS,
	  .count_width = 4 },
	{ .name = "GROUP_DESC", .feat = PD_FEAT_GROUP_DESC, .count_width = 4 },
	{ .name = "AUXTRACE", .feat = PD_FEAT_AUXTRACE, .count_width = 8 },
	{ .name = "CACHE", .feat = PD_FEAT_CACHE, .count_width = 4,
	  .lead = 1, .lead_value = 1 },
	{ .name = "HYBRID_TOPOLOGY", .feat = PD_FEAT_HYBRID_TOPOLOGY,
	  .count_width = 4 },
	{ .name = "CPU_PMU_CAPS", .feat = PD_FEAT_CPU_PMU_CAPS,
	  .count_width = 4 },
	{ .name = "PMU_CAPS", .feat = PD_FEAT_PMU_CAPS, .count_width = 4 },
	{ .name = "BPF_PROG_INFO", .feat = PD_FEAT_BPF_PROG_INFO,
	  .count_width = 4 },
	{ .name = "BPF_BTF", .feat = PD_FEAT_BPF_BTF, .count_width = 4 },
	{ .name = "CPU_TOPOLOGY", .feat = PD_FEAT_CPU_TOPOLOGY,
	  .count_width = 4 },
};

static void
test_huge_counts(void)
{
	static const uint64_t counts[] = { 0xffffffffULL, 0x10000000ULL,
					   0x7fffffffULL,
					   0xffffffffffffffffULL };
	size_t i, j;
	int order;

	for (order = 0; order < 2; order++) {
		for (i = 0; i < ARRAY_SIZE(huges); i++) {
			for (j = 0; j < ARRAY_SIZE(counts);
			     j++) {
				const struct huge *h = &huges[i];
				struct pd_meta m;
				struct tbuf b;
				char why[256];
				unsigned int k;
				int err;

				tb_init(&b, order == 1);
				for (k = 0; k < h->lead; k++)
					tb_u32(&b, h->lead_value);
				if (h->count_width == 8)
					tb_u64(&b, counts[j]);
				else
					tb_u32(&b, (uint32_t)counts[j]);
				if (h->feat == PD_FEAT_EVENT_DESC)
					tb_u32(&b, 64);
				tb_zeros(&b, 20);
				pd_meta_init(&m);
				err = parse_copy(&m, h->feat, b.p, b.len,
						 order == 1, why, sizeof(why));
				T(err < 0, "%s: count %#llx accepted", h->name,
				  (unsigned long long)counts[j]);
				pd_meta_free(&m);
				tb_free(&b);
			}
		}
	}
}

/* Hand-picked malformed payloads. */
static void
expect_error(const char *name, unsigned int feat, struct tbuf *b, int want)
{
	struct pd_meta m;
	char why[256];
	int err;

	pd_meta_init(&m);
	err = parse_copy(&m, feat, b->p, b->len, b->big_endian, why,
			 sizeof(why));
	T(err == want, "%s: got %s, want %s (%s)", name, pd_strerror(err),
	  pd_strerror(want), why);
	T(strncmp(why, "payload offset ", 15) == 0, "%s: why \"%s\"", name,
	  why);
	pd_meta_free(&m);
	tb_free(b);
}

static void
test_malformed(void)
{
	struct tbuf b;

	tb_init(&b, false);
	tb_u32(&b, 0xffffffffU);
	tb_bytes(&b, "abc", 4);
	expect_error("string length 4G", PD_FEAT_HOSTNAME, &b, -PD_E_TRUNCATED);

	tb_init(&b, true);
	tb_u32(&b, 65);
	tb_zeros(&b, 64);
	expect_error("string one byte short", PD_FEAT_HOSTNAME, &b,
		     -PD_E_TRUNCATED);

	tb_init(&b, false);
	tb_u32(&b, 2);
	tb_u32(&b, 1);
	tb_u32(&b, 5);
	expect_error("CACHE version 2", PD_FEAT_CACHE, &b, -PD_E_BAD_FEATURE);

	tb_init(&b, false);
	tb_u64(&b, 2);
	tb_u64(&b, 4096);
	tb_u64(&b, 0);
	expect_error("MEM_TOPOLOGY version 2", PD_FEAT_MEM_TOPOLOGY, &b,
		     -PD_E_BAD_FEATURE);

	tb_init(&b, false);
	tb_u64(&b, 1);
	tb_u64(&b, 4096);
	tb_u64(&b, 1);
	tb_u64(&b, 0);
	tb_u64(&b, 0);
	tb_u64(&b, 0xffffffffffffffffULL);
	tb_zeros(&b, 64);
	expect_error("MEM_TOPOLOGY 2^64 bits", PD_FEAT_MEM_TOPOLOGY, &b,
		     -PD_E_BAD_FEATURE);

	tb_init(&b, true);
	tb_u32(&b, 7);
	tb_zeros(&b, 20);
	expect_error("CLOCK_DATA version 7", PD_FEAT_CLOCK_DATA, &b,
		     -PD_E_BAD_FEATURE);

	tb_init(&b, false);
	tb_u32(&b, 1);
	tb_u32(&b, 32);
	tb_zeros(&b, 64);
	expect_error("EVENT_DESC attr size 32", PD_FEAT_EVENT_DESC, &b,
		     -PD_E_BAD_FEATURE);

	/* attr size + 8 would wrap to 0 in 32 bits, skipping the check */
	tb_init(&b, false);
	tb_u32(&b, 1);
	tb_u32(&b, 0xfffffff8U);
	tb_zeros(&b, 64);
	expect_error("EVENT_DESC attr size 2^32 - 8", PD_FEAT_EVENT_DESC, &b,
		     -PD_E_BAD_FEATURE);

	/* AUXTRACE as simpleperf writes it, no count; perf rejects it too */
	tb_init(&b, false);
	tb_u64(&b, 0x26a8);
	tb_u64(&b, 0x30);
	expect_error("AUXTRACE without count", PD_FEAT_AUXTRACE, &b,
		     -PD_E_BAD_FEATURE);

	tb_init(&b, false);
	tb_bid(&b, PD_MISC_USER | PD_MISC_BUILD_ID_SIZE, -1, 20, "/x",
	       PAD_NAME8, 0);
	b.p[32] = 21;
	expect_error("build-id size 21", PD_FEAT_BUILD_ID, &b,
		     -PD_E_BAD_FEATURE);

	tb_init(&b, false);
	tb_bid(&b, PD_MISC_USER, -1, 20, "/x", PAD_NAME8, 0);
	tb_patch(&b, 6, 20, 2);
	expect_error("build-id record of 20 bytes", PD_FEAT_BUILD_ID, &b,
		     -PD_E_BAD_FEATURE);

	tb_init(&b, false);
	tb_bid(&b, PD_MISC_USER, -1, 20, "/x", PAD_NAME8, 0);
	tb_u32(&b, 0x43);
	tb_u16(&b, 0);
	tb_u16(&b, 0);
	expect_error("build-id record of size 0", PD_FEAT_BUILD_ID, &b,
		     -PD_E_BAD_FEATURE);
}

/* why names the offset of the item that is wrong, not of the payload's end */
static void
test_why_offset(void)
{
	struct pd_meta m;
	struct tbuf b;
	char why[256];
	int err;

	pd_meta_init(&m);
	tb_init(&b, true);
	tb_u32(&b, 2);
	tb_header_string(&b, "/usr/bin/perf");
	tb_u32(&b, 1000);
	tb_zeros(&b, 64);
	err = parse_copy(&m, PD_FEAT_CMDLINE, b.p, b.len, true, why,
			 sizeof(why));
	T(err == -PD_E_TRUNCATED, "CMDLINE: %s", pd_strerror(err));
	T(strncmp(why, "payload offset 72: ", 19) == 0, "CMDLINE why: %s", why);
	tb_free(&b);
	pd_meta_free(&m);
}

static void
test_replace_and_unknown(void)
{
	struct pd_meta m;
	struct tbuf b;
	char why[256];
	int err;

	pd_meta_init(&m);
	tb_init(&b, false);
	tb_header_string(&b, "first");
	err = pd_feature_parse(&m, PD_FEAT_HOSTNAME, b.p, b.len, false, why,
			       sizeof(why));
	T(err == 0, "first hostname");
	tb_free(&b);
	tb_init(&b, false);
	tb_header_string(&b, "second");
	err = pd_feature_parse(&m, PD_FEAT_HOSTNAME, b.p, b.len, false, why,
			       sizeof(why));
	T(err == 0, "second hostname");
	T_EQ_STR(m.hostname, "second",
		 "a later payload replaces an earlier one");
	err = pd_feature_parse(&m, PD_FEAT_HOSTNAME, b.p, 3, false, why,
			       sizeof(why));
	T(err < 0 && m.hostname == NULL,
	  "a bad payload leaves the field absent");
	T(has_bit(m.bad_features, PD_FEAT_HOSTNAME), "bad bit");
	err = pd_feature_parse(&m, PD_FEAT_HOSTNAME, b.p, b.len, false, why,
			       sizeof(why));
	T(err == 0 && !has_bit(m.bad_features, PD_FEAT_HOSTNAME),
	  "a good payload clears the bad bit");
	tb_free(&b);

	err = pd_feature_parse(&m, 129, "xyz", 3, false, why, sizeof(why));
	T(err == 0 && pd_meta_has(&m, 129), "simpleperf feature 129");
	err = pd_feature_parse(&m, 129, "xyz", 3, false, why, sizeof(why));
	T(m.nr_unknown_features == 1 && m.unknown_features[0] == 129,
	  "unknown ids are listed once");
	err = pd_feature_parse(&m, PD_FEAT_BITS, "xyz", 3, false, why,
			       sizeof(why));
	T(err == -PD_E_INVAL, "feature 256");
	err = pd_feature_parse(&m, PD_FEAT_STAT, NULL, 0, false, NULL, 0);
	T(err == 0 && pd_meta_has(&m, PD_FEAT_STAT), "STAT with no buffer");
	err = pd_feature_parse(&m, PD_FEAT_NRCPUS, NULL, 0, false, NULL, 0);
	T(err == -PD_E_TRUNCATED, "NRCPUS with no buffer and no why");

	T_EQ_STR(pd_feature_name(PD_FEAT_HOSTNAME), "HOSTNAME", "name");
	T_EQ_STR(pd_feature_name(PD_FEAT_BPF_PROG_INFO), "BPF_PROG_INFO",
		 "name");
	T_EQ_STR(pd_feature_name(PD_FEAT_CPU_DOMAIN_INFO), "CPU_DOMAIN_INFO",
		 "name");
	T(pd_feature_name(0) == NULL && pd_feature_name(33) == NULL &&
		  pd_feature_name(1000) == NULL,
	  "unnamed ids");
	pd_meta_free(&m);
}

/* HEADER_BUILD_ID records accumulate with the feature's. */
static void
test_build_id_append(void)
{
	struct pd_meta m;
	struct tbuf b;
	int err;

	pd_meta_init(&m);
	tb_init(&b, true);
	tb_bid(&b, PD_MISC_KERNEL | PD_MISC_BUILD_ID_SIZE, -1, 20,
	       "[kernel.kallsyms]", PAD_NAME64, 0);
	err = pd_build_ids_parse(&m, b.p, b.len, !HOST_BE, NULL, 0);
	T(err == 0 && m.nr_build_ids == 1, "first record");
	b.p[0] = 0x43; /* a HEADER_BUILD_ID record: type 67 */
	err = pd_build_ids_parse(&m, b.p, b.len, !HOST_BE, NULL, 0);
	T(err == 0 && m.nr_build_ids == 2, "second record");
	err = pd_build_ids_parse(&m, b.p, 20, !HOST_BE, NULL, 0);
	T(err < 0 && m.nr_build_ids == 2, "a cut record appends nothing");
	tb_free(&b);
	pd_meta_free(&m);
}

/* pd_feat_check_count(), the guard of every allocation sized by the file */
static void
test_check_count(void)
{
	static const unsigned char payload[16];
	struct pd_meta m;
	char why[128];
	struct feat_ctx x = {
		.m = &m,
		.feat = PD_FEAT_CACHE,
		.why = why,
		.why_len = sizeof(why),
	};

	pd_meta_init(&m);
	cur_init(&x.c, payload, sizeof(payload), false);
	T(pd_feat_check_count(&x, 0, 2, 8, "words") == 0, "2 of 8 in 16");
	T(pd_feat_check_count(&x, 4, 3, 8, "words") == -PD_E_BAD_FEATURE,
	  "3 of 8 in 16");
	T_EQ_STR(why, "payload offset 4: 3 words need at least 8 bytes each, but only 16 bytes are left",
		 "check count why");
	/* an item size of 0 is the caller's bug, not "no check" */
	T(pd_feat_check_count(&x, 0, 0, 0, "nothings") == -PD_E_INVAL,
	  "item size 0");
	T_EQ_STR(why, "payload offset 0: nothings: checked with an item size of 0",
		 "item size 0 why");
	T(pd_feat_check_count(&x, 0, 1, (uint64_t)UINT32_MAX + 8, "events") ==
	  -PD_E_BAD_FEATURE, "an item past 4 GiB");
	pd_meta_free(&m);
}

int
main(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		run_case(&cases[i]);
	test_huge_counts();
	test_malformed();
	test_check_count();
	test_why_offset();
	test_replace_and_unknown();
	test_build_id_append();
	return t_done("features");
}
