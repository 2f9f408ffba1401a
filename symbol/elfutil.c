/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * symbol/elfutil.c - small libelf helpers shared by the symbol code.
 */
#include "config.h"

#include <pthread.h>
#include <string.h>

#include <gelf.h>

#include "symbol/sym-int.h"

static void
elf_init_once(void)
{
	elf_version(EV_CURRENT);
}

void
sym_elf_init(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, elf_init_once);
}

Elf_Scn *
sym_elf_section_by_name(Elf *elf, size_t shstrndx, const char *name,
			GElf_Shdr *shdr_out)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr shdr;

	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		const char *n;

		if (!gelf_getshdr(scn, &shdr))
			continue;
		n = elf_strptr(elf, shstrndx, shdr.sh_name);
		if (n && strcmp(n, name) == 0) {
			if (shdr_out)
				*shdr_out = shdr;
			return scn;
		}
	}
	return NULL;
}
