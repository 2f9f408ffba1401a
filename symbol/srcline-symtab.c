/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * symbol/srcline-symtab.c - the function and file of an address that no
 * DWARF covers, from the ELF symbols (.symtab, else .dynsym) and their
 * STT_FILE symbols, as binutils 2.40's
 * addr2line finds it (bfd's elf_find_function; doc/perf-records.md
 * §6.2, the srcline column): the function symbol of the address's
 * section that starts closest below it, and the FILE symbol before it in
 * the table, if the function is local or no FILE symbol followed another
 * symbol before it.  perf 6.1 prints that file with line 0
 * ("crtstuff.c:0").
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <gelf.h>

#include "lib/xalloc.h"
#include "symbol/sym-dso.h"

/* A function symbol, with the file bfd gives it (NULL: none). */
struct fsym {
	uint64_t off;			/* st_value */
	uint64_t size;			/* st_size, 1 for 0 */
	size_t order;			/* index in .symtab */
	const char *name, *file;	/* in the ELF's string tables */
	uint32_t shndx;
	bool local;
};

struct sym_file_syms {
	struct fsym *v;
	size_t nr;
};

/* bfd's _bfd_elf_maybe_function_sym(): which symbols may be functions */
static bool
maybe_function(const GElf_Sym *s)
{
	unsigned int type = GELF_ST_TYPE(s->st_info);

	if (type == STT_SECTION || type == STT_FILE || type == STT_OBJECT ||
	    type == STT_TLS || s->st_shndx == SHN_UNDEF ||
	    s->st_shndx >= SHN_LORESERVE)
		return false;
	/* annobin's markers: hidden local NOTYPE symbols of size 0 */
	return s->st_size || GELF_ST_BIND(s->st_info) != STB_LOCAL ||
	       type != STT_NOTYPE ||
	       GELF_ST_VISIBILITY(s->st_other) != STV_HIDDEN;
}

static int
cmp_fsym(const void *a, const void *b)
{
	const struct fsym *x = a, *y = b;

	if (x->shndx != y->shndx)
		return x->shndx < y->shndx ? -1 : 1;
	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* The table of type, if it has a symbol besides the null one. */
static Elf_Scn *
table_of(Elf *elf, GElf_Word type, GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, sh) && sh->sh_type == type &&
		    sh->sh_entsize && sh->sh_size / sh->sh_entsize > 1)
			return scn;
	return NULL;
}

/* addr2line's symbols: .symtab, else (a stripped file) .dynsym */
static Elf_Scn *
symtab_of(Elf *elf, GElf_Shdr *sh)
{
	Elf_Scn *scn = table_of(elf, SHT_SYMTAB, sh);

	return scn ? scn : table_of(elf, SHT_DYNSYM, sh);
}

/* The function symbols of .symtab with their files, in bfd's walk. */
static void
collect(struct sym_file_syms *fs, Elf *elf)
{
	enum { NOTHING_SEEN, SYMBOL_SEEN, FILE_AFTER_SYMBOL } state =
		NOTHING_SEEN;
	const char *file = NULL;
	GElf_Shdr sh;
	Elf_Scn *scn = symtab_of(elf, &sh);
	Elf_Data *data = scn ? elf_getdata(scn, NULL) : NULL;
	size_t i, n, cap = 0;
	GElf_Sym s;

	if (!data)
		return;
	n = sh.sh_size / sh.sh_entsize;
	for (i = 1; i < n && gelf_getsym(data, (int)i, &s); i++) {
		struct fsym *f;

		if (GELF_ST_TYPE(s.st_info) == STT_FILE) {
			file = elf_strptr(elf, sh.sh_link, s.st_name);
			if (state == SYMBOL_SEEN)
				state = FILE_AFTER_SYMBOL;
			continue;
		}
		if (state == NOTHING_SEEN)
			state = SYMBOL_SEEN;
		if (!maybe_function(&s))
			continue;
		if (fs->nr == cap) {
			cap = cap ? cap * 2 : 64;
			fs->v = xreallocarray(fs->v, cap, sizeof(*fs->v));
		}
		f = &fs->v[fs->nr++];
		f->name = elf_strptr(elf, sh.sh_link, s.st_name);
		f->off = s.st_value;
		f->size = s.st_size ? s.st_size : 1;
		f->order = i;
		f->shndx = s.st_shndx;
		f->local = GELF_ST_BIND(s.st_info) == STB_LOCAL;
		/* an empty name is a name: ld.so's _start reads ":0" */
		f->file = file && (f->local || state != FILE_AFTER_SYMBOL) ?
			  file : NULL;
	}
	if (fs->nr > 1)
		qsort(fs->v, fs->nr, sizeof(*fs->v), cmp_fsym);
}

/* The index of the allocated section holding vaddr, as addr2line's. */
static size_t
section_of(Elf *elf, uint64_t vaddr)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, &sh) && (sh.sh_flags & SHF_ALLOC) &&
		    vaddr >= sh.sh_addr && vaddr - sh.sh_addr < sh.sh_size)
			return elf_ndxscn(scn);
	return 0;
}

/*
 * Of the symbols at the best address, in table order: the first, or a
 * later one that is strictly larger (binutils 2.40 neither checks that
 * the function reaches vaddr nor prefers a binding).
 */
static const struct fsym *
best_at(const struct fsym *v, size_t nr)
{
	const struct fsym *best = &v[0];

	for (size_t i = 1; i < nr; i++)
		if (v[i].size > best->size)
			best = &v[i];
	return best;
}

const char *
sym_symtab_func(struct sym_file_syms **cache, Elf *elf, uint64_t vaddr,
		const char **file)
{
	const struct fsym *best;
	struct sym_file_syms *fs = *cache;
	size_t shndx, lo = 0, hi, first;

	if (!fs) {
		fs = *cache = xcalloc(1, sizeof(*fs));
		collect(fs, elf);
	}
	*file = NULL;
	shndx = section_of(elf, vaddr);
	if (!shndx)
		return NULL;
	/* the last symbol of the section at or below vaddr */
	hi = fs->nr;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct fsym *f = &fs->v[mid];

		if (f->shndx < shndx || (f->shndx == shndx && f->off <= vaddr))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || fs->v[lo - 1].shndx != shndx)
		return NULL;
	first = lo - 1;
	while (first && fs->v[first - 1].shndx == shndx &&
	       fs->v[first - 1].off == fs->v[lo - 1].off)
		first--;
	best = best_at(&fs->v[first], lo - first);
	*file = best->file;
	return best->name ? best->name : "";
}

void
sym_file_syms_free(struct sym_file_syms *fs)
{
	if (!fs)
		return;
	free(fs->v);
	free(fs);
}
