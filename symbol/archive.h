/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * symbol/archive.h - the pdata symbol archive ("FILE.pdsym", format in
 * doc/symbol-archive.md): for each DSO a recording hit, exactly what a
 * report of that recording needs from it, keyed by build-id (by name
 * where a DSO has none: JIT maps, files without a build-id).
 *
 * An entry holds the symbols the report's lookups found, the address
 * ranges ("covers") that lead to each of them, and the source lines
 * asked for.  Covers are kept apart from the symbols because a symbol's
 * start and end are part of its identity in a report (perf compares
 * symbols by both), while the ranges that find it may be narrower
 * where symbols overlap.
 *
 * The container: a header, entries that each carry their own header
 * and an xxhash64 of their zstd-compressed payload, then an index and
 * a trailer.  A reader uses the index; when the trailer or index is
 * damaged (a truncated file) it walks the entries from the start.
 * A damaged entry is reported and skipped; the others stay usable.
 */
#ifndef PDATA_SYM_ARCHIVE_H
#define PDATA_SYM_ARCHIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "symbol/symbol.h"

enum sym_ar_kind {
	SYM_AR_FILE = 1,	/* an ELF DSO, key: build-id (else name) */
	SYM_AR_KERNEL = 2,	/* [kernel.kallsyms], key: build-id (else name) */
	SYM_AR_MODULE = 3,	/* [module] from kallsyms or its .ko */
	SYM_AR_VDSO = 4,	/* [vdso], key: build-id */
	SYM_AR_JIT = 5,		/* /tmp/perf-PID.map, key: name */
	/*
	 * No symbols: the name is the fingerprint of the recording the
	 * archive was made from (sym_opts.recording_id).
	 */
	SYM_AR_RECORDING = 6,
};

struct sym_ar_symbol {
	uint64_t start;		/* as sym_symbol: lookup address space */
	uint64_t end;		/* exclusive */
	const char *name;	/* as printed (already demangled or not) */
	bool is_object;
};

/* Addresses lo <= a < hi find syms[sym]; covers are sorted and disjoint. */
struct sym_ar_cover {
	uint64_t lo;
	uint64_t hi;
	uint32_t sym;
};

/* sym_dso_srcline(dso, addr) on the recording machine; sorted by addr. */
struct sym_ar_line {
	uint64_t addr;
	const char *line;	/* "file.c:42" */
};

/*
 * The call frame information an unwinder needs for the addresses that
 * were unwound through on the recording machine: the pieces (CIEs and
 * FDEs) of the DSO's .eh_frame at their offsets in the section, a
 * search table of the FDEs kept, and the runtime image's load segments
 * so that the module lies where the binary did (doc/symbol-archive.md,
 * "Call frame information").  ELF64 little-endian only.
 */
struct sym_ar_load {
	uint64_t vaddr, offset, filesz, memsz, align;
	uint32_t flags;
};

struct sym_ar_cfi_piece {
	uint64_t off;			/* in .eh_frame */
	size_t len;
	const unsigned char *bytes;
};

struct sym_ar_cfi_row {
	uint64_t pc;			/* the FDE's initial location */
	uint64_t fde_off;		/* the FDE's offset in .eh_frame */
};

struct sym_ar_cfi {
	uint16_t machine;		/* e_machine */
	uint16_t type;			/* e_type: ET_EXEC, ET_DYN */
	uint64_t eh_frame_addr;		/* .eh_frame's sh_addr */
	uint64_t hdr_addr;		/* .eh_frame_hdr's sh_addr */
	struct sym_ar_load *loads;
	size_t nr_loads;
	struct sym_ar_cfi_piece *pieces;	/* sorted, disjoint */
	size_t nr_pieces;
	struct sym_ar_cfi_row *rows;	/* sorted by pc */
	size_t nr_rows;
};

/*
 * The CFI of the ELF file open at fd (left open) for the lookup
 * addresses (ELF virtual addresses, as an unwinder looks them up) in
 * vaddrs: one malloc'd block in *out, NULL when the file has no usable
 * .eh_frame and .eh_frame_hdr or none of them has an FDE.  0, or -ENOMEM.
 */
int sym_ar_cfi_extract(int fd, const uint64_t *vaddrs, size_t n,
		       struct sym_ar_cfi **out);
