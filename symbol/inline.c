/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * symbol/inline.c - the inline frames of an address, as perf 6.1 lists
 * them (doc/perf-records.md §7.11).  perf asks binutils' addr2line -i -f:
 * the innermost function whose code holds the address (an inlined
 * subroutine, else the subprogram) with the line of the address, then
 * each function it was inlined into with the call site's line.  libdw
 * gives the same from the scopes that hold the address.  The answers
 * are kept per (DSO, address).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>

#include "lib/xalloc.h"
#include "symbol/archive.h"
#include "symbol/cu-table.h"
#include "symbol/sym-dso.h"

/* perf's MAX_INLINE_NEST: it reads no more records than this */
#define INLINE_NEST_MAX 1024

struct sym_inline_cache {
	struct u64map lists;	/* al_addr -> struct inl_list *, or 1: none */
	/* CU DIE offset -> struct sym_cu_table *, or UNIT_BUILDING */
	struct u64map units;
	pthread_cond_t built;	/* a table the loading thread made is in */
};

/* a unit whose table the loading thread is making (sym_inline_prepare()) */
#define UNIT_BUILDING	1

struct inl_list {
	size_t nr;
	bool borrowed;			/* names and srclines are an archive's */
	struct sym_inline_frame f[];
};

/* One record of addr2line's answer; the strings are libdw's. */
struct inl_rec {
	const char *name;
	const char *file;
	const char *comp_dir;	/* the unit's, for a relative file */
	unsigned int line;
	/*
	 * The function named from the ELF symbols: no line for the
	 * address, or a DWARF name binutils does not take as the symbol's
	 */
	bool symtab;
};

static bool
lang_mangles(Dwarf_Die *cu)
{
	switch (dwarf_srclang(cu)) {
	case DW_LANG_C89:
	case DW_LANG_C:
	case DW_LANG_C99:
	case DW_LANG_C11:
	case DW_LANG_UPC:
	case DW_LANG_Cobol74:
	case DW_LANG_Cobol85:
	case DW_LANG_Fortran77:
	case DW_LANG_Pascal83:
	case DW_LANG_PLI:
	case DW_LANG_Ada83:
	case DW_LANG_Ada95:
	case DW_LANG_Mips_Assembler:
		return false;
	default:
		return true;
	}
}

/*
 * The name addr2line -f prints for a function: binutils' DWARF reader
 * prefers the linkage name to DW_AT_name, through the abstract origin
 * and specification.  *linkage says whether binutils takes it as the
 * symbol's name: a linkage name, or any name in a language that mangles
 * none (C, Fortran 77, Pascal, Ada, assembly...; not C++).
 */
static const char *
die_func_name(Dwarf_Die *cu, Dwarf_Die *die, bool *linkage)
{
	static const unsigned int attrs[] = {
		DW_AT_linkage_name, DW_AT_MIPS_linkage_name, DW_AT_name,
	};
	Dwarf_Attribute a;
	const char *n;
	size_t i;

	for (i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++) {
		n = dwarf_formstring(dwarf_attr_integrate(die, attrs[i], &a));
		if (n)
			break;
	}
	*linkage = n && (attrs[i] != DW_AT_name || !lang_mangles(cu));
	return n;
}

/* The call site of an inlined subroutine, into r's file and line. */
static void
call_site(const struct sym_cu_table *t, Dwarf_Die *die, struct inl_rec *r)
{
	Dwarf_Attribute a;
	Dwarf_Word idx, line;

	r->file = NULL;
	r->line = 0;
	if (dwarf_formudata(dwarf_attr(die, DW_AT_call_line, &a), &line) == 0)
		r->line = line <= UINT32_MAX ? (unsigned int)line : 0;
	if (dwarf_formudata(dwarf_attr(die, DW_AT_call_file, &a), &idx) == 0)
		r->file = sym_cu_table_file(t, idx);
}

static void
rec_push(struct inl_rec **recs, size_t *nr, size_t *cap)
{
	if (*nr == *cap) {
		*cap = *cap ? *cap * 2 : 8;
		*recs = xreallocarray(*recs, *cap, sizeof(**recs));
	}
	memset(&(*recs)[(*nr)++], 0, sizeof(**recs));
}

