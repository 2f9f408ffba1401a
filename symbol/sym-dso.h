/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * symbol/sym-dso.h - the context and DSO structures, inside symbol/ only.
 */
#ifndef PDATA_SYM_DSO_H
#define PDATA_SYM_DSO_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include <elfutils/libdwfl.h>

#include "lib/u64map.h"
#include "symbol/sym-int.h"

struct sym_srcline_cache;
struct sym_inline_cache;
struct sym_ar;
struct sym_ar_dso;
struct sym_notes;
struct sym_warm;

/* A warning a quiet load kept for when its DSO is first asked for. */
struct sym_warm_note {
	struct sym_warm_note *next;
	char *text;
};

struct sym_ctx {
	struct sym_opts opts;		/* strings point at the copies below */
	char *symfs, *kallsyms_path, *vmlinux_path, *os_release, *buildid_dir;
	char *recording_id;
	pthread_mutex_t lock;		/* dsos, tables, kallsyms */
	uint64_t nr_dsos_made;		/* the last sym_dso.seq given */
	struct u64map dsos;		/* key hash -> chain of sym_dso */
	struct u64map tables;		/* build-id hash -> sym_table */
	struct sym_dso *kernel;		/* the first [kernel.kallsyms] seen */
	bool kallsyms_loaded;
	bool kallsyms_ok;
	struct sym_kallsyms kallsyms;
	char kallsyms_origin;
	char *kallsyms_read;		/* the kallsyms file read */
	/* noting (archive-build.c): on once set, read without the lock */
	bool noting;
	pthread_mutex_t note_lock;	/* noted, every dso->notes */
	struct sym_dso **noted;		/* in first-lookup order */
	size_t nr_noted, cap_noted;
	/* reading an archive (archive-use.c) */
	struct sym_ar *ar;
	struct u64map ar_tables;	/* entry address -> sym_table */
	struct sym_warm *warm;		/* DSOs loaded ahead (warm.c) */
};

/*
 * A source line's text, "FILE:LINE" (perf's srcline_from_fileline()):
 * the base name of file (a line table's name, relative to comp_dir when
 * not absolute), or with --full-source-path the path binutils' addr2line
 * gives, comp_dir joined to a relative name.  NULL when out of memory.
 */
char *sym_srcline_text(const struct sym_ctx *ctx, const char *file,
		       const char *comp_dir, unsigned long line);
/* A unit's DW_AT_comp_dir, or NULL. */
const char *sym_cu_comp_dir(Dwarf_Die *cu);

struct sym_dso {
	struct sym_ctx *ctx;
	struct sym_dso *hash_next;
	uint64_t seq;			/* 1 for the first made, 2, ... */
	enum sym_dso_kind kind;
	char *long_name;
	char *short_name;
	uint8_t bid[SYM_BUILD_ID_MAX];
	size_t bid_size;
	pthread_mutex_t lock;		/* loading, srcline */
	bool loaded;			/* read with acquire */
	bool own_table;			/* table is not shared: free it */
	struct sym_table *table;
	char origin;
	char *symsrc_path;		/* the file symbols came from */
	bool is_64_bit;			/* the symbol file's ELF class */
	int data_fd;			/* sym_dso_read()'s file, -1: none */
	bool data_tried;		/* data_fd was looked for */
	struct sym_srcline_cache *srcline;
	struct sym_inline_cache *inlines;	/* under lock */
	uint64_t text_offset;		/* .text sh_addr - sh_offset */
	/* the build-id of the file that matched, when none was recorded */
	uint8_t file_bid[SYM_BUILD_ID_MAX];
	size_t file_bid_size;
	char *image_path;		/* sym_dso_image_path() */
	bool bid_mismatch;		/* a file had another build-id */
	struct sym_notes *notes;	/* under ctx->note_lock */
	const struct sym_ar_dso *ar_ent;	/* its archive entry */
	char *debug_frame_path;		/* sym_dso_debug_path() */
	int cfi_fd;			/* the archive's CFI image, -1: none */
	bool cfi_tried;			/* cfi_fd was made or failed */
	bool debug_frame_tried;		/* debug_frame_path was looked for */
	/* the kernel: its map's reference symbol (sym_dso_set_ref_reloc) */
	char *ref_name;
	uint64_t ref_addr;
	/* the kernel from a vmlinux (vmlinux.c): .text, the other sections */
	bool has_ktext;
	struct sym_kernel_section ktext;
	struct sym_kernel_section *ksections;
	size_t nr_ksections;
	struct sym_dso *section_of;	/* a vmlinux section's: the kernel */
	/* what a quiet load warned, not said yet (dso.c); atomic */
	struct sym_warm_note *warm_notes;
	bool warm_queued;		/* named to load ahead; atomic */
};

