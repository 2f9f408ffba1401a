/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * pdata/abi.h - every constant of the perf.data format and the perf_event
 * ABI that pdata reads or writes.
 *
 * Our own copy on purpose: files come from kernels and perf versions newer
 * than the build machine's <linux/perf_event.h>, so reading must never
 * depend on it.  Values: perf_event_open(2), the kernel's uapi
 * perf_event.h (newest seen 2026-02) and doc/perf-data-subset.md.
 */
#ifndef PDATA_ABI_H
#define PDATA_ABI_H

#include <stdint.h>

/* File magics, read as a u64 in the file's byte order (PERFILE2 = v2). */
#define PD_MAGIC2		0x32454c4946524550ULL	/* "PERFILE2" little-endian */
#define PD_MAGIC2_SWAPPED	0x50455246494c4532ULL	/* "PERFILE2" written big-endian */
#define PD_MAGIC1		0x454c494646524550ULL	/* "PERFFILE" as 8 chars, v1 */

#define PD_FILE_HEADER_SIZE	104	/* struct perf_file_header */
#define PD_FILE_HEADER_SIZE_OLD	72	/* before adds_features existed */
#define PD_PIPE_HEADER_SIZE	16	/* struct perf_pipe_file_header */
#define PD_FEAT_BITS		256

/* perf_event_attr sizes, one per ABI revision. */
#define PD_ATTR_SIZE_VER0	64
#define PD_ATTR_SIZE_VER1	72	/* config2 */
#define PD_ATTR_SIZE_VER2	80	/* branch_sample_type */
#define PD_ATTR_SIZE_VER3	96	/* sample_regs_user, sample_stack_user */
#define PD_ATTR_SIZE_VER4	104	/* sample_regs_intr */
#define PD_ATTR_SIZE_VER5	112	/* aux_watermark, sample_max_stack */
#define PD_ATTR_SIZE_VER6	120	/* aux_sample_size */
#define PD_ATTR_SIZE_VER7	128	/* sig_data */
#define PD_ATTR_SIZE_VER8	136	/* config3 */
#define PD_ATTR_SIZE_VER9	144	/* config4 */
#define PD_ATTR_SIZE_MAX	PD_ATTR_SIZE_VER9

/* attr.type */
enum {
	PD_TYPE_HARDWARE	= 0,
	PD_TYPE_SOFTWARE	= 1,
	PD_TYPE_TRACEPOINT	= 2,
	PD_TYPE_HW_CACHE	= 3,
	PD_TYPE_RAW		= 4,
	PD_TYPE_BREAKPOINT	= 5,
	PD_TYPE_MAX		= 6,	/* >= 6: dynamic PMU types */
};

/* perf's type for the events its tools synthesize (intel_pt's "synth") */
#define PD_TYPE_SYNTH	2000000000u

/* attr.config for PD_TYPE_HARDWARE */
enum {
	PD_HW_CPU_CYCLES		= 0,
	PD_HW_INSTRUCTIONS		= 1,
	PD_HW_CACHE_REFERENCES		= 2,
	PD_HW_CACHE_MISSES		= 3,
	PD_HW_BRANCH_INSTRUCTIONS	= 4,
	PD_HW_BRANCH_MISSES		= 5,
	PD_HW_BUS_CYCLES		= 6,
	PD_HW_STALLED_CYCLES_FRONTEND	= 7,
	PD_HW_STALLED_CYCLES_BACKEND	= 8,
	PD_HW_REF_CPU_CYCLES		= 9,
	PD_HW_MAX			= 10,
};