static bool
is_function(Dwarf_Die *die)
{
	int tag = dwarf_tag(die);

	return tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine;
}

/*
 * The table of cu, made here unless the loading thread has made it or
 * is making it (then waits for it); under dso->lock.
 */
static const struct sym_cu_table *
unit_table(struct sym_dso *dso, struct sym_inline_cache *c, Dwarf_Die *cu)
{
	uint64_t *slot = u64map_slot(&c->units, dwarf_dieoffset(cu));

	while (*slot == UNIT_BUILDING) {
		pthread_cond_wait(&c->built, &dso->lock);
		/* the map may have grown meanwhile */
		slot = u64map_slot(&c->units, dwarf_dieoffset(cu));
	}
	if (!*slot)
		*slot = (uint64_t)(uintptr_t)sym_cu_table_build(cu);
	return (const struct sym_cu_table *)(uintptr_t)*slot;
}

/*
 * The functions around pc, the innermost first, up the concrete tree of
 * the unit: the scopes addr2line follows.  Returns the count (0: none).
 */
static int
function_scopes(const struct sym_cu_table *t, Dwarf_Die *cu, Dwarf_Addr pc,
		Dwarf_Die **out)
{
	int n;

	*out = xmalloc((INLINE_NEST_MAX + 1) * sizeof(**out));
	n = sym_cu_table_functions(t, cu, pc, *out, INLINE_NEST_MAX + 1);
	if (!n) {
		free(*out);
		*out = NULL;
	}
	return n;
}

/*
 * addr2line's records for addr, innermost first; 0 when it would answer
 * "??:0" (no line for addr) or name no function.  Without a line for
 * addr it still names a function of the ELF symbols (symbol.h,
 * sym_addr2line_names()), with no file: the caller makes that record.
 */
static size_t
collect(struct sym_dso *dso, Dwfl_Module *mod, Dwarf_Addr addr,
	struct inl_rec **recs, size_t *cap)
{
	Dwarf_Addr bias = 0;
	Dwarf_Die *cu = dwfl_module_addrdie(mod, addr, &bias);
	const struct sym_cu_table *t;
	Dwarf_Die *scopes = NULL;
	const char *file;
	int lineno = 0, nscopes, i;
	size_t nr = 0;
	bool done = false, linkage;

	if (!cu)
		return 0;
	t = unit_table(dso, dso->inlines, cu);
	file = sym_cu_table_line(t, addr - bias, &lineno);
	if (!file)
		return 0;
	nscopes = function_scopes(t, cu, addr - bias, &scopes);
	rec_push(recs, &nr, cap);
	(*recs)[0].file = file;
	(*recs)[0].line = lineno > 0 ? (unsigned int)lineno : 0;
	for (i = 0; i < nscopes && nr <= INLINE_NEST_MAX; i++) {
		if (!is_function(&scopes[i]))
			continue;
		(*recs)[nr - 1].name = die_func_name(cu, &scopes[i], &linkage);
		/* the innermost one is named from the ELF symbols then */
		if (nr == 1 && !linkage)
			(*recs)[0].symtab = true;
		if (dwarf_tag(&scopes[i]) == DW_TAG_subprogram) {
			done = true;
			break;
		}
		rec_push(recs, &nr, cap);
		call_site(t, &scopes[i], &(*recs)[nr - 1]);
	}
	free(scopes);
	/* a call site with no function around it is not a record */
	if (!done)
		nr--;
	for (i = 0; (size_t)i < nr; i++)
		(*recs)[i].comp_dir = sym_cu_comp_dir(cu);
	return nr;
}

/* The DSO's cache, made on first use; under dso->lock. */
static struct sym_inline_cache *
inline_cache(struct sym_dso *dso)
{
	struct sym_inline_cache *c = dso->inlines;

	if (!c) {
		c = dso->inlines = xcalloc(1, sizeof(*c));
		c->lists = (struct u64map)U64MAP_INIT;
		c->units = (struct u64map)U64MAP_INIT;
		pthread_cond_init(&c->built, NULL);
	}
	return c;
}

