/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * sym-cu-tables FILE: checks symbol/cu-table.c on the DWARF of FILE
 * (doc/perf-records.md §7.11, §7.17).  FILE is opened through libdwfl as
 * the resolving thread opens a DSO; for each compilation unit a table is
 * made on that handle and, where sym_cu_image() allows, another on a
 * second handle over the same bytes, as the loading thread makes them.
 * For every row address of the unit, and the byte before it, the
 * table's file and line must be libdwfl's (dwfl_module_getsrc(), then
 * sym_line_file()), and the other table's the same; so must the
 * functions around the address (by DIE offset) and the file of every
 * DW_AT_call_file index the unit's files table has.
 *
 * Prints "units U second S rows R addresses A lines L functions F" and
 * one line per difference (exit 1 when any); exit 2 when FILE has no
 * DWARF.
 */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>

#include "symbol/cu-table.h"
#include "symbol/sym-dso.h"

#define MAX_FUNCS 1025

static const Dwfl_Callbacks callbacks = {
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.find_elf = dwfl_build_id_find_elf,
	.section_address = dwfl_offline_section_address,
};

struct counts {
	unsigned long units, second, rows, addrs, lines, funcs, differ;
};

static void
differ(struct counts *n, Dwarf_Off cu, Dwarf_Addr addr, const char *what,
       const char *want, const char *got)
{
	if (n->differ++ < 20)
		printf("unit %#llx address %#llx: %s: want %s, got %s\n",
		       (unsigned long long)cu, (unsigned long long)addr, what,
		       want ? want : "(none)", got ? got : "(none)");
}

/* libdwfl's file and line of the module address addr (the old path) */
static const char *
dwfl_answer(Dwfl_Module *mod, Dwarf_Addr addr, int *lineno)
{
	Dwfl_Line *line = dwfl_module_getsrc(mod, addr);

	return line ? sym_line_file(NULL, line, lineno) : NULL;
}

static void
same_text(struct counts *n, Dwarf_Off cu, Dwarf_Addr a, const char *what,
	  const char *want, const char *got)
{
	if ((want == NULL) != (got == NULL) || (want && strcmp(want, got)))
		differ(n, cu, a, what, want, got);
}

static void
same_line(struct counts *n, Dwarf_Off cu, Dwarf_Addr a, const char *what,
	  int want, int got)
{
	char w[32], g[32];

	if (want == got)
		return;
	snprintf(w, sizeof(w), "%d", want);
	snprintf(g, sizeof(g), "%d", got);
	differ(n, cu, a, what, w, g);
}

static void
same_functions(struct counts *n, Dwarf_Die *cu, const struct sym_cu_table *t,
	       const struct sym_cu_table *t2, Dwarf_Addr a)
{
	static Dwarf_Die f[MAX_FUNCS], f2[MAX_FUNCS];
	int nf = sym_cu_table_functions(t, cu, a, f, MAX_FUNCS);
	int nf2 = t2 ? sym_cu_table_functions(t2, cu, a, f2, MAX_FUNCS) : nf;

	n->funcs += (unsigned long)nf;
	same_line(n, dwarf_dieoffset(cu), a, "functions", nf, nf2);
	for (int i = 0; t2 && i < nf && i < nf2; i++)
		if (dwarf_dieoffset(&f[i]) != dwarf_dieoffset(&f2[i]))
			differ(n, dwarf_dieoffset(cu), a, "function", "DIE",
			       "another DIE");
}

