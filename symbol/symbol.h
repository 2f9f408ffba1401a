/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * symbol/symbol.h - find the right ELF file for a DSO and turn addresses
 * into symbol names, as perf 6.1 does (perf-record-decoding.md §7).
 *
 * A sym_ctx caches every DSO it has loaded, keyed by recorded name and
 * build-id; symbol tables are loaded on first lookup and shared by every
 * DSO with the same build-id.  Lookups are safe from several threads
 * once sym_dso_load() has returned for that DSO.
 */
#ifndef PDATA_SYMBOL_H
#define PDATA_SYMBOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SYM_BUILD_ID_MAX 20

struct sym_opts {
	const char *symfs;		/* --symfs DIR, or NULL */
	/*
	 * --kallsyms FILE, or NULL: /proc/kallsyms, used only when the
	 * recorded kernel is the running one (os_release matches uname -r
	 * and, where recorded, the kernel build-id matches).
	 */
	const char *kallsyms;
	const char *os_release;		/* the file's OSRELEASE, or NULL */
	const char *buildid_dir;	/* NULL: $PERF_BUILDID_DIR, else ~/.debug */
	bool no_demangle;		/* --no-demangle */
	/* called once per DSO problem (build-id mismatch, unreadable file) */
	void (*warn)(void *ctx, const char *msg);
	void *warn_ctx;
};

enum sym_dso_kind {
	SYM_DSO_FILE,		/* an ELF file mapped by MMAP/MMAP2 */
	SYM_DSO_KERNEL,		/* [kernel.kallsyms] */
	SYM_DSO_MODULE,		/* [modname], kernel module */
	SYM_DSO_VDSO,		/* [vdso] */
	SYM_DSO_JIT,		/* /tmp/perf-PID.map */
	SYM_DSO_OTHER,		/* [heap], [stack], //anon and friends: no symbols */
};

struct sym_symbol {
	uint64_t start;		/* in the DSO's lookup address space */
	uint64_t end;		/* exclusive */
	const char *name;	/* as perf prints it (demangled unless no_demangle) */
	bool is_object;		/* STT_OBJECT: perf prints "name+0xoff" */
};

struct sym_ctx;
struct sym_dso;

struct sym_ctx *sym_ctx_new(const struct sym_opts *opts);
void sym_ctx_free(struct sym_ctx *ctx);

/*
 * The DSO for a name as recorded in MMAP/MMAP2/KSYMBOL ("/usr/lib/x.so",
 * "[kernel.kallsyms]", "[vdso]", "/tmp/perf-42.map", "//anon"...), with
 * the build-id the file recorded for it (HEADER_BUILD_ID or MMAP2), or
 * NULL.  The same (name, build-id) gives the same pointer; the DSO lives
 * as long as ctx.  Nothing is read from disk yet.
 */
struct sym_dso *sym_dso_get(struct sym_ctx *ctx, const char *name,
			    const uint8_t *build_id, size_t build_id_size);

enum sym_dso_kind sym_dso_kind(const struct sym_dso *dso);
const char *sym_dso_long_name(const struct sym_dso *dso);
/* what perf prints in the Shared Object column: basename, "[kernel.kallsyms]"... */
const char *sym_dso_short_name(const struct sym_dso *dso);

/*
 * Whether map addresses of this DSO are absolute (al_addr = ip: kernel,
 * modules, JIT maps) rather than map-relative (ip - start + pgoff).
 * Known without loading.
 */
bool sym_dso_identity_map(const struct sym_dso *dso);

/*
 * Load the symbol table (idempotent).  Returns 0 even when nothing could
 * be found (the DSO then has no symbols, as perf's "[unknown]" cases);
 * the reason went to opts->warn once.
 */
int sym_dso_load(struct sym_dso *dso);

/*
 * The symbol covering al_addr, perf's al->addr: for a file DSO the
 * map-relative address (ip - map.start + map.pgoff), which this layer
 * converts through the ELF's PT_LOAD/section headers as perf 6.1 does;
 * for identity DSOs the ip.  NULL if none.  Loads on first use.
 */
const struct sym_symbol *sym_dso_find(struct sym_dso *dso, uint64_t al_addr);

/*
 * The symtab origin letter perf prints with -v ('k' kallsyms, 'l'
 * debuglink, 'B' build-id cache, 'd' system path, 'j' JIT map, '['
 * kernel module, '!' not found...), after loading.
 */
char sym_dso_origin(const struct sym_dso *dso);

/*
 * Source line for al_addr ("file.c:42") through libdw, as perf's srcline
 * sort key prints it; NULL when unknown.  The string lives as long as ctx.
 */
const char *sym_dso_srcline(struct sym_dso *dso, uint64_t al_addr);

/* Read the GNU build-id note of an ELF file.  Returns its size, 0 if none, -errno. */
int sym_elf_build_id(const char *path, uint8_t out[SYM_BUILD_ID_MAX]);

/* Lower-case hex of a build-id into buf (2*size+1 bytes). */
void sym_build_id_hex(const uint8_t *id, size_t size, char *buf);

#endif /* PDATA_SYMBOL_H */
