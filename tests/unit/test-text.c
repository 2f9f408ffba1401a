/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * tests/unit/test-text.c - the text decoders of pdata/text.h.
 *
 * Rows marked V61 are real perf 6.1.187 output, from the tables of
 * doc/perf-records.md (§3.10, §4.3, §4.4, §4.5, §5.2) or from
 * tests/fixtures/simpleperf/perf_with_arm_regs.data.perf-script.txt.xz.
 * The other rows follow perf 6.1's source for edge cases no recording
 * has (all bits set, unknown values, buffers too small).
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "pdata/text.h"
#include "tests/unit/t.h"

/* Check a snprintf-style call: its text, its return value, its NUL. */
#define T_TEXT(call_len, buf, want, what)				\
	do {								\
		size_t t_n_ = (call_len);				\
		T_EQ_STR((buf), (want), (what));			\
		T_EQ_U64(t_n_, strlen(want), (what));			\
	} while (0)

/* data_src rows: value, then mem, snoop, tlb, lock, blk; NULL = not checked */
static const struct datasrc_row {
	uint64_t v;
	const char *mem, *snoop, *tlb, *lock, *blk;
} datasrc_v61[] = {
	/* V61: `perf report --mem-mode` rows and the "Memory access" table */
	{ 0x29100142, "L1 hit", "None", "L1 hit", "N/A", " N/A" },
	{ 0x4a080242, "LFB/MAB hit", "N/A", "L2 hit", "Yes", " N/A" },
	{ 0x68800842, "L3 hit", "HitM", "L1 or L2 hit", NULL, NULL },
	{ 0x90201042, "Local RAM hit", "Hit", "Walker miss", NULL, NULL },
	{ 0x110808042, "Remote Cache (1 hop) hit", "HitM", "Fault miss", "No",
	  " N/A" },
	{ 0x10a400200042, "Remote node, same socket L2 hit", "Hit or Peer",
	  "N/A", "No", " N/A" },
	{ 0x65600000084, "Any cache miss", "Fwd", NULL, NULL, " Data Addr" },
	{ 0x10a00000048, "L5 hit", NULL, NULL, NULL, NULL },
	{ 0x11e05080021, "N/A or N/A", NULL, NULL, NULL, NULL },
	{ 0, "N/A", NULL, NULL, NULL, NULL },
	{ 0x1000040090, "Uncached or L8 miss", NULL, NULL, NULL, NULL },
	{ 0xe00000042, "L7 hit", NULL, NULL, NULL, NULL },
	{ 0x600546, "L1 or L2 hit", "Hit or Miss", "N/A", "No", " N/A" },
};

static const struct datasrc_row datasrc_edges[] = {
	/* data_src 0 (no field set): lock 0 is "No", the rest N/A */
	{ 0, "N/A", "N/A", "N/A", "No", " N/A" },
	/* what perf assumes without DATA_SRC */
	{ PD_MEM_DATA_SRC_NONE, "N/A", "N/A", "N/A", "N/A", " N/A" },
	/* every level bit, no hops */
	{ 0x3fffULL << PD_MEM_LVL_SHIFT,
	  "N/A or L1 or LFB/MAB or L2 or L3 or Local RAM or "
	  "Remote RAM (1 hop) or Remote RAM (2 hops) or "
	  "Remote Cache (1 hop) or "
	  "Remote Cache (2 hops) or I/O or Uncached hit miss",
	  NULL, NULL, NULL, NULL },
	/* remote alone stays "Remote ", not "N/A" */
	{ 1ULL << PD_MEM_REMOTE_SHIFT, "Remote ", NULL, NULL, NULL, NULL },
	/* hops replace the level bits; a level number follows without " or " */
	{ (3ULL << PD_MEM_HOPS_SHIFT) | (0x8ULL << PD_MEM_LVL_SHIFT) |
	  (0xdULL << PD_MEM_LVLNUM_SHIFT), "socket, same board RAM",
	  NULL, NULL, NULL, NULL },
	{ (4ULL << PD_MEM_HOPS_SHIFT) | (1ULL << PD_MEM_REMOTE_SHIFT),
	  "Remote board ", NULL, NULL, NULL, NULL },
	/* hops 5..7 have no name in perf */
	{ 5ULL << PD_MEM_HOPS_SHIFT, "N/A ", NULL, NULL, NULL, NULL },
	/* level numbers perf 6.1 names */
	{ 0x9ULL << PD_MEM_LVLNUM_SHIFT, "CXL", NULL, NULL, NULL, NULL },
	{ 0xaULL << PD_MEM_LVLNUM_SHIFT, "I/O", NULL, NULL, NULL, NULL },
	{ 0xcULL << PD_MEM_LVLNUM_SHIFT, "LFB/MAB", NULL, NULL, NULL, NULL },
	{ 0xeULL << PD_MEM_LVLNUM_SHIFT, "PMEM", NULL, NULL, NULL, NULL },
	{ 0x1ULL << PD_MEM_LVLNUM_SHIFT, "L1", NULL, NULL, NULL, NULL },
	/* every snoop, snoopx and tlb bit */
	{ (0x1fULL << PD_MEM_SNOOP_SHIFT) | (0x3ULL << PD_MEM_SNOOPX_SHIFT),
	  NULL, "N/A or None or Hit or Miss or HitM or Fwd or Peer", NULL,
	  NULL, NULL },
	{ 0x7fULL << PD_MEM_TLB_SHIFT, NULL, NULL,
	  "N/A or L1 or L2 or Walker or Fault hit miss", NULL, NULL },
	{ 0x2ULL << PD_MEM_SNOOPX_SHIFT, NULL, "Peer", NULL, NULL, NULL },
	{ 0x2ULL << PD_MEM_TLB_SHIFT, NULL, NULL, "N/A hit", NULL, NULL },
	{ 0x6ULL << PD_MEM_TLB_SHIFT, NULL, NULL, "N/A hit miss", NULL, NULL },
	{ 0x3ULL << PD_MEM_LOCK_SHIFT, NULL, NULL, NULL, "N/A", NULL },
	{ 0x7ULL << PD_MEM_BLK_SHIFT, NULL, NULL, NULL, NULL, " N/A" },
	{ 0x2ULL << PD_MEM_BLK_SHIFT, NULL, NULL, NULL, NULL, " Data" },
	{ 0x4ULL << PD_MEM_BLK_SHIFT, NULL, NULL, NULL, NULL, " Addr" },
	/* all bits: remote, hops 7 (unnamed), lvl_num N/A */
	{ ~0ULL, "Remote N/A N/A hit miss",
	  "N/A or None or Hit or Miss or HitM or Fwd or Peer",
	  "N/A or L1 or L2 or Walker or Fault hit miss", "N/A", " N/A" },
};

