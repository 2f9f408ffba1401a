/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * session/resolve.c - maps from MMAP/MMAP2/KSYMBOL records, and the
 * resolution of a sample's ip and callchain to map, DSO and symbol
 * (doc/perf-records.md §3.5.1, §7.2, §7.3).
 */
#include "config.h"

#include <elf.h>
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"
#include "session/ahead.h"
#include "session/session-int.h"
#include "session/unwind.h"

#define KERNEL_MMAP_NAME "[kernel.kallsyms]"
#define KERNEL_DSO_NAME "[kernel.kallsyms]"
#define VDSO_NAME "[vdso]"
#define MAP_EXEC 4u		/* PROT_EXEC */
#define MAP_HUGE 0x40000u	/* MAP_HUGETLB */

static bool
is_anon_name(const char *name)
{
	return !strcmp(name, "//anon") || !strncmp(name, "/dev/zero", 9) ||
	       !strncmp(name, "/anon_hugepage", 14);
}

static bool
is_no_dso_name(const char *name)
{
	return !strncmp(name, "[stack", 6) || !strncmp(name, "/SYSV", 5) ||
	       !strcmp(name, "[heap]");
}

static bool
is_vdso_name(const char *name)
{
	return !strcmp(name, "[vdso]") || !strcmp(name, "[vdso32]") ||
	       !strcmp(name, "[vdsox32]");
}

static struct sym_dso *
dso_for(struct ses_session *s, const char *name, const uint8_t *id,
	size_t id_size)
{
	const struct ses_bid *b;

	if (!id_size) {
		b = ses_header_bid(s, name);
		if (b) {
			id = b->id;
			id_size = b->size;
		}
	}
	return sym_dso_get(s->syms, name, id_size ? id : NULL, id_size);
}

static struct ses_map_int *
new_map(struct ses_session *s, uint64_t start, uint64_t end, uint64_t pgoff,
	struct sym_dso *dso, bool identity)
{
	struct ses_map_int *m = ses_arena_alloc(&s->arena, sizeof(*m));

	memset(m, 0, sizeof(*m));
	m->pub.start = start;
	m->pub.end = end;
	m->pub.pgoff = pgoff;
	m->pub.dso = dso;
	m->pub.identity = identity;
	return m;
}

struct mmap_args {
	int32_t pid, tid;
	uint64_t start, len, pgoff;
	uint32_t prot, flags;
	uint64_t ino;
	uint32_t id_maj, id_min;	/* perf's dso id (struct ses_map) */
	uint64_t id_ino, id_ino_gen;
	const char *name;
	const uint8_t *id;
	size_t id_size;
};

static int
kernel_mmap(struct ses_session *s, const struct mmap_args *a)
{
	bool is_kernel = !strncmp(a->name, KERNEL_MMAP_NAME,
				  strlen(KERNEL_MMAP_NAME) - 1);
	uint64_t end = a->start + a->len;
	struct ses_map_int *m;
	struct sym_dso *dso;

	if (a->name[0] == '/' || (!is_kernel && a->name[0] == '[')) {
		/* a module: addresses relative to its start */
		dso = dso_for(s, a->name, a->id, a->id_size);
		if (!dso)
			return 0;
		m = new_map(s, a->start, end, 0, dso, false);
		ses_maps_insert(&s->kmaps, m);
		s->map_gen++;
		return 0;
	}
	if (!is_kernel)
		return 0;	/* extra kernel maps (trampolines): not modelled */
	dso = dso_for(s, KERNEL_DSO_NAME, a->id, a->id_size);
	if (!dso)
		return 0;
	/* perf's ref_reloc_sym: not when kptr_restrict hid the address */
	if (a->pgoff && strchr(a->name, ']'))
		sym_dso_set_ref_reloc(dso, strchr(a->name, ']') + 1, a->pgoff);
	if (s->vmlinux)
		ses_maps_remove(&s->kmaps, s->vmlinux);
	if (!a->start && !end)
		end = UINT64_MAX;
	m = new_map(s, a->start, end, 0, dso, true);
	m->kernel_image = true;
	s->vmlinux = m;
	ses_maps_insert(&s->kmaps, m);
	s->map_gen++;
	return 0;
}

