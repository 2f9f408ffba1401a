/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * symbol/archive-cfi.c - call frame information in the symbol archive
 * (doc/symbol-archive.md, "Call frame information"): the .eh_frame
 * pieces an unwinder read on the recording machine, taken from the
 * binary; their table in an entry's payload; and the small ELF image an
 * unwinder is given in place of the binary on another machine.
 *
 * The pieces keep their offsets in .eh_frame and the image puts them at
 * the section's original address, so the pc-relative pointers inside
 * them stay right without being decoded.  The image's .eh_frame_hdr is
 * made anew from the kept FDEs: a lookup goes through it straight to the
 * FDE, never over the gaps between pieces.
 */
#include "config.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/u64map.h"
#include "symbol/archive-int.h"

/* .eh_frame_hdr's encodings (LSB DWARF extensions): the only ones taken */
#define EH_PE_PCREL_SDATA4	0x1b
#define EH_PE_UDATA4		0x03
#define EH_PE_DATAREL_SDATA4	0x3b
#define EH_HDR_HEAD		12
#define EH_HDR_ROW		8

static uint32_t
le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static void
put_le32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
}

/* The binary's .eh_frame and its search table, as found in the file. */
struct eh_src {
	const unsigned char *eh;
	size_t eh_size;
	uint64_t eh_addr;
	const unsigned char *table;	/* in .eh_frame_hdr */
	size_t nr_fdes;
	uint64_t hdr_addr;
};

static bool
section_named(Elf *elf, size_t shstrndx, const char *want, GElf_Shdr *sh,
	      Elf_Data **data)
{
	Elf_Scn *scn = NULL;
	const char *name;

	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, sh) || sh->sh_type != SHT_PROGBITS)
			continue;
		name = elf_strptr(elf, shstrndx, sh->sh_name);
		if (name && !strcmp(name, want)) {
			*data = elf_rawdata(scn, NULL);
			return *data && (*data)->d_buf;
		}
	}
	return false;
}

static bool
eh_src_open(Elf *elf, struct eh_src *s)
{
	GElf_Shdr sh_eh, sh_hdr;
	Elf_Data *eh, *hdr;
	const unsigned char *h;
	size_t shstrndx;
	uint64_t ptr;

	if (elf_getshdrstrndx(elf, &shstrndx) ||
	    !section_named(elf, shstrndx, ".eh_frame", &sh_eh, &eh) ||
	    !section_named(elf, shstrndx, ".eh_frame_hdr", &sh_hdr, &hdr) ||
	    hdr->d_size < EH_HDR_HEAD)
		return false;
	h = hdr->d_buf;
	if (h[0] != 1 || h[1] != EH_PE_PCREL_SDATA4 || h[2] != EH_PE_UDATA4 ||
	    h[3] != EH_PE_DATAREL_SDATA4)
		return false;
	ptr = sh_hdr.sh_addr + 4 + (uint64_t)(int64_t)(int32_t)le32(h + 4);
	if (ptr != sh_eh.sh_addr)
		return false;
	s->nr_fdes = le32(h + 8);
	if (s->nr_fdes > (hdr->d_size - EH_HDR_HEAD) / EH_HDR_ROW)
		return false;
	s->table = h + EH_HDR_HEAD;
	s->hdr_addr = sh_hdr.sh_addr;
	s->eh = eh->d_buf;
	s->eh_size = eh->d_size;
	s->eh_addr = sh_eh.sh_addr;
	return true;
}

static uint64_t
row_addr(const struct eh_src *s, size_t i, int col)
{
	return s->hdr_addr + (uint64_t)(int64_t)(int32_t)le32(s->table +
							       i * 8 + col * 4);
}