/* attr.config for PD_TYPE_SOFTWARE */
enum {
	PD_SW_CPU_CLOCK		= 0,
	PD_SW_TASK_CLOCK	= 1,
	PD_SW_PAGE_FAULTS	= 2,
	PD_SW_CONTEXT_SWITCHES	= 3,
	PD_SW_CPU_MIGRATIONS	= 4,
	PD_SW_PAGE_FAULTS_MIN	= 5,
	PD_SW_PAGE_FAULTS_MAJ	= 6,
	PD_SW_ALIGNMENT_FAULTS	= 7,
	PD_SW_EMULATION_FAULTS	= 8,
	PD_SW_DUMMY		= 9,
	PD_SW_BPF_OUTPUT	= 10,
	PD_SW_CGROUP_SWITCHES	= 11,
	PD_SW_MAX		= 12,
};

/* attr.config for PD_TYPE_HW_CACHE: id | (op << 8) | (result << 16) */
enum {
	PD_HW_CACHE_L1D		= 0,
	PD_HW_CACHE_L1I		= 1,
	PD_HW_CACHE_LL		= 2,
	PD_HW_CACHE_DTLB	= 3,
	PD_HW_CACHE_ITLB	= 4,
	PD_HW_CACHE_BPU		= 5,
	PD_HW_CACHE_NODE	= 6,
	PD_HW_CACHE_MAX		= 7,
};
enum {
	PD_HW_CACHE_OP_READ	= 0,
	PD_HW_CACHE_OP_WRITE	= 1,
	PD_HW_CACHE_OP_PREFETCH	= 2,
	PD_HW_CACHE_OP_MAX	= 3,
};
enum {
	PD_HW_CACHE_RESULT_ACCESS	= 0,
	PD_HW_CACHE_RESULT_MISS		= 1,
	PD_HW_CACHE_RESULT_MAX		= 2,
};

/* attr.sample_type bits */
#define PD_SAMPLE_IP			(1ULL << 0)
#define PD_SAMPLE_TID			(1ULL << 1)
#define PD_SAMPLE_TIME			(1ULL << 2)
#define PD_SAMPLE_ADDR			(1ULL << 3)
#define PD_SAMPLE_READ			(1ULL << 4)
#define PD_SAMPLE_CALLCHAIN		(1ULL << 5)
#define PD_SAMPLE_ID			(1ULL << 6)
#define PD_SAMPLE_CPU			(1ULL << 7)
#define PD_SAMPLE_PERIOD		(1ULL << 8)
#define PD_SAMPLE_STREAM_ID		(1ULL << 9)
#define PD_SAMPLE_RAW			(1ULL << 10)
#define PD_SAMPLE_BRANCH_STACK		(1ULL << 11)
#define PD_SAMPLE_REGS_USER		(1ULL << 12)
#define PD_SAMPLE_STACK_USER		(1ULL << 13)
#define PD_SAMPLE_WEIGHT		(1ULL << 14)
#define PD_SAMPLE_DATA_SRC		(1ULL << 15)
#define PD_SAMPLE_IDENTIFIER		(1ULL << 16)
#define PD_SAMPLE_TRANSACTION		(1ULL << 17)
#define PD_SAMPLE_REGS_INTR		(1ULL << 18)
#define PD_SAMPLE_PHYS_ADDR		(1ULL << 19)
#define PD_SAMPLE_AUX			(1ULL << 20)
#define PD_SAMPLE_CGROUP		(1ULL << 21)
#define PD_SAMPLE_DATA_PAGE_SIZE	(1ULL << 22)
#define PD_SAMPLE_CODE_PAGE_SIZE	(1ULL << 23)
#define PD_SAMPLE_WEIGHT_STRUCT		(1ULL << 24)
#define PD_SAMPLE_MAX			(1ULL << 25)
#define PD_SAMPLE_WEIGHT_TYPE		(PD_SAMPLE_WEIGHT | PD_SAMPLE_WEIGHT_STRUCT)
#define PD_SAMPLE_KNOWN_MASK		(PD_SAMPLE_MAX - 1)