static void
check_datasrc_rows(const struct datasrc_row *rows, size_t nr, const char *set)
{
	char buf[PD_DATASRC_TEXT_MAX], what[96];
	size_t i;

	for (i = 0; i < nr; i++) {
		const struct datasrc_row *r = &rows[i];

		snprintf(what, sizeof(what), "%s %#" PRIx64, set, r->v);
		if (r->mem)
			T_TEXT(pd_datasrc_mem(buf, sizeof(buf), r->v), buf,
			       r->mem, what);
		if (r->snoop)
			T_TEXT(pd_datasrc_snoop(buf, sizeof(buf), r->v), buf,
			       r->snoop, what);
		if (r->tlb)
			T_TEXT(pd_datasrc_tlb(buf, sizeof(buf), r->v), buf,
			       r->tlb, what);
		if (r->lock)
			T_EQ_STR(pd_datasrc_lock(r->v), r->lock, what);
		if (r->blk)
			T_TEXT(pd_datasrc_blk(buf, sizeof(buf), r->v), buf,
			       r->blk, what);
	}
}

static void
test_datasrc_split(void)
{
	struct pd_datasrc d;

	pd_datasrc_split(0x10a400200042, &d);
	T_EQ_U64(d.op, PD_MEM_OP_LOAD, "split op");
	T_EQ_U64(d.lvl, PD_MEM_LVL_HIT, "split lvl");
	T_EQ_U64(d.snoop, PD_MEM_SNOOP_HIT, "split snoop");
	T_EQ_U64(d.lock, 0, "split lock");
	T_EQ_U64(d.tlb, 0, "split tlb");
	T_EQ_U64(d.lvl_num, PD_MEM_LVLNUM_L2, "split lvl_num");
	T_EQ_U64(d.remote, 1, "split remote");
	T_EQ_U64(d.snoopx, PD_MEM_SNOOPX_PEER, "split snoopx");
	T_EQ_U64(d.hops, PD_MEM_HOPS_1, "split hops");
	pd_datasrc_split(~0ULL, &d);
	T_EQ_U64(d.lvl, 0x3fff, "split all lvl");
	T_EQ_U64(d.tlb, 0x7f, "split all tlb");
	T_EQ_U64(d.blk, 7, "split all blk");
	T_EQ_U64(d.hops, 7, "split all hops");
	T_EQ_U64(d.region, 0x1f, "split all region");
	pd_datasrc_split(PD_MEM_DATA_SRC_NONE, &d);
	T(d.op == PD_MEM_OP_NA && d.lvl == PD_MEM_LVL_NA &&
	  d.snoop == PD_MEM_SNOOP_NA && d.lock == PD_MEM_LOCK_NA &&
	  d.tlb == PD_MEM_TLB_NA && !d.blk && !d.lvl_num,
	  "PD_MEM_DATA_SRC_NONE splits into the five NA bits");
}

