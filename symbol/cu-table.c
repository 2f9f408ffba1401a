/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * symbol/cu-table.c - what inline frames read of one compilation unit,
 * copied out of libdw once: its line rows (address, line, the file
 * binutils names, doc/perf-records.md §7.11), its file names and its
 * functions by address (inline-index.c).  libdw keeps a unit's lines
 * and DIEs in the handle that read them, and a handle serves one thread
 * at a time: a table made on the loading thread's own handle serves the
 * resolving thread's (inline.c).
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <gelf.h>

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>

#include "lib/u64map.h"
#include "lib/xalloc.h"
#include "symbol/cu-table.h"
#include "symbol/inline-index.h"
#include "symbol/sym-dso.h"

#define ROW_END		(1u << 31)	/* an end_sequence row */
#define NO_NAME		(ROW_END - 1)	/* no file name */

struct cu_row {
	Dwarf_Addr addr;
	int32_t line;
	uint32_t name_end;		/* names[] index | ROW_END */
};

struct sym_cu_table {
	char **names;			/* distinct file names */
	size_t nr_names, cap_names;
	struct cu_row *rows;		/* libdw's order: by address */
	size_t nr_rows;
	uint32_t *call_names;		/* file index -> names[] index */
	size_t nr_call_names;
	struct inl_index *index;
};

/* The index of a libdw string in t->names, copied on first sight. */
static uint32_t
name_index(struct sym_cu_table *t, struct u64map *seen, const char *name)
{
	uint64_t *slot;

	if (!name)
		return NO_NAME;
	slot = u64map_slot(seen, (uintptr_t)name);
	if (!*slot) {
		if (t->nr_names == t->cap_names) {
			t->cap_names = t->cap_names ? 2 * t->cap_names : 16;
			t->names = xreallocarray(t->names, t->cap_names,
						 sizeof(*t->names));
		}
		t->names[t->nr_names++] = xstrdup(name);
		*slot = t->nr_names;
	}
	return (uint32_t)(*slot - 1);
}

/*
 * The name sym_line_file() gives row k: the row's file, or in a DWARF 5
 * unit entry 0 for a file-1 row that holds the initial file.
 */
static const char *
row_name(Dwarf_Line *row, bool initial)
{
	const char *name = dwarf_linesrc(row, NULL, NULL);
	Dwarf_Files *files;
	size_t idx;

	if (!name || !initial || dwarf_line_file(row, &files, &idx))
		return name;
	return dwarf_filesrc(files, 0, NULL, NULL);
}

static void
read_rows(struct sym_cu_table *t, struct u64map *seen, Dwarf_Die *cu)
{
	Dwarf_Lines *lines;
	Dwarf_Half version;
	size_t nlines, k;
	bool *initial = NULL;

	if (dwarf_getsrclines(cu, &lines, &nlines) || !nlines ||
	    nlines >= NO_NAME)
		return;
	if (!dwarf_cu_info(cu->cu, &version, NULL, NULL, NULL, NULL, NULL,
			   NULL) && version >= 5)
		initial = sym_lines_initial(lines, nlines);
	t->rows = xreallocarray(NULL, nlines, sizeof(*t->rows));
	for (k = 0; k < nlines; k++) {
		Dwarf_Line *row = dwarf_onesrcline(lines, k);
		struct cu_row *r = &t->rows[k];
		bool end = false;
		int line = 0;

		r->addr = 0;
		(void)dwarf_lineaddr(row, &r->addr);
		(void)dwarf_lineno(row, &line);
		(void)dwarf_lineendsequence(row, &end);
		r->line = line;
		r->name_end = name_index(t, seen,
					 row_name(row, initial && initial[k])) |
			      (end ? ROW_END : 0);
	}
	t->nr_rows = nlines;
	free(initial);
}

static void
read_call_names(struct sym_cu_table *t, struct u64map *seen, Dwarf_Die *cu)
{
	Dwarf_Files *files;
	size_t nfiles, i;

	if (dwarf_getsrcfiles(cu, &files, &nfiles))
		return;
	t->call_names = xreallocarray(NULL, nfiles ? nfiles : 1,
				      sizeof(*t->call_names));
	for (i = 0; i < nfiles; i++)
		t->call_names[i] = name_index(t, seen,
					      dwarf_filesrc(files, i, NULL,
							    NULL));
	t->nr_call_names = nfiles;
}

