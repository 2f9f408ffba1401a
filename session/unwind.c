/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * session/unwind.c - DWARF unwinding of a sample's user stack through
 * libdwfl, as perf 6.1 unwinds --call-graph dwarf samples
 * (doc/perf-records.md §7.5): one Dwfl per address space, holding a
 * module for each mapped DSO the unwinding reached (its CFI parsed once,
 * kept for the next samples); registers from the sample, memory from
 * the stack copy or from the mapped file.
 */
#include "config.h"

#include <elf.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>
#include <xxhash.h>

#include "lib/safefile.h"
#include "lib/xalloc.h"
#include "session/session-int.h"
#include "session/unwind-rules.h"
#include "session/unwind.h"

/*
 * perf_regs numbers of x86 (arch/x86/include/uapi/asm/perf_regs.h), the
 * same for 64-bit samples and 32-bit ones (the low halves)
 */
enum {
	REG_AX, REG_BX, REG_CX, REG_DX, REG_SI, REG_DI, REG_BP, REG_SP,
	REG_IP, REG_FLAGS, REG_CS, REG_SS, REG_DS, REG_ES, REG_FS, REG_GS,
	REG_R8, REG_R9, REG_R10, REG_R11, REG_R12, REG_R13, REG_R14, REG_R15,
};

/* arm64's: x0 to x30 (lr), then sp and pc (arch/arm64/.../perf_regs.h) */
enum { ARM64_REG_LR = 30, ARM64_REG_SP, ARM64_REG_PC };

/*
 * A register set: DWARF register n of the psABI is perf's perf[n], for
 * n below nr; the pc, when it has no DWARF number there, is given apart.
 */
struct uw_regset {
	const unsigned char *perf;
	unsigned int nr;
	unsigned int ip, sp;		/* perf's numbers */
	bool pc_apart;			/* dwfl_thread_state_register_pc() */
	unsigned int word;		/* bytes of a word read from memory */
};

static const unsigned char x86_64_dwarf[] = {
	REG_AX, REG_DX, REG_CX, REG_BX, REG_SI, REG_DI, REG_BP, REG_SP,
	REG_R8, REG_R9, REG_R10, REG_R11, REG_R12, REG_R13, REG_R14, REG_R15,
	REG_IP,
};

static const unsigned char i386_dwarf[] = {
	REG_AX, REG_CX, REG_DX, REG_BX, REG_SP, REG_BP, REG_SI, REG_DI,
	REG_IP,
};

static const unsigned char arm64_dwarf[] = {
	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19,
	20, 21, 22, 23, 24, 25, 26, 27, 28, 29, ARM64_REG_LR, ARM64_REG_SP,
};

static const struct uw_regset regset_x86_64 = {
	x86_64_dwarf, sizeof(x86_64_dwarf), REG_IP, REG_SP, false, 8,
};
static const struct uw_regset regset_i386 = {
	i386_dwarf, sizeof(i386_dwarf), REG_IP, REG_SP, false, 4,
};
static const struct uw_regset regset_arm64 = {
	arm64_dwarf, sizeof(arm64_dwarf), ARM64_REG_PC, ARM64_REG_SP, true, 8,
};

#define NR_DWARF_REGS_MAX	sizeof(arm64_dwarf)

struct uw_space {
	Dwfl *dwfl;
	bool attached;
	const struct uw_regset *set;	/* of the samples it was made for */
	struct u64map cfi;		/* pc -> 2 has CFI, 1 has none */
};

/*
 * Each module of a Dwfl holds its file open: a fork-heavy recording has
 * more address spaces than descriptors, so only this many keep theirs.
 */
#define UW_LIVE_MAX	16

/*
 * perf's load address of a DSO's .eh_frame_hdr in an address space
 * (table_bias()), kept while the maps are unchanged; direct-mapped.
 */
#define UW_TABLE_CACHE	64

struct uw_table_base {
	const struct ses_maps *maps;
	const struct sym_dso *dso;
	uint64_t gen;			/* of maps when computed */
	uint64_t bias;
};

/*
 * Whether perf's libunwind finds the CFI of a map's code in an address
 * space (perf_finds_cfi()), kept while the maps are unchanged.
 */
#define UW_FINDS_CACHE	64

struct uw_finds {
	const struct ses_maps *maps;
	const struct ses_map_int *map;
	uint64_t gen;
	bool finds;
};

struct ses_unwind {
	struct u64map index;		/* address space -> 1 + index in v */
	struct uw_space *v;
	size_t nr, cap;
	size_t live[UW_LIVE_MAX];	/* indices in v with a Dwfl, in a ring */
	size_t nr_live, next_live;
	enum { UW_X86, UW_ARM64, UW_OTHER } arch;
	/* the sample being unwound */
	const struct uw_regset *set;
	struct ses_maps *maps;
	const struct pd_sample *ps;
	uint64_t sp;
	uint64_t *ips;
	size_t nr_ips, max;
	bool stale;			/* a module no longer matches its map */
	bool past_copy;			/* the last step read above the copy */
	bool read_failed;		/* a read of the last step failed */
	uint64_t need;			/* the bytes above sp it wanted */
	uint64_t last_pc;		/* the last frame's */
	enum ses_unwind_end end;	/* how it ended, once known */
	/*
	 * The registers a new walk starts from: perf's frame-pointer or
	 * PLT guess (fp_guess(), plt_guess()), or the frame a walk ended
	 * at, with the registers libunwind keeps there (restart_walk()).
	 */
	struct {
		bool on;
		bool again;		/* its first frame is already in ips */
		uint32_t mask;		/* of the DWARF registers in regs */
		Dwarf_Word regs[NR_DWARF_REGS_MAX];
		uint64_t pc;
	} guess;
	/*
	 * The last frame's registers as perf's libunwind has them: a
	 * register the frame's callee's CFI leaves unsaid keeps its value
	 * there, where libdwfl drops it (doc/perf-records.md §7.9).
	 */
	Dwarf_Word view[NR_DWARF_REGS_MAX];
	uint32_t view_mask;
	uint32_t view_lost;		/* of view_mask, the ones libdwfl lacks */
	size_t walk_frames;		/* frames of the current walk */
	size_t space;			/* index in v of the walk's */
	struct uw_table_base tables[UW_TABLE_CACHE];
	/* the fast walk (fast_walk()) */
	struct uw_rules rules;
	struct uw_finds finds[UW_FINDS_CACHE];
	Dwfl *fast_dwfl;		/* the sample's, once a rule needed it */
	uint64_t fast_ip;
	bool check;			/* PDATA_UNWIND_CHECK: both ways, compared */
	bool check_abort;		/* PDATA_UNWIND_CHECK=abort */
	bool last_fast, last_differ;	/* of the last sample */
	struct ses_unwind_check checked;
};