/* The ELF type of a DSO's file, as perf's dso__type(). */
enum elf_kind { ELF_UNKNOWN, ELF_64, ELF_32, ELF_X32 };

static enum elf_kind
dso_elf_kind(struct sym_dso *dso)
{
	unsigned char h[20];

	if (sym_dso_read(dso, 0, h, sizeof(h)) != (ssize_t)sizeof(h) ||
	    memcmp(h, ELFMAG, SELFMAG))
		return ELF_UNKNOWN;
	if (h[EI_CLASS] == ELFCLASS64)
		return ELF_64;
	if (h[EI_CLASS] != ELFCLASS32)
		return ELF_UNKNOWN;
	/* e_machine, in the file's byte order */
	if ((h[EI_DATA] == ELFDATA2LSB ? h[18] | h[19] << 8 :
	     h[19] | h[18] << 8) == EM_X86_64)
		return ELF_X32;
	return ELF_32;
}

/*
 * The name perf 6.1 gives a process's vDSO map (machine__findnew_vdso()),
 * by the ELF type of the first file-backed DSO of its maps (in address
 * order, a path from '/'): a 32-bit process's is [vdso32], or [vdso]
 * where the build-id table has no [vdso32] and its [vdso] is a 32-bit
 * image; an x32 process's [vdsox32] (doc/perf-records.md §7.6).
 */
static const char *
vdso_name(struct ses_session *s, struct ses_thread_int *t)
{
	enum elf_kind kind = ELF_UNKNOWN;
	struct sym_dso *vdso;
	size_t i;

	for (i = 0; i < t->maps->nr && kind == ELF_UNKNOWN; i++) {
		struct sym_dso *dso = t->maps->v[i]->pub.dso;

		if (dso && sym_dso_long_name(dso)[0] == '/')
			kind = dso_elf_kind(dso);
	}
	if (kind == ELF_X32)
		return "[vdsox32]";
	if (kind != ELF_32 || ses_header_bid(s, "[vdso32]"))
		return kind == ELF_32 ? "[vdso32]" : VDSO_NAME;
	vdso = ses_header_bid(s, VDSO_NAME) ? dso_for(s, VDSO_NAME, NULL, 0) :
					       NULL;
	return vdso && dso_elf_kind(vdso) == ELF_32 ? VDSO_NAME : "[vdso32]";
}

static int
user_mmap(struct ses_session *s, struct mmap_args *a)
{
	struct ses_thread_int *t;
	struct ses_map_int *m;
	struct sym_dso *dso;
	bool anon, no_dso;
	uint64_t pgoff = a->pgoff;
	char jit[64];

	t = ses_thread_findnew(&s->threads, a->pid, a->tid, true);
	anon = is_anon_name(a->name) || (a->flags & MAP_HUGE);
	no_dso = is_no_dso_name(a->name);
	if ((anon || no_dso) && (a->prot & MAP_EXEC)) {
		snprintf(jit, sizeof(jit), "/tmp/perf-%d.map", t->pub.pid);
		a->name = ses_intern(&s->strs, jit, strlen(jit));
	}
	if (!strcmp(a->name, VDSO_NAME))
		a->name = vdso_name(s, t);
	if (is_vdso_name(a->name))
		pgoff = 0;	/* perf maps the vdso from its start */
	dso = dso_for(s, a->name, a->id, a->id_size);
	if (!dso)
		return 0;
	/* a map whose end wraps covers nothing and cuts nothing (perf alike) */
	if (a->start + a->len < a->start)
		return 0;
	m = new_map(s, a->start, a->start + a->len, pgoff, dso, anon || no_dso);
	m->pub.prot = a->prot;
	m->pub.flags = a->flags;
	m->pub.ino = a->ino;
	m->pub.id_maj = a->id_maj;
	m->pub.id_min = a->id_min;
	m->pub.id_ino = a->id_ino;
	m->pub.id_ino_gen = a->id_ino_gen;
	if (a->ino) {
		uint64_t *first = u64map_slot(&s->dso_ino, (uintptr_t)dso);

		if (!*first)
			*first = a->ino;
	}
	ses_maps_insert_fixup(t->maps, m, &s->arena);
	s->map_gen++;
	return 0;
}

