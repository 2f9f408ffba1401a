/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * tests/tools/pd-mkvmlinux.c - a vmlinux image made from a kallsyms file,
 * for preport -k against perf report -k on a machine without the
 * kernel's debug image (tests/report-vmlinux.test).
 *
 * Usage: pd-mkvmlinux KALLSYMS BUILD_ID DELTA OUT [split]
 *   An x86_64 ET_EXEC image whose .text runs from _text to _etext and
 *   .init.text from _sinittext to _einittext, DELTA (hex) below where
 *   KALLSYMS has them (a kernel relocated by DELTA at boot, as KASLR
 *   does), with the build-id BUILD_ID (hex) in .notes and a .symtab of
 *   the text symbols of KALLSYMS in those ranges: local ones for t,
 *   global for T, functions sized to the next symbol but every eleventh
 *   left without a size, and those named entry_* as labels (no type), as
 *   assembly gives them.  With "split", the code from
 *   __noinstr_text_start to __noinstr_text_end is a section of its own,
 *   .noinstr.text, and .text ends where it starts (perf then maps that
 *   section to a DSO of its own).  The sections' bytes are holes: the
 *   file is sparse.
 *
 * Exit status: 0 done, 1 an error (said on stderr).
 */
#include "config.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct ksym {
	uint64_t addr;
	char *name;
	bool global;
	int sec;		/* 1 .text, 2 .init.text */
};

struct buf {
	unsigned char *p;
	size_t len, cap;
};

static void __attribute__((noreturn))
die(const char *msg)
{
	fprintf(stderr, "pd-mkvmlinux: %s\n", msg);
	exit(1);
}

static size_t
buf_add(struct buf *b, const void *p, size_t n)
{
	size_t at = b->len;

	if (b->len + n > b->cap) {
		b->cap = (b->len + n) * 2 + 64;
		b->p = realloc(b->p, b->cap);
		if (!b->p)
			die("out of memory");
	}
	memcpy(b->p + b->len, p, n);
	b->len += n;
	return at;
}

static size_t
str_add(struct buf *b, const char *s)
{
	return buf_add(b, s, strlen(s) + 1);
}

static struct ksym *
read_kallsyms(const char *path, size_t *nr, uint64_t bounds[6])
{
	FILE *f = fopen(path, "r");
	struct ksym *v = NULL;
	size_t n = 0, cap = 0;
	char line[512], name[256], type;
	unsigned long long addr;

	if (!f)
		die(strerror(errno));
	memset(bounds, 0, 6 * sizeof(*bounds));
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3 ||
		    strchr(line, '['))
			continue;
		if (!strcmp(name, "_text"))
			bounds[0] = addr;
		else if (!strcmp(name, "_etext"))
			bounds[1] = addr;
		else if (!strcmp(name, "_sinittext"))
			bounds[2] = addr;
		else if (!strcmp(name, "_einittext"))
			bounds[3] = addr;
		else if (!strcmp(name, "__noinstr_text_start"))
			bounds[4] = addr;
		else if (!strcmp(name, "__noinstr_text_end"))
			bounds[5] = addr;
		if (type != 't' && type != 'T')
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 4096;
			v = realloc(v, cap * sizeof(*v));
			if (!v)
				die("out of memory");
		}
		v[n].addr = addr;
		v[n].name = strdup(name);
		v[n].global = type == 'T';
		n++;
	}
	fclose(f);
	if (!bounds[0] || bounds[1] <= bounds[0])
		die("no _text/_etext in the kallsyms file");
	*nr = n;
	return v;
}

/* b[1] is where .text ends: _etext, or the split section's start */
static int
section_of(uint64_t a, const uint64_t b[6], bool split)
{
	if (split && a >= b[4] && a < b[5])
		return 3;
	if (a >= b[0] && a < b[1])
		return 1;
	if (b[2] && a >= b[2] && a < b[3])
		return 2;
	return 0;
}