/* attr.read_format bits */
#define PD_FORMAT_TOTAL_TIME_ENABLED	(1ULL << 0)
#define PD_FORMAT_TOTAL_TIME_RUNNING	(1ULL << 1)
#define PD_FORMAT_ID			(1ULL << 2)
#define PD_FORMAT_GROUP			(1ULL << 3)
#define PD_FORMAT_LOST			(1ULL << 4)
#define PD_FORMAT_MAX			(1ULL << 5)

/* attr.branch_sample_type bits */
#define PD_BRANCH_USER		(1ULL << 0)
#define PD_BRANCH_KERNEL	(1ULL << 1)
#define PD_BRANCH_HV		(1ULL << 2)
#define PD_BRANCH_ANY		(1ULL << 3)
#define PD_BRANCH_ANY_CALL	(1ULL << 4)
#define PD_BRANCH_ANY_RETURN	(1ULL << 5)
#define PD_BRANCH_IND_CALL	(1ULL << 6)
#define PD_BRANCH_ABORT_TX	(1ULL << 7)
#define PD_BRANCH_IN_TX		(1ULL << 8)
#define PD_BRANCH_NO_TX		(1ULL << 9)
#define PD_BRANCH_COND		(1ULL << 10)
#define PD_BRANCH_CALL_STACK	(1ULL << 11)
#define PD_BRANCH_IND_JUMP	(1ULL << 12)
#define PD_BRANCH_CALL		(1ULL << 13)
#define PD_BRANCH_NO_FLAGS	(1ULL << 14)
#define PD_BRANCH_NO_CYCLES	(1ULL << 15)
#define PD_BRANCH_TYPE_SAVE	(1ULL << 16)
#define PD_BRANCH_HW_INDEX	(1ULL << 17)
#define PD_BRANCH_PRIV_SAVE	(1ULL << 18)
#define PD_BRANCH_COUNTERS	(1ULL << 19)
#define PD_BRANCH_MAX		(1ULL << 20)

/*
 * attr flag bits, numbered as a little-endian writer stores them
 * (doc/perf-data-format.md §3.3).  pd_attr.flags always holds them in
 * this numbering, whatever the file's byte order.
 */
enum pd_attr_flag {
	PD_ATTR_DISABLED		= 0,
	PD_ATTR_INHERIT			= 1,
	PD_ATTR_PINNED			= 2,
	PD_ATTR_EXCLUSIVE		= 3,
	PD_ATTR_EXCLUDE_USER		= 4,
	PD_ATTR_EXCLUDE_KERNEL		= 5,
	PD_ATTR_EXCLUDE_HV		= 6,
	PD_ATTR_EXCLUDE_IDLE		= 7,
	PD_ATTR_MMAP			= 8,
	PD_ATTR_COMM			= 9,
	PD_ATTR_FREQ			= 10,
	PD_ATTR_INHERIT_STAT		= 11,
	PD_ATTR_ENABLE_ON_EXEC		= 12,
	PD_ATTR_TASK			= 13,
	PD_ATTR_WATERMARK		= 14,
	PD_ATTR_PRECISE_IP		= 15,	/* 2 bits: 15..16 */
	PD_ATTR_MMAP_DATA		= 17,
	PD_ATTR_SAMPLE_ID_ALL		= 18,
	PD_ATTR_EXCLUDE_HOST		= 19,
	PD_ATTR_EXCLUDE_GUEST		= 20,
	PD_ATTR_EXCLUDE_CALLCHAIN_KERNEL = 21,
	PD_ATTR_EXCLUDE_CALLCHAIN_USER	= 22,
	PD_ATTR_MMAP2			= 23,
	PD_ATTR_COMM_EXEC		= 24,
	PD_ATTR_USE_CLOCKID		= 25,
	PD_ATTR_CONTEXT_SWITCH		= 26,
	PD_ATTR_WRITE_BACKWARD		= 27,
	PD_ATTR_NAMESPACES		= 28,
	PD_ATTR_KSYMBOL			= 29,
	PD_ATTR_BPF_EVENT		= 30,
	PD_ATTR_AUX_OUTPUT		= 31,
	PD_ATTR_CGROUP			= 32,
	PD_ATTR_TEXT_POKE		= 33,
	PD_ATTR_BUILD_ID		= 34,
	PD_ATTR_INHERIT_THREAD		= 35,
	PD_ATTR_REMOVE_ON_EXEC		= 36,
	PD_ATTR_SIGTRAP			= 37,
	PD_ATTR_DEFER_CALLCHAIN		= 38,
	PD_ATTR_DEFER_OUTPUT		= 39,
	PD_ATTR_FLAG_BITS		= 40,
};
#define PD_ATTR_PRECISE_IP_WIDTH	2

