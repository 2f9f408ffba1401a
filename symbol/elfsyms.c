/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * symbol/elfsyms.c - symbols of one ELF file as perf 6.1's dso__load_sym
 * reads them (doc/perf-records.md §7.4):
 *
 *  - .symtab, then .dynsym of the same file, each pass followed by the
 *    zero-size end fixup and the duplicate removal;
 *  - kept: named, defined FUNC/IFUNC/OBJECT symbols, and NOTYPE labels
 *    (not hidden/internal, not ABS) in a section whose name contains
 *    "text" or "data"; dropped: ABS symbols, non-ALLOC sections;
 *  - values become file offsets through the runtime image's PT_LOAD
 *    segment (else the section), since lookups use map-relative offsets;
 *  - then "name@plt" symbols from .rela.plt/.rel.plt and .plt.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gelf.h>

#include "lib/safefile.h"
#include "symbol/sym-int.h"

int
sym_elf_src_open(struct sym_elf_src *ss, const char *path,
		 const uint8_t *build_id, size_t build_id_size)
{
	uint8_t bid[SYM_BUILD_ID_MAX];
	GElf_Shdr shdr;
	Elf_Scn *scn;
	int n;

	sym_elf_init();
	memset(ss, 0, sizeof(*ss));
	ss->fd = sfile_open_input(path, 0, NULL);
	if (ss->fd < 0)
		return ss->fd;
	ss->elf = elf_begin(ss->fd, ELF_C_READ_MMAP, NULL);
	if (!ss->elf || elf_kind(ss->elf) != ELF_K_ELF ||
	    !gelf_getehdr(ss->elf, &ss->ehdr) ||
	    elf_getshdrstrndx(ss->elf, &ss->shstrndx)) {
		sym_elf_src_close(ss);
		return -ENOEXEC;
	}
	if (build_id_size) {
		n = sym_elf_build_id_of(ss->elf, bid);
		/* perf compares the recorded size's bytes */
		if (n <= 0 || (size_t)n < build_id_size ||
		    memcmp(bid, build_id, build_id_size) != 0) {
			sym_elf_src_close(ss);
			return -EBADE;
		}
	}
	scn = sym_elf_section_by_name(ss->elf, ss->shstrndx, ".symtab", &shdr);
	if (scn && shdr.sh_type == SHT_SYMTAB)
		ss->symtab = scn;
	scn = sym_elf_section_by_name(ss->elf, ss->shstrndx, ".dynsym", &shdr);
	if (scn && shdr.sh_type == SHT_DYNSYM) {
		ss->dynsym = scn;
		ss->dynsym_idx = elf_ndxscn(scn);
	}
	return 0;
}

void
sym_elf_src_close(struct sym_elf_src *ss)
{
	if (ss->elf)
		elf_end(ss->elf);
	if (ss->fd >= 0)
		close(ss->fd);
	ss->elf = NULL;
	ss->fd = -1;
}

static const char *
str_at(Elf_Data *d, size_t off)
{
	const char *s;

	if (!d || !d->d_buf || off >= d->d_size)
		return NULL;
	s = (const char *)d->d_buf + off;
	return memchr(s, '\0', d->d_size - off) ? s : NULL;
}

static Elf_Data *
section_strings(Elf *elf, size_t shstrndx)
{
	Elf_Scn *scn = elf_getscn(elf, shstrndx);

	return scn ? elf_getdata(scn, NULL) : NULL;
}

/* The PT_LOAD containing vaddr: its p_vaddr - p_offset into *delta. */
static bool
load_delta(Elf *elf, uint64_t vaddr, uint64_t *delta)
{
	size_t i, n;

	if (elf_getphdrnum(elf, &n))
		return false;
	for (i = 0; i < n; i++) {
		GElf_Phdr ph;
		uint64_t sz;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		sz = ph.p_memsz > ph.p_filesz ? ph.p_memsz : ph.p_filesz;
		if (sz && vaddr >= ph.p_vaddr && vaddr - ph.p_vaddr < sz) {
			*delta = ph.p_vaddr - ph.p_offset;
			return true;
		}
	}
	return false;
}

static bool
is_label(const GElf_Sym *sym)
{
	int vis = GELF_ST_VISIBILITY(sym->st_other);

	return GELF_ST_TYPE(sym->st_info) == STT_NOTYPE && sym->st_name &&
	       sym->st_shndx != SHN_UNDEF && sym->st_shndx != SHN_ABS &&
	       vis != STV_HIDDEN && vis != STV_INTERNAL;
}

static bool
is_func_or_object(const GElf_Sym *sym)
{
	int t = GELF_ST_TYPE(sym->st_info);

	return (t == STT_FUNC || t == STT_GNU_IFUNC || t == STT_OBJECT) &&
	       sym->st_name && sym->st_shndx != SHN_UNDEF;
}

