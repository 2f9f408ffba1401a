/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * symbol/buildid.c - read the GNU build-id note of an ELF file.
 *
 * The note is looked for in the sections ".note.gnu.build-id", ".notes"
 * and ".note" (the vdso's), in that order, as perf 6.1 does; the first of
 * those names that exists is the only one searched.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include <gelf.h>

#include "lib/safefile.h"
#include "symbol/symbol.h"
#include "symbol/sym-int.h"

static Elf_Scn *
note_section(Elf *elf, size_t shstrndx)
{
	static const char *const names[] = {
		".note.gnu.build-id", ".notes", ".note",
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		Elf_Scn *scn = sym_elf_section_by_name(elf, shstrndx, names[i],
						       NULL);
		if (scn)
			return scn;
	}
	return NULL;
}

int
sym_elf_build_id_of(Elf *elf, uint8_t out[SYM_BUILD_ID_MAX])
{
	size_t shstrndx, off, name_off, desc_off;
	GElf_Nhdr nhdr;
	Elf_Data *data;
	Elf_Scn *scn;

	if (elf_kind(elf) != ELF_K_ELF || elf_getshdrstrndx(elf, &shstrndx))
		return 0;
	scn = note_section(elf, shstrndx);
	if (!scn)
		return 0;
	data = elf_getdata(scn, NULL);
	if (!data || !data->d_buf)
		return 0;
	off = 0;
	while (off < data->d_size) {
		size_t next = gelf_getnote(data, off, &nhdr, &name_off,
					   &desc_off);
		size_t n;

		if (next == 0)
			break;
		if (nhdr.n_type == NT_GNU_BUILD_ID && nhdr.n_namesz == 4 &&
		    memcmp((const char *)data->d_buf + name_off, "GNU", 4) == 0) {
			n = nhdr.n_descsz;
			if (n > SYM_BUILD_ID_MAX)
				n = SYM_BUILD_ID_MAX;
			if (n > data->d_size - desc_off)
				return 0;
			memset(out, 0, SYM_BUILD_ID_MAX);
			memcpy(out, (const uint8_t *)data->d_buf + desc_off, n);
			return (int)n;
		}
		off = next;
	}
	return 0;
}

int
sym_elf_build_id(const char *path, uint8_t out[SYM_BUILD_ID_MAX])
{
	Elf *elf;
	int fd, ret;

	sym_elf_init();
	fd = sfile_open_input(path, 0, NULL);
	if (fd < 0)
		return fd;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf) {
		close(fd);
		return -ENOEXEC;
	}
	ret = elf_kind(elf) == ELF_K_ELF ? sym_elf_build_id_of(elf, out) :
					   -ENOEXEC;
	elf_end(elf);
	close(fd);
	return ret;
}

void
sym_build_id_hex(const uint8_t *id, size_t size, char *buf)
{
	static const char digits[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < size; i++) {
		buf[2 * i] = digits[id[i] >> 4];
		buf[2 * i + 1] = digits[id[i] & 15];
	}
	buf[2 * size] = '\0';
}