/* attr.aux_action bits (u32 bitfield word at offset 116) */
#define PD_AUX_START_PAUSED	(1U << 0)
#define PD_AUX_PAUSE		(1U << 1)
#define PD_AUX_RESUME		(1U << 2)

/* Record types: kernel (1..63) and perf-tool "user" records (64+). */
enum pd_record_type {
	PD_RECORD_MMAP			= 1,
	PD_RECORD_LOST			= 2,
	PD_RECORD_COMM			= 3,
	PD_RECORD_EXIT			= 4,
	PD_RECORD_THROTTLE		= 5,
	PD_RECORD_UNTHROTTLE		= 6,
	PD_RECORD_FORK			= 7,
	PD_RECORD_READ			= 8,
	PD_RECORD_SAMPLE		= 9,
	PD_RECORD_MMAP2			= 10,
	PD_RECORD_AUX			= 11,
	PD_RECORD_ITRACE_START		= 12,
	PD_RECORD_LOST_SAMPLES		= 13,
	PD_RECORD_SWITCH		= 14,
	PD_RECORD_SWITCH_CPU_WIDE	= 15,
	PD_RECORD_NAMESPACES		= 16,
	PD_RECORD_KSYMBOL		= 17,
	PD_RECORD_BPF_EVENT		= 18,
	PD_RECORD_CGROUP		= 19,
	PD_RECORD_TEXT_POKE		= 20,
	PD_RECORD_AUX_OUTPUT_HW_ID	= 21,
	PD_RECORD_CALLCHAIN_DEFERRED	= 22,
	PD_RECORD_KERNEL_MAX		= 23,

	PD_RECORD_USER_TYPE_START	= 64,
	PD_RECORD_HEADER_ATTR		= 64,
	PD_RECORD_HEADER_EVENT_TYPE	= 65,
	PD_RECORD_HEADER_TRACING_DATA	= 66,
	PD_RECORD_HEADER_BUILD_ID	= 67,
	PD_RECORD_FINISHED_ROUND	= 68,
	PD_RECORD_ID_INDEX		= 69,
	PD_RECORD_AUXTRACE_INFO		= 70,
	PD_RECORD_AUXTRACE		= 71,
	PD_RECORD_AUXTRACE_ERROR	= 72,
	PD_RECORD_THREAD_MAP		= 73,
	PD_RECORD_CPU_MAP		= 74,
	PD_RECORD_STAT_CONFIG		= 75,
	PD_RECORD_STAT			= 76,
	PD_RECORD_STAT_ROUND		= 77,
	PD_RECORD_EVENT_UPDATE		= 78,
	PD_RECORD_TIME_CONV		= 79,
	PD_RECORD_HEADER_FEATURE	= 80,
	PD_RECORD_COMPRESSED		= 81,
	PD_RECORD_FINISHED_INIT		= 82,
	PD_RECORD_COMPRESSED2		= 83,
	PD_RECORD_BPF_METADATA		= 84,
	PD_RECORD_SCHEDSTAT_CPU		= 85,
	PD_RECORD_SCHEDSTAT_DOMAIN	= 86,
	PD_RECORD_USER_MAX		= 87,

