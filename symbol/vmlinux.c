/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * symbol/vmlinux.c - the kernel's symbols from a vmlinux image (perf
 * report -k), as perf 6.1's dso__load_vmlinux() reads them
 * (doc/perf-records.md §7.15): the image's build-id must be the recorded
 * kernel's; its .symtab's symbols are kept as for any ELF file and put at
 * file offsets (an executable image's); those of .text are the kernel's, those of any other
 * section go to a DSO of their own, "[kernel.kallsyms]" and the
 * section's name, mapped where the section runs; the kernel map becomes
 * .text's.  Where the kernel runs is the image's address plus the
 * difference between the kernel map's reference symbol (its MMAP's
 * "_text" at pgoff) and that symbol's value in the image.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <gelf.h>

#include "lib/safefile.h"
#include "symbol/sym-dso.h"

struct vml_sec {
	struct sym_kernel_section pub;
	char *name;
	struct sym_builder b;
	size_t nr;
};

struct vml_route {
	struct sym_builder *text;
	struct vml_sec *secs;
	size_t nr_secs, cap_secs;
	uint64_t reloc;
	bool adjust;		/* symbols to file offsets (perf's adjust_symbols) */
	bool failed;
};

static struct vml_sec *
section_get(struct vml_route *r, const GElf_Shdr *sh, const char *name)
{
	struct vml_sec *s;
	size_t i;

	for (i = 0; i < r->nr_secs; i++)
		if (!strcmp(r->secs[i].name, name))
			return &r->secs[i];
	if (r->nr_secs == r->cap_secs) {
		size_t cap = r->cap_secs ? r->cap_secs * 2 : 8;
		struct vml_sec *v = realloc(r->secs, cap * sizeof(*v));

		if (!v)
			return NULL;
		r->secs = v;
		r->cap_secs = cap;
	}
	s = &r->secs[r->nr_secs];
	memset(s, 0, sizeof(*s));
	s->name = strdup(name);
	if (!s->name)
		return NULL;
	sym_builder_init(&s->b);
	s->pub.start = sh->sh_addr + r->reloc;
	s->pub.end = s->pub.start + sh->sh_size;
	s->pub.pgoff = sh->sh_offset;
	r->nr_secs++;
	return s;
}

/* perf's dso__process_kernel_symbol(): at the file offset, by section */
static struct sym_builder *
kernel_route(void *ctx, struct sym_elf_src *rt, const GElf_Shdr *sh,
	     const char *secname, uint64_t *value)
{
	struct vml_route *r = ctx;
	struct vml_sec *s;

	(void)rt;
	if (r->adjust)
		*value -= sh->sh_addr - sh->sh_offset;
	if (!strcmp(secname, ".text"))
		return r->text;
	s = section_get(r, sh, secname);
	if (!s) {
		r->failed = true;
		return NULL;
	}
	s->nr++;
	return &s->b;
}

/* The value of the symbol name in the image's .symtab, or 0. */
static uint64_t
symbol_value(struct sym_elf_src *ss, const char *name)
{
	GElf_Shdr sh;
	Elf_Data *syms, *strs;
	Elf_Scn *str_scn;
	size_t i, nr;
	GElf_Sym sym;
	const char *s;

	if (!name || !ss->symtab || !gelf_getshdr(ss->symtab, &sh) ||
	    !sh.sh_entsize)
		return 0;
	syms = elf_getdata(ss->symtab, NULL);
	str_scn = elf_getscn(ss->elf, sh.sh_link);
	strs = str_scn ? elf_getdata(str_scn, NULL) : NULL;
	if (!syms || !strs)
		return 0;
	nr = sh.sh_size / sh.sh_entsize;
	for (i = 0; i < nr; i++) {
		if (!gelf_getsym(syms, (int)i, &sym))
			break;
		if (sym.st_name >= strs->d_size)
			continue;
		s = (const char *)strs->d_buf + sym.st_name;
		if (memchr(s, '\0', strs->d_size - sym.st_name) &&
		    !strcmp(s, name))
			return sym.st_value;
	}
	return 0;
}