/* The search table's row for vaddr: the last one starting at or below. */
static bool
row_for(const struct eh_src *s, uint64_t vaddr, size_t *out)
{
	size_t lo = 0, hi = s->nr_fdes;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (row_addr(s, mid, 0) <= vaddr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return false;
	*out = lo - 1;
	return true;
}

/*
 * The CIE or FDE at off: its whole length, and for an FDE the offset of
 * its CIE (*is_fde set).  False when it cannot be read.
 */
static bool
entry_at(const struct eh_src *s, uint64_t off, uint64_t *len, bool *is_fde,
	 uint64_t *cie_off)
{
	uint64_t l, id, id_at;

	if (off > s->eh_size || s->eh_size - off < 8)
		return false;
	l = le32(s->eh + off);
	id_at = off + 4;
	if (l == 0xffffffff) {
		if (s->eh_size - off < 20)
			return false;
		l = ar_le64(s->eh + off + 4);
		id_at = off + 12;
		id = ar_le64(s->eh + id_at);
		l += 12;
	} else {
		id = le32(s->eh + id_at);
		l += 4;
	}
	if (l < 8 || l > s->eh_size - off || id > id_at)
		return false;
	*len = l;
	*is_fde = id != 0;
	*cie_off = id_at - id;
	return true;
}

struct kept {
	struct u64map pieces;		/* offset -> length */
	struct u64map rows;		/* FDE offset -> initial location */
};

static void
keep_fde(const struct eh_src *s, uint64_t vaddr, struct kept *k)
{
	uint64_t fde_off, len, cie_off, cie_len, unused;
	bool fde, cie_is_fde;
	size_t row;

	if (!row_for(s, vaddr, &row))
		return;
	fde_off = row_addr(s, row, 1) - s->eh_addr;
	if (u64map_find(&k->rows, fde_off))
		return;
	if (!entry_at(s, fde_off, &len, &fde, &cie_off) || !fde ||
	    !entry_at(s, cie_off, &cie_len, &cie_is_fde, &unused) ||
	    cie_is_fde)
		return;
	*u64map_slot(&k->pieces, fde_off) = len;
	*u64map_slot(&k->pieces, cie_off) = cie_len;
	*u64map_slot(&k->rows, fde_off) = row_addr(s, row, 0);
}

static int
cmp_u64(const void *pa, const void *pb)
{
	uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;

	return a < b ? -1 : a > b;
}

static int
cmp_row(const void *pa, const void *pb)
{
	const struct sym_ar_cfi_row *a = pa, *b = pb;

	return a->pc < b->pc ? -1 : a->pc > b->pc;
}

/* The sorted keys of m, malloc'd. */
static uint64_t *
sorted_keys(const struct u64map *m)
{
	uint64_t *v = calloc(m->nr + 1, sizeof(*v)), key, val;
	size_t pos = 0, n = 0;

	while (v && u64map_next(m, &pos, &key, &val))
		v[n++] = key;
	if (v && n > 1)
		qsort(v, n, sizeof(*v), cmp_u64);
	return v;
}

static size_t
count_loads(Elf *elf)
{
	size_t i, n = 0, phnum;
	GElf_Phdr ph;

	if (elf_getphdrnum(elf, &phnum))
		return 0;
	for (i = 0; i < phnum; i++)
		if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD)
			n++;
	return n;
}

static void
fill_loads(Elf *elf, struct sym_ar_cfi *c)
{
	size_t i, n = 0, phnum;
	GElf_Phdr ph;

	if (elf_getphdrnum(elf, &phnum))
		return;
	for (i = 0; i < phnum && n < c->nr_loads; i++) {
		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		c->loads[n++] = (struct sym_ar_load){
			.vaddr = ph.p_vaddr, .offset = ph.p_offset,
			.filesz = ph.p_filesz, .memsz = ph.p_memsz,
			.align = ph.p_align, .flags = ph.p_flags,
		};
	}
}