static char *debuginfo_path;

/*
 * A module's separate debug file (for .debug_frame) is the one the
 * symbol layer found for its DSO, with the same search and build-id
 * check as its symbols (sym_dso_debug_path()), not libdwfl's own.
 */
static int
cb_find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname,
		  Dwarf_Addr base, const char *file_name,
		  const char *debuglink_file, GElf_Word debuglink_crc,
		  char **debuginfo_file_name)
{
	const char *path;
	int fd;

	(void)mod; (void)modname; (void)base; (void)file_name;
	(void)debuglink_file; (void)debuglink_crc;
	if (!*userdata)
		return -1;
	path = sym_dso_debug_path(*userdata);
	if (!path)
		return -1;
	fd = sfile_open_input(path, 0, NULL);
	if (fd < 0)
		return -1;
	*debuginfo_file_name = strdup(path);
	return fd;
}

static const Dwfl_Callbacks dwfl_callbacks = {
	.find_debuginfo = cb_find_debuginfo,
	.debuginfo_path = &debuginfo_path,
	.section_address = dwfl_offline_section_address,
};

static void
space_end(struct uw_space *sp)
{
	if (sp->dwfl)
		dwfl_end(sp->dwfl);
	sp->dwfl = NULL;
	sp->attached = false;
	u64map_free(&sp->cfi);
}

/* perf's uname -m; a file without one is taken for x86, as perf */
static int
arch_of(const char *arch)
{
	if (!arch || !strcmp(arch, "x86_64") || !strcmp(arch, "i386") ||
	    !strcmp(arch, "i686"))
		return UW_X86;
	if (!strcmp(arch, "aarch64") || !strcmp(arch, "arm64"))
		return UW_ARM64;
	return UW_OTHER;
}

struct ses_unwind *
ses_unwind_new(const char *arch)
{
	struct ses_unwind *u = xcalloc(1, sizeof(struct ses_unwind));
	const char *check;

	u->arch = arch_of(arch);
	check = getenv("PDATA_UNWIND_CHECK");
	u->check = check && strcmp(check, "0");
	u->check_abort = check && !strcmp(check, "abort");
	return u;
}

/* The register set of ps's user registers, NULL when none is known. */
static const struct uw_regset *
regset_for(int arch, const struct pd_sample *ps)
{
	uint64_t abi = ps->user_regs.abi;

	if (arch == UW_X86)
		return abi == PD_REGS_ABI_64 ? &regset_x86_64 :
		       abi == PD_REGS_ABI_32 ? &regset_i386 : NULL;
	if (arch == UW_ARM64 && abi == PD_REGS_ABI_64)
		return &regset_arm64;
	return NULL;
}

static const struct uw_regset *
regset_of(const struct ses_unwind *u, const struct pd_sample *ps)
{
	return regset_for(u->arch, ps);
}

bool
ses_unwind_user_pc(const char *arch, const struct pd_sample *ps, uint64_t *pc)
{
	const struct uw_regset *rs;

	if (!pd_sample_has(ps, PD_SAMPLE_REGS_USER) || ps->user_regs.regs.swap)
		return false;
	rs = regset_for(arch_of(arch), ps);
	return rs && pd_regs_get(&ps->user_regs, rs->ip, pc);
}

void
ses_unwind_free(struct ses_unwind *u)
{
	size_t i;

	if (!u)
		return;
	for (i = 0; i < u->nr; i++)
		space_end(&u->v[i]);
	free(u->v);
	u64map_free(&u->index);
	uw_rules_free(&u->rules);
	free(u);
}

bool
ses_unwind_possible(const struct pd_sample *ps)
{
	return pd_sample_has(ps, PD_SAMPLE_REGS_USER) &&
	       pd_sample_has(ps, PD_SAMPLE_STACK_USER) &&
	       ps->user_regs.abi != PD_REGS_ABI_NONE &&
	       !ps->user_regs.regs.swap && ps->user_stack.dyn_size;
}

uint64_t
ses_unwind_key(const struct pd_sample *ps)
{
	const struct pd_regs *r = &ps->user_regs;
	const struct pd_user_stack *st = &ps->user_stack;
	uint64_t h;
	size_t len;

	if (!ses_unwind_possible(ps))
		return 0;
	len = st->dyn_size < st->data.len ? st->dyn_size : st->data.len;
	h = XXH3_64bits_withSeed(r->regs.p, r->regs.nr * 8, r->mask);
	return XXH3_64bits_withSeed(st->data.p, len, h) | 1;
}

static uint64_t
sample_reg(const struct pd_sample *ps, unsigned int reg)
{
	uint64_t v = 0;

	pd_regs_get(&ps->user_regs, reg, &v);
	return v;
}

static void
note_cfi(Dwfl_Module *mod, struct sym_dso *dso, uint64_t pc)
{
	Dwarf_Addr bias;

	if (sym_dso_noting(dso) && dwfl_module_getelf(mod, &bias))
		sym_dso_note_cfi(dso, pc - bias);
}

/* The map of addr in the sampled address space that has an ELF file. */
static const struct ses_map_int *
file_map(struct ses_unwind *u, uint64_t addr)
{
	const struct ses_map_int *m = ses_maps_find(u->maps, addr);
	enum sym_dso_kind kind;

	if (!m || m->pub.identity)
		return NULL;
	kind = sym_dso_kind(m->pub.dso);
	return kind == SYM_DSO_FILE || kind == SYM_DSO_VDSO ? m : NULL;
}

/*
 * Make sure the Dwfl has the module of the map covering pc, as perf's
 * report_module(): the DSO's file (else the CFI image of its archive
 * entry) loaded at the map's start less its file offset.  False when
 * there is none; a module of another DSO there marks the Dwfl stale.
 * An archive being made notes the address whose CFI is read next.
 */
static bool
report_pc(struct ses_unwind *u, Dwfl *dwfl, uint64_t pc)
{
	const struct ses_map_int *m = file_map(u, pc);
	Dwfl_Module *mod;
	void **data;
	int fd;

	if (!m)
		return false;
	mod = dwfl_addrmodule(dwfl, pc);
	if (!mod) {
		/* its frames will be resolved: load it ahead meanwhile */
		sym_dso_warm(m->pub.dso);
		fd = sym_dso_unwind_dup(m->pub.dso);
		if (fd < 0)
			return false;
		mod = dwfl_report_elf(dwfl, sym_dso_short_name(m->pub.dso),
				      sym_dso_long_name(m->pub.dso), fd,
				      m->pub.start - m->pub.pgoff, false);
		if (!mod) {
			close(fd);
			u->stale = true;
			return false;
		}
		dwfl_module_info(mod, &data, NULL, NULL, NULL, NULL, NULL,
				 NULL);
		*data = m->pub.dso;
		dwfl_report_end(dwfl, NULL, NULL);
	}
	dwfl_module_info(mod, &data, NULL, NULL, NULL, NULL, NULL, NULL);
	if (*data != m->pub.dso || dwfl_addrmodule(dwfl, pc) != mod) {
		u->stale = true;
		return false;
	}
	note_cfi(mod, m->pub.dso, pc);
	return true;
}