static bool
is_arm_mapping_symbol(const GElf_Ehdr *eh, const char *name)
{
	if (eh->e_machine != EM_ARM && eh->e_machine != EM_AARCH64)
		return false;
	return name[0] == '$' && name[1] && strchr("adtx", name[1]) &&
	       (name[2] == '\0' || name[2] == '.');
}

static void
add_named(struct sym_builder *b, uint64_t start, uint64_t size,
	  const GElf_Sym *sym, const char *name,
	  enum sym_demangle_mode demangle)
{
	char *dm = sym_demangle(name, demangle);

	sym_builder_add(b, start, size, GELF_ST_BIND(sym->st_info),
			GELF_ST_TYPE(sym->st_info), dm ? dm : name);
	free(dm);
}

/*
 * Where a user DSO's symbol goes: its one table, at its file offset
 * through the runtime image's PT_LOAD segment (else its section).
 */
static struct sym_builder *
user_route(void *ctx, struct sym_elf_src *rt, const GElf_Shdr *sh,
	   const char *secname, uint64_t *value)
{
	uint64_t delta;

	(void)secname;
	if (load_delta(rt->elf, *value, &delta))
		*value -= delta;
	else
		*value -= sh->sh_addr - sh->sh_offset;
	return ctx;
}

/*
 * One pass over a symbol section, each symbol kept going where route
 * says (NULL: nowhere).  Returns the number of symbols added, or -1
 * where perf's loader gives up on the pass (an unreadable section
 * index): symbols already added then stay without fixups, as in perf.
 */
int
sym_elf_load_pass(struct sym_elf_src *ss, struct sym_elf_src *rt,
		  Elf_Scn *symscn, enum sym_demangle_mode demangle,
		  sym_elf_route_fn *route,
		  void *route_ctx)
{
	Elf_Data *syms, *strs, *secstrs_sym, *secstrs_run;
	GElf_Shdr symshdr;
	size_t i, nr;
	int added = 0;

	if (!gelf_getshdr(symscn, &symshdr) || !symshdr.sh_entsize)
		return -1;
	syms = elf_getdata(symscn, NULL);
	strs = elf_getscn(ss->elf, symshdr.sh_link) ?
	       elf_getdata(elf_getscn(ss->elf, symshdr.sh_link), NULL) : NULL;
	secstrs_sym = section_strings(ss->elf, ss->shstrndx);
	secstrs_run = section_strings(rt->elf, rt->shstrndx);
	if (!syms || !strs || !secstrs_sym || !secstrs_run)
		return -1;
	nr = symshdr.sh_size / symshdr.sh_entsize;
	for (i = 0; i < nr; i++) {
		GElf_Sym sym;
		GElf_Shdr sh;
		Elf_Scn *sec;
		Elf_Data *secstrs = secstrs_sym;
		const char *name, *secname;
		struct sym_builder *b;
		uint64_t value;
		bool label;

		if (!gelf_getsym(syms, (int)i, &sym))
			break;
		label = is_label(&sym);
		if (!label && !is_func_or_object(&sym))
			continue;
		name = str_at(strs, sym.st_name);
		if (!name)
			continue;
		if (is_arm_mapping_symbol(&ss->ehdr, name))
			continue;
		if (sym.st_shndx == SHN_ABS)
			continue;
		sec = elf_getscn(ss->elf, sym.st_shndx);
		if (!sec || !gelf_getshdr(sec, &sh))
			return -1;
		if (!(sh.sh_flags & SHF_ALLOC))
			continue;
		if (sh.sh_type == SHT_NOBITS) {
			sec = elf_getscn(rt->elf, sym.st_shndx);
			if (!sec || !gelf_getshdr(sec, &sh))
				return -1;
			secstrs = secstrs_run;
		}
		secname = str_at(secstrs, sh.sh_name);
		if (label && (!secname || (!strstr(secname, "text") &&
					   !strstr(secname, "data"))))
			continue;
		value = sym.st_value;
		if (ss->ehdr.e_machine == EM_ARM &&
		    GELF_ST_TYPE(sym.st_info) == STT_FUNC && (value & 1))
			value--;
		b = route(route_ctx, rt, &sh, secname ? secname : "", &value);
		if (!b)
			continue;
		add_named(b, value, sym.st_size, &sym, name, demangle);
		added++;
	}
	return added;
}