static void
test_datasrc_op(void)
{
	static const struct {
		unsigned int op;
		const char *want;
	} rows[] = {
		{ 0, "No" },
		{ PD_MEM_OP_NA, "N/A" },
		{ PD_MEM_OP_LOAD, "LOAD" },
		{ PD_MEM_OP_STORE, "STORE" },
		{ PD_MEM_OP_PFETCH, "PFETCH" },
		{ PD_MEM_OP_EXEC, "EXEC" },
		/* the first match wins */
		{ PD_MEM_OP_LOAD | PD_MEM_OP_STORE, "LOAD" },
		{ 0x1f, "N/A" },
		{ PD_MEM_OP_PFETCH | PD_MEM_OP_EXEC, "PFETCH" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++)
		T_EQ_STR(pd_datasrc_op(rows[i].op), rows[i].want, "op");
}

static void
test_datasrc_script(void)
{
	static const struct {
		size_t (*fn)(char *buf, size_t size, uint64_t data_src);
		uint64_t v;
		const char *want, *what;
	} rows[] = {
		/* V61 (§4.4), before perf's padding */
		{ pd_datasrc_decode, 0x29100142,
		  "|OP LOAD|LVL L1 hit|SNP None|TLB L1 hit|LCK N/A|BLK  N/A",
		  "decode 0x29100142" },
		{ pd_datasrc_script, 0x29100142,
		  "        29100142 |OP LOAD|LVL L1 hit|SNP None|TLB L1 hit"
		  "|LCK N/A|BLK  N/A", "script 0x29100142" },
		{ pd_datasrc_script, 0,
		  "               0 |OP No|LVL N/A|SNP N/A|TLB N/A|LCK No"
		  "|BLK  N/A", "script 0" },
		/* V61: perf's 100-byte buffer cuts this one inside " N/A" */
		{ pd_datasrc_script, 0x10a400200042,
		  "    10a400200042 |OP LOAD|LVL Remote node, same socket L2 hit"
		  "|SNP Hit or Peer|TLB N/A|LCK No|BLK  N",
		  "script 0x10a400200042" },
		{ pd_datasrc_decode, 0x10a400200042,
		  "|OP LOAD|LVL Remote node, same socket L2 hit|SNP Hit or Peer"
		  "|TLB N/A|LCK No|BLK  N/A", "decode 0x10a400200042 uncut" },
		{ pd_datasrc_decode, 0x65600000084,
		  "|OP STORE|LVL Any cache miss|SNP Fwd|TLB N/A|LCK No"
		  "|BLK  Data Addr", "decode 0x65600000084" },
	};
	char buf[PD_DATASRC_TEXT_MAX];
	size_t i, n;

	for (i = 0; i < ARRAY_SIZE(rows); i++)
		T_TEXT(rows[i].fn(buf, sizeof(buf), rows[i].v), buf,
		       rows[i].want, rows[i].what);

	/* every bit set: the decode fits PD_DATASRC_TEXT_MAX, the field 99 */
	n = pd_datasrc_decode(NULL, 0, ~0ULL);
	T(n > 0 && n < PD_DATASRC_TEXT_MAX, "decode of ~0 is %zu long", n);
	n = pd_datasrc_decode(NULL, 0, 0x3fffULL << PD_MEM_LVL_SHIFT |
			      0x7fULL << PD_MEM_TLB_SHIFT |
			      0x1fULL << PD_MEM_SNOOP_SHIFT |
			      0x3ULL << PD_MEM_SNOOPX_SHIFT |
			      0xfULL << PD_MEM_LVLNUM_SHIFT |
			      0x6ULL << PD_MEM_BLK_SHIFT);
	T(n > 0 && n < PD_DATASRC_TEXT_MAX, "longest decode is %zu long", n);
	n = pd_datasrc_script(buf, sizeof(buf), ~0ULL);
	T_EQ_U64(n, PD_DATASRC_SCRIPT_MAX - 1, "script of ~0 length");
	T_EQ_U64(strlen(buf), PD_DATASRC_SCRIPT_MAX - 1, "script of ~0 text");
	T(strncmp(buf, "ffffffffffffffff |OP N/A|LVL Remote N/A N/A hit miss",
		  52) == 0, "script of ~0 starts: %s", buf);
}

static void
test_datasrc_small_buffers(void)
{
	char buf[16];
	size_t n;

	memset(buf, 'x', sizeof(buf));
	n = pd_datasrc_mem(buf, 4, 0x29100142);
	T_EQ_U64(n, 6, "mem cut: wanted length");
	T_EQ_STR(buf, "L1 ", "mem cut: text");
	T(buf[4] == 'x', "mem cut: wrote past size");

	T_EQ_U64(pd_datasrc_mem(NULL, 0, 0x110808042), 24, "mem measure");
	T_EQ_U64(pd_datasrc_snoop(NULL, 0, 0x10a400200042), 11,
		 "snoop measure");
	T_EQ_U64(pd_datasrc_tlb(NULL, 0, 0x68800842), 12, "tlb measure");
	T_EQ_U64(pd_datasrc_blk(NULL, 0, 0x65600000084), 10, "blk measure");

	buf[0] = 'x';
	n = pd_datasrc_tlb(buf, 1, 0x68800842);
	T(n == 12 && buf[0] == '\0', "tlb into 1 byte");

	memset(buf, 'x', sizeof(buf));
	n = pd_datasrc_script(buf, 10, 0x29100142);
	T_EQ_U64(n, 73, "script cut: wanted length");
	T_EQ_STR(buf, "        2", "script cut: text");
	T(buf[10] == 'x', "script cut: wrote past size");

	n = pd_datasrc_decode(buf, 5, 0);
	T_EQ_U64(n, 46, "decode cut: wanted length");
	T_EQ_STR(buf, "|OP ", "decode cut: text");
}

/* Branch entries */

#define BR(mis, pred, intx, abrt, cyc, type, spec, newt)		\
	(((uint64_t)(mis) << PD_BRFL_MISPRED_SHIFT) |			\
	 ((uint64_t)(pred) << PD_BRFL_PREDICTED_SHIFT) |		\
	 ((uint64_t)(intx) << PD_BRFL_IN_TX_SHIFT) |			\
	 ((uint64_t)(abrt) << PD_BRFL_ABORT_SHIFT) |			\
	 ((uint64_t)(cyc) << PD_BRFL_CYCLES_SHIFT) |			\
	 ((uint64_t)(type) << PD_BRFL_TYPE_SHIFT) |			\
	 ((uint64_t)(spec) << PD_BRFL_SPEC_SHIFT) |			\
	 ((uint64_t)(newt) << PD_BRFL_NEW_TYPE_SHIFT))

static void
test_branch_names(void)
{
	static const char *const types[] = {
		"N/A", "COND", "UNCOND", "IND", "CALL", "IND_CALL", "RET",
		"SYSCALL", "SYSRET", "COND_CALL", "COND_RET", "ERET", "IRQ",
		"SERROR", "NO_TX", "",
	};
	static const char *const new_types[] = {
		"FAULT_ALGN", "FAULT_DATA", "FAULT_INST", "ARCH_1", "ARCH_2",
		"ARCH_3", "ARCH_4", "ARCH_5",
	};
	static const char *const new_types_arm64[] = {
		"FAULT_ALGN", "FAULT_DATA", "FAULT_INST", "ARM64_FIQ",
		"ARM64_DEBUG_HALT", "ARM64_DEBUG_EXIT", "ARM64_DEBUG_INST",
		"ARM64_DEBUG_DATA",
	};
	static const char *const specs[] = {
		"N/A", "SPEC_WRONG_PATH", "NON_SPEC_CORRECT_PATH",
		"SPEC_CORRECT_PATH",
	};
	static const char *const privs[] = {
		"UNKNOWN", "USER", "KERNEL", "HV",
	};
	char what[16];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(types); i++)
		T_EQ_STR(pd_branch_type_name(i), types[i], "type name");
	T(pd_branch_type_name(PD_BR_MAX) == NULL, "type 16 has no name");
	for (i = 0; i < ARRAY_SIZE(new_types); i++) {
		T_EQ_STR(pd_branch_new_type_name(i, false), new_types[i],
			 "new_type name");
		T_EQ_STR(pd_branch_new_type_name(i, true), new_types_arm64[i],
			 "arm64 new_type name");
	}
	T(pd_branch_new_type_name(8, false) == NULL &&
	  pd_branch_new_type_name(15, true) == NULL, "new_type 8+ no name");
	for (i = 0; i < ARRAY_SIZE(specs); i++) {
		snprintf(what, sizeof(what), "spec %u", i);
		T_EQ_STR(pd_branch_spec_name(i), specs[i], what);
	}
	T(pd_branch_spec_name(4) == NULL, "spec 4 has no name");
	for (i = 0; i < ARRAY_SIZE(privs); i++) {
		snprintf(what, sizeof(what), "priv %u", i);
		T_EQ_STR(pd_branch_priv_name(i), privs[i], what);
	}
	T(pd_branch_priv_name(4) == NULL && pd_branch_priv_name(7) == NULL,
	  "priv 4..7 have no name");

	/* entry type: "" for UNKNOWN, the new_type for EXTEND_ABI */
	T_EQ_STR(pd_branch_entry_type(0, false), "", "entry type unknown");
	T_EQ_STR(pd_branch_entry_type(BR(0, 0, 0, 0, 0, 4, 0, 0), false),
		 "CALL", "entry type CALL");
	T_EQ_STR(pd_branch_entry_type(BR(0, 0, 0, 0, 0, 15, 0, 1), false),
		 "FAULT_DATA", "entry type FAULT_DATA");
	T_EQ_STR(pd_branch_entry_type(BR(0, 0, 0, 0, 0, 15, 0, 3), true),
		 "ARM64_FIQ", "entry type arm64");
	T(pd_branch_entry_type(BR(0, 0, 0, 0, 0, 15, 0, 9), false) == NULL,
	  "entry type: unnamed new_type");
}