/*
 * An ELF image holding cfi's .eh_frame pieces and a search table at
 * their original addresses, and its load segments, for an unwinder that
 * reads CFI from a file: malloc'd in *image.  0, or -ENOMEM.
 */
int sym_ar_cfi_image(const struct sym_ar_cfi *cfi, unsigned char **image,
		     size_t *len);

/*
 * The inline frames a report asked for at one address of the DSO
 * (sym_dso_inlines() on the recording machine): frames[first...] of the
 * table, innermost first; a NULL name is the symbol's own at addr.
 */
struct sym_ar_inline_frame {
	const char *name;
	const char *srcline;
};

struct sym_ar_inline {
	uint64_t addr;			/* sorted, strictly increasing */
	uint32_t first, nr;		/* nr >= 1 */
};

struct sym_ar_inlines {
	struct sym_ar_inline *addrs;
	size_t nr_addrs;
	struct sym_ar_inline_frame *frames;
	size_t nr_frames;
};

struct sym_ar_dso {
	enum sym_ar_kind kind;
	uint8_t build_id[SYM_BUILD_ID_MAX];
	size_t build_id_size;	/* 0: keyed by name */
	const char *name;	/* the recorded long name */
	char origin;		/* sym_dso_origin() where it was made */
	bool demangled;		/* names were demangled (sym_opts.no_demangle unset) */
	struct sym_ar_symbol *syms;
	size_t nr_syms;
	struct sym_ar_cover *covers;
	size_t nr_covers;
	struct sym_ar_line *lines;
	size_t nr_lines;
	struct sym_ar_cfi *cfi;	/* NULL: none (format 1.1) */
	struct sym_ar_inlines *inl;	/* NULL: none (format 1.1) */
};

/* Writing.  Entries go out in the order added; the file appears whole
 * at path (written beside it, then renamed) on sym_ar_writer_finish(). */
struct sym_ar_writer;

int sym_ar_writer_open(struct sym_ar_writer **out, const char *path,
		       char *err, size_t errsz);
int sym_ar_writer_add(struct sym_ar_writer *w, const struct sym_ar_dso *d,
		      char *err, size_t errsz);
/* Index, trailer, rename.  *bytes: the file's size.  Frees w. */
int sym_ar_writer_finish(struct sym_ar_writer *w, uint64_t *bytes,
			 char *err, size_t errsz);
/* Drop a half-written archive (removes the temporary file).  Frees w. */
void sym_ar_writer_abort(struct sym_ar_writer *w);

/* Reading. */
struct sym_ar;

/*
 * Read and check the whole archive.  Returns 0 when at least the header
 * could be read (damaged entries are then passed to warn, one message
 * each, "PATH: offset N: what", and left out), or -errno / -EINVAL with
 * err set when the file is not a usable archive at all.
 */
int sym_ar_open(const char *path, struct sym_ar **out,
		void (*warn)(void *ctx, const char *msg), void *warn_ctx,
		char *err, size_t errsz);
/*
 * The entry for a DSO: by kind and build-id when build_id_size, else by
 * kind and name.  NULL if none.  Valid until sym_ar_close().
 */
const struct sym_ar_dso *sym_ar_find(const struct sym_ar *a,
				     enum sym_ar_kind kind,
				     const uint8_t *build_id,
				     size_t build_id_size, const char *name);
size_t sym_ar_count(const struct sym_ar *a);
/* Owned by us or root and writable by no one else (lib/safefile.h). */
bool sym_ar_trusted(const struct sym_ar *a);
const struct sym_ar_dso *sym_ar_entry(const struct sym_ar *a, size_t i);
void sym_ar_close(struct sym_ar *a);

/*
 * The fingerprint of the recording at path (a file, or a --threads
 * directory) for sym_opts.recording_id, malloc'd; NULL for a pipe or
 * what cannot be read (symbol/recording-id.c).
 */
char *sym_recording_id(const char *path);

/*
 * The symbol archive beside the recording at path (a file, or a
 * --threads directory): path.pdsym when it exists, malloc'd; else NULL.
 */
char *sym_archive_beside(const char *path);

#endif /* PDATA_SYM_ARCHIVE_H */
