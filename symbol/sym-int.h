/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * symbol/sym-int.h - declarations shared inside symbol/ only.
 */
#ifndef PDATA_SYM_INT_H
#define PDATA_SYM_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <gelf.h>

#include "symbol/symbol.h"

/* elf_version() once per process, thread-safe. */
void sym_elf_init(void);
/* The section named name (and its header into shdr_out if not NULL), or NULL. */
Elf_Scn *sym_elf_section_by_name(Elf *elf, size_t shstrndx, const char *name,
				 GElf_Shdr *shdr_out);
/* The build-id of an open ELF: its size, 0 if none. */
int sym_elf_build_id_of(Elf *elf, uint8_t out[SYM_BUILD_ID_MAX]);

/*
 * A symbol table under construction.  Like perf, it is a red-black tree
 * keyed by start (an equal start goes right), built by the same inserts
 * and erases in the same order, so that where symbols overlap a lookup
 * walks the same path and finds the same symbol perf finds.
 */
struct sym_ent {
	uint64_t start;
	uint64_t end;
	uint32_t name;		/* offset in the builder's name pool */
	int32_t left, right, parent;	/* node indices, -1: none */
	bool red;
	bool dead;		/* erased */
	uint8_t binding;	/* STB_* */
	uint8_t type;		/* STT_* */
};

struct sym_builder {
	struct sym_ent *ents;	/* in insertion order */
	size_t nr, cap;
	int32_t root;
	size_t live;
	char *pool;
	size_t pool_len, pool_cap;
	bool failed;		/* out of memory or limits: the table is unusable */
};

/* Addresses lo <= a < hi find syms[sym] (an archive's covers). */
struct sym_cover {
	uint64_t lo;
	uint64_t hi;
	uint32_t sym;
};

/*
 * A finished table: sorted by start, with the tree kept for lookups; or,
 * for a table read from an archive, sorted disjoint covers searched
 * instead of the tree.
 */
struct sym_table {
	struct sym_symbol *syms;
	int32_t *left, *right;	/* children, as indices into syms */
	int32_t root;
	size_t nr;
	char *pool;
	struct sym_cover *covers;	/* NULL: look up through the tree */
	size_t nr_covers;
};

void sym_builder_init(struct sym_builder *b);
void sym_builder_free(struct sym_builder *b);
/* Insert a symbol of size len (0: end = start until fixed up). */
void sym_builder_add(struct sym_builder *b, uint64_t start, uint64_t len,
		     uint8_t binding, uint8_t type, const char *name);
/* The first node in order, and the next one; -1 at the end. */
int32_t sym_builder_first(const struct sym_builder *b);
int32_t sym_builder_next(const struct sym_builder *b, int32_t i);
/* perf's symbols__fixup_end (is_kallsyms: the module-boundary rule). */
void sym_builder_fixup_end(struct sym_builder *b, bool is_kallsyms);
/* perf's symbols__fixup_duplicate: one symbol per start address. */
void sym_builder_dedup(struct sym_builder *b);
/* The finished table (NULL on failure); the builder is emptied. */
struct sym_table *sym_builder_finish(struct sym_builder *b);

/* perf's choose_best_symbol between two aliases: true keeps the first. */
bool sym_prefer_first(const char *xn, bool xzero, uint8_t xbind,
		      const char *yn, bool yzero, uint8_t ybind);
/*
 * A table over symbols already sorted by start and not overlapping (the
 * tree's shape then does not matter): takes syms and pool (may be NULL).
 */
struct sym_table *sym_table_from_sorted(struct sym_symbol *syms, size_t nr,
					char *pool);
/*
 * A table whose lookups go through covers (sorted, disjoint, each sym <
 * nr: the caller checked), taking syms and covers; names are not owned.
 */
struct sym_table *sym_table_from_covers(struct sym_symbol *syms, size_t nr,
					struct sym_cover *covers,
					size_t nr_covers);
void sym_table_free(struct sym_table *t);
const struct sym_symbol *sym_table_find(const struct sym_table *t,
					uint64_t addr);

/* Demangled name as perf 6.1 prints it, malloc'd, or NULL to keep name. */
/*
 * How perf demangles: not at all (--no-demangle), names only (its
 * default), or with parameters and qualifiers (-v: DMGL_PARAMS).
 */