static pid_t
cb_next_thread(Dwfl *dwfl, void *arg, void **thread_arg)
{
	if (*thread_arg)
		return 0;
	*thread_arg = arg;
	return dwfl_pid(dwfl);
}

/* A word of the mapped file at addr (perf's access_dso_mem). */
static bool
read_file_word(struct ses_unwind *u, uint64_t addr, Dwarf_Word *out)
{
	const struct ses_map_int *m = file_map(u, addr);
	unsigned int word = u->set->word;
	uint64_t v = 0;

	if (!m)
		return false;
	if (sym_dso_read(m->pub.dso, addr - m->pub.start + m->pub.pgoff, &v,
			 word) != (ssize_t)word)
		return false;
	*out = v;
	return true;
}

/*
 * A read the stack copy could not give, at addr: above sp it wanted more
 * of the stack, up to addr + word, unless it lies further above than a
 * stack reaches (RLIMIT_STACK's usual 8 MiB): a wild address, read from
 * a register that holds no stack address, is no sign of a short copy.
 */
#define UW_STACK_SPAN	(8u << 20)

static void
note_past_copy(struct ses_unwind *u, uint64_t addr, uint64_t word)
{
	if (addr < u->sp || addr - u->sp >= UW_STACK_SPAN)
		return;
	u->past_copy = true;
	if (addr + word - u->sp > u->need)
		u->need = addr + word - u->sp;
}

static bool
cb_memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *out, void *arg)
{
	struct ses_unwind *u = arg;
	const struct pd_user_stack *st = &u->ps->user_stack;
	uint64_t v = 0, end = u->sp + st->dyn_size, word = u->set->word;

	(void)dwfl;
	if (addr + word < addr)
		return false;
	/*
	 * perf's libunwind reader (unwind-libunwind-local.c, access_mem)
	 * takes the last word of the copy from the file, not the copy.
	 * A word is 4 bytes for a 32-bit process (little-endian).
	 */
	if (addr < u->sp || addr + word >= end ||
	    addr - u->sp + word > st->data.len) {
		if (read_file_word(u, addr, out))
			return true;
		note_past_copy(u, addr, word);
		/*
		 * perf's reader returns 1, not an error, where a map covers
		 * the word but its file cannot give it (the stack above the
		 * copy, an anonymous map): libunwind reads 0 there.
		 */
		if (!ses_maps_find(u->maps, addr)) {
			u->read_failed = true;
			return false;
		}
		*out = 0;
		return true;
	}
	memcpy(&v, st->data.p + (addr - u->sp), (size_t)word);
	*out = v;
	return true;
}

/* x86_64's DWARF numbers of rbp and rsp, as set by fp_guess() */
enum { DWARF_X86_64_BP = 6, DWARF_X86_64_SP = 7 };

static bool
cb_set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	struct ses_unwind *u = arg;
	const struct uw_regset *set = u->set;
	Dwarf_Word regs[NR_DWARF_REGS_MAX];
	size_t i;

	if (u->guess.on) {
		u->guess.on = false;
		dwfl_thread_state_register_pc(thread, u->guess.pc);
		for (i = 0; i < NR_DWARF_REGS_MAX; i++)
			if ((u->guess.mask >> i & 1) &&
			    !dwfl_thread_state_registers(thread, (int)i, 1,
							 &u->guess.regs[i]))
				return false;
		return true;
	}

	for (i = 0; i < set->nr; i++)
		regs[i] = sample_reg(u->ps, set->perf[i]);
	if (set->pc_apart)
		dwfl_thread_state_register_pc(thread,
					      sample_reg(u->ps, set->ip));
	return dwfl_thread_state_registers(thread, 0, set->nr, regs);
}

static const Dwfl_Thread_Callbacks thread_callbacks = {
	.next_thread = cb_next_thread,
	.memory_read = cb_memory_read,
	.set_initial_registers = cb_set_initial_registers,
};

/*
 * The CFI row libdwfl steps through at pc (its frame_unwind.c): the
 * .eh_frame's, else, where that has none for pc, the .debug_frame's.
 */
static Dwarf_Frame *
step_row(Dwfl *dwfl, uint64_t pc)
{
	Dwfl_Module *mod = dwfl_addrmodule(dwfl, pc);
	Dwarf_CFI *cfi;
	Dwarf_Addr bias;
	Dwarf_Frame *frame;

	if (!mod)
		return NULL;
	cfi = dwfl_module_eh_cfi(mod, &bias);
	if (cfi && !dwarf_cfi_addrframe(cfi, pc - bias, &frame))
		return frame;
	cfi = dwfl_module_dwarf_cfi(mod, &bias);
	if (cfi && !dwarf_cfi_addrframe(cfi, pc - bias, &frame))
		return frame;
	return NULL;
}

/* Whether the CFI of pc marks a signal trampoline (augmentation 'S'). */
static bool
is_signal_frame(Dwfl *dwfl, uint64_t pc)
{
	Dwarf_Frame *frame = step_row(dwfl, pc);
	bool signal = false;

	if (!frame)
		return false;
	dwarf_frame_info(frame, NULL, NULL, &signal);
	free(frame);
	return signal;
}

/*
 * Whether pc's CFI says where its return address is (not undefined, the
 * mark of an outermost frame), and it is no signal trampoline's: a walk
 * that ended there read a return address of 0.
 */
static bool
ra_defined(Dwfl *dwfl, uint64_t pc)
{
	Dwarf_Frame *frame = step_row(dwfl, pc);
	Dwarf_Op ops_mem[3], *ops;
	size_t nops;
	bool signal = true, defined = false;
	int ra;

	if (!frame)
		return false;
	ra = dwarf_frame_info(frame, NULL, NULL, &signal);
	if (ra >= 0 && !signal &&
	    dwarf_frame_register(frame, ra, ops_mem, &ops, &nops) == 0)
		defined = nops > 0;
	free(frame);
	return defined;
}