struct sym_cu_table *
sym_cu_table_build(Dwarf_Die *cu)
{
	struct sym_cu_table *t = xcalloc(1, sizeof(*t));
	struct u64map seen = U64MAP_INIT;

	t->index = inl_index_build(cu);
	read_rows(t, &seen, cu);
	read_call_names(t, &seen, cu);
	u64map_free(&seen);
	return t;
}

void
sym_cu_table_free(struct sym_cu_table *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; i < t->nr_names; i++)
		free(t->names[i]);
	free(t->names);
	free(t->rows);
	free(t->call_names);
	inl_index_free(t->index);
	free(t);
}

size_t
sym_cu_table_rows(const struct sym_cu_table *t)
{
	return t->nr_rows;
}

/*
 * dwfl_module_getsrc()'s search: the last row at or below addr, unless
 * it ends a sequence (libdw ends every table with such a row).
 */
const char *
sym_cu_table_line(const struct sym_cu_table *t, Dwarf_Addr addr, int *lineno)
{
	size_t lo = 0, hi, mid;
	const struct cu_row *r;
	uint32_t name;

	if (!t->nr_rows)
		return NULL;
	hi = t->nr_rows - 1;
	while (lo < hi) {
		mid = hi - (hi - lo) / 2;
		if (addr < t->rows[mid].addr)
			hi = mid - 1;
		else
			lo = mid;
	}
	r = &t->rows[lo];
	if ((r->name_end & ROW_END) || r->addr > addr)
		return NULL;
	*lineno = r->line;
	name = r->name_end & ~ROW_END;
	return name == NO_NAME ? NULL : t->names[name];
}

const char *
sym_cu_table_file(const struct sym_cu_table *t, Dwarf_Word idx)
{
	if (idx >= t->nr_call_names || t->call_names[idx] == NO_NAME)
		return NULL;
	return t->names[t->call_names[idx]];
}

int
sym_cu_table_functions(const struct sym_cu_table *t, Dwarf_Die *cu,
		       Dwarf_Addr addr, Dwarf_Die *out, int max)
{
	return inl_index_functions(t->index, cu, addr, out, max);
}

/*
 * Whether another handle may read the file of elf from the bytes libelf
 * maps: libdw reads them as they are (the host's byte order, no
 * compressed section, not relocatable: nothing would be written to
 * them) and needs no other file.
 */
static bool
image_shareable(Elf *elf)
{
	static const unsigned char host_order =
		__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? ELFDATA2LSB :
							  ELFDATA2MSB;
	GElf_Ehdr eh;
	GElf_Shdr sh;
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	const char *name;

	if (!gelf_getehdr(elf, &eh) || eh.e_ident[EI_DATA] != host_order ||
	    eh.e_type == ET_REL || elf_getshdrstrndx(elf, &shstrndx))
		return false;
	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &sh))
			return false;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!name || (sh.sh_flags & SHF_COMPRESSED) ||
		    !strncmp(name, ".zdebug", 7) ||
		    !strcmp(name, ".gnu_debugaltlink") ||
		    !strcmp(name, ".debug_sup"))
			return false;
	}
	return true;
}

char *
sym_cu_image(Elf *elf, size_t *size)
{
	return image_shareable(elf) ? elf_rawfile(elf, size) : NULL;
}

Dwarf *
sym_cu_handle(char *image, size_t size, Elf **elf)
{
	Dwarf *dbg;

	*elf = elf_memory(image, size);
	if (!*elf)
		return NULL;
	dbg = dwarf_begin_elf(*elf, DWARF_C_READ, NULL);
	if (!dbg) {
		elf_end(*elf);
		*elf = NULL;
	}
	return dbg;
}

void
sym_cu_handle_close(Dwarf *dbg, Elf *elf)
{
	if (dbg)
		dwarf_end(dbg);
	if (elf)
		elf_end(elf);
}
