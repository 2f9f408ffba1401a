/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * tests/fuzz/fuzz-elf.c - libFuzzer target for ELF symbol loading and
 * srcline (symbol/: elfsyms.c, elfutil.c, symtab.c, demangle*.c,
 * dso-data.c, srcline.c through libdw) on mutated ELF files.
 *
 * An input goes into an in-memory file (memfd_create()) that a fresh
 * symbol context loads as the DSO /proc/self/fd/N: build-id, .symtab and
 * .dynsym (with their demangling), the symbol table, then a lookup and a
 * source line for the start, the middle and the end of at most
 * MAX_LOOKUPS symbols, the image's bytes there and the .debug_frame
 * search.  The build-id cache is /dev/null, so no cache file is ever
 * read or written, and debuginfod is off ($DEBUGINFOD_URLS unset).
 */
#include "config.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbol/sym-dso.h"
#include "symbol/symbol.h"
#include "tests/fuzz/fuzz.h"

#define MAX_LOOKUPS 64

static void
touch_cstr(const char *s)
{
	if (s)
		touch(s, strlen(s));
}

static void
look_up(struct sym_dso *dso, uint64_t addr)
{
	const struct sym_symbol *s = sym_dso_find(dso, addr);
	unsigned char buf[16];
	ssize_t n;

	if (s)
		touch_cstr(s->name);
	touch_cstr(sym_dso_srcline(dso, addr));
	n = sym_dso_read(dso, addr, buf, sizeof(buf));
	if (n > 0)
		touch(buf, (size_t)n);
}

static void
ignore_warning(void *ctx, const char *msg)
{
	(void)ctx;
	sink += strlen(msg);
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	unsetenv("DEBUGINFOD_URLS");
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sym_opts so = {
		.buildid_dir = "/dev/null",
		.kallsyms = "/dev/null",
		.no_prefetch = true,
		.warn = ignore_warning,
	};
	int fd = fuzz_memfd("fuzz-elf", data, size);
	uint8_t bid[SYM_BUILD_ID_MAX];
	struct sym_ctx *ctx;
	struct sym_dso *dso;
	char path[64];
	size_t i, step;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	so.no_demangle = size & 1;
	ctx = sym_ctx_new(&so);
	if (!ctx)
		abort();
	sink += (uint64_t)sym_elf_build_id(path, bid);
	dso = sym_dso_get(ctx, path, NULL, 0);
	if (dso && sym_dso_load(dso) == 0 && dso->table) {
		const struct sym_table *t = dso->table;

		step = t->nr / MAX_LOOKUPS + 1;
		for (i = 0; i < t->nr; i += step) {
			const struct sym_symbol *s = &t->syms[i];

			look_up(dso, s->start);
			look_up(dso, s->start + (s->end - s->start) / 2);
			look_up(dso, s->end - 1);
		}
	}
	if (dso) {
		look_up(dso, 0);
		sink += sym_dso_build_id(dso, bid);
		sink += sym_dso_is_64_bit(dso);
		touch_cstr(sym_dso_debug_path(dso));
	}
	sym_ctx_free(ctx);
	close(fd);
	return 0;
}