	/*
	 * simpleperf's own records.  Their size is 32 bits wide: header.misc
	 * holds the high half (simpleperf record.h, RecordHeader).
	 */
	PD_RECORD_SP_START		= 32768,
	PD_RECORD_SP_KERNEL_SYMBOL	= 32769,
	PD_RECORD_SP_DSO		= 32770,
	PD_RECORD_SP_SYMBOL		= 32771,
	PD_RECORD_SP_SPLIT		= 32772,
	PD_RECORD_SP_SPLIT_END		= 32773,
	PD_RECORD_SP_EVENT_ID		= 32774,
	PD_RECORD_SP_CALLCHAIN		= 32775,
	PD_RECORD_SP_UNWINDING_RESULT	= 32776,
	PD_RECORD_SP_TRACING_DATA	= 32777,
	PD_RECORD_SP_DEBUG		= 32778,
};

#define PD_EVENT_HEADER_SIZE	8
#define PD_RECORD_MAX_SIZE	65535

/* header.misc */
#define PD_MISC_CPUMODE_MASK		0x7
#define PD_MISC_CPUMODE_UNKNOWN		0
#define PD_MISC_KERNEL			1
#define PD_MISC_USER			2
#define PD_MISC_HYPERVISOR		3
#define PD_MISC_GUEST_KERNEL		4
#define PD_MISC_GUEST_USER		5
#define PD_MISC_PROC_MAP_PARSE_TIMEOUT	(1U << 12)
#define PD_MISC_MMAP_DATA		(1U << 13)
#define PD_MISC_COMM_EXEC		(1U << 13)
#define PD_MISC_FORK_EXEC		(1U << 13)
#define PD_MISC_SWITCH_OUT		(1U << 13)
#define PD_MISC_EXACT_IP		(1U << 14)
#define PD_MISC_SWITCH_OUT_PREEMPT	(1U << 14)
#define PD_MISC_MMAP_BUILD_ID		(1U << 14)
#define PD_MISC_EXT_RESERVED		(1U << 15)
#define PD_MISC_BUILD_ID_SIZE		(1U << 15)	/* HEADER_BUILD_ID */
#define PD_MISC_LOST_SAMPLES_BPF	(1U << 15)	/* LOST_SAMPLES */

/* Callchain context markers (values >= PD_CONTEXT_MAX are not addresses). */
#define PD_CONTEXT_HV			((uint64_t)-32)
#define PD_CONTEXT_KERNEL		((uint64_t)-128)
#define PD_CONTEXT_USER			((uint64_t)-512)
#define PD_CONTEXT_USER_DEFERRED	((uint64_t)-640)
#define PD_CONTEXT_GUEST		((uint64_t)-2048)
#define PD_CONTEXT_GUEST_KERNEL		((uint64_t)-2176)
#define PD_CONTEXT_GUEST_USER		((uint64_t)-2560)
#define PD_CONTEXT_MAX			((uint64_t)-4095)

/* Branch entry flags word: (shift, width) of each field, LE numbering. */
#define PD_BRFL_MISPRED_SHIFT	0
#define PD_BRFL_PREDICTED_SHIFT	1
#define PD_BRFL_IN_TX_SHIFT	2
#define PD_BRFL_ABORT_SHIFT	3
#define PD_BRFL_CYCLES_SHIFT	4
#define PD_BRFL_CYCLES_WIDTH	16
#define PD_BRFL_TYPE_SHIFT	20
#define PD_BRFL_TYPE_WIDTH	4
#define PD_BRFL_SPEC_SHIFT	24
#define PD_BRFL_SPEC_WIDTH	2
#define PD_BRFL_NEW_TYPE_SHIFT	26
#define PD_BRFL_NEW_TYPE_WIDTH	4
#define PD_BRFL_PRIV_SHIFT	30
#define PD_BRFL_PRIV_WIDTH	3
#define PD_BRFL_INFO_BITS	33