/* An entry with these addresses and flags word (test code: one at a time). */
static const struct pd_branch_entry *
ent(uint64_t from, uint64_t to, uint64_t flags)
{
	static struct pd_branch_entry e;

	memset(&e, 0, sizeof(e));
	e.from = from;
	e.to = to;
	pd_branch_entry_set_flags(&e, flags);
	return &e;
}

static void
test_branch_split(void)
{
	const struct pd_branch_entry *e = ent(0, 0, ~0ULL);

	T(e->mispred && e->predicted && e->in_tx && e->abort, "all flag bits");
	T_EQ_U64(e->cycles, 0xffff, "all cycles");
	T_EQ_U64(e->type, 15, "all type");
	T_EQ_U64(e->spec, 3, "all spec");
	T_EQ_U64(e->new_type, 15, "all new_type");
	T_EQ_U64(e->priv, 7, "all priv");
	T_EQ_U64(e->flags >> PD_BRFL_INFO_BITS, 0x7fffffff, "all reserved");

	e = ent(0, 0, BR(1, 0, 1, 0, 1234, 6, 2, 5) |
		(2ULL << PD_BRFL_PRIV_SHIFT) | (1ULL << 40));
	T(e->mispred && !e->predicted && e->in_tx && !e->abort, "flag bits");
	T_EQ_U64(e->cycles, 1234, "cycles");
	T_EQ_U64(e->type, PD_BR_RET, "type");
	T_EQ_U64(e->spec, 2, "spec");
	T_EQ_U64(e->new_type, 5, "new_type");
	T_EQ_U64(e->priv, PD_BR_PRIV_KERNEL, "priv");
	T_EQ_U64(e->flags >> PD_BRFL_INFO_BITS, 1U << 7, "reserved");
}

static void
test_branch_script(void)
{
	/* V61: `perf script -F ip,brstack` on the synthetic file of §5.2 */
	static const struct {
		uint64_t from, to, flags;
	} entries[] = {
		{ 0x5555555552b0, 0x5555555551d0, BR(0, 1, 0, 0, 12, 4, 0, 0) },
		{ 0x555555555200, 0x5555555551e0, BR(1, 0, 0, 0, 3, 1, 0, 0) },
		{ 0x555555555210, 0x5555555552b4, BR(0, 0, 1, 1, 0, 6, 0, 0) },
		{ 0x5555555552c0, 0x555555555250, BR(0, 1, 0, 0, 7, 0, 0, 0) },
		{ 0x555555555258, 0x7fff12340000, BR(0, 0, 0, 0, 0, 15, 0, 1) },
		{ 0xffffffff821f5f60, 0x555555555250,
		  BR(0, 0, 0, 0, 65535, 8, 0, 0) },
	};
	static const char want_line[] =
		" 0x5555555552b0/0x5555555551d0/P/-/-/12/CALL "
		" 0x555555555200/0x5555555551e0/M/-/-/3/COND "
		" 0x555555555210/0x5555555552b4/-/X/A/0/RET "
		" 0x5555555552c0/0x555555555250/P/-/-/7/ "
		" 0x555555555258/0x7fff12340000/-/-/-/0/FAULT_DATA "
		" 0xffffffff821f5f60/0x555555555250/-/-/-/65535/SYSRET ";
	/* single items, in the forms 6.1 does not print */
	static const struct {
		uint64_t from, to, flags;
		unsigned int opts;
		const char *want, *what;
	} items[] = {
		/* both mispred and predicted: P wins */
		{ 1, 2, BR(1, 1, 0, 0, 0, 0, 0, 0), 0,
		  " 0x1/0x2/P/-/-/0/ ", "mispred+predicted" },
		/* an EXTEND_ABI entry whose new_type has no name */
		{ 0, 0, BR(0, 0, 0, 0, 0, 15, 0, 12), 0,
		  " 0x0/0x0/-/-/-/0/(null) ", "unnamed new_type" },
		{ 0x10, 0x20, BR(0, 0, 0, 0, 0, 15, 0, 4), PD_BRSTACK_ARM64,
		  " 0x10/0x20/-/-/-/0/ARM64_DEBUG_HALT ", "arm64 new_type" },
		/* spec is not part of 6.1's item */
		{ 0x10, 0x20, BR(0, 1, 0, 0, 0, 1, 2, 0), 0,
		  " 0x10/0x20/P/-/-/0/COND ", "6.1 drops spec" },
		/* newer perf's form */
		{ 0x10, 0x20, BR(0, 1, 0, 0, 0, 1, 2, 0), PD_BRSTACK_SPEC,
		  " 0x10/0x20/P/-/-/0/COND/NON_SPEC_CORRECT_PATH ",
		  "spec form" },
		{ 0x10, 0x20, BR(0, 1, 0, 0, 0, 0, 0, 0), PD_BRSTACK_SPEC,
		  " 0x10/0x20/P/-/-/0//- ", "spec form, spec 0" },
	};
	char line[512], buf[128];
	size_t i, len = 0, n;

	for (i = 0; i < ARRAY_SIZE(entries); i++) {
		n = pd_branch_entry_script(buf, sizeof(buf),
					   ent(entries[i].from, entries[i].to,
					       entries[i].flags), 0);
		T_EQ_U64(n, strlen(buf), "brstack item length");
		len = pd_text_appendf(line, sizeof(line), len, "%s", buf);
	}
	T_EQ_STR(line, want_line, "brstack line (V61)");
	T_EQ_U64(len, strlen(want_line), "brstack line length");

	for (i = 0; i < ARRAY_SIZE(items); i++) {
		pd_branch_entry_script(buf, sizeof(buf),
				       ent(items[i].from, items[i].to,
					   items[i].flags), items[i].opts);
		T_EQ_STR(buf, items[i].want, items[i].what);
	}
	/* all bits set */
	n = pd_branch_entry_script(buf, sizeof(buf), ent(~0ULL, ~0ULL, ~0ULL), 0);
	T_TEXT(n, buf, " 0xffffffffffffffff/0xffffffffffffffff/P/X/A/65535/"
	       "(null) ", "all bits");
	/* too small */
	memset(buf, 'x', sizeof(buf));
	n = pd_branch_entry_script(buf, 8,
			       ent(0x5555555552b0, 0x5555555551d0, BR(0, 1, 0, 0, 12, 4, 0, 0)), 0);
	T_EQ_U64(n, 45, "brstack cut: wanted length");
	T_EQ_STR(buf, " 0x5555", "brstack cut: text");
	T(buf[8] == 'x', "brstack cut: wrote past size");
}

