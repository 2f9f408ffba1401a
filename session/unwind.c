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
#include <xxhash.h>

#include "lib/xalloc.h"
#include "session/session-int.h"
#include "session/unwind.h"

/* perf_regs numbers of x86_64 (arch/x86/include/uapi/asm/perf_regs.h) */
enum {
	REG_AX, REG_BX, REG_CX, REG_DX, REG_SI, REG_DI, REG_BP, REG_SP,
	REG_IP, REG_FLAGS, REG_CS, REG_SS, REG_DS, REG_ES, REG_FS, REG_GS,
	REG_R8, REG_R9, REG_R10, REG_R11, REG_R12, REG_R13, REG_R14, REG_R15,
};

/* DWARF register n of x86_64 (the psABI's numbering) is perf's dwarf_regs[n] */
static const unsigned char dwarf_regs[] = {
	REG_AX, REG_DX, REG_CX, REG_BX, REG_SI, REG_DI, REG_BP, REG_SP,
	REG_R8, REG_R9, REG_R10, REG_R11, REG_R12, REG_R13, REG_R14, REG_R15,
	REG_IP,
};

#define NR_DWARF_REGS (sizeof(dwarf_regs) / sizeof(dwarf_regs[0]))

struct uw_space {
	Dwfl *dwfl;
	bool attached;
};

/*
 * Each module of a Dwfl holds its file open: a fork-heavy recording has
 * more address spaces than descriptors, so only this many keep theirs.
 */
#define UW_LIVE_MAX	16

struct ses_unwind {
	struct u64map index;		/* address space -> 1 + index in v */
	struct uw_space *v;
	size_t nr, cap;
	size_t live[UW_LIVE_MAX];	/* indices in v with a Dwfl, in a ring */
	size_t nr_live, next_live;
	/* the sample being unwound */
	struct ses_maps *maps;
	const struct pd_sample *ps;
	uint64_t sp;
	uint64_t *ips;
	size_t nr_ips, max;
	bool stale;			/* a module no longer matches its map */
	bool past_copy;			/* the last step read above the copy */
	uint64_t need;			/* the bytes above sp it wanted */
	uint64_t last_pc;		/* the last frame's */
	enum ses_unwind_end end;	/* how it ended, once known */
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
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
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
}

struct ses_unwind *
ses_unwind_new(void)
{
	return xcalloc(1, sizeof(struct ses_unwind));
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
	free(u);
}

bool
ses_unwind_possible(const struct pd_sample *ps)
{
	uint64_t v;

	return pd_sample_has(ps, PD_SAMPLE_REGS_USER) &&
	       pd_sample_has(ps, PD_SAMPLE_STACK_USER) &&
	       ps->user_regs.abi == PD_REGS_ABI_64 && !ps->user_regs.regs.swap &&
	       ps->user_stack.dyn_size &&
	       pd_regs_get(&ps->user_regs, REG_IP, &v) &&
	       pd_regs_get(&ps->user_regs, REG_SP, &v);
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
	uint64_t v;

	if (!m)
		return false;
	if (sym_dso_read(m->pub.dso, addr - m->pub.start + m->pub.pgoff, &v,
			 sizeof(v)) != (ssize_t)sizeof(v))
		return false;
	*out = v;
	return true;
}

static bool
cb_memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *out, void *arg)
{
	struct ses_unwind *u = arg;
	const struct pd_user_stack *st = &u->ps->user_stack;
	uint64_t v, end = u->sp + st->dyn_size;

	(void)dwfl;
	if (addr + sizeof(v) < addr)
		return false;
	/*
	 * perf's libunwind reader (unwind-libunwind-local.c, access_mem)
	 * takes the last word of the copy from the file, not the copy.
	 */
	if (addr < u->sp || addr + sizeof(v) >= end ||
	    addr - u->sp + sizeof(v) > st->data.len) {
		if (read_file_word(u, addr, out))
			return true;
		if (addr >= u->sp) {
			u->past_copy = true;
			if (addr + sizeof(v) - u->sp > u->need)
				u->need = addr + sizeof(v) - u->sp;
		}
		return false;
	}
	memcpy(&v, st->data.p + (addr - u->sp), sizeof(v));
	*out = v;
	return true;
}

static bool
cb_set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	struct ses_unwind *u = arg;
	Dwarf_Word regs[NR_DWARF_REGS];
	size_t i;

	for (i = 0; i < NR_DWARF_REGS; i++)
		regs[i] = sample_reg(u->ps, dwarf_regs[i]);
	return dwfl_thread_state_registers(thread, 0, NR_DWARF_REGS, regs);
}

static const Dwfl_Thread_Callbacks thread_callbacks = {
	.next_thread = cb_next_thread,
	.memory_read = cb_memory_read,
	.set_initial_registers = cb_set_initial_registers,
};