/* Branch types (PERF_BR_*) */
enum {
	PD_BR_UNKNOWN		= 0,
	PD_BR_COND		= 1,
	PD_BR_UNCOND		= 2,
	PD_BR_IND		= 3,
	PD_BR_CALL		= 4,
	PD_BR_IND_CALL		= 5,
	PD_BR_RET		= 6,
	PD_BR_SYSCALL		= 7,
	PD_BR_SYSRET		= 8,
	PD_BR_COND_CALL		= 9,
	PD_BR_COND_RET		= 10,
	PD_BR_ERET		= 11,
	PD_BR_IRQ		= 12,
	PD_BR_SERROR		= 13,
	PD_BR_NO_TX		= 14,
	PD_BR_EXTEND_ABI	= 15,
	PD_BR_MAX		= 16,
};
enum {
	PD_BR_NEW_FAULT_ALGN	= 0,
	PD_BR_NEW_FAULT_DATA	= 1,
	PD_BR_NEW_FAULT_INST	= 2,
	PD_BR_NEW_ARCH_1	= 3,
	PD_BR_NEW_ARCH_2	= 4,
	PD_BR_NEW_ARCH_3	= 5,
	PD_BR_NEW_ARCH_4	= 6,
	PD_BR_NEW_ARCH_5	= 7,
	PD_BR_NEW_MAX		= 8,
};
enum {
	PD_BR_SPEC_NA			= 0,
	PD_BR_SPEC_WRONG_PATH		= 1,
	PD_BR_NON_SPEC_CORRECT_PATH	= 2,
	PD_BR_SPEC_CORRECT_PATH		= 3,
};
enum {
	PD_BR_PRIV_UNKNOWN	= 0,
	PD_BR_PRIV_USER		= 1,
	PD_BR_PRIV_KERNEL	= 2,
	PD_BR_PRIV_HV		= 3,
};

/* data_src fields: shift and width (union perf_mem_data_src, LE bitfield). */
#define PD_MEM_OP_SHIFT		0
#define PD_MEM_OP_WIDTH		5
#define PD_MEM_LVL_SHIFT	5
#define PD_MEM_LVL_WIDTH	14
#define PD_MEM_SNOOP_SHIFT	19
#define PD_MEM_SNOOP_WIDTH	5
#define PD_MEM_LOCK_SHIFT	24
#define PD_MEM_LOCK_WIDTH	2
#define PD_MEM_TLB_SHIFT	26
#define PD_MEM_TLB_WIDTH	7
#define PD_MEM_LVLNUM_SHIFT	33
#define PD_MEM_LVLNUM_WIDTH	4
#define PD_MEM_REMOTE_SHIFT	37
#define PD_MEM_REMOTE_WIDTH	1
#define PD_MEM_SNOOPX_SHIFT	38
#define PD_MEM_SNOOPX_WIDTH	2
#define PD_MEM_BLK_SHIFT	40
#define PD_MEM_BLK_WIDTH	3
#define PD_MEM_HOPS_SHIFT	43
#define PD_MEM_HOPS_WIDTH	3
#define PD_MEM_REGION_SHIFT	46
#define PD_MEM_REGION_WIDTH	5

#define PD_MEM_OP_NA		0x01
#define PD_MEM_OP_LOAD		0x02
#define PD_MEM_OP_STORE		0x04
#define PD_MEM_OP_PFETCH	0x08
#define PD_MEM_OP_EXEC		0x10

#define PD_MEM_LVL_NA		0x0001
#define PD_MEM_LVL_HIT		0x0002
#define PD_MEM_LVL_MISS		0x0004
#define PD_MEM_LVL_L1		0x0008
#define PD_MEM_LVL_LFB		0x0010
#define PD_MEM_LVL_L2		0x0020
#define PD_MEM_LVL_L3		0x0040
#define PD_MEM_LVL_LOC_RAM	0x0080
#define PD_MEM_LVL_REM_RAM1	0x0100
#define PD_MEM_LVL_REM_RAM2	0x0200
#define PD_MEM_LVL_REM_CCE1	0x0400
#define PD_MEM_LVL_REM_CCE2	0x0800
#define PD_MEM_LVL_IO		0x1000
#define PD_MEM_LVL_UNC		0x2000

