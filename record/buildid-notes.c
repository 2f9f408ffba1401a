/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * record/buildid-notes.c - the build-ids that are not read from an ELF
 * file on disk: the running kernel's (/sys/kernel/notes), a module's
 * (/sys/module/NAME/notes/.note.gnu.build-id) and the vDSO's, which perf
 * takes from its own process, as the same kernel maps the same vDSO into
 * every 64-bit process.
 */
#include "config.h"

#include <elf.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>

#include "record/buildid-int.h"
#include "record/sys-int.h"

#define NOTE_ALIGN(n)	(((n) + 3) & ~(size_t)3)

/* The vDSO has the class of this process. */
#if UINTPTR_MAX > 0xffffffffU
typedef Elf64_Ehdr rec_ehdr;
typedef Elf64_Phdr rec_phdr;
#else
typedef Elf32_Ehdr rec_ehdr;
typedef Elf32_Phdr rec_phdr;
#endif

size_t
rec_notes_build_id(const unsigned char *p, size_t len,
		   uint8_t out[PD_BUILD_ID_SIZE])
{
	size_t off = 0;

	while (len - off >= 12) {
		uint32_t namesz, descsz, type;
		size_t name_al, desc_al;

		memcpy(&namesz, p + off, 4);
		memcpy(&descsz, p + off + 4, 4);
		memcpy(&type, p + off + 8, 4);
		off += 12;
		if (namesz > len || descsz > len)
			return 0;
		name_al = NOTE_ALIGN((size_t)namesz);
		desc_al = NOTE_ALIGN((size_t)descsz);
		if (name_al > len - off || desc_al > len - off - name_al)
			return 0;
		if (type == NT_GNU_BUILD_ID && namesz == 4 &&
		    !memcmp(p + off, "GNU", 4)) {
			size_t n = desc_al < PD_BUILD_ID_SIZE ? desc_al :
							      PD_BUILD_ID_SIZE;

			memset(out, 0, PD_BUILD_ID_SIZE);
			memcpy(out, p + off + name_al, n);
			return n;
		}
		off += name_al + desc_al;
	}
	return 0;
}

static size_t
file_notes_build_id(const char *path, uint8_t out[PD_BUILD_ID_SIZE])
{
	char *buf;
	size_t len, n;

	if (rec_sys_read_file(path, &buf, &len))
		return 0;
	n = rec_notes_build_id((const unsigned char *)buf, len, out);
	free(buf);
	return n;
}

size_t
rec_kernel_build_id(uint8_t out[PD_BUILD_ID_SIZE])
{
	return file_notes_build_id("/sys/kernel/notes", out);
}

size_t
rec_module_build_id(const char *module, uint8_t out[PD_BUILD_ID_SIZE])
{
	char path[512];

	if (strchr(module, '/') ||
	    (size_t)snprintf(path, sizeof(path),
			     "/sys/module/%s/notes/.note.gnu.build-id",
			     module) >= sizeof(path))
		return 0;
	return file_notes_build_id(path, out);
}

/* Where the vDSO lies in this process, from /proc/self/maps. */
static int
vdso_bounds(uintptr_t *start, uintptr_t *end)
{
	char *text, *line;
	int err = -ENOENT;

	if (rec_sys_read_file("/proc/self/maps", &text, NULL))
		return -ENOENT;
	for (line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		unsigned long long s, e;
		size_t n = strlen(line);

		if (n >= 7 && !strcmp(line + n - 7, " [vdso]") &&
		    sscanf(line, "%llx-%llx", &s, &e) == 2 && s < e) {
			*start = (uintptr_t)s;
			*end = (uintptr_t)e;
			err = 0;
			break;
		}
	}
	free(text);
	return err;
}

/* The build-id note in the PT_NOTE segments of a mapped ELF image. */
static size_t
image_build_id(const unsigned char *img, size_t size,
	       uint8_t out[PD_BUILD_ID_SIZE])
{
	rec_ehdr eh;
	size_t i;

	if (size < sizeof(eh))
		return 0;
	memcpy(&eh, img, sizeof(eh));
	if (memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_phentsize != sizeof(rec_phdr) || eh.e_phoff >= size ||
	    (size - eh.e_phoff) / sizeof(rec_phdr) < eh.e_phnum)
		return 0;
	for (i = 0; i < eh.e_phnum; i++) {
		rec_phdr ph;
		size_t n;

		memcpy(&ph, img + eh.e_phoff + i * sizeof(ph), sizeof(ph));
		if (ph.p_type != PT_NOTE || ph.p_offset >= size ||
		    ph.p_filesz > size - ph.p_offset)
			continue;
		n = rec_notes_build_id(img + ph.p_offset, ph.p_filesz, out);
		if (n)
			return n;
	}
	return 0;
}

size_t
rec_vdso_build_id(uint8_t out[PD_BUILD_ID_SIZE])
{
	uintptr_t start, end;
	unsigned long base = getauxval(AT_SYSINFO_EHDR);

	if (!base || vdso_bounds(&start, &end) || base != start)
		return 0;
	return image_build_id((const unsigned char *)start, end - start, out);
}