/* Whether the module of pc has CFI (.eh_frame or .debug_frame) for it. */
static bool
has_cfi(Dwfl *dwfl, uint64_t pc)
{
	Dwarf_Frame *frame = step_row(dwfl, pc);

	free(frame);
	return frame != NULL;
}

/* has_cfi() of the walk's address space, kept per pc while its Dwfl lives */
static bool
space_has_cfi(struct ses_unwind *u, Dwfl *dwfl, uint64_t pc)
{
	uint64_t *known = u64map_slot(&u->v[u->space].cfi, pc);

	if (!*known)
		*known = has_cfi(dwfl, pc) ? 2 : 1;
	return *known == 2;
}

/* The first PT_LOAD's address, page-aligned, as perf's elf_base_address(). */
static uint64_t
elf_first_load(Elf *elf)
{
	size_t i, nr;
	GElf_Phdr ph;

	if (elf_getphdrnum(elf, &nr))
		return 0;
	for (i = 0; i < nr; i++)
		if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD)
			return ph.p_vaddr & ~(uint64_t)(sysconf(_SC_PAGESIZE) - 1);
	return 0;
}

/*
 * The load bias perf 6.1 gives dso's .eh_frame_hdr table in the sampled
 * address space (its read_unwind_spec_eh_frame()): the lowest start of
 * any map of that DSO, less the first PT_LOAD address.  Maps of the
 * program before an exec stay (perf keeps them), so a lower map of the
 * same DSO from then moves the table to the old load address.
 */
static uint64_t
table_bias(struct ses_unwind *u, const struct sym_dso *dso, Elf *elf)
{
	struct uw_table_base *t = &u->tables[(((uintptr_t)dso >> 4) ^
					      ((uintptr_t)u->maps >> 4)) %
					     UW_TABLE_CACHE];
	uint64_t lowest = UINT64_MAX;
	size_t i;

	if (t->maps == u->maps && t->dso == dso && t->gen == u->maps->gen)
		return t->bias;
	for (i = 0; i < u->maps->nr; i++)
		if (u->maps->v[i]->pub.dso == dso) {
			lowest = u->maps->v[i]->pub.start;
			break;		/* sorted by start */
		}
	*t = (struct uw_table_base){
		.maps = u->maps, .dso = dso, .gen = u->maps->gen,
		.bias = lowest - elf_first_load(elf),
	};
	return t->bias;
}

/*
 * Whether perf's libunwind finds pc's CFI: the module has it, and perf
 * looks for its .eh_frame_hdr table where the module is loaded (else
 * its lookup misses, as on the frames of a program that exec'd where a
 * map of the same library from before lies lower, and it guesses from
 * the frame pointer).  Only perf's x86_64 unwinder is modelled.
 */
static bool
perf_finds_cfi(struct ses_unwind *u, Dwfl *dwfl, uint64_t pc)
{
	const struct ses_map_int *m;
	Dwfl_Module *mod;
	Dwarf_Addr bias;
	Elf *elf;

	if (!space_has_cfi(u, dwfl, pc))
		return false;
	m = file_map(u, pc);
	mod = dwfl_addrmodule(dwfl, pc);
	if (!m || !mod || !(elf = dwfl_module_getelf(mod, &bias)))
		return true;
	return table_bias(u, m->pub.dso, elf) == bias;
}

/* A walk from rsp, rbp and pc, the rest undefined, as libunwind leaves them. */
static void
guess_from(struct ses_unwind *u, uint64_t sp, uint64_t bp, uint64_t pc)
{
	u->guess.on = true;
	u->guess.again = false;
	u->guess.mask = 1u << DWARF_X86_64_SP | 1u << DWARF_X86_64_BP;
	u->guess.regs[DWARF_X86_64_SP] = sp;
	u->guess.regs[DWARF_X86_64_BP] = bp;
	u->guess.pc = pc;
}

/*
 * perf 6.1's libunwind (1.6.2) out of an x86_64 frame without CFI: a
 * frame-pointer guess, whose caller has pc [rbp + 8], rbp [rbp] and, as
 * libunwind sets it, rsp the frame's own rsp + 16, not rbp + 16; every
 * other register undefined.  It gives up when rbp is 0 or below rsp or
 * more than 16 KiB above it, or a word cannot be read; a return
 * address of 0 read is one more frame, perf's 0xffffffffffffffff, and
 * the last (libdwfl's own guess differs, doc/perf-records.md §7.9).
 * True when the walk goes on from u->guess.
 */
static bool
fp_guess(struct ses_unwind *u, Dwfl_Frame *state)
{
	Dwarf_Word sp, bp, prev_bp, ra;

	if (dwfl_frame_reg(state, DWARF_X86_64_SP, &sp) ||
	    dwfl_frame_reg(state, DWARF_X86_64_BP, &bp) || !bp ||
	    bp < sp || bp - sp > 0x4000 ||
	    !cb_memory_read(NULL, bp, &prev_bp, u) ||
	    !cb_memory_read(NULL, bp + 8, &ra, u))
		return false;
	/* a return address of 0 is a frame all the same: 0 less one */
	if (!ra) {
		if (u->nr_ips < u->max)
			u->ips[u->nr_ips++] = (uint64_t)-1;
		return false;
	}
	/* the caller's frame is looked up, and shown, at its call */
	guess_from(u, sp + 16, prev_bp, ra - 1);
	return true;
}

/*
 * libunwind's other guess out of an x86_64 frame without CFI, tried
 * first: ip at a lazy PLT entry (jmp *x(%rip); push $n; jmp) returns to
 * [rsp], as a leaf; rbp stays.  True when the walk goes on from u->guess.
 */
static bool
plt_guess(struct ses_unwind *u, Dwfl_Frame *state, uint64_t ip)
{
	Dwarf_Word w0, w1, sp, bp, ra;

	if (!read_file_word(u, ip, &w0) || !read_file_word(u, ip + 8, &w1) ||
	    (w0 & 0xffff) != 0x25ff || ((w0 >> 48) & 0xff) != 0x68 ||
	    ((w1 >> 24) & 0xff) != 0xe9 ||
	    dwfl_frame_reg(state, DWARF_X86_64_SP, &sp) ||
	    dwfl_frame_reg(state, DWARF_X86_64_BP, &bp) ||
	    !cb_memory_read(NULL, sp, &ra, u) || !ra)
		return false;
	guess_from(u, sp + 8, bp, ra - 1);
	return true;
}

/*
 * Keeps u->view for the frame of state: what libdwfl has of it, and,
 * past a walk's first frame, what the frame before had that libdwfl
 * dropped.  Only perf's x86_64 unwinder is modelled.
 */