/* Weight and transaction */

static void
test_weight(void)
{
	const uint64_t raw = 0x0003000200000064ULL;
	struct pd_weight w;

	pd_weight_split(raw, PD_SAMPLE_WEIGHT_STRUCT, PD_WEIGHT_RULE_X86, &w);
	T_EQ_U64(w.weight, 100, "x86 struct weight");
	T_EQ_U64(w.ins_lat, 2, "x86 struct ins_lat");
	T_EQ_U64(w.p_stage_cyc, 0, "x86 drops var3");
	T(w.var1 == 100 && w.var2 == 2 && w.var3 == 3, "x86 struct parts");

	pd_weight_split(raw, PD_SAMPLE_WEIGHT_STRUCT, PD_WEIGHT_RULE_POWERPC,
			&w);
	T(w.weight == 100 && w.ins_lat == 2 && w.p_stage_cyc == 3,
	  "powerpc struct");

	pd_weight_split(raw, PD_SAMPLE_WEIGHT_STRUCT, PD_WEIGHT_RULE_OTHER, &w);
	T(w.weight == raw && w.ins_lat == 0 && w.p_stage_cyc == 0,
	  "other arches keep the whole u64");

	pd_weight_split(raw, PD_SAMPLE_WEIGHT, PD_WEIGHT_RULE_X86, &w);
	T(w.weight == raw && w.ins_lat == 0 && w.var3 == 3, "plain WEIGHT");
	pd_weight_split(raw, PD_SAMPLE_WEIGHT_TYPE, PD_WEIGHT_RULE_POWERPC, &w);
	T(w.weight == raw && w.ins_lat == 0, "both bits read as WEIGHT");

	pd_weight_split(~0ULL, PD_SAMPLE_WEIGHT_STRUCT, PD_WEIGHT_RULE_X86, &w);
	T(w.weight == 0xffffffff && w.ins_lat == 0xffff, "struct all bits");
	pd_weight_split(0, PD_SAMPLE_WEIGHT_STRUCT, PD_WEIGHT_RULE_X86, &w);
	T(w.weight == 0 && w.ins_lat == 0, "struct 0");

	T(pd_weight_rule_for_arch("x86") == PD_WEIGHT_RULE_X86, "rule x86");
	T(pd_weight_rule_for_arch("powerpc") == PD_WEIGHT_RULE_POWERPC,
	  "rule powerpc");
	T(pd_weight_rule_for_arch("arm64") == PD_WEIGHT_RULE_OTHER &&
	  pd_weight_rule_for_arch(NULL) == PD_WEIGHT_RULE_OTHER, "rule other");
}

static void
test_transaction(void)
{
	static const struct {
		uint64_t txn;
		const char *want;
	} rows[] = {
		{ 0, "" },
		{ PD_TXN_TRANSACTION | PD_TXN_SYNC, "TX SYNC " },
		{ PD_TXN_ASYNC | PD_TXN_RETRY, "ASYNC RETRY " },
		{ PD_TXN_ELISION, "EL NEITHER " },
		{ PD_TXN_TRANSACTION | (0x2aULL << 32), "TX NEITHER :2a" },
		{ 0x1ULL << 32, "NEITHER :1" },
		{ PD_TXN_SYNC | (0xdeadbeefULL << 32), "SYNC :deadbeef" },
		{ 0xff, "EL TX SYNC ASYNC RETRY CON CAP-WRITE CAP-READ " },
		{ PD_TXN_CONFLICT | PD_TXN_CAPACITY_WRITE |
		  PD_TXN_CAPACITY_READ, "CON CAP-WRITE CAP-READ NEITHER " },
		{ ~0ULL, "EL TX SYNC ASYNC RETRY CON CAP-WRITE CAP-READ "
			 ":ffffffff" },
		/* bits 8..31 have no name */
		{ 0x100, "NEITHER " },
	};
	char buf[128];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++)
		T_TEXT(pd_transaction_text(buf, sizeof(buf), rows[i].txn), buf,
		       rows[i].want, "transaction");
	T_EQ_U64(pd_transaction_text(buf, 3, 0x6), 8, "transaction cut");
	T_EQ_STR(buf, "TX", "transaction cut text");
	/* perf's column: EL ASYNC RETRY CON CAP-READ and ":XX " */
	T_EQ_U64(PD_TRANSACTION_WIDTH, 32, "transaction width");
}

/* Registers */