static void
put_sym(struct buf *syms, struct buf *strs, const struct ksym *k,
	uint64_t size, uint64_t delta)
{
	Elf64_Sym s = { 0 };
	bool label = !strncmp(k->name, "entry_", 6);

	s.st_name = (Elf64_Word)str_add(strs, k->name);
	s.st_info = ELF64_ST_INFO(k->global ? STB_GLOBAL : STB_LOCAL,
				  label ? STT_NOTYPE : STT_FUNC);
	s.st_shndx = (Elf64_Section)(k->sec == 3 ? 7 : k->sec);
	s.st_value = k->addr - delta;
	s.st_size = label ? 0 : size;
	buf_add(syms, &s, sizeof(s));
}

/* The symbols, locals first as ELF wants; returns the first global's index. */
static size_t
make_symtab(struct ksym *v, size_t n, const uint64_t b[6], bool split,
	    uint64_t delta, struct buf *syms, struct buf *strs)
{
	Elf64_Sym null = { 0 };
	size_t i, pass, nr = 1, first_global = 1;

	buf_add(syms, &null, sizeof(null));
	str_add(strs, "");
	for (i = 0; i < n; i++)
		v[i].sec = section_of(v[i].addr, b, split);
	for (pass = 0; pass < 2; pass++) {
		if (pass == 1)
			first_global = nr;
		for (i = 0; i < n; i++) {
			uint64_t next = i + 1 < n ? v[i + 1].addr : v[i].addr;

			if (!v[i].sec || v[i].global != (pass == 1))
				continue;
			put_sym(syms, strs, &v[i],
				i % 11 == 5 || next < v[i].addr ? 0 :
				next - v[i].addr, delta);
			nr++;
		}
	}
	return first_global;
}

static uint64_t
parse_hex(const char *s, const char *what)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 16);
	if (errno || end == s || *end)
		die(what);
	return v;
}

static size_t
build_id_note(struct buf *b, const char *hex)
{
	unsigned char id[20];
	size_t n = strlen(hex) / 2, i;
	uint32_t hdr[3] = { 4, 0, NT_GNU_BUILD_ID };
	unsigned int byte;

	if (n == 0 || n > sizeof(id) || strlen(hex) % 2)
		die("bad build-id");
	for (i = 0; i < n; i++) {
		if (sscanf(hex + 2 * i, "%2x", &byte) != 1)
			die("bad build-id");
		id[i] = (unsigned char)byte;
	}
	hdr[1] = (uint32_t)n;
	buf_add(b, hdr, sizeof(hdr));
	buf_add(b, "GNU", 4);
	buf_add(b, id, n);
	while (b->len % 4)
		buf_add(b, "", 1);
	return b->len;
}

static void
pwrite_all(int fd, const void *p, size_t n, off_t at)
{
	if (pwrite(fd, p, n, at) != (ssize_t)n)
		die(strerror(errno));
}

