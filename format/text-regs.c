/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * format/text-regs.c - register names and register dumps.
 *
 * Indexes are the bit numbers of sample_regs_user/intr, from each arch's
 * uapi asm/perf_regs.h; the names are the ones perf 6.1 prints
 * (doc/perf-records.md §3.10).  perf 6.1 built for x86 leaves some
 * indexes unnamed (csky's ABIv2 registers, mips $26/$27, arm64 index 33..45)
 * and prints "unknown" for them, so the tables leave them out too.
 */
#include "config.h"

#include <ctype.h>
#include <inttypes.h>
#include <string.h>

#include "format/compiler.h"
#include "pdata/text.h"

/* XMM registers are 128-bit and take two indexes, both named XMMn. */
#define XMM(n)	[32 + 2 * (n)] = "XMM" #n, [33 + 2 * (n)] = "XMM" #n

static const char *const x86_regs[64] = {
	"AX", "BX", "CX", "DX", "SI", "DI", "BP", "SP",
	"IP", "FLAGS", "CS", "SS", "DS", "ES", "FS", "GS",
	"R8", "R9", "R10", "R11", "R12", "R13", "R14", "R15",
	XMM(0), XMM(1), XMM(2), XMM(3), XMM(4), XMM(5), XMM(6), XMM(7),
	XMM(8), XMM(9), XMM(10), XMM(11), XMM(12), XMM(13), XMM(14), XMM(15),
};

static const char *const arm64_regs[47] = {
	"x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7",
	"x8", "x9", "x10", "x11", "x12", "x13", "x14", "x15",
	"x16", "x17", "x18", "x19", "x20", "x21", "x22", "x23",
	"x24", "x25", "x26", "x27", "x28", "x29", "lr", "sp",
	"pc",
	[46] = "vg",	/* SVE vector granule */
};

static const char *const arm_regs[] = {
	"r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7",
	"r8", "r9", "r10", "fp", "ip", "sp", "lr", "pc",
};

static const char *const powerpc_regs[] = {
	"r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7",
	"r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15",
	"r16", "r17", "r18", "r19", "r20", "r21", "r22", "r23",
	"r24", "r25", "r26", "r27", "r28", "r29", "r30", "r31",
	"nip", "msr", "orig_r3", "ctr", "link", "xer", "ccr", "softe",
	"trap", "dar", "dsisr", "sier", "mmcra", "mmcr0", "mmcr1", "mmcr2",
	"mmcr3", "sier2", "sier3", "pmc1", "pmc2", "pmc3", "pmc4", "pmc5",
	"pmc6", "sdar", "siar",
};

static const char *const riscv_regs[] = {
	"pc", "ra", "sp", "gp", "tp", "t0", "t1", "t2",
	"s0", "s1", "a0", "a1", "a2", "a3", "a4", "a5",
	"a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7",
	"s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6",
};

static const char *const s390_regs[] = {
	"R0", "R1", "R2", "R3", "R4", "R5", "R6", "R7",
	"R8", "R9", "R10", "R11", "R12", "R13", "R14", "R15",
	"FP0", "FP1", "FP2", "FP3", "FP4", "FP5", "FP6", "FP7",
	"FP8", "FP9", "FP10", "FP11", "FP12", "FP13", "FP14", "FP15",
	"MASK", "PC",
};

static const char *const mips_regs[] = {
	"PC", "$1", "$2", "$3", "$4", "$5", "$6", "$7",
	"$8", "$9", "$10", "$11", "$12", "$13", "$14", "$15",
	"$16", "$17", "$18", "$19", "$20", "$21", "$22", "$23",
	"$24", "$25", NULL, NULL, "$28", "$29", "$30", "$31",
};

static const char *const csky_regs[] = {
	[1] = "lr", [2] = "pc", [4] = "sp",
	[6] = "a0", "a1", "a2", "a3",
	"regs0", "regs1", "regs2", "regs3", "regs4",
	"regs5", "regs6", "regs7", "regs8", "regs9",
};

static const struct reg_table {
	const char *arch;
	const char *const *names;
	size_t nr;
} reg_tables[] = {
#define REGS(a, t)	{ .arch = (a), .names = (t), .nr = ARRAY_SIZE(t) }
	REGS("x86", x86_regs),
	REGS("arm64", arm64_regs),
	REGS("arm", arm_regs),
	REGS("powerpc", powerpc_regs),
	REGS("riscv", riscv_regs),
	REGS("s390", s390_regs),
	REGS("mips", mips_regs),
	REGS("csky", csky_regs),
#undef REGS
};

/* perf's normalize_arch(), in the order it tests (util/env.c). */
static const struct arch_alias {
	const char *prefix;
	bool exact;		/* the whole name, not a prefix */
	const char *arch;
} arch_aliases[] = {
	{ .prefix = "x86_64", .exact = true, .arch = "x86" },
	{ .prefix = "sun4u", .exact = true, .arch = "sparc" },
	{ .prefix = "sparc", .arch = "sparc" },
	{ .prefix = "aarch64", .arch = "arm64" },
	{ .prefix = "arm64", .arch = "arm64" },
	{ .prefix = "arm", .arch = "arm" },
	{ .prefix = "sa110", .exact = true, .arch = "arm" },
	{ .prefix = "s390", .arch = "s390" },
	{ .prefix = "parisc", .arch = "parisc" },
	{ .prefix = "powerpc", .arch = "powerpc" },
	{ .prefix = "ppc", .arch = "powerpc" },
	{ .prefix = "mips", .arch = "mips" },
};

const char *
pd_arch_normalize(const char *arch)
{
	size_t i;

	if (!arch)
		return NULL;
	/* i386, i486, i586, i686 */
	if (arch[0] == 'i' && arch[1] && arch[2] == '8' && arch[3] == '6')
		return "x86";
	for (i = 0; i < ARRAY_SIZE(arch_aliases); i++) {
		const struct arch_alias *a = &arch_aliases[i];

		if (a->exact ? !strcmp(arch, a->prefix) :
		    !strncmp(arch, a->prefix, strlen(a->prefix)))
			return a->arch;
	}
	if (arch[0] == 's' && arch[1] == 'h' && isdigit((unsigned char)arch[2]))
		return "sh";
	return arch;
}

const char *
pd_reg_name(const char *arch, unsigned int idx)
{
	const char *norm = pd_arch_normalize(arch);
	size_t i;

	if (!norm)
		return "unknown";
	for (i = 0; i < ARRAY_SIZE(reg_tables); i++) {
		const struct reg_table *t = &reg_tables[i];

		if (strcmp(norm, t->arch))
			continue;
		if (idx < t->nr && t->names[idx])
			return t->names[idx];
		break;
	}
	return "unknown";
}

const char *
pd_regs_abi_name(uint64_t abi)
{
	static const char *const names[] = {
		[PD_REGS_ABI_NONE]	= "none",
		[PD_REGS_ABI_32]	= "32-bit",
		[PD_REGS_ABI_64]	= "64-bit",
	};

	return abi < ARRAY_SIZE(names) ? names[abi] : "unknown";
}

size_t
pd_regs_script(char *buf, size_t size, const char *arch,
	       const struct pd_regs *regs)
{
	uint64_t rest = regs->mask, val;
	unsigned int reg;
	size_t len;

	if (size)
		buf[0] = '\0';
	if (regs->abi == PD_REGS_ABI_NONE)
		return 0;
	len = pd_text_appendf(buf, size, 0, " ABI:%" PRIu64 " ", regs->abi);
	while (pd_regs_next(regs, &rest, &reg, &val))
		len = pd_text_appendf(buf, size, len, "%5s:0x%" PRIx64 " ",
				      pd_reg_name(arch, reg), val);
	return len;
}