/* perf's inline symbol: the base symbol when the names agree. */
static const struct sym_symbol *
frame_sym(struct sym_dso *dso, const struct sym_symbol *base,
	  const char *name)
{
	struct sym_symbol *s;
	char *dm = NULL;

	if (!name)
		name = "??";
	else
		dm = sym_demangle(name, sym_ctx_demangle_mode(dso->ctx));
	if (!strcmp(dm ? dm : name, base->name)) {
		free(dm);
		return base;
	}
	s = xcalloc(1, sizeof(*s));
	s->start = base->start;
	s->end = base->end;
	s->is_object = base->is_object;
	s->inlined = true;
	s->name = dm ? dm : xstrdup(name);
	return s;
}

/* perf's srcline of a record: the file and the line. */
static char *
rec_srcline(const struct sym_ctx *ctx, const struct inl_rec *r)
{
	char *s = sym_srcline_text(ctx, r->file ? r->file : "??", r->comp_dir,
				   r->line);

	return s ? s : xstrdup("??:0");	/* out of memory: no line */
}

/* Whether one record names sym itself (perf then keeps the frame). */
static bool
names_base(struct sym_dso *dso, const struct sym_symbol *base,
	   const struct inl_rec *r)
{
	char *dm;
	bool same;

	if (r->symtab)
		return true;
	if (!r->name)
		return false;
	dm = sym_demangle(r->name, sym_ctx_demangle_mode(dso->ctx));
	same = !strcmp(dm ? dm : r->name, base->name);
	free(dm);
	return same;
}

static struct inl_list *
make_list(struct sym_dso *dso, const struct sym_symbol *base,
	  const struct inl_rec *recs, size_t nr)
{
	struct inl_list *l;
	size_t i;

	/* a function without a line: perf's srcline is "??:0" */
	if (nr == 1 && !recs[0].file) {
		l = xmalloc(sizeof(*l) + sizeof(l->f[0]));
		l->nr = 1;
		l->borrowed = false;
		l->f[0].sym = base;
		l->f[0].srcline = xstrdup("??:0");
		return l;
	}
	if (nr == 1 && names_base(dso, base, &recs[0]))
		return NULL;
	l = xmalloc(sizeof(*l) + nr * sizeof(l->f[0]));
	l->nr = nr;
	l->borrowed = false;
	for (i = 0; i < nr; i++) {
		l->f[i].sym = recs[i].symtab ? base :
			      frame_sym(dso, base, recs[i].name);
		l->f[i].srcline = rec_srcline(dso->ctx, &recs[i]);
	}
	return l;
}

/* The frames an archive entry holds for al_addr, NULL when none. */
static struct inl_list *
archive_lookup(struct sym_dso *dso, uint64_t al_addr,
	       const struct sym_symbol *sym)
{
	const struct sym_ar_inlines *t = dso->ar_ent->inl;
	const struct sym_ar_inline *a;
	struct inl_list *l;
	size_t lo = 0, hi = t ? t->nr_addrs : 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->addrs[mid].addr < al_addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!t || lo == t->nr_addrs || t->addrs[lo].addr != al_addr)
		return NULL;
	a = &t->addrs[lo];
	l = xmalloc(sizeof(*l) + a->nr * sizeof(l->f[0]));
	l->nr = a->nr;
	l->borrowed = true;
	for (uint32_t k = 0; k < a->nr; k++) {
		const struct sym_ar_inline_frame *f = &t->frames[a->first + k];
		struct sym_symbol *s;

		l->f[k].srcline = f->srcline;
		l->f[k].sym = sym;
		if (!f->name)
			continue;
		s = xcalloc(1, sizeof(*s));
		s->start = sym->start;
		s->end = sym->end;
		s->is_object = sym->is_object;
		s->inlined = true;
		s->name = f->name;
		l->f[k].sym = s;
	}
	return l;
}

static struct inl_list *
lookup(struct sym_dso *dso, uint64_t al_addr, const struct sym_symbol *sym)
{
	struct inl_rec *recs = NULL;
	struct inl_list *l = NULL;
	Dwfl_Module *mod;
	Dwarf_Addr addr;
	size_t nr, cap = 0;

	mod = sym_dso_dwfl_locked(dso, al_addr, &addr);
	if (!mod)
		return NULL;
	nr = collect(dso, mod, addr, &recs, &cap);
	if (!nr && sym_addr2line_names(dso, sym)) {
		/* addr2line's one record from the ELF symbols */
		rec_push(&recs, &nr, &cap);
		recs[0].name = sym_dso_symtab_func_locked(dso, addr,
							  &recs[0].file);
		recs[0].symtab = !recs[0].name;
	} else if (nr && recs[0].symtab) {
		/* a line, and the function's name from the ELF symbols */
		const char *name, *file;

		name = sym_dso_symtab_func_locked(dso, addr, &file);
		if (name) {
			recs[0].name = name;
			recs[0].symtab = false;
		}
	}
	if (nr)
		l = make_list(dso, sym, recs, nr);
	free(recs);
	return l;
}