static void
view_track(struct ses_unwind *u, Dwfl_Frame *state)
{
	uint32_t have = 0;
	unsigned int r;
	Dwarf_Word v;

	u->view_lost = 0;
	if (u->set != &regset_x86_64)
		return;
	/* the pc's column, last, is the frame's own pc */
	for (r = 0; r + 1 < u->set->nr; r++)
		if (!dwfl_frame_reg(state, r, &v)) {
			u->view[r] = v;
			have |= 1u << r;
		}
	u->view_lost = u->walk_frames ? u->view_mask & ~have : 0;
	u->view_mask = have | u->view_lost;
}

/*
 * libdwfl's x86_64 rules leave %rbx undefined where a frame's CFI says
 * nothing of it (elfutils 0.188 names register 0 where 3 was meant);
 * libunwind keeps every such register.  When a walk ends with the
 * last frame's return address defined, and that frame lacks a
 * register libunwind has, the walk starts again at it with those.
 * True when it does.
 */
static bool
restart_walk(struct ses_unwind *u, Dwfl *dwfl)
{
	if (!u->view_lost || !u->nr_ips || !ra_defined(dwfl, u->last_pc))
		return false;
	u->guess.on = true;
	u->guess.again = true;
	u->guess.mask = u->view_mask;
	memcpy(u->guess.regs, u->view, sizeof(u->view));
	u->guess.pc = u->last_pc;
	return true;
}

/*
 * The frame's pc and whether it is an activation.  Asked the latter,
 * libdwfl takes the step out of the frame at once: the frame's module
 * must be reported before, or the step goes without its CFI.
 */
static bool
frame_pc(struct ses_unwind *u, Dwfl *dwfl, Dwfl_Frame *state,
	 Dwarf_Addr *pc, bool *activation)
{
	if (!dwfl_frame_pc(state, pc, NULL))
		return false;
	report_pc(u, dwfl, *pc);
	return dwfl_frame_pc(state, pc, activation);
}

static int
cb_frame(Dwfl_Frame *state, void *arg)
{
	struct ses_unwind *u = arg;
	Dwfl *dwfl = dwfl_thread_dwfl(dwfl_frame_thread(state));
	Dwarf_Addr pc;
	bool activation, reported;

	/* frame_pc() takes the step out of this frame */
	u->past_copy = false;
	u->read_failed = false;
	if (!frame_pc(u, dwfl, state, &pc, &activation)) {
		u->end = SES_UW_BAD_REGS;
		return DWARF_CB_ABORT;
	}
	if (!activation)
		pc--;
	/* the next step reads this frame's CFI */
	reported = report_pc(u, dwfl, pc);
	u->last_pc = pc;
	/*
	 * libdwfl counts a signal trampoline as an activation, and so the
	 * interrupted frame after it; perf 6.1's libunwind takes one off
	 * the trampoline's pc all the same (doc/perf-records.md §7.9).
	 */
	if (activation && u->walk_frames && reported &&
	    is_signal_frame(dwfl, pc))
		pc--;
	view_track(u, state);
	/* a walk restarted at its frame (restart_walk()) */
	if (!u->walk_frames++ && u->guess.again)
		return DWARF_CB_OK;
	u->ips[u->nr_ips++] = pc;
	if (u->nr_ips >= u->max) {
		u->end = SES_UW_MAX_STACK;
		return DWARF_CB_ABORT;
	}
	if (!reported) {
		u->end = SES_UW_NO_BINARY;
		return DWARF_CB_ABORT;
	}
	/* perf's guesses out of a frame without CFI, not libdwfl's */
	if (u->set == &regset_x86_64 && !perf_finds_cfi(u, dwfl, u->last_pc)) {
		if (!plt_guess(u, state, u->last_pc + !activation))
			fp_guess(u, state);
		return DWARF_CB_ABORT;
	}
	return DWARF_CB_OK;
}

/* A new Dwfl for v[i], ending the oldest one kept when too many are. */
static void
space_begin(struct ses_unwind *u, size_t i)
{
	size_t *ring = &u->live[u->next_live];

	if (u->nr_live == UW_LIVE_MAX)
		space_end(&u->v[*ring]);
	else
		u->nr_live++;
	*ring = i;
	u->next_live = (u->next_live + 1) % UW_LIVE_MAX;
	u->v[i].dwfl = dwfl_begin(&dwfl_callbacks);
}

/* The Dwfl of the address space being unwound, attached; NULL if none. */
static Dwfl *
space_dwfl(struct ses_unwind *u, uint64_t ip)
{
	uint64_t *slot = u64map_slot(&u->index, (uintptr_t)u->maps);
	struct uw_space *sp;

	if (!*slot) {
		if (u->nr == u->cap) {
			u->cap = u->cap ? u->cap * 2 : 16;
			u->v = xreallocarray(u->v, u->cap, sizeof(*u->v));
		}
		memset(&u->v[u->nr], 0, sizeof(u->v[u->nr]));
		*slot = ++u->nr;
	}
	sp = &u->v[*slot - 1];
	/*
	 * A Dwfl takes its machine from its first module: a process that
	 * exec'd a program of another ABI (a 64-bit parent starting a
	 * 32-bit program) needs a new one, as perf's unwind__flush_access().
	 */
	if (sp->dwfl && sp->set != u->set)
		space_end(sp);
	if (!sp->dwfl) {
		space_begin(u, *slot - 1);
		sp->set = u->set;
	}
	if (!sp->dwfl || !report_pc(u, sp->dwfl, ip))
		return NULL;
	u->space = *slot - 1;
	/* the machine comes from the first module's ELF */
	if (!sp->attached)
		sp->attached = dwfl_attach_state(sp->dwfl, NULL, 1,
						 &thread_callbacks, u);
	return sp->attached ? sp->dwfl : NULL;
}

/* Forget the address space's Dwfl: its modules no longer match. */
static void
space_reset(struct ses_unwind *u)
{
	uint64_t *slot = u64map_find(&u->index, (uintptr_t)u->maps);
	struct uw_space *sp;

	if (!slot)
		return;
	sp = &u->v[*slot - 1];
	space_end(sp);
}

/*
 * Whether pc is in a function named _start (the entry point of a program,
 * or of ld.so while it starts one, which has no CFI): the walk reached
 * the outermost frame, as the frames perf shows end there.
 */
static bool
in_start(struct ses_unwind *u, uint64_t pc)
{
	const struct ses_map_int *m = file_map(u, pc);
	const struct sym_symbol *sym;

	if (!m)
		return false;
	sym = sym_dso_find(m->pub.dso, pc - m->pub.start + m->pub.pgoff);
	return sym && !strcmp(sym->name, "_start");
}