static int
plt_sizes(const GElf_Ehdr *eh, const GElf_Shdr *plt, uint64_t *hdr,
	  uint64_t *ent)
{
	switch (eh->e_machine) {
	case EM_ARM:
		*hdr = 20, *ent = 12;
		break;
	case EM_AARCH64:
		*hdr = 32, *ent = 16;
		break;
	case EM_SPARC:
		*hdr = 48, *ent = 12;
		break;
	case EM_SPARCV9:
		*hdr = 128, *ent = 32;
		break;
	default:
		*hdr = *ent = plt->sh_entsize;
		break;
	}
	return 0;
}

/*
 * "name@plt" for each PLT relocation.  perf 6.1 adds them after the end
 * fixup, so a zero-size symbol before .plt (typically _init) may already
 * cover them: which one a lookup finds then depends on the tree's shape.
 */
static void
synthesize_plt(struct sym_builder *b, struct sym_elf_src *rt,
	       enum sym_demangle_mode demangle)
{
	GElf_Shdr relsh, pltsh, dynsh;
	Elf_Scn *rel, *strscn;
	Elf_Data *reldata, *syms, *strs;
	uint64_t off, hdr, ent;
	size_t i, nr;

	if (!rt->dynsym)
		return;
	rel = sym_elf_section_by_name(rt->elf, rt->shstrndx, ".rela.plt",
				      &relsh);
	if (!rel)
		rel = sym_elf_section_by_name(rt->elf, rt->shstrndx, ".rel.plt",
					      &relsh);
	if (!rel || relsh.sh_link != rt->dynsym_idx || !relsh.sh_entsize)
		return;
	if (!sym_elf_section_by_name(rt->elf, rt->shstrndx, ".plt", &pltsh))
		return;
	if (!gelf_getshdr(rt->dynsym, &dynsh))
		return;
	reldata = elf_getdata(rel, NULL);
	syms = elf_getdata(rt->dynsym, NULL);
	strscn = elf_getscn(rt->elf, dynsh.sh_link);
	strs = strscn ? elf_getdata(strscn, NULL) : NULL;
	if (!reldata || !syms || !strs || !strs->d_size)
		return;
	plt_sizes(&rt->ehdr, &pltsh, &hdr, &ent);
	off = pltsh.sh_offset + hdr;
	nr = relsh.sh_size / relsh.sh_entsize;
	for (i = 0; i < nr; i++, off += ent) {
		GElf_Sym sym;
		uint64_t info;
		const char *name;
		char *dm, *full;

		if (relsh.sh_type == SHT_RELA) {
			GElf_Rela r;

			if (!gelf_getrela(reldata, (int)i, &r))
				break;
			info = r.r_info;
		} else if (relsh.sh_type == SHT_REL) {
			GElf_Rel r;

			if (!gelf_getrel(reldata, (int)i, &r))
				break;
			info = r.r_info;
		} else {
			break;
		}
		if (!gelf_getsym(syms, (int)GELF_R_SYM(info), &sym))
			memset(&sym, 0, sizeof(sym));
		name = str_at(strs, sym.st_name);
		if (!name)
			name = "";
		dm = sym_demangle(name, demangle);
		if (asprintf(&full, "%s@plt", dm ? dm : name) < 0) {
			free(dm);
			b->failed = true;
			break;
		}
		free(dm);
		sym_builder_add(b, off, ent, STB_GLOBAL, STT_FUNC, full);
		free(full);
	}
}

int
sym_elf_load(struct sym_builder *b, struct sym_elf_src *ss,
	     struct sym_elf_src *rt, enum sym_demangle_mode demangle)
{
	int n, total = 0;

	if (ss->symtab) {
		n = sym_elf_load_pass(ss, rt, ss->symtab, demangle, user_route,
				      b);
		if (n < 0)
			return -1;
		if (n > 0) {
			sym_builder_fixup_end(b, false);
			sym_builder_dedup(b);
		}
		total += n;
	}
	if (ss->dynsym) {
		n = sym_elf_load_pass(ss, rt, ss->dynsym, demangle, user_route,
				      b);
		if (n < 0)
			return -1;
		if (n > 0) {
			sym_builder_fixup_end(b, false);
			sym_builder_dedup(b);
		}
		total += n;
	}
	if (total > 0)
		synthesize_plt(b, rt, demangle);
	return total;
}

char *
sym_elf_debuglink(const char *path)
{
	struct sym_elf_src ss;
	Elf_Scn *scn;
	Elf_Data *d;
	char *ret = NULL;

	if (sym_elf_src_open(&ss, path, NULL, 0))
		return NULL;
	scn = sym_elf_section_by_name(ss.elf, ss.shstrndx, ".gnu_debuglink",
				      NULL);
	d = scn ? elf_getdata(scn, NULL) : NULL;
	if (d && d->d_buf && d->d_size &&
	    memchr(d->d_buf, '\0', d->d_size))
		ret = strdup(d->d_buf);
	sym_elf_src_close(&ss);
	return ret;
}