size_t
sym_dso_inlines(struct sym_dso *dso, uint64_t al_addr,
		const struct sym_symbol *sym,
		const struct sym_inline_frame **frames)
{
	struct sym_inline_cache *c;
	struct inl_list *l = NULL;
	uint64_t *slot;

	if (!sym || sym->inlined || dso->kind != SYM_DSO_FILE)
		return 0;
	if (sym_dso_noting(dso))
		sym_note_inline(dso, al_addr);
	pthread_mutex_lock(&dso->lock);
	c = inline_cache(dso);
	slot = u64map_slot(&c->lists, al_addr);
	if (slot && !*slot) {
		l = dso->ar_ent ? archive_lookup(dso, al_addr, sym) :
				  lookup(dso, al_addr, sym);
		*slot = l ? (uint64_t)(uintptr_t)l : 1;
	} else if (slot && *slot != 1) {
		l = (struct inl_list *)(uintptr_t)*slot;
	}
	pthread_mutex_unlock(&dso->lock);
	if (!l)
		return 0;
	*frames = l->f;
	return l->nr;
}

static void
list_free(struct inl_list *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++) {
		if (l->f[i].sym->inlined) {
			if (!l->borrowed)
				free((char *)l->f[i].sym->name);
			free((struct sym_symbol *)l->f[i].sym);
		}
		if (!l->borrowed)
			free((char *)l->f[i].srcline);
	}
	free(l);
}

void
sym_inline_free(struct sym_dso *dso)
{
	struct sym_inline_cache *c = dso->inlines;
	size_t pos = 0;
	uint64_t key, val;

	if (!c)
		return;
	while (u64map_next(&c->lists, &pos, &key, &val))
		if (val != 1)
			list_free((struct inl_list *)(uintptr_t)val);
	u64map_free(&c->lists);
	pos = 0;
	while (u64map_next(&c->units, &pos, &key, &val))
		if (val != UNIT_BUILDING)
			sym_cu_table_free((struct sym_cu_table *)(uintptr_t)val);
	u64map_free(&c->units);
	pthread_cond_destroy(&c->built);
	free(c);
	dso->inlines = NULL;
}

/*
 * The bytes of the file the resolving thread's handle reads dso's DWARF
 * from (mapped by libelf until the DSO is freed), when another handle
 * may read them; NULL when not.
 */
static char *
dwarf_image(struct sym_dso *dso, size_t *size)
{
	Dwfl_Module *mod;
	Dwarf_Addr addr, bias;
	Dwarf *dbg;
	Elf *elf;
	char *image = NULL;

	pthread_mutex_lock(&dso->lock);
	mod = sym_dso_dwfl_locked(dso, 0, &addr);
	dbg = mod ? dwfl_module_getdwarf(mod, &bias) : NULL;
	elf = dbg ? dwarf_getelf(dbg) : NULL;
	if (elf)
		image = sym_cu_image(elf, size);
	pthread_mutex_unlock(&dso->lock);
	return image;
}

/* Claim the unit at cu_off for the loading thread: false if taken. */
static bool
prepare_claim(struct sym_dso *dso, Dwarf_Off cu_off)
{
	uint64_t *slot;
	bool mine;

	pthread_mutex_lock(&dso->lock);
	slot = u64map_slot(&inline_cache(dso)->units, cu_off);
	mine = !*slot;
	if (mine)
		*slot = UNIT_BUILDING;
	pthread_mutex_unlock(&dso->lock);
	return mine;
}