static void
test_arch_normalize(void)
{
	static const struct {
		const char *in, *want;
	} rows[] = {
		{ "x86_64", "x86" }, { "i386", "x86" }, { "i486", "x86" },
		{ "i586", "x86" }, { "i686", "x86" }, { "x86", "x86" },
		{ "aarch64", "arm64" }, { "aarch64_be", "arm64" },
		{ "arm64", "arm64" }, { "armv7l", "arm" }, { "armv6l", "arm" },
		{ "arm", "arm" }, { "sa110", "arm" }, { "ppc64le", "powerpc" },
		{ "ppc64", "powerpc" }, { "powerpc", "powerpc" },
		{ "s390x", "s390" }, { "mips64", "mips" },
		{ "sparc64", "sparc" }, { "sun4u", "sparc" },
		{ "parisc64", "parisc" }, { "sh4", "sh" },
		/* unknown or not normalised by perf 6.1: unchanged */
		{ "sh", "sh" }, { "riscv64", "riscv64" },
		{ "loongarch64", "loongarch64" }, { "i", "i" }, { "", "" },
		{ "ia64", "ia64" }, { "x86_64x", "x86_64x" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++)
		T_EQ_STR(pd_arch_normalize(rows[i].in), rows[i].want,
			 rows[i].in);
	T(pd_arch_normalize(NULL) == NULL, "NULL arch");
	for (i = 0; i < ARRAY_SIZE(rows); i++)
		T_EQ_STR(pd_arch_normalize(pd_arch_normalize(rows[i].in)),
			 rows[i].want, "normalising twice");
}

static void
test_reg_names(void)
{
	static const char *const x86[24] = {
		"AX", "BX", "CX", "DX", "SI", "DI", "BP", "SP", "IP", "FLAGS",
		"CS", "SS", "DS", "ES", "FS", "GS", "R8", "R9", "R10", "R11",
		"R12", "R13", "R14", "R15",
	};
	/* the registers the numbered loops below do not cover */
	static const struct {
		const char *arch;
		unsigned int reg;
		const char *want, *what;
	} regs[] = {
		{ "x86", 64, "unknown", "x86 64" },
		{ "arm64", 30, "lr", "arm64 30" },
		{ "arm64", 31, "sp", "arm64 31" },
		{ "arm64", 32, "pc", "arm64 32" },
		{ "arm64", 33, "unknown", "arm64 33" },
		{ "arm64", 45, "unknown", "arm64 45" },
		{ "arm64", 46, "vg", "arm64 46" },
		{ "arm64", 47, "unknown", "arm64 47" },
		{ "arm", 11, "fp", "arm 11" },
		{ "arm", 12, "ip", "arm 12" },
		{ "arm", 13, "sp", "arm 13" },
		{ "arm", 14, "lr", "arm 14" },
		{ "arm", 15, "pc", "arm 15" },
		{ "arm", 16, "unknown", "arm 16" },
		{ "ppc64le", 32, "nip", "powerpc 32" },
		{ "ppc64le", 44, "mmcra", "powerpc 44" },
		{ "ppc64le", 58, "siar", "powerpc 58" },
		{ "ppc64le", 59, "unknown", "powerpc 59" },
		{ "s390x", 33, "PC", "s390 33" },
		{ "mips", 0, "PC", "mips 0" },
		{ "mips", 26, "unknown", "mips 26" },
		{ "mips", 31, "$31", "mips 31" },
		{ "csky", 0, "unknown", "csky tls" },
		{ "csky", 6, "a0", "csky 6" },
		{ "csky", 19, "regs9", "csky 19" },
		{ "riscv", 31, "t6", "riscv 31" },
		/* perf 6.1 does not normalise riscv64, so it finds no table */
		{ "riscv64", 0, "unknown", "riscv64" },
		{ "sparc64", 0, "unknown", "sparc" },
		{ NULL, 0, "unknown", "no arch" },
	};
	static const struct {
		uint64_t abi;
		const char *want, *what;
	} abis[] = {
		{ 0, "none", "abi 0" },
		{ 1, "32-bit", "abi 1" },
		{ 2, "64-bit", "abi 2" },
		{ 3, "unknown", "abi 3" },
		{ ~0ULL, "unknown", "abi ~0" },
	};
	char want[8];
	unsigned int i;

	for (i = 0; i < 24; i++) {
		T_EQ_STR(pd_reg_name("x86_64", i), x86[i], "x86 reg");
		T_EQ_STR(pd_reg_name("i686", i), x86[i], "i686 reg");
	}
	for (i = 24; i < 32; i++)
		T_EQ_STR(pd_reg_name("x86", i), "unknown", "x86 24..31");
	for (i = 0; i < 16; i++) {
		snprintf(want, sizeof(want), "XMM%u", i);
		T_EQ_STR(pd_reg_name("x86", 32 + 2 * i), want, "XMM low half");
		T_EQ_STR(pd_reg_name("x86", 33 + 2 * i), want, "XMM high half");
	}
	for (i = 0; i < 30; i++) {
		snprintf(want, sizeof(want), "x%u", i);
		T_EQ_STR(pd_reg_name("aarch64", i), want, "arm64 xN");
	}
	for (i = 0; i < 11; i++) {
		snprintf(want, sizeof(want), "r%u", i);
		T_EQ_STR(pd_reg_name("armv7l", i), want, "arm rN");
	}
	for (i = 0; i < ARRAY_SIZE(regs); i++)
		T_EQ_STR(pd_reg_name(regs[i].arch, regs[i].reg), regs[i].want,
			 regs[i].what);
	for (i = 0; i < ARRAY_SIZE(abis); i++)
		T_EQ_STR(pd_regs_abi_name(abis[i].abi), abis[i].want,
			 abis[i].what);
}

/* Values in host order, as a decoded sample of a same-endian file has them. */
static struct pd_regs
host_regs(uint64_t abi, uint64_t mask, const uint64_t *vals, size_t nr)
{
	return (struct pd_regs){
		.abi = abi,
		.mask = mask,
		.regs = { .p = (const unsigned char *)vals, .nr = nr },
	};
}

static void
test_regs_script(void)
{
	/* V61 (§3.10): AX, BX, an unnamed index and XMM0's low half */
	static const uint64_t x86_vals[] = { 0xa, 0xb, 0xc, 0xd };
	/* V61: perf_with_arm_regs.data, arch aarch64, mask 0x1ffffffff */
	static const uint64_t arm_vals[] = {
		0xb400006ee325f731, 0x7fd70367d0, 0x7fd7036d98, 0x24,
		0xc0300c03, 0x80000010aaaa0a80, 0x712b657508, 0x3700000231,
		0xdd, 0x3, 0xb400006ee325f788, 0xb400006ee325f761, 0xffffffff,
		0x0, 0x8f, 0x0, 0x7127fe4340, 0x7127fc0f40, 0x712b0b2000,
		0x7fd7036d98, 0x7fd70367d0, 0xb400006ee325f731, 0x7fd70367f0,
		0x712a24d000, 0x0, 0x712a24d000, 0x7fd7036a10, 0x600e520720,
		0x712a24d000, 0x7fd7036770, 0x7127f76c98, 0x7fd7036740,
		0x7127fc0f48,
	};
	static const char arm_want[] =
		" ABI:1    x0:0xb400006ee325f731    x1:0x7fd70367d0 "
		"   x2:0x7fd7036d98    x3:0x24    x4:0xc0300c03 "
		"   x5:0x80000010aaaa0a80    x6:0x712b657508 "
		"   x7:0x3700000231    x8:0xdd    x9:0x3 "
		"  x10:0xb400006ee325f788   x11:0xb400006ee325f761 "
		"  x12:0xffffffff   x13:0x0   x14:0x8f   x15:0x0 "
		"  x16:0x7127fe4340   x17:0x7127fc0f40   x18:0x712b0b2000 "
		"  x19:0x7fd7036d98   x20:0x7fd70367d0 "
		"  x21:0xb400006ee325f731   x22:0x7fd70367f0 "
		"  x23:0x712a24d000   x24:0x0   x25:0x712a24d000 "
		"  x26:0x7fd7036a10   x27:0x600e520720   x28:0x712a24d000 "
		"  x29:0x7fd7036770    lr:0x7127f76c98    sp:0x7fd7036740 "
		"   pc:0x7127fc0f48 ";
	static const struct {
		const char *arch;
		uint64_t abi, mask;
		const uint64_t *vals;
		size_t nr;
		const char *want, *what;
	} rows[] = {
		{ "x86_64", 2, 0x3 | 1ULL << 24 | 1ULL << 32, x86_vals, 4,
		  " ABI:2    AX:0xa    BX:0xb unknown:0xc  XMM0:0xd ",
		  "x86 regs (V61)" },
		{ "aarch64", 1, 0x1ffffffffULL, arm_vals, ARRAY_SIZE(arm_vals),
		  arm_want, "arm64 regs (V61 fixture)" },
		{ "x86", 0, 0x3, x86_vals, 2, "", "ABI none prints nothing" },
		{ "x86", 2, 0, NULL, 0, " ABI:2 ", "empty mask" },
		/* fewer values than mask bits: stop at the values */
		{ "x86", 2, 0x7, x86_vals, 2, " ABI:2    AX:0xa    BX:0xb ",
		  "short regs" },
		{ "armv7l", 1, 1ULL << 15 | 1ULL << 63, x86_vals, 2,
		  " ABI:1    pc:0xa unknown:0xb ", "arm pc, bit 63" },
	};
	char buf[2048];
	struct pd_regs r;
	size_t i, n;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		buf[0] = 'x';
		r = host_regs(rows[i].abi, rows[i].mask, rows[i].vals,
			      rows[i].nr);
		T_TEXT(pd_regs_script(buf, sizeof(buf), rows[i].arch, &r),
		       buf, rows[i].want, rows[i].what);
	}
	r = host_regs(2, 0x3, x86_vals, 2);
	n = pd_regs_script(buf, 5, "x86", &r);
	T_EQ_U64(n, 27, "regs cut: wanted length");
	T_EQ_STR(buf, " ABI", "regs cut: text");
}