enum sym_demangle_mode {
	SYM_DEMANGLE_NONE,
	SYM_DEMANGLE_NAMES,
	SYM_DEMANGLE_PARAMS,
};
char *sym_demangle(const char *name, enum sym_demangle_mode mode);
/* A Rust v0 name ("_R...") demangled, malloc'd, or NULL. */
char *sym_demangle_rust_v0(const char *name);
/* A legacy Rust name ("_ZN...17h<hash>E") demangled, malloc'd, or NULL. */
char *sym_demangle_rust_legacy(const char *name);

/* Symbols of an ELF file as perf's dso__load_sym; see elfsyms.c. */
struct sym_elf_src {
	Elf *elf;
	int fd;
	GElf_Ehdr ehdr;
	size_t shstrndx;
	Elf_Scn *symtab;
	Elf_Scn *dynsym;
	size_t dynsym_idx;
	char origin;
};

/*
 * Open path as a symbol source; build_id/size: the required build-id
 * (size 0: none).  Returns 0, -ENOENT-like errors, or -EBADE on a
 * build-id mismatch.
 */
int sym_elf_src_open(struct sym_elf_src *ss, const char *path,
		     const uint8_t *build_id, size_t build_id_size);
void sym_elf_src_close(struct sym_elf_src *ss);
/*
 * Where a symbol perf keeps goes: the builder for its section (sh, named
 * secname), its value made a lookup address in *value; NULL: dropped.
 */
typedef struct sym_builder *sym_elf_route_fn(void *ctx, struct sym_elf_src *rt,
					     const GElf_Shdr *sh,
					     const char *secname,
					     uint64_t *value);
/*
 * One pass of perf's dso__load_sym over symscn (.symtab or .dynsym):
 * the symbols it keeps, each where route says.  Returns how many, or -1
 * where perf gives up on the pass.
 */
int sym_elf_load_pass(struct sym_elf_src *ss, struct sym_elf_src *rt,
		      Elf_Scn *symscn, enum sym_demangle_mode demangle,
		      sym_elf_route_fn *route,
		      void *route_ctx);
/* Load syms_ss (symbols) with runtime_ss (program headers, PLT). */
int sym_elf_load(struct sym_builder *b, struct sym_elf_src *syms_ss,
		 struct sym_elf_src *runtime_ss,
		 enum sym_demangle_mode demangle);

/* The debuglink file name of an ELF, malloc'd, or NULL. */
char *sym_elf_debuglink(const char *path);

struct sym_ks_prefetch;

/* kallsyms: the kernel's table and one per module. */
struct sym_kallsyms {
	struct sym_table *kernel;
	size_t nr_mods;
	char **mod_names;	/* "[name]" */
	struct sym_table **mods;
	struct sym_ks_prefetch *prefetch;	/* a load started early */
};

/*
 * Load path into out; when sym_kallsyms_prefetch() started loading the
 * same path into out, wait for that and take its result.
 */
int sym_kallsyms_load(const char *path, struct sym_kallsyms *out);
/*
 * Start loading path in a thread, for a later sym_kallsyms_load() of
 * the same path; nothing happens when a thread cannot be started.
 */
void sym_kallsyms_prefetch(struct sym_kallsyms *k, const char *path);
/* Frees the tables and waits for and drops a prefetch never taken. */
void sym_kallsyms_free(struct sym_kallsyms *k);
struct sym_ctx;
/* Prefetch the kallsyms file the context will most likely read. */
void sym_ctx_prefetch_kallsyms(struct sym_ctx *ctx);

/*
 * /tmp/perf-PID.map: -EPERM when owned by another user (not root)
 * unless force, SFILE_E_NOTREG when not a regular file.
 */
int sym_jitmap_load(const char *path, bool force, struct sym_table **out);

/* A file holding this process's own vDSO (symbol/vdso-self.c), or NULL. */
const char *sym_self_vdso_path(void);
/*
 * Whether a vDSO DSO without a cached image is this host's own: "[vdso]"
 * (not a 32-bit or x32 process's [vdso32], [vdsox32]) when there is one.
 */
bool sym_dso_is_host_vdso(const struct sym_dso *dso);

#endif /* PDATA_SYM_INT_H */
