/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * symbol/symbol.h - find the right ELF file for a DSO and turn addresses
 * into symbol names, as perf 6.1 does (doc/perf-records.md §7).
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
#include <sys/types.h>

#define SYM_BUILD_ID_MAX 20

struct sym_opts {
	const char *symfs;		/* --symfs DIR, or NULL */
	/*
	 * --kallsyms FILE, or NULL: /proc/kallsyms, used only when the
	 * recorded kernel is the running one (os_release matches uname -r
	 * and, where recorded, the kernel build-id matches).
	 */
	const char *kallsyms;
	/*
	 * -k/--vmlinux FILE, or NULL: the kernel's symbols from that image
	 * (its build-id must be the recorded kernel's) unless kallsyms is
	 * given; modules keep theirs from kallsyms.
	 */
	const char *vmlinux;
	const char *os_release;		/* the file's OSRELEASE, or NULL */
	const char *buildid_dir;	/* NULL: $PERF_BUILDID_DIR, else ~/.debug */
	bool no_demangle;		/* --no-demangle */
	/* -v: C++ names with their parameters, as perf's verbose demangling */
	bool demangle_params;
	/* --demangle-kernel: a vmlinux image's symbols are demangled too */
	bool demangle_kernel;
	/* --full-source-path: source lines name the file's whole path */
	bool full_source_paths;
	/*
	 * A pdata symbol archive (doc/symbol-archive.md) to look in before
	 * anything else, or NULL.  Problems with it go to warn; a DSO it
	 * has no entry for is looked up as if there were no archive.
	 */
	const char *archive;
	/*
	 * The fingerprint of the recording being read, or NULL.  Written
	 * into archives made from this context; an archive made from a
	 * recording with another fingerprint is not used (one warning),
	 * so a FILE.pdsym left from an earlier FILE is never applied.
	 */
	const char *recording_id;
	/*
	 * The archive is FILE.pdsym found beside the recording, not named
	 * by the user: used only when it names recording_id and is owned
	 * by us or root and writable by no one else (doc/security.md).
	 */
	bool archive_beside;
	/* -f: read /tmp/perf-PID.map files whoever owns them */
	bool force;
	/*
	 * Read kallsyms only when a kernel symbol is first asked for, not
	 * ahead in a thread: for a pass that asks for none (precord's
	 * build-id pass).
	 */
	bool no_prefetch;
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

/*
 * A kernel section where it runs: [start, end), at file offset pgoff of
 * the vmlinux image, and the DSO holding its symbols (-k).
 */
struct sym_kernel_section {
	uint64_t start, end, pgoff;
	struct sym_dso *dso;
};

struct sym_symbol {
	uint64_t start;		/* in the DSO's lookup address space */
	uint64_t end;		/* exclusive */
	const char *name;	/* as perf prints it (demangled unless no_demangle) */
	bool is_object;		/* STT_OBJECT: perf prints "name+0xoff" */
	/*
	 * A function inlined at an address of another symbol (made by
	 * sym_dso_inlines()): start and end are that symbol's, and perf
	 * prints the name followed by " (inlined)".
	 */
	bool inlined;
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

/*
 * Loading ahead: a thread of ctx's own loads each DSO sym_dso_warm()
 * names (files only), its symbols and, with dwarf, its DWARF for source
 * lines and inline frames, in the order named, while the caller goes
 * on.  A DSO the caller asks for is then ready or being loaded (it
 * waits); what a load warns is said when the DSO is first asked for.
 * Nothing when ctx reads an archive or notes lookups; sym_ctx_free()
 * stops it.  Start it before other threads name DSOs.
 */
void sym_ctx_warm_start(struct sym_ctx *ctx, bool dwarf);
/* Load dso ahead, once, if ctx loads ahead (any thread). */
void sym_dso_warm(struct sym_dso *dso);
/* Whether ctx loads ahead. */
bool sym_ctx_warming(const struct sym_ctx *ctx);
/*
 * sym_dso_warm() of the DSO sym_dso_get() would give for name and
 * build-id, from any thread, before the caller asks for it (the DSO's
 * place among the others, sym_dso_seq(), is taken when the caller first
 * gets it); nothing when no thread loads ahead.
 */
void sym_dso_hint(struct sym_ctx *ctx, const char *name,
		  const uint8_t *build_id, size_t build_id_size);

enum sym_dso_kind sym_dso_kind(const struct sym_dso *dso);
const char *sym_dso_long_name(const struct sym_dso *dso);
/*
 * The order DSOs were first asked for with sym_dso_get() (1 for the
 * first; 0 for NULL, or one only sym_dso_hint() named), whichever thread
 * asked: perf's DSOs lie in its heap in about the order it made them,
 * and it compares them by address.
 */
uint64_t sym_dso_seq(const struct sym_dso *dso);
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
 * kernel module, '!' not found...), after loading.  Ours only: 'i', a
 * file fetched through debuginfod (perf 6.1 does not look there for
 * symbols).  A DSO read from an archive has the letter it had where the
 * archive was made.
 */
char sym_dso_origin(const struct sym_dso *dso);

/*
 * The kernel map's reference symbol, as its MMAP record names it
 * ("[kernel.kallsyms]_text": "_text") with its address there (the
 * record's pgoff): where a vmlinux image's symbols run.
 */
void sym_dso_set_ref_reloc(struct sym_dso *dso, const char *name,
			   uint64_t addr);
/*
 * A kernel whose symbols came from a vmlinux image (-k; origin 'v'),
 * after loading: where its .text runs (*text), and the image's other
 * sections with symbols, each with its own DSO ("[kernel.kallsyms]" and
 * the section's name); returns their count.  perf maps the kernel by
 * these instead of its MMAP record.  false from has: not such a kernel.
 */
bool sym_dso_vmlinux_text(struct sym_dso *dso, struct sym_kernel_section *text);
size_t sym_dso_vmlinux_sections(struct sym_dso *dso,
				const struct sym_kernel_section **secs);
/*
 * The vmlinux image a kernel's symbols came from, as -k named it; NULL
 * for any other DSO.  perf relocates such a kernel's symbols (its -v
 * addresses are mapped back).
 */
const char *sym_dso_vmlinux_path(const struct sym_dso *dso);
/*
 * The long name perf shows with -v: the -k image's name for a kernel
 * read from it, "[kernel.kallsyms]" for one of its sections' DSOs, else
 * sym_dso_long_name().
 */
const char *sym_dso_shown_long_name(const struct sym_dso *dso);

/*
 * Source line for al_addr ("file.c:42") through libdw, as perf's srcline
 * sort key prints it; NULL when unknown.  The string lives as long as ctx.
 */
const char *sym_dso_srcline(struct sym_dso *dso, uint64_t al_addr);

/*
 * Whether binutils' addr2line, which perf 6.1 runs for source lines,
 * names the function at an address of sym in dso (from the ELF symbols
 * when the DWARF has no line for it): a symbol of the file's own, not
 * one of perf's made-up "name@plt".  It then answers "??:0" where
 * sym_dso_srcline() has no line, and perf takes that as the srcline.
 */
bool sym_addr2line_names(const struct sym_dso *dso,
			 const struct sym_symbol *sym);
/*
 * sym_addr2line_names() at al_addr: also, where the DSO's file is read
 * here, binutils finds a function symbol of al_addr's own section at or
 * below it (an address past its symbol's section, in a PLT header say,
 * gets perf's "+offset" instead).
 */
bool sym_addr2line_names_at(struct sym_dso *dso, const struct sym_symbol *sym,
			    uint64_t al_addr);

/*
 * The frames perf 6.1 shows for al_addr, an address of sym's code, when
 * it adds inline frames (perf report and perf script's --inline): the
 * functions binutils' addr2line -i -f lists for it, innermost first, from
 * the DWARF of the DSO's file (doc/perf-records.md §7.11).  Each frame's
 * symbol is sym itself when the names agree, else one made for the name
 * (inlined set); its srcline is the line at al_addr for the first frame,
 * the call site in the next function for the others.  Returns the frame
 * count and *frames, which live as long as ctx; 0 when al_addr keeps
 * its one frame (no DWARF for it, or no inlining and the same name).
 * A DSO read from an archive has the frames the archive holds for
 * al_addr (those noted when it was made), and none for other addresses.
 */
struct sym_inline_frame {
	const struct sym_symbol *sym;
	const char *srcline;
};

size_t sym_dso_inlines(struct sym_dso *dso, uint64_t al_addr,
		       const struct sym_symbol *sym,
		       const struct sym_inline_frame **frames);

/*
 * Offline analysis (issue 5).  After sym_ctx_note_lookups(), every
 * address given to sym_dso_find() and sym_dso_srcline() is remembered
 * per DSO, so that an archive can hold exactly the answers a report of
 * the recording needs.
 */
void sym_ctx_note_lookups(struct sym_ctx *ctx);

/*
 * The DSOs looked up since sym_ctx_note_lookups(), in first-lookup order:
 * returns their number; *out is an array owned by ctx (do not free it),
 * valid until the next lookup or sym_ctx_free().
 */
size_t sym_ctx_noted_dsos(struct sym_ctx *ctx, struct sym_dso ***out);

/*
 * The build-id known for dso (recorded, else read from the file that
 * matched while loading, so after sym_dso_load()): size, 0 if none.
 */
size_t sym_dso_build_id(const struct sym_dso *dso, uint8_t out[SYM_BUILD_ID_MAX]);

/*
 * The file on this machine whose content perf's build-id cache keeps for
 * dso: the ELF image whose build-id matched, the kallsyms file read for
 * the kernel (not for modules), the vDSO image; NULL when none was found
 * or the DSO came from an archive.  Loads the DSO when needed.
 */
const char *sym_dso_image_path(struct sym_dso *dso);

/*
 * Read up to len bytes at offset of the file perf 6.1 reads a DSO's code
 * from (its data file): the build-id cache's copy, else the file at the
 * recorded path (under --symfs); never a file whose build-id differs
 * from the DSO's.  Only ELF DSOs and the vDSO (its cached copy) have
 * one; the kernel, modules, JIT maps and anonymous maps have none.
 * Returns the bytes read (fewer at the end of the file, 0 past it) or
 * -errno.  The file stays open until the context is freed.
 */
ssize_t sym_dso_read(struct sym_dso *dso, uint64_t offset, void *buf,
		     size_t len);

/*
 * A new descriptor (close-on-exec, the caller's to close) of the file
 * sym_dso_read() reads, for a reader that wants the whole ELF (an
 * unwinder's CFI); -errno when there is none.
 */
int sym_dso_data_dup(struct sym_dso *dso);

/*
 * While lookups are noted: an unwinder read the DSO's CFI for vaddr (an
 * ELF virtual address of its file), so an archive carries that CFI.
 */
void sym_dso_note_cfi(struct sym_dso *dso, uint64_t vaddr);
/* Whether lookups are being noted (sym_ctx_note_lookups()). */
bool sym_dso_noting(const struct sym_dso *dso);
bool sym_ctx_noting(const struct sym_ctx *ctx);

/*
 * A new descriptor of an ELF file an unwinder reads the DSO's CFI from:
 * sym_dso_data_dup()'s file, else, for a DSO whose archive entry holds
 * CFI, an in-memory image made from it (a memfd); -errno when neither.
 */
int sym_dso_unwind_dup(struct sym_dso *dso);

/*
 * The separate debug file holding the DSO's .debug_frame (a
 * .gnu_debuglink target, the build-id cache's debug file,
 * /usr/lib/debug...): the first such file, other than the runtime image,
 * in the order and with the build-id check of the symbols' search; NULL
 * when there is none or the DSO's symbols come from an archive.  Loads
 * the DSO when needed; looked for once.  For an unwinder's CFI.
 */
const char *sym_dso_debug_path(struct sym_dso *dso);

/*
 * Whether the DSO's symbol file is a 64-bit ELF (perf's dso->is_64_bit);
 * true when none was found.  Loads the DSO when needed.
 */
bool sym_dso_is_64_bit(struct sym_dso *dso);

struct sym_archive_stats {
	size_t nr_dsos;		/* entries written */
	size_t nr_symbols;
	size_t nr_lines;
	size_t nr_missing;	/* noted DSOs left out: nothing to store */
	uint64_t bytes;		/* the file's size */
};

/*
 * Write the noted answers as a pdata symbol archive at path: an entry
 * per noted DSO with symbols or source lines (DSOs with the same key
 * share one), with the symbols the noted sym_dso_find() addresses found,
 * covers that give each of those addresses its answer (none included),
 * and the noted source lines.  Returns 0, or -errno with err set.
 */
int sym_ctx_write_archive(struct sym_ctx *ctx, const char *path,
			  struct sym_archive_stats *st, char *err, size_t errsz);

/*
 * Write a perf archive tarball (perf-archive.sh's PERF_DATA.tar.bz2) of
 * the noted DSOs that have a build-id, adding each to the build-id cache
 * at cache_dir first when it is not there.
 */
int sym_ctx_write_perf_archive(struct sym_ctx *ctx, const char *path,
			       const char *cache_dir,
			       struct sym_archive_stats *st, char *err,
			       size_t errsz);

/* Read the GNU build-id note of an ELF file.  Returns its size, 0 if none, -errno. */
int sym_elf_build_id(const char *path, uint8_t out[SYM_BUILD_ID_MAX]);

/* Lower-case hex of a build-id into buf (2*size+1 bytes). */
void sym_build_id_hex(const uint8_t *id, size_t size, char *buf);

#endif /* PDATA_SYMBOL_H */