static uint64_t
le_bytes(const uint8_t *p, size_t n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

/*
 * perf reads the dso id from the record's union whatever it holds: with
 * a build-id, maj is its size byte and three zero bytes, min, ino and
 * ino_generation its 20 bytes (read in this host's order, little-endian).
 */
static void
mmap2_dso_id(const struct pd_ev_mmap2 *m, struct mmap_args *a)
{
	uint8_t id[PD_BUILD_ID_SIZE] = { 0 };

	if (!m->has_build_id) {
		a->id_maj = m->maj;
		a->id_min = m->min;
		a->id_ino = m->ino;
		a->id_ino_gen = m->ino_generation;
		return;
	}
	memcpy(id, m->build_id, m->build_id_size);
	a->id_maj = m->build_id_size;
	a->id_min = (uint32_t)le_bytes(id, 4);
	a->id_ino = le_bytes(id + 4, 8);
	a->id_ino_gen = le_bytes(id + 12, 8);
}

int
ses_process_mmap(struct ses_session *s, const union pd_event *ev, bool v2,
		 uint8_t cpumode)
{
	struct mmap_args a;

	memset(&a, 0, sizeof(a));
	if (v2) {
		const struct pd_ev_mmap2 *m = &ev->mmap2;

		a.pid = (int32_t)m->pid;
		a.tid = (int32_t)m->tid;
		a.start = m->start;
		a.len = m->len;
		a.pgoff = m->pgoff;
		a.prot = m->prot;
		a.flags = m->flags;
		a.ino = m->ino;
		a.name = ses_intern(&s->strs, m->filename.s, m->filename.len);
		mmap2_dso_id(m, &a);
		if (m->has_build_id && m->build_id_size) {
			a.id = m->build_id;
			a.id_size = m->build_id_size;
		}
	} else {
		const struct pd_ev_mmap *m = &ev->mmap;

		a.pid = (int32_t)m->pid;
		a.tid = (int32_t)m->tid;
		a.start = m->start;
		a.len = m->len;
		a.pgoff = m->pgoff;
		a.prot = (m->header.misc & PD_MISC_MMAP_DATA) ? 0 : MAP_EXEC;
		a.name = ses_intern(&s->strs, m->filename.s, m->filename.len);
	}
	if (cpumode == PD_MISC_KERNEL || cpumode == PD_MISC_GUEST_KERNEL)
		return kernel_mmap(s, &a);
	return user_mmap(s, &a);
}

int
ses_process_ksymbol(struct ses_session *s, const union pd_event *ev)
{
	const struct pd_ev_ksymbol *k = &ev->ksymbol;
	struct ses_map_int *m = ses_maps_find(&s->kmaps, k->addr);
	struct sym_symbol *sym;
	struct sym_dso *dso;
	const char *name;

	if (k->flags & PD_KSYMBOL_FLAGS_UNREGISTER) {
		if (m && m != s->vmlinux) {
			ses_maps_remove(&s->kmaps, m);
			s->map_gen++;
		}
		return 0;
	}
	if (m || k->addr + k->len < k->addr)
		return 0;
	name = ses_intern(&s->strs, k->name.s, k->name.len);
	dso = sym_dso_get(s->syms, name, NULL, 0);
	if (!dso)
		return 0;
	m = new_map(s, k->addr, k->addr + k->len, 0, dso, false);
	sym = ses_arena_alloc(&s->arena, sizeof(*sym));
	memset(sym, 0, sizeof(*sym));
	sym->start = 0;
	sym->end = k->len;
	sym->name = name;
	m->ksym = sym;
	ses_maps_insert(&s->kmaps, m);
	s->map_gen++;
	return 0;
}

/* The map of ip in maps, with loc filled from it; NULL if none. */
static const struct ses_map_int *
resolve_in(struct ses_maps *maps, uint64_t ip, bool maps_only,
	   struct ses_loc *loc)
{
	const struct ses_map_int *m = ses_maps_find(maps, ip);

	if (!m)
		return NULL;
	loc->map = &m->pub;
	loc->dso = m->pub.dso;
	if (!m->pub.identity)
		loc->al_addr = ip - m->pub.start + m->pub.pgoff;
	if (m->ksym) {
		if (loc->al_addr < m->ksym->end)
			loc->sym = m->ksym;
		return m;
	}
	if (!maps_only)
		loc->sym = sym_dso_find(m->pub.dso, loc->al_addr);
	return m;
}

/*
 * Once perf has loaded the kernel's symbols from kallsyms, its kernel
 * map runs from the first of them to the end of the last (map__fixup_start
 * and map__fixup_end), wider than the kernel MMAP record said: .init.text
 * and the data sections join it.  The kallsyms symbols of the kernel
 * leave no gap, so an address is in that range when one of them covers it.
 */
/*
 * A kernel whose symbols came from a vmlinux image (-k): perf maps it
 * where the image's .text runs, at its file offset, and maps each other
 * section with symbols to a DSO of its own (doc/perf-records.md §7.15).
 * Returns whether it did.
 */
static bool
vmlinux_remap(struct ses_session *s)
{
	struct ses_map_int *k = s->vmlinux;
	const struct sym_kernel_section *secs;
	struct sym_kernel_section text;
	size_t i, n;

	if (!sym_dso_vmlinux_text(k->pub.dso, &text))
		return false;
	ses_maps_remove(&s->kmaps, k);
	k->pub.start = text.start;
	k->pub.end = text.end;
	k->pub.pgoff = text.pgoff;
	k->pub.identity = false;
	ses_maps_insert(&s->kmaps, k);
	n = sym_dso_vmlinux_sections(k->pub.dso, &secs);
	for (i = 0; i < n; i++)
		ses_maps_insert(&s->kmaps, new_map(s, secs[i].start,
						   secs[i].end, secs[i].pgoff,
						   secs[i].dso, false));
	return true;
}

static const struct ses_map_int *
kernel_fixup(struct ses_session *s, const struct ses_map_int *m, uint64_t ip,
	     struct ses_loc *loc)
{
	struct sym_dso *dso;

	if (!s->vmlinux)
		return m;
	if (m == s->vmlinux && !s->kernel_loaded) {
		/*
		 * perf loads the kernel's symbols when a lookup first finds
		 * its map, and widens that map then, not a later one; a
		 * vmlinux moves it, and the address that loaded it is taken
		 * through the moved map.
		 */
		s->kernel_loaded = s->vmlinux;
		s->map_gen++;
		if (vmlinux_remap(s)) {
			loc->al_addr = ip - m->pub.start + m->pub.pgoff;
			loc->sym = sym_dso_find(m->pub.dso, loc->al_addr);
			/* the next lookup of ip finds the moved maps */
			s->rcache_skip = true;
		}
		return m;
	}
	if (m || s->kernel_loaded != s->vmlinux)
		return m;
	dso = s->vmlinux->pub.dso;
	if (sym_dso_origin(dso) != 'k')
		return NULL;
	loc->sym = sym_dso_find(dso, ip);
	if (!loc->sym)
		return NULL;
	loc->map = &s->vmlinux->pub;
	loc->dso = dso;
	return s->vmlinux;
}

static struct ses_rcache_ent *
rcache_slot(struct ses_session *s, const struct ses_maps *maps, uint64_t ip)
{
	return &s->rcache[(ip ^ (ip >> s->rcache_bits) ^ ((uintptr_t)maps >> 4)) &
			  ((1u << s->rcache_bits) - 1)];
}

/* After a miss: a cache that missed twice its size doubles (emptied). */
static bool
rcache_grown(struct ses_session *s)
{
	if (s->rcache_bits >= s->rcache_max_bits ||
	    ++s->rcache_misses < (size_t)2 << s->rcache_bits)
		return false;
	free(s->rcache);
	s->rcache_bits++;
	s->rcache = xcalloc((size_t)1 << s->rcache_bits, sizeof(*s->rcache));
	s->rcache_misses = 0;
	return true;
}

void
ses_resolve_loc(struct ses_session *s, struct ses_thread_int *t,
		uint8_t cpumode, uint64_t ip, struct ses_loc *loc)
{
	struct ses_rcache_ent *e;
	struct ses_maps *maps;
	const struct ses_map_int *m;

	memset(loc, 0, sizeof(*loc));
	loc->ip = ip;
	loc->al_addr = ip;
	loc->cpumode = cpumode;
	switch (cpumode) {
	case PD_MISC_KERNEL:
		loc->level = 'k';
		maps = &s->kmaps;
		break;
	case PD_MISC_USER:
		loc->level = '.';
		maps = t->maps;
		break;
	default:
		loc->level = 'H';
		return;
	}
	e = rcache_slot(s, maps, ip);
	if (e->ip == ip && e->maps == maps && e->gen == s->map_gen) {
		m = e->map;
		if (m) {
			loc->map = &m->pub;
			loc->dso = m->pub.dso;
			loc->al_addr = e->al_addr;
			loc->sym = e->sym;
		}
		return;
	}
	m = resolve_in(maps, ip, s->opts.maps_only, loc);
	if (maps == &s->kmaps && !s->opts.maps_only)
		m = kernel_fixup(s, m, ip, loc);
	if (s->rcache_skip) {
		s->rcache_skip = false;
		return;
	}
	if (rcache_grown(s))
		e = rcache_slot(s, maps, ip);
	e->ip = ip;
	e->maps = maps;
	e->gen = s->map_gen;
	e->map = m;
	e->al_addr = loc->al_addr;
	e->sym = loc->sym;
}

uint8_t
ses_marker_mode(uint64_t ip)
{
	switch (ip) {
	case PD_CONTEXT_HV:
		return PD_MISC_HYPERVISOR;
	case PD_CONTEXT_KERNEL:
		return PD_MISC_KERNEL;
	case PD_CONTEXT_USER:
		return PD_MISC_USER;
	default:
		return 0;
	}
}

/*
 * Where the chain to resolve starts.  perf walks a chain from its root
 * in caller order, so --max-stack keeps the frames nearest the root
 * there: the first index of those frames, with *mode the cpumode in
 * force there; -1 when a marker perf looks at on the way is unknown.
 */
static ptrdiff_t
chain_start(const struct pd_u64_array *cc, size_t max, uint8_t *mode)
{
	size_t i, n = 0, start = cc->nr;
	uint64_t ip;

	*mode = PD_MISC_USER;
	for (i = cc->nr; i-- > 0 && n < max;) {
		ip = pd_u64_array_get(cc, i);
		if (ip < PD_CONTEXT_MAX)
			n++;
		else if (!ses_marker_mode(ip))
			return -1;
		start = i;
	}
	/* the marker before the first frame kept sets its mode */
	for (i = start; i-- > 0;) {
		ip = pd_u64_array_get(cc, i);
		if (ip >= PD_CONTEXT_MAX) {
			*mode = ses_marker_mode(ip);
			if (!*mode)
				return -1;
			break;
		}
	}
	return (ptrdiff_t)start;
}

void
ses_chain_reserve(struct ses_session *s, size_t n)
{
	if (n > s->chain_cap) {
		s->chain_cap = n;
		s->chain = xreallocarray(s->chain, n, sizeof(*s->chain));
		if (s->opts.branch_frames)
			s->chain_br = xreallocarray(s->chain_br, n,
						    sizeof(*s->chain_br));
	}
}

/*
 * The sample's callchain as recorded into s->chain; returns the frame
 * count, or -1 when perf drops the whole chain.
 */
static ptrdiff_t
resolve_recorded(struct ses_session *s, struct ses_thread_int *t,
		 const struct pd_sample *ps)
{
	const struct pd_u64_array *cc = &ps->callchain;
	uint8_t cpumode = PD_MISC_USER;
	size_t i = 0, n = 0;
	ptrdiff_t start;

	if (s->opts.callchain_caller_order && cc->nr > s->opts.max_stack) {
		start = chain_start(cc, s->opts.max_stack, &cpumode);
		if (start < 0)
			return -1;
		i = (size_t)start;
	}
	for (; i < cc->nr && n < s->opts.max_stack; i++) {
		uint64_t ip = pd_u64_array_get(cc, i);

		if (ip >= PD_CONTEXT_MAX) {
			cpumode = ses_marker_mode(ip);
			if (!cpumode)
				return -1;
			continue;
		}
		ses_resolve_loc(s, t, cpumode, ip, &s->chain[n++]);
	}
	return (ptrdiff_t)n;
}

/*
 * Replace each of the nr frames at s->chain[n] by its inline frames, as
 * perf's unwind_entry() does (machine.c, append_inlines); returns the
 * frame count then.  Moving from the end keeps every frame not yet read.
 */
static size_t
expand_inlines(struct ses_session *s, size_t n, size_t nr)
{
	struct ses_loc *src, *dst;
	size_t i, j, total = 0;
	bool any = false;

	for (i = 0; i < nr; i++) {
		src = &s->chain[n + i];
		s->uw_inl[i].nr = src->map ?
			sym_dso_inlines(src->dso, src->al_addr, src->sym,
					&s->uw_inl[i].f) : 0;
		total += s->uw_inl[i].nr ? s->uw_inl[i].nr : 1;
		any |= s->uw_inl[i].nr != 0;
	}
	if (!any)
		return nr;
	ses_chain_reserve(s, n + total);
	dst = &s->chain[n + total];
	for (i = nr; i-- > 0;) {
		src = &s->chain[n + i];
		if (!s->uw_inl[i].nr) {
			*--dst = *src;
			continue;
		}
		for (j = s->uw_inl[i].nr; j-- > 0;) {
			*--dst = *src;
			dst->sym = s->uw_inl[i].f[j].sym;
			dst->srcline = s->uw_inl[i].f[j].srcline;
		}
	}
	return total;
}

/*
 * The unwound user frames, after the n recorded ones.  perf puts the
 * recorded chain before the unwound frames in callee order and after
 * them in caller order (machine.c, thread__resolve_callchain): read leaf
 * first, one sequence.  --max-stack bounds each part alone; of the
 * unwound frames it keeps those nearest the leaf in either order.
 */
size_t
ses_unwind_max(const struct ses_session *s, const struct pd_sample *ps)
{
	size_t max = 0;

	/*
	 * Each unwound frame but the leaf and perf's last unknown one
	 * takes a return address from the stack: that bounds them too
	 * (--max-stack may be UINT_MAX).
	 */
	if (ses_unwind_possible(ps))
		max = ps->user_stack.dyn_size / 4 + 2;
	return max > s->opts.max_stack ? s->opts.max_stack : max;
}

size_t
ses_unwind_sample(struct ses_session *s, struct ses_thread_int *t,
		  const struct pd_sample *ps)
{
	size_t max = ses_unwind_max(s, ps);
	const struct ses_ahead_res *ahead;

	if (!s->unwind)
		s->unwind = ses_unwind_new(pd_reader_meta(s->r) ?
					   pd_reader_meta(s->r)->arch : NULL);
	if (max > s->uw_cap) {
		s->uw_cap = max;
		s->uw_ips = xreallocarray(s->uw_ips, s->uw_cap,
					  sizeof(*s->uw_ips));
		s->uw_inl = xreallocarray(s->uw_inl, s->uw_cap,
					  sizeof(*s->uw_inl));
	}
	ahead = max ? ses_ahead_take(s, t, max) : NULL;
	if (ahead) {
		s->uw_nr = ahead->nr;
		memcpy(s->uw_ips, ahead->ips, ahead->nr * sizeof(*s->uw_ips));
		s->out.unwind = ahead->info;
		ses_unwind_adopt(s->unwind, ahead->fast, ahead->differ,
				 ps->time);
	} else {
		s->uw_nr = max ? ses_unwind_user(s->unwind, t->maps, ps,
						 s->uw_ips, max) : 0;
		ses_unwind_last(s->unwind, &s->out.unwind);
	}
	s->uw_ready = true;
	return s->uw_nr;
}

static size_t
resolve_unwound(struct ses_session *s, struct ses_thread_int *t,
		const struct pd_sample *ps, size_t n)
{
	size_t i, nr;

	if (!s->uw_ready)
		ses_unwind_sample(s, t, ps);
	s->uw_ready = false;
	nr = s->uw_nr;
	for (i = 0; i < nr; i++)
		ses_resolve_loc(s, t, PD_MISC_USER, s->uw_ips[i],
				&s->chain[n + i]);
	if (s->opts.inline_frames && !s->opts.maps_only)
		nr = expand_inlines(s, n, nr);
	return nr;
}

size_t
ses_resolve_chain(struct ses_session *s, struct ses_thread_int *t,
		  const struct pd_sample *ps)
{
	const struct pd_u64_array *cc = &ps->callchain;
	size_t want, max_uw = ses_unwind_max(s, ps);
	ptrdiff_t n;

	if (ses_branch_frames_apply(s, ps)) {
		n = (ptrdiff_t)ses_resolve_branch_frames(s, t, ps, max_uw);
	} else {
		want = cc->nr < s->opts.max_stack ? cc->nr : s->opts.max_stack;
		ses_chain_reserve(s, want + max_uw);
		n = resolve_recorded(s, t, ps);
		if (n < 0)
			return 0;
		if (s->opts.branch_frames && n > 0)
			memset(s->chain_br, 0, (size_t)n * sizeof(*s->chain_br));
	}
	if (max_uw) {
		size_t nr = resolve_unwound(s, t, ps, (size_t)n);

		if (s->opts.branch_frames && nr)
			memset(s->chain_br + n, 0, nr * sizeof(*s->chain_br));
		n += (ptrdiff_t)nr;
	}
	return (size_t)n;
}

/* An address of a branch: user maps first, then the kernel's. */
void
ses_resolve_any_loc(struct ses_session *s, struct ses_thread_int *t, uint64_t ip,
	    struct ses_loc *loc)
{
	static const uint8_t modes[] = {
		PD_MISC_USER, PD_MISC_KERNEL, PD_MISC_GUEST_USER,
		PD_MISC_GUEST_KERNEL,
	};
	size_t i;

	for (i = 0; i < sizeof(modes); i++) {
		ses_resolve_loc(s, t, modes[i], ip, loc);
		if (loc->map)
			return;
	}
}

size_t
ses_resolve_branches(struct ses_session *s, struct ses_thread_int *t,
		     const struct pd_sample *ps)
{
	const struct pd_branch_stack *bs = &ps->branch;
	struct ses_branch *b;
	size_t i;

	if (bs->nr > s->branches_cap) {
		s->branches_cap = bs->nr;
		s->branches = xreallocarray(s->branches, bs->nr,
					    sizeof(*s->branches));
	}
	for (i = 0; i < bs->nr; i++) {
		b = &s->branches[i];
		if (pd_branch_entry_get(bs, i, &b->entry))
			break;
		ses_resolve_any_loc(s, t, b->entry.to, &b->to);
		ses_resolve_any_loc(s, t, b->entry.from, &b->from);
	}
	return i;
}
