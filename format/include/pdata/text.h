/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * pdata/text.h - the text perf 6.1 prints for the coded fields of a
 * sample: data_src, branch flags, weights, transactions, registers,
 * cpumode, page sizes and the header.misc letters.
 *
 * Formatting functions follow snprintf(3): they write at most size bytes
 * into buf, NUL-terminated whenever size > 0, and return the length of
 * the whole text, so a return value >= size means the text was cut.
 * buf may be NULL when size is 0, to measure.  Name lookups return static
 * strings, or NULL for a value that has no name.
 *
 * The facts come from doc/perf-records.md (§ numbers below); where
 * perf 6.1 and newer perf differ, these functions print what 6.1 prints.
 */
#ifndef PDATA_TEXT_H
#define PDATA_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pdata/abi.h"
#include "pdata/sample.h"

/*
 * Append printf-formatted text to the len bytes already in buf under the
 * rules above (len may exceed size once the text has been cut); returns
 * the new whole length.
 */
size_t pd_text_appendf(char *buf, size_t size, size_t len, const char *fmt,
		       ...) __attribute__((format(printf, 4, 5)));

/* data_src (§4) */

/* The fields of union perf_mem_data_src, each shifted down to bit 0. */
struct pd_datasrc {
	uint8_t op;		/* PD_MEM_OP_* bits */
	uint16_t lvl;		/* PD_MEM_LVL_* bits */
	uint8_t snoop;		/* PD_MEM_SNOOP_* bits */
	uint8_t lock;		/* PD_MEM_LOCK_* bits */
	uint8_t tlb;		/* PD_MEM_TLB_* bits */
	uint8_t lvl_num;	/* PD_MEM_LVLNUM_* value */
	uint8_t remote;		/* PD_MEM_REMOTE_REMOTE or 0 */
	uint8_t snoopx;		/* PD_MEM_SNOOPX_* bits */
	uint8_t blk;		/* PD_MEM_BLK_* bits */
	uint8_t hops;		/* PD_MEM_HOPS_* value, 0 if none */
	uint8_t region;		/* newest kernels only; 0 if none */
};

void pd_datasrc_split(uint64_t data_src, struct pd_datasrc *out);

/* Enough for every column string and for pd_datasrc_decode() of any value. */
#define PD_DATASRC_TEXT_MAX	512

/* perf script's `|OP` part: "N/A", "LOAD", "STORE", "PFETCH", "EXEC", "No". */
const char *pd_datasrc_op(uint64_t data_src);

/* The `locked` sort key: "N/A", "Yes" or "No". */
const char *pd_datasrc_lock(uint64_t data_src);

/*
 * The `mem` sort key ("Memory access"), e.g. "L1 hit",
 * "Remote node, same socket L2 hit".
 */
size_t pd_datasrc_mem(char *buf, size_t size, uint64_t data_src);

/* The `snoop` sort key, e.g. "None", "Hit or Peer". */
size_t pd_datasrc_snoop(char *buf, size_t size, uint64_t data_src);

/* The `tlb` sort key ("TLB access"), e.g. "L1 or L2 hit", "Walker miss". */
size_t pd_datasrc_tlb(char *buf, size_t size, uint64_t data_src);

/* The `blocked` sort key, a space before each token: " N/A", " Data Addr". */
size_t pd_datasrc_blk(char *buf, size_t size, uint64_t data_src);

/*
 * The whole decode, uncut:
 * "|OP LOAD|LVL L1 hit|SNP None|TLB L1 hit|LCK N/A|BLK  N/A".
 */
size_t pd_datasrc_decode(char *buf, size_t size, uint64_t data_src);

/*
 * perf script's data_src field before its padding: "%16llx " and the
 * decode, cut to 99 characters as perf 6.1 cuts it.  The return value
 * is at most PD_DATASRC_SCRIPT_MAX - 1.  perf pads the field on the right
 * to the longest one printed so far (§4.4); that is the caller's part.
 */