/* Why the walk that returned rc ended, where cb_frame did not say. */
static enum ses_unwind_end
end_of(struct ses_unwind *u, Dwfl *dwfl, int rc)
{
	if (u->end != SES_UW_NONE)
		return u->end;
	if (rc != 0 && in_start(u, u->last_pc))
		return SES_UW_COMPLETE;
	if (u->past_copy)
		return SES_UW_SHORT_COPY;
	if (rc == 0)
		return SES_UW_COMPLETE;
	if (!has_cfi(dwfl, u->last_pc))
		return SES_UW_NO_CFI;
	return SES_UW_BAD_REGS;
}

/* perf shows no frame at address 0 (a return address of 1, less one). */
static void
drop_zero_ips(struct ses_unwind *u)
{
	size_t i, n = 0;

	for (i = 0; i < u->nr_ips; i++)
		if (u->ips[i])
			u->ips[n++] = u->ips[i];
	u->nr_ips = n;
}

/*
 * The fast walk: perf's unwinding of an x86_64 sample as unwind_once()
 * and its guesses make it, with each CFI row compiled once per DSO and
 * address (session/unwind-rules.c) and the registers kept here.  Where
 * anything falls outside what it models (a row with expressions, a
 * signal frame, a read outside the stack copy, a register libunwind has
 * and libdwfl lost, a DSO whose CFI is being noted, a stale module), it
 * gives up and the sample takes the slow way from the start.
 */
enum fast_end { FAST_SLOW, FAST_DONE, FAST_NEXT };

/*
 * The registers of a frame, by DWARF number; the return address column
 * (16) holds the frame's rip where libdwfl has it: the sample's, or the
 * return address its callee's step read (a PLT's CFA reads it).
 */
struct fast_regs {
	uint64_t v[UW_RULE_REGS];
	uint32_t have;		/* the registers libunwind has */
	uint32_t dwfl;		/* of them, those libdwfl has too */
};

#define REG_BIT(r)	(1u << (r))
#define FAST_ALL_REGS	(REG_BIT(UW_RULE_REGS) - 1)

/*
 * A word of the sampled stack as cb_memory_read() reads it: 1 read (from
 * the copy, or 0 under a map without a file), 0 a failed read (above sp
 * past the copy noted as it notes it), -1 where it would read a file
 * (the slow way).
 */
static int
fast_read(struct ses_unwind *u, uint64_t addr, uint64_t *out)
{
	const struct pd_user_stack *st = &u->ps->user_stack;
	uint64_t end = u->sp + st->dyn_size;

	if (addr + 8 < addr)
		return 0;
	if (addr >= u->sp && addr + 8 < end && addr - u->sp + 8 <= st->data.len) {
		memcpy(out, st->data.p + (addr - u->sp), 8);
		return 1;
	}
	if (file_map(u, addr))
		return -1;
	note_past_copy(u, addr, 8);
	/* a map there that no file gives: perf's reader has libunwind read 0 */
	if (ses_maps_find(u->maps, addr)) {
		*out = 0;
		return 1;
	}
	u->read_failed = true;
	return 0;
}

/* The CFA of r in the frame st; false where libdwfl cannot compute it. */
static bool
rule_cfa(const struct fast_regs *st, const struct uw_rule *r, uint64_t *cfa)
{
	uint32_t need = REG_BIT(r->cfa_reg);

	if (r->cfa_plt)
		need |= REG_BIT(UW_RULE_RA);
	if ((st->dwfl & need) != need)
		return false;
	*cfa = st->v[r->cfa_reg] + (uint64_t)r->cfa_off;
	if (r->cfa_plt && (st->v[UW_RULE_RA] & 15) >= 11)
		*cfa += 8;
	return true;
}

/*
 * libdwfl's step out of the frame st through r (its handle_cfi()), into
 * next, with the registers libunwind keeps where libdwfl drops them or
 * fails to read them: 1 done, -1 the slow way.
 */
static int
rule_step(struct ses_unwind *u, const struct fast_regs *st,
	  const struct uw_rule *r, struct fast_regs *next)
{
	uint64_t cfa, v;
	unsigned int reg, i;
	int got;

	*next = *st;
	if (!rule_cfa(st, r, &cfa)) {
		/* restart_walk() takes a register libdwfl lost */
		if (st->have & ~st->dwfl & (REG_BIT(r->cfa_reg) |
					    REG_BIT(UW_RULE_RA)))
			return -1;
		next->dwfl = 0;
		return 1;
	}
	next->dwfl &= ~r->undef;
	for (i = 0; i < r->nr_set; i++) {
		reg = r->set[i];
		v = cfa + (uint64_t)r->reg_off[reg];
		if (r->kind[reg] == UW_REG_AT) {
			got = fast_read(u, v, &v);
			if (got < 0)
				return -1;
			if (!got) {
				next->dwfl &= ~REG_BIT(reg);
				continue;
			}
		}
		next->v[reg] = v;
		next->have |= REG_BIT(reg);
		next->dwfl |= REG_BIT(reg);
	}
	return 1;
}

/* The sample's Dwfl, for a rule not yet compiled; NULL: the slow way. */
static Dwfl *
fast_dwfl(struct ses_unwind *u)
{
	if (!u->fast_dwfl)
		u->fast_dwfl = space_dwfl(u, u->fast_ip);
	return u->stale ? NULL : u->fast_dwfl;
}

/* Whether a lazy PLT entry starts at ip (plt_guess()'s test). */
static bool
plt_at(struct ses_unwind *u, uint64_t ip)
{
	Dwarf_Word w0, w1;

	return read_file_word(u, ip, &w0) && read_file_word(u, ip + 8, &w1) &&
	       (w0 & 0xffff) == 0x25ff && ((w0 >> 48) & 0xff) == 0x68 &&
	       ((w1 >> 24) & 0xff) == 0xe9;
}

/* The rule of pc, in m, compiled from the CFI libdwfl would use. */
static const struct uw_rule *
rule_compile(struct ses_unwind *u, const struct ses_map_int *m, uint64_t pc,
	     bool activation)
{
	struct uw_rule r = {
		.dso = m->pub.dso, .off = pc - m->pub.start + m->pub.pgoff,
		.activation = activation,
	};
	Dwfl *dwfl = fast_dwfl(u);
	Dwarf_Frame *frame;

	if (!dwfl || !report_pc(u, dwfl, pc) || u->stale)
		return NULL;
	frame = step_row(dwfl, pc);
	if (frame) {
		r.has_cfi = true;
		uw_rule_compile(&r, frame);
		free(frame);
	}
	r.plt = plt_at(u, pc + !activation);
	return uw_rules_add(&u->rules, &r);
}