static void
prepare_put(struct sym_dso *dso, Dwarf_Off cu_off, struct sym_cu_table *t)
{
	struct sym_inline_cache *c;

	pthread_mutex_lock(&dso->lock);
	c = dso->inlines;
	*u64map_slot(&c->units, cu_off) = (uint64_t)(uintptr_t)t;
	pthread_cond_broadcast(&c->built);
	pthread_mutex_unlock(&dso->lock);
}

/* the loading thread's handle is opened again after this many rows */
#define PREPARE_ROWS_PER_HANDLE	(256u << 10)

/* A compilation unit to make the table of, and the code it covers. */
struct unit_job {
	Dwarf_Off die_off;
	uint64_t bytes;
};

static int
cmp_job(const void *pa, const void *pb)
{
	const struct unit_job *a = pa, *b = pb;

	if (a->bytes != b->bytes)
		return a->bytes > b->bytes ? -1 : 1;
	return (a->die_off > b->die_off) - (a->die_off < b->die_off);
}

/*
 * The units of dbg, the most code first (by its address ranges table;
 * units it lacks come last): those the caller is likeliest to reach.
 */
static struct unit_job *
units_by_size(Dwarf *dbg, size_t *nr)
{
	struct unit_job *v = NULL;
	struct u64map at = U64MAP_INIT;
	Dwarf_Off off = 0, next;
	Dwarf_Aranges *ar;
	size_t cap = 0, hsize, nar = 0, i;

	*nr = 0;
	while (!dwarf_next_unit(dbg, off, &next, &hsize, NULL, NULL, NULL,
				NULL, NULL, NULL)) {
		if (*nr == cap) {
			cap = cap ? 2 * cap : 64;
			v = xreallocarray(v, cap, sizeof(*v));
		}
		v[*nr] = (struct unit_job){ .die_off = off + hsize };
		*u64map_slot(&at, off + hsize) = ++*nr;
		off = next;
	}
	if (dwarf_getaranges(dbg, &ar, &nar))
		nar = 0;
	for (i = 0; i < nar; i++) {
		Dwarf_Addr start;
		Dwarf_Word len;
		Dwarf_Off cu_off;
		uint64_t *k;

		if (!dwarf_getarangeinfo(dwarf_onearange(ar, i), &start, &len,
					 &cu_off) &&
		    (k = u64map_find(&at, cu_off)))
			v[*k - 1].bytes += len;
	}
	u64map_free(&at);
	if (*nr > 1)
		qsort(v, *nr, sizeof(*v), cmp_job);
	return v;
}

bool
sym_inline_prepare(struct sym_dso *dso, struct sym_prepare *p)
{
	Elf *elf = NULL;
	Dwarf *dbg = NULL;
	struct unit_job *jobs = NULL;
	size_t handle_rows = 0, nr = 0, i, size = 0;
	bool done = true;
	char *image;

	if (dso->kind != SYM_DSO_FILE || dso->ar_ent)
		return true;
	image = dwarf_image(dso, &size);
	if (image)
		dbg = sym_cu_handle(image, size, &elf);
	if (dbg)
		jobs = units_by_size(dbg, &nr);
	for (i = 0; i < nr; i++) {
		Dwarf_Die cu;
		uint8_t unit_type;
		struct sym_cu_table *t;

		if (!p->rows_left || p->interrupted(p->arg)) {
			done = false;
			break;
		}
		/* libdw keeps each unit's lines while the handle lives */
		if (handle_rows >= PREPARE_ROWS_PER_HANDLE) {
			sym_cu_handle_close(dbg, elf);
			dbg = sym_cu_handle(image, size, &elf);
			handle_rows = 0;
			if (!dbg)
				break;
		}
		if (!dwarf_offdie(dbg, jobs[i].die_off, &cu) ||
		    dwarf_cu_info(cu.cu, NULL, &unit_type, NULL, NULL, NULL,
				  NULL, NULL) ||
		    unit_type != DW_UT_compile ||
		    !prepare_claim(dso, jobs[i].die_off))
			continue;
		t = sym_cu_table_build(&cu);
		p->rows_left -= sym_cu_table_rows(t) < p->rows_left ?
				sym_cu_table_rows(t) : p->rows_left;
		handle_rows += sym_cu_table_rows(t);
		prepare_put(dso, jobs[i].die_off, t);
	}
	free(jobs);
	sym_cu_handle_close(dbg, elf);
	return done;
}