#define PD_DATASRC_SCRIPT_MAX	100
size_t pd_datasrc_script(char *buf, size_t size, uint64_t data_src);

/* Branch entries (§3.7, §5.2) */

/* "N/A" (UNKNOWN), "COND".."NO_TX", "" (EXTEND_ABI); NULL past PD_BR_MAX. */
const char *pd_branch_type_name(unsigned int type);

/*
 * "FAULT_ALGN", "FAULT_DATA", "FAULT_INST", then "ARCH_1".."ARCH_5", or
 * with arm64 "ARM64_FIQ".."ARM64_DEBUG_DATA" (perf 6.1 picks by the host
 * it was built for, so an x86 perf prints ARCH_n); NULL if >= PD_BR_NEW_MAX.
 */
const char *pd_branch_new_type_name(unsigned int new_type, bool arm64);

/* "N/A", "SPEC_WRONG_PATH", "NON_SPEC_CORRECT_PATH", "SPEC_CORRECT_PATH". */
const char *pd_branch_spec_name(unsigned int spec);

/* "UNKNOWN", "USER", "KERNEL", "HV" (perf prints none); NULL for 4..7. */
const char *pd_branch_priv_name(unsigned int priv);

/*
 * The type text of one entry as perf script prints it: "" for UNKNOWN,
 * the new_type name for EXTEND_ABI (NULL when it has none), else the
 * type name.
 */
const char *pd_branch_entry_type(uint64_t flags, bool arm64);

/* pd_branch_entry_script() options */
#define PD_BRSTACK_SPEC		(1U << 0)	/* newer perf's "/spec" */
#define PD_BRSTACK_ARM64	(1U << 1)	/* arm64 new_type names */

/*
 * One brstack item of perf script, leading and trailing space included:
 * " 0x%llx/0x%llx/%c/%c/%c/%d/%s " (perf 6.1), or with PD_BRSTACK_SPEC
 * " 0x%llx/0x%llx/%c/%c/%c/%d/%s/%s " where spec 0 prints "-".  A type
 * with no name prints "(null)", as glibc does for perf.
 */
size_t pd_branch_entry_script(char *buf, size_t size,
			      const struct pd_branch_entry *e, unsigned int opts);

/* Weight (§3.8) */

/*
 * How perf 6.1 splits a WEIGHT_STRUCT: the rule is the one compiled into
 * perf for its build host, not the recording's arch.
 */
enum pd_weight_rule {
	PD_WEIGHT_RULE_X86 = 0,	/* weight var1, ins_lat var2, var3 dropped */
	PD_WEIGHT_RULE_POWERPC,	/* the same, and p_stage_cyc var3 */
	PD_WEIGHT_RULE_OTHER,	/* weight = the whole u64 */
};

struct pd_weight {
	uint64_t weight;	/* what perf calls the sample's weight */
	uint16_t ins_lat;	/* 0 unless the rule sets it */
	uint16_t p_stage_cyc;	/* 0 unless the rule sets it */
	uint32_t var1;		/* the struct's parts (any rule): bits 0..31 */
	uint16_t var2;		/* bits 32..47 */
	uint16_t var3;		/* bits 48..63 */
};

/* sample_type says which of WEIGHT and WEIGHT_STRUCT the u64 is. */
void pd_weight_split(uint64_t raw, uint64_t sample_type,
		     enum pd_weight_rule rule, struct pd_weight *out);

/* The rule for a normalised arch name (pd_arch_normalize()). */
enum pd_weight_rule pd_weight_rule_for_arch(const char *arch);

/* Transaction (§3.9) */

/*
 * The `transaction` sort key: "TX SYNC ", "EL NEITHER :2a" ...  Left-
 * justified in PD_TRANSACTION_WIDTH columns by perf.
 */
#define PD_TRANSACTION_WIDTH	32
size_t pd_transaction_text(char *buf, size_t size, uint64_t txn);