/* Whether the CFI of pc marks a signal trampoline (augmentation 'S'). */
static bool
is_signal_frame(Dwfl *dwfl, uint64_t pc)
{
	Dwfl_Module *mod = dwfl_addrmodule(dwfl, pc);
	Dwarf_CFI *cfi;
	Dwarf_Addr bias;
	Dwarf_Frame *frame;
	bool signal = false;

	if (!mod)
		return false;
	cfi = dwfl_module_eh_cfi(mod, &bias);
	if (!cfi)
		cfi = dwfl_module_dwarf_cfi(mod, &bias);
	if (!cfi || dwarf_cfi_addrframe(cfi, pc - bias, &frame))
		return false;
	dwarf_frame_info(frame, NULL, NULL, &signal);
	free(frame);
	return signal;
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

	u->past_copy = false;
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
	if (activation && u->nr_ips && reported && is_signal_frame(dwfl, pc))
		pc--;
	u->ips[u->nr_ips++] = pc;
	if (u->nr_ips >= u->max) {
		u->end = SES_UW_MAX_STACK;
		return DWARF_CB_ABORT;
	}
	if (!reported) {
		u->end = SES_UW_NO_BINARY;
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
	if (!sp->dwfl)
		space_begin(u, *slot - 1);
	if (!sp->dwfl || !report_pc(u, sp->dwfl, ip))
		return NULL;
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

/* Whether the module of pc has CFI (.eh_frame or .debug_frame) for it. */
static bool
has_cfi(Dwfl *dwfl, uint64_t pc)
{
	Dwfl_Module *mod = dwfl_addrmodule(dwfl, pc);
	Dwarf_CFI *cfi[2];
	Dwarf_Addr bias[2];

	if (!mod)
		return false;
	cfi[0] = dwfl_module_eh_cfi(mod, &bias[0]);
	cfi[1] = dwfl_module_dwarf_cfi(mod, &bias[1]);
	for (size_t i = 0; i < 2; i++) {
		Dwarf_Frame *frame;

		if (cfi[i] && !dwarf_cfi_addrframe(cfi[i], pc - bias[i],
						   &frame)) {
			free(frame);
			return true;
		}
	}
	return false;
}

/* Why the walk that returned rc ended, where cb_frame did not say. */
static enum ses_unwind_end
end_of(struct ses_unwind *u, Dwfl *dwfl, int rc)
{
	if (u->end != SES_UW_NONE)
		return u->end;
	if (u->past_copy)
		return SES_UW_SHORT_COPY;
	if (rc == 0)
		return SES_UW_COMPLETE;
	if (!has_cfi(dwfl, u->last_pc))
		return SES_UW_NO_CFI;
	return SES_UW_BAD_REGS;
}

static size_t
unwind_once(struct ses_unwind *u, uint64_t ip)
{
	Dwfl *dwfl = space_dwfl(u, ip);
	int rc;

	u->nr_ips = 0;
	u->past_copy = false;
	u->need = 0;
	u->last_pc = ip;
	u->end = SES_UW_NONE;
	if (!dwfl) {
		u->end = SES_UW_NO_BINARY;
		return 0;
	}
	rc = dwfl_getthread_frames(dwfl, dwfl_pid(dwfl), cb_frame, u);
	u->end = end_of(u, dwfl, rc);
	/*
	 * perf's libunwind reads a return address above the stack copy as
	 * 0 and still counts the step: one more frame, 0 less one, which
	 * perf shows as an unknown 0xffffffffffffffff; but not out of a
	 * signal trampoline, whose step fails (doc/perf-records.md §7.9).
	 */
	if (u->past_copy && u->nr_ips && u->nr_ips < u->max &&
	    !is_signal_frame(dwfl, u->last_pc))
		u->ips[u->nr_ips++] = (uint64_t)-1;
	return u->nr_ips;
}

size_t
ses_unwind_user(struct ses_unwind *u, struct ses_maps *maps,
		const struct pd_sample *ps, uint64_t *ips, size_t max)
{
	uint64_t ip;
	size_t n;

	if (!max || !ses_unwind_possible(ps))
		return 0;
	ip = sample_reg(ps, REG_IP);
	u->maps = maps;
	u->ps = ps;
	u->sp = sample_reg(ps, REG_SP);
	u->ips = ips;
	u->max = max;
	u->stale = false;
	n = unwind_once(u, ip);
	if (u->stale) {
		space_reset(u);
		u->stale = false;
		n = unwind_once(u, ip);
	}
	if (!n) {
		/* perf keeps the sampled ip when nothing can be unwound */
		ips[0] = ip;
		n = 1;
	}
	return n;
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