/* vmlinux.c: dso's symbols from the vmlinux image at path; 0 or -errno */
int sym_vmlinux_load(struct sym_dso *dso, const char *path);
/*
 * dso.c: make dso (a "[kernel.kallsyms]<section>" DSO) hold table, the
 * symbols of a section of kernel's vmlinux.
 */
void sym_dso_set_section_table(struct sym_dso *dso, struct sym_dso *kernel,
			       struct sym_table *table);

static inline enum sym_demangle_mode
sym_ctx_demangle_mode(const struct sym_ctx *ctx)
{
	if (ctx->opts.no_demangle)
		return SYM_DEMANGLE_NONE;
	return ctx->opts.demangle_params ? SYM_DEMANGLE_PARAMS :
					   SYM_DEMANGLE_NAMES;
}

void sym_warn(struct sym_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
struct sym_table *sym_ctx_share_table(struct sym_ctx *ctx, const uint8_t *bid,
				      size_t size, struct sym_table *t,
				      bool *shared);
struct sym_table *sym_ctx_cached_table(struct sym_ctx *ctx, const uint8_t *bid,
				       size_t size);
/* load.c: perf's path__join of the symfs and path (malloc'd, or NULL) */
char *sym_join_symfs(const struct sym_ctx *ctx, const char *path);
/*
 * The build-id cache's entry for bid: BUILDID_DIR/.build-id/xx/rest, or
 * that + "/" + base ("elf", "debug", "vdso") when it is a directory;
 * malloc'd, NULL without a build-id.
 */
char *sym_buildid_cache_path(const struct sym_ctx *ctx, const uint8_t *bid,
			     size_t size, const char *base);
/* Fill dso->table and dso->origin; called once under dso->lock. */
void sym_dso_do_load(struct sym_dso *dso);
/* The first file of perf's search holding the DSO's .debug_frame. */
char *sym_dso_find_debug_frame(struct sym_dso *dso);
void sym_srcline_free(struct sym_dso *dso);
/* srcline.c: open the DSO's DWARF for lines and inline frames now */
void sym_srcline_warm(struct sym_dso *dso);
/* warm.c: stop loading ahead (waits for the load under way) */
void sym_warm_stop(struct sym_ctx *ctx);
/*
 * dso.c: load dso, keeping what it warns for its first sym_dso_load(),
 * which says it: for loading ahead (warm.c) and for what reads the
 * DSO's file, not its symbols (an unwinder, on any thread, may reach a
 * DSO whose frames are never resolved; perf loads no symbols to unwind).
 */
void sym_dso_load_quietly(struct sym_dso *dso);
/*
 * srcline.c: under dso->lock, the DSO's libdw module (opened on first
 * use, shared with the source lines) and the module address of al_addr
 * in *addr; NULL for a DSO without a file of its own here.
 */
Dwfl_Module *sym_dso_dwfl_locked(struct sym_dso *dso, uint64_t al_addr,
				 Dwarf_Addr *addr);
/*
 * srcline.c: sym_symtab_func() for the module address addr of the
 * module sym_dso_dwfl_locked() gave, under dso->lock.
 */
const char *sym_dso_symtab_func_locked(struct sym_dso *dso, Dwarf_Addr addr,
				       const char **file);
void sym_inline_free(struct sym_dso *dso);
/*
 * inline.c, on the loading thread: the tables of dso's compilation units
 * (cu-table.h), made on a libdw handle of its own while the resolving
 * thread uses its handle, each unit claimed first so that neither makes
 * a table the other makes.  Each table's line rows come off rows_left;
 * returns false when stopped before the last unit (rows_left spent, or
 * interrupted(arg) said so), to be called again; units made are not
 * made twice.
 */
struct sym_prepare {
	size_t rows_left;
	bool (*interrupted)(void *arg);
	void *arg;
};
bool sym_inline_prepare(struct sym_dso *dso, struct sym_prepare *p);
/*
 * The file and line of a row as binutils 2.40's addr2line names them:
 * in a DWARF 5 line table it starts each sequence at entry 0, the unit's
 * primary file, where the line program's initial file is 1; a row that
 * names file 1 only by that start is entry 0's (doc/perf-records.md
 * §7.11).  c (under dso->lock; may be NULL) keeps what it reads of each
 * line table.
 */
const char *sym_line_file(struct sym_srcline_cache *c, Dwfl_Line *line,
			  int *lineno);
/*
 * For each row of a DWARF 5 line table, whether a file-1 row names the
 * line program's initial file (sym_line_file() then takes entry 0):
 * nlines flags, malloc'd.
 */
bool *sym_lines_initial(Dwarf_Lines *lines, size_t nlines);
/*
 * srcline-symtab.c: the function binutils' addr2line names at vaddr of
 * elf from its ELF symbols, where no DWARF does (NULL: none), and in
 * *file the STT_FILE symbol it gives it (NULL: none); *cache holds the
 * table made on first use.
 */
struct sym_file_syms;
const char *sym_symtab_func(struct sym_file_syms **cache, Elf *elf,
			    uint64_t vaddr, const char **file);
void sym_file_syms_free(struct sym_file_syms *fs);
/* Remember the runtime image's .text sh_addr - sh_offset. */
void sym_dso_save_text_offset(struct sym_dso *dso, Elf *elf);

/* archive-build.c: remember a lookup (only while ctx->noting). */
void sym_note_find(struct sym_dso *dso, uint64_t al_addr);
void sym_note_srcline(struct sym_dso *dso, uint64_t al_addr);
void sym_note_inline(struct sym_dso *dso, uint64_t al_addr);
void sym_notes_free(struct sym_ctx *ctx);
/* sym_dso_srcline() without noting the address. */
const char *sym_dso_srcline_unnoted(struct sym_dso *dso, uint64_t al_addr);

/* archive-use.c */
/* Open opts.archive into ctx->ar; problems go to opts.warn. */
void sym_ctx_open_archive(struct sym_ctx *ctx, const char *path);
void sym_ctx_close_archive(struct sym_ctx *ctx);
/*
 * Whether the archive has an entry for dso: its table, origin and
 * srclines then come from that entry.
 */
bool sym_dso_load_archived(struct sym_dso *dso);
/* The archived source line for al_addr (NULL if none). */
const char *sym_dso_archived_srcline(const struct sym_dso *dso,
				     uint64_t al_addr);
/*
 * An address with no source line whose function binutils' addr2line
 * names (sym_addr2line_names_at()) is archived with this line, which
 * sym_dso_archived_srcline() does not give: sym_dso_archived_named()
 * answers for it.
 */
#define SYM_AR_NAMED_LINE	"\001"
bool sym_dso_archived_named(const struct sym_dso *dso, uint64_t al_addr);
/* The ctx has an archive entry of this kind (a kernel: skip the prefetch). */
bool sym_ctx_archive_has_kind(const struct sym_ctx *ctx,
			      enum sym_dso_kind kind);

/* debuginfod.c: when built with libdebuginfod and DEBUGINFOD_URLS is set. */
bool sym_debuginfod_enabled(void);
/*
 * Fetch the debuginfo (debug = true) or the executable of a build-id into
 * the debuginfod cache; returns the cached file's path (malloc'd) or NULL.
 */
char *sym_debuginfod_fetch(const uint8_t *bid, size_t size, bool debug);

#endif /* PDATA_SYM_DSO_H */