/* pd_regs_next(): every register of the mask that has a value, in order */
static void
test_regs_next(void)
{
	static const uint64_t vals[] = { 10, 11, 12 };
	struct pd_regs r = host_regs(2, 1ULL << 0 | 1ULL << 40 | 1ULL << 63,
				     vals, 3);
	uint64_t rest = r.mask, val;
	unsigned int reg;

	T(pd_regs_next(&r, &rest, &reg, &val) && reg == 0 && val == 10,
	  "regs next: bit 0");
	T(pd_regs_next(&r, &rest, &reg, &val) && reg == 40 && val == 11,
	  "regs next: bit 40");
	T(pd_regs_next(&r, &rest, &reg, &val) && reg == 63 && val == 12,
	  "regs next: bit 63");
	T(!pd_regs_next(&r, &rest, &reg, &val), "regs next: end");
	/* fewer values than bits: stop at the values */
	r.regs.nr = 1;
	rest = r.mask;
	T(pd_regs_next(&r, &rest, &reg, &val) && reg == 0,
	  "regs next short: bit 0");
	T(!pd_regs_next(&r, &rest, &reg, &val), "regs next short: end");
}

/* cpumode, misc, callchain, page sizes */

static void
test_cpumode(void)
{
	static const struct {
		uint16_t cpumode;
		bool guest;		/* perf report --guest */
		char want;
		const char *what;
	} levels[] = {
		{ PD_MISC_KERNEL, false, 'k', "level kernel" },
		{ PD_MISC_USER, false, '.', "level user" },
		{ PD_MISC_HYPERVISOR, true, 'H', "level hv" },
		{ PD_MISC_CPUMODE_UNKNOWN, false, 'H', "level unknown" },
		{ PD_MISC_GUEST_KERNEL, false, 'H',
		  "guest kernel without --guest" },
		{ PD_MISC_GUEST_KERNEL, true, 'g', "guest kernel with --guest" },
		{ PD_MISC_GUEST_USER, false, 'H', "guest user without --guest" },
		{ PD_MISC_GUEST_USER, true, 'u', "guest user with --guest" },
	};
	static const char *const names[] = {
		"unknown", "kernel", "user", "hypervisor", "guest kernel",
		"guest user",
	};
	char what[16];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(levels); i++)
		T(pd_cpumode_level(levels[i].cpumode, levels[i].guest) ==
		  levels[i].want, "%s", levels[i].what);
	T(pd_cpumode_level(7, true) == 'H' && pd_cpumode_level(99, true) == 'H',
	  "level of invalid cpumodes");

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		snprintf(what, sizeof(what), "name %u", i);
		T_EQ_STR(pd_cpumode_name(i), names[i], what);
	}
	T(pd_cpumode_name(6) == NULL && pd_cpumode_name(7) == NULL,
	  "names of 6, 7");
}