static const struct uw_rule *
rule_of(struct ses_unwind *u, const struct ses_map_int *m, uint64_t pc,
	bool activation)
{
	const struct uw_rule *r = uw_rules_find(&u->rules, m->pub.dso,
						pc - m->pub.start + m->pub.pgoff,
						activation);

	return r ? r : rule_compile(u, m, pc, activation);
}

/* perf_finds_cfi() of pc in m, with r its rule: 1 yes, 0 no, -1 slow way. */
static int
fast_finds_cfi(struct ses_unwind *u, const struct ses_map_int *m,
	       const struct uw_rule *r, uint64_t pc)
{
	struct uw_finds *f = &u->finds[(((uintptr_t)m >> 4) ^
					((uintptr_t)u->maps >> 4)) %
				       UW_FINDS_CACHE];
	Dwfl *dwfl;

	if (!r->has_cfi)
		return 0;
	if (f->maps == u->maps && f->map == m && f->gen == u->maps->gen)
		return f->finds;
	dwfl = fast_dwfl(u);
	if (!dwfl || !report_pc(u, dwfl, pc) || u->stale)
		return -1;
	*f = (struct uw_finds){
		.maps = u->maps, .map = m, .gen = u->maps->gen,
		.finds = perf_finds_cfi(u, dwfl, pc),
	};
	return f->finds;
}

/* A new walk from rsp, rbp and pc alone (guess_from()). */
static void
fast_guess_from(struct fast_regs *st, uint64_t sp, uint64_t bp)
{
	st->v[UW_RULE_SP] = sp;
	st->v[DWARF_X86_64_BP] = bp;
	st->have = st->dwfl = REG_BIT(UW_RULE_SP) | REG_BIT(DWARF_X86_64_BP);
}

/* end_of() of a walk that cb_frame() aborted at u->last_pc, rule r */
static enum fast_end
fast_aborted(struct ses_unwind *u, const struct uw_rule *r)
{
	u->end = in_start(u, u->last_pc) ? SES_UW_COMPLETE :
		 u->past_copy ? SES_UW_SHORT_COPY :
		 r->has_cfi ? SES_UW_BAD_REGS : SES_UW_NO_CFI;
	return FAST_DONE;
}

/*
 * perf's guesses out of a frame whose CFI it does not find (plt_guess(),
 * then fp_guess()): FAST_NEXT with the new walk's first pc in *pc, or
 * how the walk ends.
 */
static enum fast_end
fast_guess(struct ses_unwind *u, struct fast_regs *st,
	   const struct uw_rule *r, uint64_t *pc)
{
	uint32_t need = REG_BIT(UW_RULE_SP) | REG_BIT(DWARF_X86_64_BP);
	uint64_t sp = st->v[UW_RULE_SP], bp = st->v[DWARF_X86_64_BP];
	uint64_t ra = 0, prev_bp = 0;
	int got;

	if ((st->dwfl & need) != need)
		return fast_aborted(u, r);
	if (r->plt) {
		got = fast_read(u, sp, &ra);
		if (got < 0)
			return FAST_SLOW;
		if (got && ra) {
			fast_guess_from(st, sp + 8, bp);
			*pc = ra - 1;
			return FAST_NEXT;
		}
	}
	if (!bp || bp < sp || bp - sp > 0x4000)
		return fast_aborted(u, r);
	got = fast_read(u, bp, &prev_bp);
	if (got > 0)
		got = fast_read(u, bp + 8, &ra);
	if (got < 0)
		return FAST_SLOW;
	if (!got)
		return fast_aborted(u, r);
	if (!ra) {
		if (u->nr_ips < u->max)
			u->ips[u->nr_ips++] = (uint64_t)-1;
		return fast_aborted(u, r);
	}
	fast_guess_from(st, sp + 16, prev_bp);
	*pc = ra - 1;
	return FAST_NEXT;
}

/*
 * The walk's step out of the frame st (next: libdwfl's step, already
 * taken): FAST_NEXT with the caller's pc in *pc, or how the walk ends.
 */
static enum fast_end
fast_step(struct ses_unwind *u, struct fast_regs *st,
	  const struct fast_regs *next, const struct uw_rule *r,
	  size_t walk_frames, uint64_t *pc)
{
	if (r->kind[UW_RULE_RA] == UW_REG_UNDEF) {
		/* the outermost frame, the walk's end (rc 0) */
		u->end = u->past_copy ? SES_UW_SHORT_COPY : SES_UW_COMPLETE;
		return FAST_DONE;
	}
	if (!(next->dwfl & REG_BIT(UW_RULE_RA)) || !next->v[UW_RULE_RA]) {
		/*
		 * No return address read, or 0: libdwfl's walk ends there
		 * (rc 0); restart_walk() would go on where libdwfl lacks a
		 * register libunwind has; else perf's last frame, unknown,
		 * unless a read failed
		 */
		if (walk_frames > 1 && (st->have & ~st->dwfl & FAST_ALL_REGS &
					~REG_BIT(UW_RULE_RA)))
			return FAST_SLOW;
		if (u->nr_ips < u->max && !u->read_failed)
			u->ips[u->nr_ips++] = (uint64_t)-1;
		u->end = u->past_copy ? SES_UW_SHORT_COPY : SES_UW_COMPLETE;
		return FAST_DONE;
	}
	*pc = next->v[UW_RULE_RA] - 1;
	*st = *next;
	return FAST_NEXT;
}

static void
fast_start(struct ses_unwind *u, struct fast_regs *st, uint64_t ip)
{
	unsigned int reg;

	for (reg = 0; reg < UW_RULE_REGS; reg++)
		st->v[reg] = sample_reg(u->ps, x86_64_dwarf[reg]);
	st->have = st->dwfl = FAST_ALL_REGS;
	u->nr_ips = 0;
	u->need = 0;
	u->last_pc = ip;
	u->end = SES_UW_NONE;
	u->fast_dwfl = NULL;
	u->fast_ip = ip;
}