#define PD_MEM_SNOOP_NA		0x01
#define PD_MEM_SNOOP_NONE	0x02
#define PD_MEM_SNOOP_HIT	0x04
#define PD_MEM_SNOOP_MISS	0x08
#define PD_MEM_SNOOP_HITM	0x10

#define PD_MEM_LOCK_NA		0x01
#define PD_MEM_LOCK_LOCKED	0x02

#define PD_MEM_TLB_NA		0x01
#define PD_MEM_TLB_HIT		0x02
#define PD_MEM_TLB_MISS		0x04
#define PD_MEM_TLB_L1		0x08
#define PD_MEM_TLB_L2		0x10
#define PD_MEM_TLB_WK		0x20
#define PD_MEM_TLB_OS		0x40

#define PD_MEM_LVLNUM_L1	0x1
#define PD_MEM_LVLNUM_L2	0x2
#define PD_MEM_LVLNUM_L3	0x3
#define PD_MEM_LVLNUM_L4	0x4
#define PD_MEM_LVLNUM_L2_MHB	0x5
#define PD_MEM_LVLNUM_MSC	0x6
#define PD_MEM_LVLNUM_L0	0x7
#define PD_MEM_LVLNUM_UNC	0x8
#define PD_MEM_LVLNUM_CXL	0x9
#define PD_MEM_LVLNUM_IO	0xa
#define PD_MEM_LVLNUM_ANY_CACHE	0xb
#define PD_MEM_LVLNUM_LFB	0xc
#define PD_MEM_LVLNUM_RAM	0xd
#define PD_MEM_LVLNUM_PMEM	0xe
#define PD_MEM_LVLNUM_NA	0xf

#define PD_MEM_REMOTE_REMOTE	0x1
#define PD_MEM_SNOOPX_FWD	0x1
#define PD_MEM_SNOOPX_PEER	0x2
#define PD_MEM_BLK_NA		0x1
#define PD_MEM_BLK_DATA		0x2
#define PD_MEM_BLK_ADDR		0x4
#define PD_MEM_HOPS_0		0x1
#define PD_MEM_HOPS_1		0x2
#define PD_MEM_HOPS_2		0x3
#define PD_MEM_HOPS_3		0x4

/* What perf assumes when a sample carries no DATA_SRC. */
#define PD_MEM_DATA_SRC_NONE	0x5080021ULL

/* Transaction flags (PERF_SAMPLE_TRANSACTION) */
#define PD_TXN_ELISION		(1ULL << 0)
#define PD_TXN_TRANSACTION	(1ULL << 1)
#define PD_TXN_SYNC		(1ULL << 2)
#define PD_TXN_ASYNC		(1ULL << 3)
#define PD_TXN_RETRY		(1ULL << 4)
#define PD_TXN_CONFLICT		(1ULL << 5)
#define PD_TXN_CAPACITY_WRITE	(1ULL << 6)
#define PD_TXN_CAPACITY_READ	(1ULL << 7)
#define PD_TXN_ABORT_MASK	(0xffffffffULL << 32)
#define PD_TXN_ABORT_SHIFT	32

/* sample regs abi */
#define PD_REGS_ABI_NONE	0
#define PD_REGS_ABI_32		1
#define PD_REGS_ABI_64		2