static void
test_misc(void)
{
	static const struct {
		uint32_t type;
		uint16_t misc;
		const char *letters, *field;
	} rows[] = {
		{ PD_RECORD_SAMPLE, 0, "", "      " },
		{ PD_RECORD_SAMPLE, PD_MISC_KERNEL, "K", "K     " },
		{ PD_RECORD_SAMPLE, PD_MISC_USER | PD_MISC_EXACT_IP, "U",
		  "U     " },
		/* perf tests each cpumode as bits of misc */
		{ PD_RECORD_SAMPLE, PD_MISC_HYPERVISOR, "KUH", "KUH   " },
		{ PD_RECORD_SAMPLE, PD_MISC_GUEST_KERNEL, "G", "G     " },
		{ PD_RECORD_SAMPLE, PD_MISC_GUEST_USER, "KGg", "KGg   " },
		{ PD_RECORD_SAMPLE, 6, "UG", "UG    " },
		{ PD_RECORD_SAMPLE, 7, "KUHGg", "KUHGg " },
		{ PD_RECORD_MMAP2, PD_MISC_USER | PD_MISC_MMAP_DATA, "UM",
		  "UM    " },
		{ PD_RECORD_MMAP, PD_MISC_KERNEL | PD_MISC_MMAP_DATA, "KM",
		  "KM    " },
		{ PD_RECORD_COMM, PD_MISC_USER | PD_MISC_COMM_EXEC, "UE",
		  "UE    " },
		{ PD_RECORD_SWITCH, PD_MISC_SWITCH_OUT, "S", "S     " },
		{ PD_RECORD_SWITCH_CPU_WIDE, PD_MISC_KERNEL |
		  PD_MISC_SWITCH_OUT | PD_MISC_SWITCH_OUT_PREEMPT, "KSp",
		  "KSp   " },
		/* preempt without switch-out says nothing */
		{ PD_RECORD_SWITCH, PD_MISC_SWITCH_OUT_PREEMPT, "", "      " },
		/* bit 13 means nothing on a sample */
		{ PD_RECORD_SAMPLE, PD_MISC_USER | (1U << 13), "U", "U     " },
		/* six and more letters keep one space */
		{ PD_RECORD_SWITCH, 0xffff, "KUHGgSp", "KUHGgSp " },
		{ PD_RECORD_MMAP2, 0xffff, "KUHGgM", "KUHGgM " },
	};
	char buf[32];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		T_TEXT(pd_misc_letters(buf, sizeof(buf), rows[i].type,
				       rows[i].misc), buf, rows[i].letters,
		       "misc letters");
		T_TEXT(pd_misc_field(buf, sizeof(buf), rows[i].type,
				     rows[i].misc), buf, rows[i].field,
		       "misc field");
	}
	T_EQ_U64(pd_misc_field(buf, 2, PD_RECORD_SAMPLE, 7), 6, "field cut");
	T_EQ_STR(buf, "K", "field cut text");
}

static void
test_callchain_context(void)
{
	static const struct {
		uint64_t marker;
		const char *want, *what;
	} rows[] = {
		{ PD_CONTEXT_HV, "PERF_CONTEXT_HV", "HV" },
		{ 0xffffffffffffff80ULL, "PERF_CONTEXT_KERNEL", "KERNEL" },
		{ 0xfffffffffffffe00ULL, "PERF_CONTEXT_USER", "USER" },
		{ PD_CONTEXT_USER_DEFERRED, "PERF_CONTEXT_USER_DEFERRED",
		  "USER_DEFERRED" },
		{ PD_CONTEXT_GUEST, "PERF_CONTEXT_GUEST", "GUEST" },
		{ PD_CONTEXT_GUEST_KERNEL, "PERF_CONTEXT_GUEST_KERNEL",
		  "GUEST_KERNEL" },
		{ PD_CONTEXT_GUEST_USER, "PERF_CONTEXT_GUEST_USER",
		  "GUEST_USER" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++)
		T_EQ_STR(pd_callchain_context_name(rows[i].marker),
			 rows[i].want, rows[i].what);
	T(pd_callchain_context_name(0) == NULL &&
	  pd_callchain_context_name(0xffffffff81000000ULL) == NULL &&
	  pd_callchain_context_name(PD_CONTEXT_MAX) == NULL &&
	  pd_callchain_context_name(~0ULL) == NULL,
	  "addresses and unnamed markers");
}

static void
test_page_size(void)
{
	static const struct {
		uint64_t bytes;
		const char *want;
	} rows[] = {
		{ 0, "N/A" },
		{ 1, "1B" },
		{ 1024, "1024B" },
		{ 2047, "2047B" },
		{ 2048, "2K" },
		{ 3000, "2K" },
		{ 4096, "4K" },
		{ 65536, "64K" },
		{ 1024 * 1024, "1024K" },
		{ 2 * 1024 * 1024, "2M" },
		{ 1024ULL * 1024 * 1024, "1024M" },
		{ 2ULL << 30, "2G" },
		{ 4ULL << 40, "4096G" },
		{ ~0ULL, "17179869183G" },
	};
	char buf[PD_PAGE_SIZE_TEXT_MAX];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++)
		T_TEXT(pd_page_size_text(buf, sizeof(buf), rows[i].bytes), buf,
		       rows[i].want, "page size");
	T_EQ_U64(pd_page_size_text(buf, 2, 4096), 2, "page size cut");
	T_EQ_STR(buf, "4", "page size cut text");
	/* the same steps, but 0 is a number of bytes (memory nodes) */
	for (i = 1; i < ARRAY_SIZE(rows); i++)
		T_TEXT(pd_unit_number_text(buf, sizeof(buf), rows[i].bytes),
		       buf, rows[i].want, "unit number");
	T_TEXT(pd_unit_number_text(buf, sizeof(buf), 0), buf, "0B",
	       "unit number 0");
}

static void
test_appendf(void)
{
	char buf[8];
	size_t len;

	len = pd_text_appendf(buf, sizeof(buf), 0, "%s", "abc");
	len = pd_text_appendf(buf, sizeof(buf), len, "%d", 12345);
	T_EQ_U64(len, 8, "appendf length past size");
	T_EQ_STR(buf, "abc1234", "appendf cut");
	len = pd_text_appendf(buf, sizeof(buf), len, "%s", "xyz");
	T_EQ_U64(len, 11, "appendf after the cut");
	T_EQ_STR(buf, "abc1234", "appendf after the cut leaves the text");
	T_EQ_U64(pd_text_appendf(NULL, 0, 0, "%s", "measure"), 7,
		 "appendf measures");
	T_EQ_U64(pd_text_appendf(buf, sizeof(buf), 0, "%s", ""), 0,
		 "appendf empty");
	T_EQ_STR(buf, "", "appendf empty text");
}

int
main(void)
{
	check_datasrc_rows(datasrc_v61, ARRAY_SIZE(datasrc_v61), "V61");
	check_datasrc_rows(datasrc_edges, ARRAY_SIZE(datasrc_edges), "edge");
	test_datasrc_split();
	test_datasrc_op();
	test_datasrc_script();
	test_datasrc_small_buffers();
	test_branch_names();
	test_branch_split();
	test_branch_script();
	test_weight();
	test_transaction();
	test_arch_normalize();
	test_reg_names();
	test_regs_script();
	test_regs_next();
	test_cpumode();
	test_misc();
	test_callchain_context();
	test_page_size();
	test_appendf();
	return t_done("test-text");
}