/* The fast walk of the sample: false when it must take the slow way. */
static bool
fast_walk(struct ses_unwind *u, uint64_t ip)
{
	struct fast_regs st, next;
	const struct ses_map_int *m;
	const struct uw_rule *r;
	uint64_t pc = ip;
	bool activation = true;
	size_t walk_frames = 0;
	enum fast_end how;
	bool eager;
	int finds;

	fast_start(u, &st, ip);
	for (;;) {
		m = file_map(u, pc);
		if (!m || sym_dso_noting(m->pub.dso))
			return false;
		r = rule_of(u, m, pc, activation);
		if (!r || r->signal)
			return false;
		finds = fast_finds_cfi(u, m, r, pc);
		if (finds < 0)
			return false;
		/*
		 * cb_frame(): libdwfl's step out of a frame but a walk's
		 * first comes before the frame (frame_pc()), its reads noted;
		 * out of the first, only when the walk goes on through CFI
		 */
		u->past_copy = false;
		u->read_failed = false;
		eager = r->has_cfi && !activation;
		if (eager && (!r->simple || rule_step(u, &st, r, &next) < 0))
			return false;
		u->last_pc = pc;
		u->ips[u->nr_ips++] = pc;
		if (u->nr_ips >= u->max) {
			u->end = SES_UW_MAX_STACK;
			return true;
		}
		walk_frames++;
		if (!finds) {
			how = fast_guess(u, &st, r, &pc);
		} else {
			if (!eager &&
			    (!r->simple || rule_step(u, &st, r, &next) < 0))
				return false;
			how = fast_step(u, &st, &next, r, walk_frames, &pc);
		}
		if (how != FAST_NEXT)
			return how == FAST_DONE;
		activation = !finds;
		if (!finds)
			walk_frames = 0;
	}
}

static size_t
unwind_once(struct ses_unwind *u, uint64_t ip)
{
	Dwfl *dwfl = space_dwfl(u, ip);
	int rc;

	u->nr_ips = 0;
	u->past_copy = false;
	u->read_failed = false;
	u->need = 0;
	u->last_pc = ip;
	u->end = SES_UW_NONE;
	if (!dwfl) {
		u->end = SES_UW_NO_BINARY;
		return 0;
	}
	u->guess.on = false;
	u->guess.again = false;
	u->walk_frames = 0;
	rc = dwfl_getthread_frames(dwfl, dwfl_pid(dwfl), cb_frame, u);
	/* each guess, and each restart, starts a walk of its own */
	while (u->end == SES_UW_NONE &&
	       (u->guess.on || (rc == 0 && restart_walk(u, dwfl)))) {
		u->walk_frames = 0;
		rc = dwfl_getthread_frames(dwfl, dwfl_pid(dwfl), cb_frame, u);
	}
	u->end = end_of(u, dwfl, rc);
	/*
	 * A step through CFI that reads a return address of 0 (from the
	 * copy, or above it where perf reads 0) ends libdwfl's walk, as one
	 * whose reads fail; perf's libunwind still counts it: one more
	 * frame, 0 less one, which perf shows as an unknown
	 * 0xffffffffffffffff; not out of a signal trampoline
	 * (doc/perf-records.md §7.9).
	 */
	if (rc == 0 && !u->read_failed && u->set == &regset_x86_64 && u->nr_ips &&
	    u->nr_ips < u->max && perf_finds_cfi(u, dwfl, u->last_pc) &&
	    ra_defined(dwfl, u->last_pc))
		u->ips[u->nr_ips++] = (uint64_t)-1;
	drop_zero_ips(u);
	return u->nr_ips;
}

/* unwind_once(), again with a new Dwfl when a module went stale */
static size_t
slow_walk(struct ses_unwind *u, uint64_t ip)
{
	size_t n;

	u->stale = false;
	n = unwind_once(u, ip);
	if (u->stale) {
		space_reset(u);
		u->stale = false;
		n = unwind_once(u, ip);
	}
	return n;
}

/*
 * PDATA_UNWIND_CHECK: the fast walk's result (n frames in u) against the
 * slow way's, which is kept.
 */
static size_t
check_walk(struct ses_unwind *u, uint64_t ip, size_t n)
{
	uint64_t fast[SES_UNWIND_CHECK_MAX];
	enum ses_unwind_end end = u->end;
	uint64_t last_pc = u->last_pc, need = u->need;
	size_t kept = n < SES_UNWIND_CHECK_MAX ? n : SES_UNWIND_CHECK_MAX;
	size_t slow;

	memcpy(fast, u->ips, kept * sizeof(*fast));
	slow = slow_walk(u, ip);
	if (slow != n || end != u->end || last_pc != u->last_pc ||
	    need != u->need || memcmp(fast, u->ips, kept * sizeof(*fast))) {
		u->last_differ = true;
		if (u->check_abort)
			abort();
	}
	return slow;
}

size_t
ses_unwind_user(struct ses_unwind *u, struct ses_maps *maps,
		const struct pd_sample *ps, uint64_t *ips, size_t max)
{
	uint64_t ip;
	size_t n;

	if (!max || !ses_unwind_possible(ps))
		return 0;
	u->ps = ps;
	u->set = regset_of(u, ps);
	if (!u->set || !pd_regs_get(&ps->user_regs, u->set->ip, &ip) ||
	    !pd_regs_get(&ps->user_regs, u->set->sp, &u->sp)) {
		/* registers of an architecture this unwinder does not know */
		u->end = SES_UW_BAD_REGS;
		u->last_pc = 0;
		u->need = 0;
		return 0;
	}
	u->maps = maps;
	u->ips = ips;
	u->max = max;
	u->stale = false;
	u->last_fast = u->set == &regset_x86_64 && fast_walk(u, ip);
	u->last_differ = false;
	if (u->last_fast) {
		n = u->nr_ips;
		if (u->check)
			n = check_walk(u, ip, n);
	} else {
		n = slow_walk(u, ip);
	}
	ses_unwind_adopt(u, u->last_fast, u->last_differ, ps->time);
	if (!n) {
		/* perf keeps the sampled ip when nothing can be unwound */
		ips[0] = ip;
		n = 1;
	}
	return n;
}

void
ses_unwind_last_way(const struct ses_unwind *u, bool *fast, bool *differ)
{
	*fast = u->last_fast;
	*differ = u->last_differ;
}

void
ses_unwind_adopt(struct ses_unwind *u, bool fast, bool differ, uint64_t time)
{
	if (fast)
		u->checked.fast++;
	else
		u->checked.slow++;
	if (differ && !u->checked.differ++)
		u->checked.first_time = time;
}

void
ses_unwind_checked(const struct ses_unwind *u, struct ses_unwind_check *out)
{
	*out = u->checked;
	out->on = u->check;
}

void
ses_unwind_last(const struct ses_unwind *u, struct ses_unwind_info *out)
{
	out->end = u->end;
	out->pc = u->last_pc;
	/* the copy's last word is never read from it (cb_memory_read) */
	out->need = u->need && u->need <= u->ps->user_stack.dyn_size ?
		u->ps->user_stack.dyn_size + 8 : u->need;
	out->copy = u->ps->user_stack.dyn_size;
}