/* Every row address of cu, and the byte before it. */
static void
check_unit(struct counts *n, Dwfl_Module *mod, Dwarf_Addr bias,
	   Dwarf_Die *cu, const struct sym_cu_table *t,
	   const struct sym_cu_table *t2)
{
	Dwarf_Off off = dwarf_dieoffset(cu);
	Dwarf_Lines *lines;
	Dwarf_Files *files;
	size_t nlines, nfiles, k;

	if (dwarf_getsrclines(cu, &lines, &nlines))
		nlines = 0;
	n->rows += nlines;
	for (k = 0; k < 2 * nlines; k++) {
		Dwarf_Addr a, owner_bias;
		Dwarf_Die *owner;
		const char *want, *got, *got2;
		int wl = 0, gl = 0, gl2 = 0;

		if (dwarf_lineaddr(dwarf_onesrcline(lines, k / 2), &a) ||
		    (k % 2 && !a--))
			continue;
		/* an address libdwfl gives another unit is that unit's */
		owner = dwfl_module_addrdie(mod, a + bias, &owner_bias);
		if (!owner || dwarf_dieoffset(owner) != off)
			continue;
		n->addrs++;
		want = dwfl_answer(mod, a + bias, &wl);
		got = sym_cu_table_line(t, a, &gl);
		same_text(n, off, a, "file", want, got);
		if (want && got) {
			n->lines++;
			same_line(n, off, a, "line", wl, gl);
		}
		if (t2) {
			got2 = sym_cu_table_line(t2, a, &gl2);
			same_text(n, off, a, "second file", got, got2);
			if (got && got2)
				same_line(n, off, a, "second line", gl, gl2);
		}
		same_functions(n, cu, t, t2, a);
	}
	if (dwarf_getsrcfiles(cu, &files, &nfiles))
		nfiles = 0;
	for (k = 0; k < nfiles + 2; k++) {
		const char *want = k < nfiles ?
				   dwarf_filesrc(files, k, NULL, NULL) : NULL;

		same_text(n, off, k, "call file", want,
			  sym_cu_table_file(t, k));
		if (t2)
			same_text(n, off, k, "second call file", want,
				  sym_cu_table_file(t2, k));
	}
}

int
main(int argc, char **argv)
{
	struct counts n = { 0 };
	Dwfl *dwfl;
	Dwfl_Module *mod;
	Dwarf *dbg, *dbg2 = NULL;
	Dwarf_Addr bias = 0;
	Dwarf_Off off = 0, next;
	Elf *elf2 = NULL;
	char *image;
	size_t hsize, size = 0;
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: sym-cu-tables FILE\n");
		return 2;
	}
	dwfl = dwfl_begin(&callbacks);
	fd = open(argv[1], O_RDONLY | O_CLOEXEC);
	mod = dwfl && fd >= 0 ? dwfl_report_offline(dwfl, "", argv[1], fd) :
				NULL;
	if (dwfl)
		dwfl_report_end(dwfl, NULL, NULL);
	dbg = mod ? dwfl_module_getdwarf(mod, &bias) : NULL;
	if (!dbg) {
		fprintf(stderr, "sym-cu-tables: %s: no DWARF\n", argv[1]);
		return 2;
	}
	image = sym_cu_image(dwarf_getelf(dbg), &size);
	if (image)
		dbg2 = sym_cu_handle(image, size, &elf2);
	while (!dwarf_next_unit(dbg, off, &next, &hsize, NULL, NULL, NULL,
				NULL, NULL, NULL)) {
		Dwarf_Die cu, cu2;
		struct sym_cu_table *t, *t2 = NULL;

		if (dwarf_offdie(dbg, off + hsize, &cu)) {
			n.units++;
			t = sym_cu_table_build(&cu);
			if (dbg2 && dwarf_offdie(dbg2, off + hsize, &cu2)) {
				t2 = sym_cu_table_build(&cu2);
				n.second++;
			}
			check_unit(&n, mod, bias, &cu, t, t2);
			sym_cu_table_free(t);
			sym_cu_table_free(t2);
		}
		off = next;
	}
	printf("units %lu second %lu rows %lu addresses %lu lines %lu functions %lu\n",
	       n.units, n.second, n.rows, n.addrs, n.lines, n.funcs);
	sym_cu_handle_close(dbg2, elf2);
	dwfl_end(dwfl);
	return n.differ ? 1 : 0;
}