static struct sym_ar_cfi *
make_cfi(Elf *elf, const struct eh_src *s, struct kept *k)
{
	uint64_t *offs = sorted_keys(&k->pieces), *fdes = sorted_keys(&k->rows);
	uint64_t len, bytes = 0;
	size_t i, nl = count_loads(elf);
	struct sym_ar_cfi *c = NULL;
	GElf_Ehdr eh;
	unsigned char *p;

	if (!offs || !fdes || !gelf_getehdr(elf, &eh) || !nl ||
	    nl > AR_CFI_LOADS_MAX)
		goto out;
	for (i = 0; i < k->pieces.nr; i++)
		bytes += *u64map_find(&k->pieces, offs[i]);
	c = ar_cfi_alloc(nl, k->pieces.nr, k->rows.nr, bytes);
	if (!c)
		goto out;
	c->machine = eh.e_machine;
	c->type = eh.e_type;
	c->eh_frame_addr = s->eh_addr;
	c->hdr_addr = s->hdr_addr;
	fill_loads(elf, c);
	p = ar_cfi_bytes(c);
	for (i = 0; i < c->nr_pieces; i++) {
		len = *u64map_find(&k->pieces, offs[i]);
		c->pieces[i] = (struct sym_ar_cfi_piece){
			.off = offs[i], .len = (size_t)len, .bytes = p };
		memcpy(p, s->eh + offs[i], (size_t)len);
		p += len;
	}
	for (i = 0; i < c->nr_rows; i++) {
		c->rows[i].fde_off = fdes[i];
		c->rows[i].pc = *u64map_find(&k->rows, fdes[i]);
	}
	qsort(c->rows, c->nr_rows, sizeof(*c->rows), cmp_row);
out:
	free(offs);
	free(fdes);
	return c;
}

/* Overlapping pieces (a crafted .eh_frame) would not make a valid table. */
static bool
pieces_disjoint(const struct sym_ar_cfi *c)
{
	size_t i;

	for (i = 1; i < c->nr_pieces; i++)
		if (c->pieces[i].off < c->pieces[i - 1].off +
				       c->pieces[i - 1].len)
			return false;
	return true;
}

int
sym_ar_cfi_extract(int fd, const uint64_t *vaddrs, size_t n,
		   struct sym_ar_cfi **out)
{
	struct kept k = { U64MAP_INIT, U64MAP_INIT };
	struct eh_src s;
	Elf *elf = NULL;
	size_t i;
	int ret = 0;

	*out = NULL;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF ||
	    gelf_getclass(elf) != ELFCLASS64 ||
	    elf_getident(elf, NULL)[EI_DATA] != ELFDATA2LSB ||
	    !eh_src_open(elf, &s))
		goto out;
	for (i = 0; i < n; i++)
		keep_fde(&s, vaddrs[i], &k);
	if (!k.rows.nr)
		goto out;
	*out = make_cfi(elf, &s, &k);
	if (!*out)
		ret = -ENOMEM;
	else if (!pieces_disjoint(*out)) {
		free(*out);
		*out = NULL;
	}
out:
	u64map_free(&k.pieces);
	u64map_free(&k.rows);
	if (elf)
		elf_end(elf);
	return ret;
}

/* The image: ELF header, program headers, the two sections, names, shdrs. */
static const char image_names[] = "\0.eh_frame_hdr\0.eh_frame\0.shstrtab";
enum { NAME_HDR = 1, NAME_EH = 15, NAME_STRTAB = 25 };

static uint64_t
eh_frame_len(const struct sym_ar_cfi *c)
{
	const struct sym_ar_cfi_piece *last = &c->pieces[c->nr_pieces - 1];

	return last->off + last->len;
}

static void
image_shdr(unsigned char *at, uint32_t name, uint32_t type, uint64_t flags,
	   uint64_t addr, uint64_t off, uint64_t size, uint64_t align)
{
	Elf64_Shdr sh = {
		.sh_name = name, .sh_type = type, .sh_flags = flags,
		.sh_addr = addr, .sh_offset = off, .sh_size = size,
		.sh_addralign = align,
	};

	memcpy(at, &sh, sizeof(sh));
}