static void
route_free(struct vml_route *r)
{
	size_t i;

	for (i = 0; i < r->nr_secs; i++) {
		free(r->secs[i].name);
		sym_builder_free(&r->secs[i].b);
	}
	free(r->secs);
}

/* The sections' DSOs, each with its symbols (perf fixes none of them up). */
static int
sections_publish(struct sym_dso *kernel, struct vml_route *r)
{
	struct sym_kernel_section *pub;
	size_t i, n = 0;
	char *name;

	pub = calloc(r->nr_secs ? r->nr_secs : 1, sizeof(*pub));
	if (!pub)
		return -ENOMEM;
	for (i = 0; i < r->nr_secs; i++) {
		struct vml_sec *s = &r->secs[i];
		struct sym_dso *dso;

		if (!s->nr)
			continue;
		if (asprintf(&name, "%s%s", kernel->short_name, s->name) < 0)
			break;
		dso = sym_dso_get(kernel->ctx, name, NULL, 0);
		free(name);
		if (!dso)
			break;
		sym_dso_set_section_table(dso, kernel, sym_builder_finish(&s->b));
		pub[n] = s->pub;
		pub[n].dso = dso;
		n++;
	}
	kernel->ksections = pub;
	kernel->nr_ksections = n;
	return 0;
}

/* perf's want_demangle() for kernel symbols: --demangle-kernel only */
static enum sym_demangle_mode
kernel_demangle(const struct sym_ctx *ctx)
{
	if (!ctx->opts.demangle_kernel)
		return SYM_DEMANGLE_NONE;
	return ctx->opts.demangle_params ? SYM_DEMANGLE_PARAMS :
					   SYM_DEMANGLE_NAMES;
}

int
sym_vmlinux_load(struct sym_dso *dso, const char *path)
{
	struct sym_elf_src ss;
	struct sym_builder text;
	struct vml_route r = { .text = &text };
	uint64_t unrelocated;
	GElf_Shdr sh;
	int n, err;

	err = sym_elf_src_open(&ss, path, dso->bid, dso->bid_size);
	if (err)
		return err;
	/* a stripped image gives nothing (perf falls back to no symbols) */
	if (!ss.symtab) {
		sym_elf_src_close(&ss);
		return -ENODATA;
	}
	unrelocated = symbol_value(&ss, dso->ref_name);
	if (unrelocated)
		r.reloc = dso->ref_addr - unrelocated;
	/*
	 * perf moves symbols to file offsets for an executable or
	 * relocatable image, or a relocated kernel; the map is moved to the
	 * file offsets anyway (a shared-object image that runs where it was
	 * linked then finds no symbol, as in perf)
	 */
	r.adjust = ss.ehdr.e_type == ET_EXEC || ss.ehdr.e_type == ET_REL ||
		   r.reloc;
	if (!sym_elf_section_by_name(ss.elf, ss.shstrndx, ".text", &sh)) {
		sym_elf_src_close(&ss);
		return -ENOEXEC;
	}
	dso->ktext.start = sh.sh_addr + r.reloc;
	dso->ktext.end = dso->ktext.start + sh.sh_size;
	dso->ktext.pgoff = sh.sh_offset;
	sym_builder_init(&text);
	n = sym_elf_load_pass(&ss, &ss, ss.symtab, kernel_demangle(dso->ctx),
			      kernel_route, &r);
	if (n > 0) {
		sym_builder_fixup_end(&text, false);
		sym_builder_dedup(&text);
	}
	dso->table = sym_builder_finish(&text);
	dso->own_table = true;
	err = n < 0 || r.failed ? -ENOEXEC : sections_publish(dso, &r);
	route_free(&r);
	sym_builder_free(&text);
	sym_elf_src_close(&ss);
	if (!err)
		dso->has_ktext = true;
	return err;
}