/* Feature section ids (bit numbers in adds_features). */
enum pd_feature {
	PD_FEAT_RESERVED	= 0,
	PD_FEAT_TRACING_DATA	= 1,
	PD_FEAT_BUILD_ID	= 2,
	PD_FEAT_HOSTNAME	= 3,
	PD_FEAT_OSRELEASE	= 4,
	PD_FEAT_VERSION		= 5,
	PD_FEAT_ARCH		= 6,
	PD_FEAT_NRCPUS		= 7,
	PD_FEAT_CPUDESC		= 8,
	PD_FEAT_CPUID		= 9,
	PD_FEAT_TOTAL_MEM	= 10,
	PD_FEAT_CMDLINE		= 11,
	PD_FEAT_EVENT_DESC	= 12,
	PD_FEAT_CPU_TOPOLOGY	= 13,
	PD_FEAT_NUMA_TOPOLOGY	= 14,
	PD_FEAT_BRANCH_STACK	= 15,
	PD_FEAT_PMU_MAPPINGS	= 16,
	PD_FEAT_GROUP_DESC	= 17,
	PD_FEAT_AUXTRACE	= 18,
	PD_FEAT_STAT		= 19,
	PD_FEAT_CACHE		= 20,
	PD_FEAT_SAMPLE_TIME	= 21,
	PD_FEAT_MEM_TOPOLOGY	= 22,
	PD_FEAT_CLOCKID		= 23,
	PD_FEAT_DIR_FORMAT	= 24,
	PD_FEAT_BPF_PROG_INFO	= 25,
	PD_FEAT_BPF_BTF		= 26,
	PD_FEAT_COMPRESSED	= 27,
	PD_FEAT_CPU_PMU_CAPS	= 28,
	PD_FEAT_CLOCK_DATA	= 29,
	PD_FEAT_HYBRID_TOPOLOGY	= 30,
	PD_FEAT_PMU_CAPS	= 31,
	PD_FEAT_CPU_DOMAIN_INFO	= 32,
	PD_FEAT_KNOWN		= 33,	/* first id we do not know */
	/* the end-of-features marker perf 6.0..6.18 sends in pipe mode */
	PD_FEAT_LAST_61		= 32,
};

/* HEADER_COMPRESSED.type */
#define PD_COMP_NONE	0
#define PD_COMP_ZSTD	1

/* EVENT_UPDATE types */
enum {
	PD_EVENT_UPDATE_UNIT	= 0,
	PD_EVENT_UPDATE_SCALE	= 1,
	PD_EVENT_UPDATE_NAME	= 2,
	PD_EVENT_UPDATE_CPUS	= 3,
};

/* CPU_MAP encodings */
enum {
	PD_CPU_MAP_CPUS		= 0,
	PD_CPU_MAP_MASK		= 1,
	PD_CPU_MAP_RANGE	= 2,
};

/* KSYMBOL / BPF_EVENT / AUX */
#define PD_KSYMBOL_TYPE_UNKNOWN		0
#define PD_KSYMBOL_TYPE_BPF		1
#define PD_KSYMBOL_TYPE_OOL		2
#define PD_KSYMBOL_FLAGS_UNREGISTER	(1U << 0)
#define PD_BPF_EVENT_UNKNOWN		0
#define PD_BPF_EVENT_PROG_LOAD		1
#define PD_BPF_EVENT_PROG_UNLOAD	2
#define PD_BPF_TAG_SIZE			8
#define PD_AUX_FLAG_TRUNCATED		0x01
#define PD_AUX_FLAG_OVERWRITE		0x02
#define PD_AUX_FLAG_PARTIAL		0x04
#define PD_AUX_FLAG_COLLISION		0x08
#define PD_AUX_FLAG_PMU_FORMAT_TYPE_MASK 0xff00

#define PD_NR_NAMESPACES	7
#define PD_BUILD_ID_SIZE	20
#define PD_THREAD_MAP_COMM_LEN	16
#define PD_EVENT_TYPE_NAME_LEN		64	/* HEADER_EVENT_TYPE name */
#define PD_AUXTRACE_ERROR_MSG_LEN	64
#define PD_BPF_PROG_NAME_LEN		512	/* BPF_METADATA prog_name */
#define PD_BPF_METADATA_KEY_LEN		64
#define PD_BPF_METADATA_VALUE_LEN	256

#endif /* PDATA_ABI_H */