static void
image_hdr(const struct sym_ar_cfi *c, unsigned char *h)
{
	uint64_t base = c->hdr_addr;
	size_t i;

	h[0] = 1;
	h[1] = EH_PE_PCREL_SDATA4;
	h[2] = EH_PE_UDATA4;
	h[3] = EH_PE_DATAREL_SDATA4;
	put_le32(h + 4, (uint32_t)(c->eh_frame_addr - (base + 4)));
	put_le32(h + 8, (uint32_t)c->nr_rows);
	for (i = 0; i < c->nr_rows; i++) {
		unsigned char *r = h + EH_HDR_HEAD + i * EH_HDR_ROW;

		put_le32(r, (uint32_t)(c->rows[i].pc - base));
		put_le32(r + 4, (uint32_t)(c->eh_frame_addr +
					   c->rows[i].fde_off - base));
	}
}

int
sym_ar_cfi_image(const struct sym_ar_cfi *c, unsigned char **image,
		 size_t *len)
{
	size_t ph_at = sizeof(Elf64_Ehdr);
	size_t hdr_at = ph_at + c->nr_loads * sizeof(Elf64_Phdr);
	size_t hdr_len = EH_HDR_HEAD + c->nr_rows * EH_HDR_ROW;
	size_t eh_at = hdr_at + hdr_len, eh_len = (size_t)eh_frame_len(c);
	size_t names_at = eh_at + eh_len;
	size_t sh_at = (names_at + sizeof(image_names) + 7) & ~(size_t)7;
	size_t total = sh_at + 4 * sizeof(Elf64_Shdr), i;
	Elf64_Ehdr eh = {
		.e_ident = { ELFMAG0, ELFMAG1, ELFMAG2, ELFMAG3, ELFCLASS64,
			     ELFDATA2LSB, EV_CURRENT },
		.e_type = c->type, .e_machine = c->machine,
		.e_version = EV_CURRENT, .e_phoff = ph_at, .e_shoff = sh_at,
		.e_ehsize = sizeof(Elf64_Ehdr),
		.e_phentsize = sizeof(Elf64_Phdr),
		.e_phnum = (uint16_t)c->nr_loads,
		.e_shentsize = sizeof(Elf64_Shdr), .e_shnum = 4,
		.e_shstrndx = 3,
	};
	unsigned char *p = calloc(1, total);

	*image = NULL;
	if (!p)
		return -ENOMEM;
	memcpy(p, &eh, sizeof(eh));
	for (i = 0; i < c->nr_loads; i++) {
		const struct sym_ar_load *l = &c->loads[i];
		Elf64_Phdr ph = {
			.p_type = PT_LOAD, .p_flags = l->flags,
			.p_offset = l->offset, .p_vaddr = l->vaddr,
			.p_paddr = l->vaddr, .p_filesz = l->filesz,
			.p_memsz = l->memsz, .p_align = l->align,
		};

		memcpy(p + ph_at + i * sizeof(ph), &ph, sizeof(ph));
	}
	image_hdr(c, p + hdr_at);
	for (i = 0; i < c->nr_pieces; i++)
		memcpy(p + eh_at + c->pieces[i].off, c->pieces[i].bytes,
		       c->pieces[i].len);
	memcpy(p + names_at, image_names, sizeof(image_names));
	image_shdr(p + sh_at + sizeof(Elf64_Shdr), NAME_HDR, SHT_PROGBITS,
		   SHF_ALLOC, c->hdr_addr, hdr_at, hdr_len, 4);
	image_shdr(p + sh_at + 2 * sizeof(Elf64_Shdr), NAME_EH, SHT_PROGBITS,
		   SHF_ALLOC, c->eh_frame_addr, eh_at, eh_len, 8);
	image_shdr(p + sh_at + 3 * sizeof(Elf64_Shdr), NAME_STRTAB, SHT_STRTAB,
		   0, 0, names_at, sizeof(image_names), 1);
	*image = p;
	*len = total;
	return 0;
}
