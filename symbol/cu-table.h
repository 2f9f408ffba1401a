/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * symbol/cu-table.h - what inline frames read of one compilation unit
 * (its line rows, file names and functions by address), copied out of
 * libdw once (cu-table.c), for inline.c.
 */
#ifndef PDATA_SYM_CU_TABLE_H
#define PDATA_SYM_CU_TABLE_H

#include <stdbool.h>
#include <stddef.h>

#include <elfutils/libdw.h>

struct sym_cu_table;

/*
 * The table of cu, read through whichever libdw handle holds it: the
 * table keeps no pointer into it (function DIEs by offset), so a table
 * made on one handle serves another of the same file.
 */
struct sym_cu_table *sym_cu_table_build(Dwarf_Die *cu);
void sym_cu_table_free(struct sym_cu_table *t);
/* Its line rows: the memory it holds beyond the functions. */
size_t sym_cu_table_rows(const struct sym_cu_table *t);

/*
 * The file and line of the unit address addr as libdwfl's
 * dwfl_module_getsrc() and sym_line_file() give them: NULL when no row
 * holds addr or the row names no file.
 */
const char *sym_cu_table_line(const struct sym_cu_table *t, Dwarf_Addr addr,
			      int *lineno);
/* The unit's file idx (a DW_AT_call_file), NULL for none. */
const char *sym_cu_table_file(const struct sym_cu_table *t, Dwarf_Word idx);
/* The functions around addr, as inl_index_functions() (inline-index.h). */
int sym_cu_table_functions(const struct sym_cu_table *t, Dwarf_Die *cu,
			   Dwarf_Addr addr, Dwarf_Die *out, int max);

/*
 * The bytes libelf maps of elf, the file a handle reads DWARF from, when
 * another handle may read them at the same time (no byte swap, inflation
 * or relocation writes to them; no supplementary file): NULL when not.
 * Call it where the first handle's user would (it reads elf's headers).
 */
char *sym_cu_image(Elf *elf, size_t *size);
/*
 * A handle of its own over those bytes, and in *elf the descriptor to
 * close with it (sym_cu_handle_close()); NULL when libdw cannot read
 * them.  The bytes must stay mapped until it is closed.
 */
Dwarf *sym_cu_handle(char *image, size_t size, Elf **elf);
void sym_cu_handle_close(Dwarf *dbg, Elf *elf);

#endif /* PDATA_SYM_CU_TABLE_H */
