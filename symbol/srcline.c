/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * symbol/srcline.c - "file.c:42" for an address, as perf's srcline sort
 * key prints it (the base name of the line table's file, then the line),
 * through libdw.  As perf's map__rip_2objdump, the map-relative offset
 * becomes an ELF virtual address by adding the .text section's
 * sh_addr - sh_offset; the file is the one symbols came from, else the
 * DSO's own path.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>

#include "lib/safefile.h"
#include "lib/xalloc.h"
#include "symbol/sym-dso.h"

struct sym_srcline_cache {
	Dwfl *dwfl;
	Dwfl_Module *mod;
	struct sym_file_syms *fsyms;	/* sym_symtab_file()'s */
	bool failed;
	struct u64map lines;	/* al_addr -> char * (or 1: unknown) */
	struct u64map row_files;	/* Dwarf_Lines * -> struct row_files * */
};

/*
 * What initial_file() reads back from each row of one line table, read
 * once: the nearest end_sequence row before it, the nearest row between
 * that and it naming a file other than 1 (-1: none), and the lowest
 * address of the rows between the end row and it.
 */
struct row_files {
	bool usable;			/* every row read */
	int32_t *end_before, *other_before;
	Dwarf_Addr *addr, *min_before;
};

void
sym_dso_save_text_offset(struct sym_dso *dso, Elf *elf)
{
	GElf_Shdr sh;
	size_t shstrndx;

	if (elf_getshdrstrndx(elf, &shstrndx) == 0 &&
	    sym_elf_section_by_name(elf, shstrndx, ".text", &sh))
		dso->text_offset = sh.sh_addr - sh.sh_offset;
}

static const Dwfl_Callbacks offline_callbacks = {
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.find_elf = dwfl_build_id_find_elf,
	.section_address = dwfl_offline_section_address,
};

static bool
open_dwfl(struct sym_dso *dso, struct sym_srcline_cache *c)
{
	const char *path = dso->symsrc_path ? dso->symsrc_path :
			   dso->long_name;
	int fd;

	/* a file whose build-id differs is never used */
	if (!path || (!dso->symsrc_path && dso->bid_mismatch))
		return false;
	c->dwfl = dwfl_begin(&offline_callbacks);
	if (!c->dwfl)
		return false;
	fd = sfile_open_input(path, 0, NULL);
	if (fd < 0)
		return false;
	/* dwfl owns fd from here */
	c->mod = dwfl_report_offline(c->dwfl, "", path, fd);
	dwfl_report_end(c->dwfl, NULL, NULL);
	return c->mod != NULL;
}

char *
sym_srcline_text(const struct sym_ctx *ctx, const char *file,
		 const char *comp_dir, unsigned long line)
{
	const char *slash = strrchr(file, '/');
	char *s;
	int n;

	if (!ctx->opts.full_source_paths)
		n = asprintf(&s, "%s:%lu", slash ? slash + 1 : file, line);
	else if (file[0] != '/' && comp_dir && comp_dir[0])
		n = asprintf(&s, "%s/%s:%lu", comp_dir, file, line);
	else
		n = asprintf(&s, "%s:%lu", file, line);
	return n < 0 ? NULL : s;
}

const char *
sym_cu_comp_dir(Dwarf_Die *cu)
{
	Dwarf_Attribute a;

	return cu ? dwarf_formstring(dwarf_attr(cu, DW_AT_comp_dir, &a)) : NULL;
}

/* "file:0"; NULL for no file. */
static char *
line0(const struct sym_ctx *ctx, const char *file, const char *comp_dir)
{
	return file ? sym_srcline_text(ctx, file, comp_dir, 0) : NULL;
}

/*
 * Whether a subprogram among cu's children holds the unit address pc (a
 * walk of the siblings: dwarf_getscopes() leaks on some broken units).
 */
static bool
in_subprogram(Dwarf_Die *cu, Dwarf_Addr pc)
{
	Dwarf_Die die;

	if (dwarf_child(cu, &die) != 0)
		return false;
	do {
		if (dwarf_tag(&die) == DW_TAG_subprogram &&
		    dwarf_haspc(&die, pc) > 0)
			return true;
	} while (dwarf_siblingof(&die, &die) == 0);
	return false;
}

/*
 * An address a function of a compilation unit covers without a line row
 * (an assembly file's, whose functions gas describes): the unit's file
 * with line 0, as binutils' addr2line gives.  Code of a unit outside its
 * functions (a C file's top-level asm) is left to the ELF symbols, as
 * binutils does.  libdwfl hands out the unit before a gap between units'
 * ranges too: that is no unit's address.
 */
static char *
cu_only(const struct sym_ctx *ctx, struct sym_srcline_cache *c,
	Dwarf_Addr addr)
{
	Dwarf_Addr bias;
	Dwarf_Die *cu = dwfl_module_addrdie(c->mod, addr, &bias);

	return cu && dwarf_haspc(cu, addr - bias) > 0 &&
	       in_subprogram(cu, addr - bias) ?
	       line0(ctx, dwarf_diename(cu), sym_cu_comp_dir(cu)) : NULL;
}

/*
 * Whether a file-1 row of a DWARF 5 table still holds the line
 * program's initial file: no row before it in its sequence names
 * another file.  Assemblers write DW_LNS_set_file only when the file
 * changes from the one before (initially 1), so such a row was never
 * set.  libdw keeps a unit's rows sorted by address, each sequence
 * whole, with end_sequence rows between them; but a sequence's last
 * row at its end address sorts after its end_sequence row, so a row at
 * that address may be the sequence's before, and does not count.
 */
static bool
initial_file_walk(Dwarf_Lines *lines, size_t lo)
{
	size_t i, file;
	Dwarf_Addr addr, other_addr = 0;
	bool end, other = false;
	Dwarf_Files *files;

	for (i = lo; i-- > 0;) {
		Dwarf_Line *prev = dwarf_onesrcline(lines, i);

		if (dwarf_lineendsequence(prev, &end) ||
		    dwarf_lineaddr(prev, &addr) ||
		    dwarf_line_file(prev, &files, &file))
			return false;
		if (end)
			return !other || other_addr == addr;
		if (other && addr < other_addr)
			return false;
		if (file != 1 && !other) {
			other = true;
			other_addr = addr;
		}
	}
	return !other;
}

static void
row_files_free(struct row_files *t)
{
	free(t->end_before);
	free(t->other_before);
	free(t->addr);
	free(t->min_before);
	free(t);
}

/* The rows of lines read once for initial_file(); NULL: out of memory. */
static struct row_files *
row_files_make(Dwarf_Lines *lines, size_t nlines)
{
	struct row_files *t = calloc(1, sizeof(*t));
	int32_t last_end = -1, last_other = -1;
	Dwarf_Addr low = UINT64_MAX;
	size_t k, file;
	Dwarf_Files *files;
	bool end;

	if (!t || nlines > INT32_MAX)
		goto fail;
	t->end_before = malloc(nlines * sizeof(*t->end_before));
	t->other_before = malloc(nlines * sizeof(*t->other_before));
	t->addr = malloc(nlines * sizeof(*t->addr));
	t->min_before = malloc(nlines * sizeof(*t->min_before));
	if (!t->end_before || !t->other_before || !t->addr || !t->min_before)
		goto fail;
	for (k = 0; k < nlines; k++) {
		Dwarf_Line *row = dwarf_onesrcline(lines, k);

		t->end_before[k] = last_end;
		t->other_before[k] = last_other;
		t->min_before[k] = low;
		/* a row that does not read: the walk answers each time */
		if (dwarf_lineendsequence(row, &end) ||
		    dwarf_lineaddr(row, &t->addr[k]) ||
		    dwarf_line_file(row, &files, &file))
			return t;
		if (end) {
			last_end = (int32_t)k;
			last_other = -1;
			low = UINT64_MAX;
			continue;
		}
		if (file != 1)
			last_other = (int32_t)k;
		if (t->addr[k] < low)
			low = t->addr[k];
	}
	t->usable = true;
	return t;
fail:
	if (t)
		row_files_free(t);
	return NULL;
}

/*
 * initial_file_walk() for row k from the table: the walk back meets the
 * nearest row naming another file first (none: the initial file), then
 * fails at any lower address before it, and ends at the end row.
 */
static bool
initial_file_read(const struct row_files *t, size_t k)
{
	int32_t j = t->other_before[k], e = t->end_before[k];

	if (j < 0)
		return true;
	if (t->min_before[j] < t->addr[j])
		return false;
	return e >= 0 && t->addr[j] == t->addr[e];
}

/* The table of lines in c, made on first use; NULL: walk instead. */
static const struct row_files *
row_files_of(struct sym_srcline_cache *c, Dwarf_Lines *lines, size_t nlines)
{
	uint64_t *slot;

	if (!c)
		return NULL;
	slot = u64map_slot(&c->row_files, (uintptr_t)lines);
	if (!slot)
		return NULL;
	if (!*slot) {
		struct row_files *t = row_files_make(lines, nlines);

		if (!t)
			return NULL;
		*slot = (uint64_t)(uintptr_t)t;
	}
	return (const struct row_files *)(uintptr_t)*slot;
}

bool *
sym_lines_initial(Dwarf_Lines *lines, size_t nlines)
{
	struct row_files *t = row_files_make(lines, nlines);
	bool *initial = xcalloc(nlines ? nlines : 1, sizeof(*initial));
	Dwarf_Files *files;
	size_t k, file;

	for (k = 0; k < nlines; k++)
		if (!dwarf_line_file(dwarf_onesrcline(lines, k), &files,
				     &file) && file == 1)
			initial[k] = t && t->usable ? initial_file_read(t, k) :
					 initial_file_walk(lines, k);
	if (t)
		row_files_free(t);
	return initial;
}

static bool
initial_file(struct sym_srcline_cache *c, Dwarf_Lines *lines, size_t nlines,
	     Dwarf_Line *row)
{
	const struct row_files *t;
	size_t lo = 0, hi = nlines, i;

	while (lo < hi) {		/* the row's index, by its place */
		i = lo + (hi - lo) / 2;
		if (dwarf_onesrcline(lines, i) < row)
			lo = i + 1;
		else
			hi = i;
	}
	if (lo >= nlines || dwarf_onesrcline(lines, lo) != row)
		return false;
	t = row_files_of(c, lines, nlines);
	return t && t->usable ? initial_file_read(t, lo) :
				initial_file_walk(lines, lo);
}

const char *
sym_line_file(struct sym_srcline_cache *c, Dwfl_Line *line, int *lineno)
{
	const char *file = dwfl_lineinfo(line, NULL, lineno, NULL, NULL, NULL);
	Dwarf_Die *cu = dwfl_linecu(line);
	Dwarf_Addr bias;
	Dwarf_Line *row = dwfl_dwarf_line(line, &bias);
	Dwarf_Lines *lines;
	Dwarf_Files *files;
	Dwarf_Half version;
	size_t nlines, idx;

	if (!file || !cu || !row ||
	    dwarf_cu_info(cu->cu, &version, NULL, NULL, NULL, NULL, NULL,
			  NULL) || version < 5 ||
	    dwarf_line_file(row, &files, &idx) || idx != 1 ||
	    dwarf_getsrclines(cu, &lines, &nlines) ||
	    !initial_file(c, lines, nlines, row))
		return file;
	return dwarf_filesrc(files, 0, NULL, NULL);
}

static char *
lookup(struct sym_dso *dso, struct sym_srcline_cache *c, uint64_t al_addr)
{
	Dwarf_Addr bias = 0, addr;
	Elf *elf = dwfl_module_getelf(c->mod, &bias);
	Dwfl_Line *line;
	const char *file;
	int lineno = 0;
	char *s;

	if (!elf)
		return NULL;
	addr = al_addr + dso->text_offset + bias;
	line = dwfl_module_getsrc(c->mod, addr);
	if (!line) {
		s = cu_only(dso->ctx, c, addr);
		/* addr2line names a function of the ELF symbols: "??:?" */
		if (!s && sym_symtab_func(&c->fsyms, elf, addr - bias, &file))
			s = line0(dso->ctx, file ? file : "??", NULL);
		return s;
	}
	file = sym_line_file(c, line, &lineno);
	if (!file)
		return NULL;
	/* a row without a line reads "file:0", as from binutils' addr2line */
	if (lineno < 0)
		lineno = 0;
	return sym_srcline_text(dso->ctx, file, sym_cu_comp_dir(dwfl_linecu(line)),
				(unsigned long)lineno);
}

/* The DSO's line cache, its module opened on first use; under dso->lock. */
static struct sym_srcline_cache *
cache_get(struct sym_dso *dso)
{
	struct sym_srcline_cache *c = dso->srcline;

	if (!c) {
		c = dso->srcline = calloc(1, sizeof(*c));
		if (c) {
			c->lines = (struct u64map)U64MAP_INIT;
		c->row_files = (struct u64map)U64MAP_INIT;
			c->failed = !open_dwfl(dso, c);
		}
	}
	return c && !c->failed ? c : NULL;
}

void
sym_srcline_warm(struct sym_dso *dso)
{
	struct sym_srcline_cache *c;
	Dwarf_Addr bias = 0;

	if (dso->kind != SYM_DSO_FILE || dso->ar_ent)
		return;
	pthread_mutex_lock(&dso->lock);
	c = cache_get(dso);
	/* the DWARF read in and its units' address table made */
	if (c && dwfl_module_getdwarf(c->mod, &bias))
		(void)dwfl_module_addrdie(c->mod, bias, &bias);
	pthread_mutex_unlock(&dso->lock);
}

Dwfl_Module *
sym_dso_dwfl_locked(struct sym_dso *dso, uint64_t al_addr, Dwarf_Addr *addr)
{
	struct sym_srcline_cache *c;
	Dwarf_Addr bias = 0;

	if (dso->kind != SYM_DSO_FILE || dso->ar_ent)
		return NULL;
	c = cache_get(dso);
	if (!c || !dwfl_module_getelf(c->mod, &bias))
		return NULL;
	*addr = al_addr + dso->text_offset + bias;
	return c->mod;
}

const char *
sym_dso_symtab_func_locked(struct sym_dso *dso, Dwarf_Addr addr,
			   const char **file)
{
	struct sym_srcline_cache *c = dso->srcline;
	Dwarf_Addr bias = 0;
	Elf *elf = c && c->mod ? dwfl_module_getelf(c->mod, &bias) : NULL;

	*file = NULL;
	return elf ? sym_symtab_func(&c->fsyms, elf, addr - bias, file) : NULL;
}

const char *
sym_dso_srcline_unnoted(struct sym_dso *dso, uint64_t al_addr)
{
	struct sym_srcline_cache *c;
	uint64_t *slot;
	char *s = NULL;

	if (dso->kind != SYM_DSO_FILE && !dso->ctx->ar)
		return NULL;
	sym_dso_load(dso);
	/* an archived DSO has only the lines the archive holds */
	if (dso->ar_ent)
		return sym_dso_archived_srcline(dso, al_addr);
	if (dso->kind != SYM_DSO_FILE)
		return NULL;
	pthread_mutex_lock(&dso->lock);
	c = cache_get(dso);
	if (!c)
		goto out;
	slot = u64map_slot(&c->lines, al_addr);
	if (!slot)
		goto out;
	if (!*slot) {
		s = lookup(dso, c, al_addr);
		*slot = s ? (uint64_t)(uintptr_t)s : 1;
	} else if (*slot != 1) {
		s = (char *)(uintptr_t)*slot;
	}
out:
	pthread_mutex_unlock(&dso->lock);
	return s;
}

bool
sym_addr2line_names(const struct sym_dso *dso, const struct sym_symbol *sym)
{
	size_t len;

	if (!sym || dso->kind != SYM_DSO_FILE)
		return false;
	len = strlen(sym->name);
	return len < 4 || strcmp(sym->name + len - 4, "@plt");
}

bool
sym_addr2line_names_at(struct sym_dso *dso, const struct sym_symbol *sym,
		       uint64_t al_addr)
{
	const char *file;
	Dwarf_Addr addr;
	bool named = true;

	if (!sym_addr2line_names(dso, sym))
		return false;
	sym_dso_load(dso);
	/* an archived DSO: the answer its archive kept */
	if (dso->ar_ent)
		return sym_dso_archived_named(dso, al_addr);
	pthread_mutex_lock(&dso->lock);
	if (sym_dso_dwfl_locked(dso, al_addr, &addr))
		named = sym_dso_symtab_func_locked(dso, addr, &file) != NULL;
	pthread_mutex_unlock(&dso->lock);
	return named;
}

const char *
sym_dso_srcline(struct sym_dso *dso, uint64_t al_addr)
{
	if (sym_dso_noting(dso))
		sym_note_srcline(dso, al_addr);
	return sym_dso_srcline_unnoted(dso, al_addr);
}

void
sym_srcline_free(struct sym_dso *dso)
{
	struct sym_srcline_cache *c = dso->srcline;
	size_t pos = 0;
	uint64_t key, val;

	if (!c)
		return;
	while (u64map_next(&c->lines, &pos, &key, &val))
		if (val != 1)
			free((char *)(uintptr_t)val);
	u64map_free(&c->lines);
	pos = 0;
	while (u64map_next(&c->row_files, &pos, &key, &val))
		row_files_free((struct row_files *)(uintptr_t)val);
	u64map_free(&c->row_files);
	sym_file_syms_free(c->fsyms);
	if (c->dwfl)
		dwfl_end(c->dwfl);
	free(c);
	dso->srcline = NULL;
}
