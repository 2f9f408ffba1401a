/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * format/text-datasrc.c - the text perf 6.1 prints for PERF_SAMPLE_DATA_SRC.
 *
 * doc/perf-records.md §4.3 gives the algorithm of each column (6.1's
 * "algorithm A") and the values it was checked against.  perf builds the
 * strings in fixed buffers (64 bytes for report columns, 100 for perf
 * script) and overruns them when a value has many bits set; we return
 * the whole text instead and cut only where perf's cut is well defined
 * (pd_datasrc_script()).
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "pdata/text.h"

#define FIELD(v, name)							\
	(((v) >> PD_MEM_##name##_SHIFT) &				\
	 ((1ULL << PD_MEM_##name##_WIDTH) - 1))

/* Indexed by bit number within each field. */
static const char *const lvl_bits[PD_MEM_LVL_WIDTH] = {
	"N/A", "HIT", "MISS", "L1", "LFB/MAB", "L2", "L3", "Local RAM",
	"Remote RAM (1 hop)", "Remote RAM (2 hops)", "Remote Cache (1 hop)",
	"Remote Cache (2 hops)", "I/O", "Uncached",
};

static const char *const snoop_bits[PD_MEM_SNOOP_WIDTH] = {
	"N/A", "None", "Hit", "Miss", "HitM",
};

static const char *const snoopx_bits[PD_MEM_SNOOPX_WIDTH] = {
	"Fwd", "Peer",
};

static const char *const tlb_bits[PD_MEM_TLB_WIDTH] = {
	"N/A", "HIT", "MISS", "L1", "L2", "Walker", "Fault",
};

/* perf 6.1 names only these levels; the others print as "L<n>". */
static const char *const lvlnum_names[1 << PD_MEM_LVLNUM_WIDTH] = {
	[PD_MEM_LVLNUM_CXL]		= "CXL",
	[PD_MEM_LVLNUM_IO]		= "I/O",
	[PD_MEM_LVLNUM_ANY_CACHE]	= "Any cache",
	[PD_MEM_LVLNUM_LFB]		= "LFB/MAB",
	[PD_MEM_LVLNUM_RAM]		= "RAM",
	[PD_MEM_LVLNUM_PMEM]		= "PMEM",
	[PD_MEM_LVLNUM_NA]		= "N/A",
};

/*
 * "Remote " comes first when the remote bit is set.  Hops 5..7 have no
 * entry in perf, which reads past its table; we print "N/A" for them.
 */
static const char *const hops_names[1 << PD_MEM_HOPS_WIDTH] = {
	[PD_MEM_HOPS_0]	= "core, same node",
	[PD_MEM_HOPS_1]	= "node, same socket",
	[PD_MEM_HOPS_2]	= "socket, same board",
	[PD_MEM_HOPS_3]	= "board",
};

void
pd_datasrc_split(uint64_t v, struct pd_datasrc *out)
{
	*out = (struct pd_datasrc){
		.op = FIELD(v, OP),
		.lvl = FIELD(v, LVL),
		.snoop = FIELD(v, SNOOP),
		.lock = FIELD(v, LOCK),
		.tlb = FIELD(v, TLB),
		.lvl_num = FIELD(v, LVLNUM),
		.remote = FIELD(v, REMOTE),
		.snoopx = FIELD(v, SNOOPX),
		.blk = FIELD(v, BLK),
		.hops = FIELD(v, HOPS),
		.region = FIELD(v, REGION),
	};
}

/*
 * Append the names of the set bits of mask, lowest first, each preceded
 * by " or " when *printed says something came before.
 */
static size_t
append_bits(char *buf, size_t size, size_t len, unsigned int mask,
	    const char *const *names, unsigned int nr, unsigned int *printed)
{
	unsigned int i;

	for (i = 0; i < nr; i++) {
		if (!(mask & (1U << i)))
			continue;
		len = pd_text_appendf(buf, size, len, "%s%s",
				      (*printed)++ ? " or " : "", names[i]);
	}
	return len;
}

const char *
pd_datasrc_op(uint64_t data_src)
{
	unsigned int op = FIELD(data_src, OP);

	if (op & PD_MEM_OP_NA)
		return "N/A";
	if (op & PD_MEM_OP_LOAD)
		return "LOAD";
	if (op & PD_MEM_OP_STORE)
		return "STORE";
	if (op & PD_MEM_OP_PFETCH)
		return "PFETCH";
	if (op & PD_MEM_OP_EXEC)
		return "EXEC";
	return "No";
}

const char *
pd_datasrc_lock(uint64_t data_src)
{
	unsigned int lock = FIELD(data_src, LOCK);

	if (lock & PD_MEM_LOCK_NA)
		return "N/A";
	if (lock & PD_MEM_LOCK_LOCKED)
		return "Yes";
	return "No";
}

size_t
pd_datasrc_mem(char *buf, size_t size, uint64_t data_src)
{
	struct pd_datasrc d;
	unsigned int printed = 0;
	size_t len = 0;

	pd_datasrc_split(data_src, &d);
	if (d.remote)
		len = pd_text_appendf(buf, size, len, "Remote ");
	/* with a hop count, 6.1 prints it instead of the level bits */
	if (d.hops)
		len = pd_text_appendf(buf, size, len, "%s ",
				      hops_names[d.hops] ? hops_names[d.hops] :
				      "N/A");
	else
		len = append_bits(buf, size, len,
				  d.lvl & ~(PD_MEM_LVL_HIT | PD_MEM_LVL_MISS),
				  lvl_bits, PD_MEM_LVL_WIDTH, &printed);
	if (d.lvl_num) {
		const char *sep = printed++ ? " or " : "";

		if (lvlnum_names[d.lvl_num])
			len = pd_text_appendf(buf, size, len, "%s%s", sep,
					      lvlnum_names[d.lvl_num]);
		else
			len = pd_text_appendf(buf, size, len, "%sL%u", sep,
					      d.lvl_num);
	}
	if (len == 0)
		len = pd_text_appendf(buf, size, len, "N/A");
	if (d.lvl & PD_MEM_LVL_HIT)
		len = pd_text_appendf(buf, size, len, " hit");
	if (d.lvl & PD_MEM_LVL_MISS)
		len = pd_text_appendf(buf, size, len, " miss");
	return len;
}

size_t
pd_datasrc_snoop(char *buf, size_t size, uint64_t data_src)
{
	unsigned int printed = 0;
	size_t len = 0;

	len = append_bits(buf, size, len, FIELD(data_src, SNOOP), snoop_bits,
			  PD_MEM_SNOOP_WIDTH, &printed);
	len = append_bits(buf, size, len, FIELD(data_src, SNOOPX), snoopx_bits,
			  PD_MEM_SNOOPX_WIDTH, &printed);
	if (len == 0)
		len = pd_text_appendf(buf, size, len, "N/A");
	return len;
}

size_t
pd_datasrc_tlb(char *buf, size_t size, uint64_t data_src)
{
	unsigned int tlb = FIELD(data_src, TLB);
	unsigned int printed = 0;
	size_t len = 0;

	len = append_bits(buf, size, len,
			  tlb & ~(PD_MEM_TLB_HIT | PD_MEM_TLB_MISS),
			  tlb_bits, PD_MEM_TLB_WIDTH, &printed);
	if (len == 0)
		len = pd_text_appendf(buf, size, len, "N/A");
	if (tlb & PD_MEM_TLB_HIT)
		len = pd_text_appendf(buf, size, len, " hit");
	if (tlb & PD_MEM_TLB_MISS)
		len = pd_text_appendf(buf, size, len, " miss");
	return len;
}

size_t
pd_datasrc_blk(char *buf, size_t size, uint64_t data_src)
{
	unsigned int blk = FIELD(data_src, BLK);
	size_t len = 0;

	if (!blk || (blk & PD_MEM_BLK_NA))
		return pd_text_appendf(buf, size, len, " N/A");
	if (blk & PD_MEM_BLK_DATA)
		len = pd_text_appendf(buf, size, len, " Data");
	if (blk & PD_MEM_BLK_ADDR)
		len = pd_text_appendf(buf, size, len, " Addr");
	return len;
}

size_t
pd_datasrc_decode(char *buf, size_t size, uint64_t data_src)
{
	char mem[PD_DATASRC_TEXT_MAX], snoop[PD_DATASRC_TEXT_MAX];
	char tlb[PD_DATASRC_TEXT_MAX], blk[PD_DATASRC_TEXT_MAX];

	pd_datasrc_mem(mem, sizeof(mem), data_src);
	pd_datasrc_snoop(snoop, sizeof(snoop), data_src);
	pd_datasrc_tlb(tlb, sizeof(tlb), data_src);
	pd_datasrc_blk(blk, sizeof(blk), data_src);
	return pd_text_appendf(buf, size, 0,
			       "|OP %s|LVL %s|SNP %s|TLB %s|LCK %s|BLK %s",
			       pd_datasrc_op(data_src), mem, snoop, tlb,
			       pd_datasrc_lock(data_src), blk);
}

size_t
pd_datasrc_script(char *buf, size_t size, uint64_t data_src)
{
	char field[PD_DATASRC_TEXT_MAX + 24];
	size_t len;

	/*
	 * perf 6.1 prints "%16llx %s" into a 100-byte buffer
	 * (builtin-script.c, data_src__fprintf), which is what cuts a long
	 * decode after 82 of its characters.
	 */
	len = pd_text_appendf(field, sizeof(field), 0, "%16" PRIx64 " ",
			      data_src);
	len += pd_datasrc_decode(field + len, sizeof(field) - len, data_src);
	if (len >= PD_DATASRC_SCRIPT_MAX) {
		len = PD_DATASRC_SCRIPT_MAX - 1;
		field[len] = '\0';
	}
	pd_text_appendf(buf, size, 0, "%s", field);
	return len;
}