/* Registers (§3.10) */

/*
 * HEADER_ARCH (uname -m) to perf's arch name: "x86_64", "i386".."i686"
 * -> "x86", "aarch64" -> "arm64", "armv7l" -> "arm", "ppc64le" ->
 * "powerpc" ...  Names it does not know come back unchanged; NULL stays
 * NULL.  Normalising twice gives the same name.
 */
const char *pd_arch_normalize(const char *arch);

/*
 * perf 6.1's name of register idx (a bit of sample_regs_user/intr) for
 * arch (raw or normalised): "AX", "XMM3", "x29", "lr", "r0" ...  Like
 * perf, "unknown" when the arch or the index has no name.
 */
const char *pd_reg_name(const char *arch, unsigned int idx);

/* "none", "32-bit", "64-bit", or "unknown" for other values (perf -D). */
const char *pd_regs_abi_name(uint64_t abi);

/*
 * perf script's iregs/uregs field: " ABI:%llu " then "%5s:0x%llx " for
 * each register of the sample's REGS_USER or REGS_INTR, in ascending
 * number (pd_regs_next()).  Empty when the abi is PD_REGS_ABI_NONE, as
 * perf prints nothing then.
 */
size_t pd_regs_script(char *buf, size_t size, const char *arch,
		      const struct pd_regs *regs);

/* cpumode, misc, callchain markers, page sizes (§1.2, §3.5, §3.12, §7.2) */

/*
 * The level character of an address resolved with cpumode (misc & 7):
 * 'k' kernel, '.' user, 'g' guest kernel and 'u' guest user (guest
 * modes only when guest samples are shown, perf's --guest), else 'H'.
 */
char pd_cpumode_level(unsigned int cpumode, bool guest);

/*
 * "unknown", "kernel", "user", "hypervisor", "guest kernel", "guest user";
 * NULL for any other value.
 */
const char *pd_cpumode_name(unsigned int cpumode);

/*
 * perf script's misc letters for a record of this type: K U H G g from
 * the cpumode bits (tested as perf does, so cpumode 3 gives "KUH"), then
 * M (MMAP/MMAP2 data), E (COMM exec), S and Sp (switch out, preempted).
 */
size_t pd_misc_letters(char *buf, size_t size, uint32_t type, uint16_t misc);

/* The letters padded as perf script does: to 6, one space at least. */
size_t pd_misc_field(char *buf, size_t size, uint32_t type, uint16_t misc);

/* "PERF_CONTEXT_USER"... for a callchain context marker, NULL otherwise. */
const char *pd_callchain_context_name(uint64_t ip);

/*
 * A byte count as perf's unit_number__scnprintf() prints it: "4K", "2M",
 * "1024M", "0B" (perf only steps a unit while more than 1 of the next
 * remains, and stops at G).
 */
#define PD_UNIT_NUMBER_TEXT_MAX	32
size_t pd_unit_number_text(char *buf, size_t size, uint64_t bytes);

/* A page size as perf prints it: pd_unit_number_text(), "N/A" for 0. */
#define PD_PAGE_SIZE_TEXT_MAX	PD_UNIT_NUMBER_TEXT_MAX
size_t pd_page_size_text(char *buf, size_t size, uint64_t bytes);

/*
 * Side-band records (doc/perf-records.md §5.4): the text perf 6.1's
 * perf_event__fprintf() prints after "PERF_RECORD_<NAME>", its final
 * newline included, for COMM, MMAP, MMAP2, SWITCH, SWITCH_CPU_WIDE,
 * NAMESPACES, KSYMBOL and CGROUP, which perf script and perf report -D
 * print alike; 0 for another type.
 */
union pd_event;
size_t pd_event_text(char *buf, size_t size, uint32_t type, uint16_t misc,
		     const union pd_event *e);

#endif /* PDATA_TEXT_H */