int
main(int argc, char **argv)
{
	struct buf syms = { 0 }, strs = { 0 }, shstr = { 0 }, note = { 0 };
	Elf64_Shdr sh[8];
	Elf64_Ehdr eh;
	uint64_t b[6], delta, text_off = 0x200000, init_off, tail, split_off;
	size_t n, first_global;
	struct ksym *v;
	bool split = argc == 6 && !strcmp(argv[5], "split");
	int fd;

	if (argc != 5 && !split) {
		fprintf(stderr, "usage: pd-mkvmlinux KALLSYMS BUILD_ID DELTA OUT "
			"[split]\n");
		return 2;
	}
	v = read_kallsyms(argv[1], &n, b);
	if (split) {
		if (b[4] <= b[0] || b[5] <= b[4] || b[5] > b[1])
			die("no __noinstr_text_start/end inside .text");
		b[1] = b[4];
	}
	delta = parse_hex(argv[3], "bad DELTA");
	first_global = make_symtab(v, n, b, split, delta, &syms, &strs);
	build_id_note(&note, argv[2]);
	split_off = (text_off + (b[1] - b[0]) + 0xfff) & ~(uint64_t)0xfff;
	init_off = split_off + (split ? ((b[5] - b[4] + 0xfff) & ~(uint64_t)0xfff) : 0);
	tail = init_off + (b[2] ? b[3] - b[2] : 0);

	memset(sh, 0, sizeof(sh));
	str_add(&shstr, "");
	sh[1] = (Elf64_Shdr){ .sh_name = (Elf64_Word)str_add(&shstr, ".text"),
		.sh_type = SHT_PROGBITS, .sh_flags = SHF_ALLOC | SHF_EXECINSTR,
		.sh_addr = b[0] - delta, .sh_offset = text_off,
		.sh_size = b[1] - b[0], .sh_addralign = 4096 };
	sh[2] = (Elf64_Shdr){ .sh_name = (Elf64_Word)str_add(&shstr, ".init.text"),
		.sh_type = SHT_PROGBITS, .sh_flags = SHF_ALLOC | SHF_EXECINSTR,
		.sh_addr = b[2] ? b[2] - delta : 0, .sh_offset = init_off,
		.sh_size = b[2] ? b[3] - b[2] : 0, .sh_addralign = 16 };
	sh[3] = (Elf64_Shdr){ .sh_name = (Elf64_Word)str_add(&shstr, ".notes"),
		.sh_type = SHT_NOTE, .sh_flags = SHF_ALLOC,
		.sh_offset = tail, .sh_size = note.len, .sh_addralign = 4 };
	tail += note.len;
	tail = (tail + 7) & ~(uint64_t)7;
	sh[4] = (Elf64_Shdr){ .sh_name = (Elf64_Word)str_add(&shstr, ".symtab"),
		.sh_type = SHT_SYMTAB, .sh_offset = tail, .sh_size = syms.len,
		.sh_link = 5, .sh_info = (Elf64_Word)first_global,
		.sh_addralign = 8, .sh_entsize = sizeof(Elf64_Sym) };
	tail += syms.len;
	sh[5] = (Elf64_Shdr){ .sh_name = (Elf64_Word)str_add(&shstr, ".strtab"),
		.sh_type = SHT_STRTAB, .sh_offset = tail, .sh_size = strs.len,
		.sh_addralign = 1 };
	tail += strs.len;
	sh[7] = (Elf64_Shdr){ .sh_name = (Elf64_Word)str_add(&shstr,
							    ".noinstr.text"),
		.sh_type = SHT_PROGBITS, .sh_flags = SHF_ALLOC | SHF_EXECINSTR,
		.sh_addr = split ? b[4] - delta : 0, .sh_offset = split_off,
		.sh_size = split ? b[5] - b[4] : 0, .sh_addralign = 16 };
	sh[6] = (Elf64_Shdr){ .sh_name = (Elf64_Word)str_add(&shstr, ".shstrtab"),
		.sh_type = SHT_STRTAB, .sh_addralign = 1 };
	sh[6].sh_offset = tail;
	sh[6].sh_size = shstr.len;
	tail += shstr.len;
	tail = (tail + 7) & ~(uint64_t)7;

	memset(&eh, 0, sizeof(eh));
	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_ident[EI_VERSION] = EV_CURRENT;
	eh.e_type = ET_EXEC;
	eh.e_machine = EM_X86_64;
	eh.e_version = EV_CURRENT;
	eh.e_entry = b[0] - delta;
	eh.e_ehsize = sizeof(eh);
	eh.e_shentsize = sizeof(Elf64_Shdr);
	eh.e_shnum = 8;
	eh.e_shstrndx = 6;
	eh.e_shoff = tail;

	fd = open(argv[4], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		die(strerror(errno));
	pwrite_all(fd, &eh, sizeof(eh), 0);
	pwrite_all(fd, note.p, note.len, (off_t)sh[3].sh_offset);
	pwrite_all(fd, syms.p, syms.len, (off_t)sh[4].sh_offset);
	pwrite_all(fd, strs.p, strs.len, (off_t)sh[5].sh_offset);
	pwrite_all(fd, shstr.p, shstr.len, (off_t)sh[6].sh_offset);
	pwrite_all(fd, sh, sizeof(sh), (off_t)tail);
	if (close(fd))
		die(strerror(errno));
	return 0;
}
