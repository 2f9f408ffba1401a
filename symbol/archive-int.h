/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * symbol/archive-int.h - inside the archive code only: the byte buffer
 * and bounded reader both halves use, the container's constants, and the
 * payload codec (doc/symbol-archive.md, "Payload").
 */
#ifndef PDATA_SYM_ARCHIVE_INT_H
#define PDATA_SYM_ARCHIVE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "symbol/archive.h"

/* Container constants: doc/symbol-archive.md, "Container". */
#define AR_MAGIC		"PDSYMARC"
#define AR_MAGIC_LEN		8
#define AR_MAJOR		1
#define AR_MINOR		1
#define AR_HEADER_SIZE		16
#define AR_ENTRY_MAGIC		"PDSE"
#define AR_INDEX_MAGIC		"PDSI"
#define AR_TRAILER_MAGIC	"PDSYMEND"
#define AR_TRAILER_SIZE		32
/* entry header: fixed part, then the name, then its xxhash64 */
#define AR_ENTRY_FIXED		60
#define AR_ENTRY_MIN		(AR_ENTRY_FIXED + 8)
#define AR_INDEX_HEAD		8
#define AR_INDEX_ROW_FIXED	28
#define AR_NAME_MAX		4096
/*
 * Limits that bound what a crafted file can make a reader allocate: the
 * decompressed payload of one entry (a real one is a few MiB at most;
 * every text symbol of a kernel: 4 MiB), and while it decodes about 20
 * times that; the text of one entry, its strings and rebuilt source
 * lines; and the decoded tables of all entries together.
 */
#define AR_RAW_MAX		((uint64_t)32 << 20)
#define AR_TEXT_MAX		((uint64_t)128 << 20)
#define AR_MEM_TOTAL_MAX	((uint64_t)1 << 30)
#define AR_FILE_MAX		((uint64_t)1 << 30)
#define AR_FLAG_DEMANGLED	0x01
#define AR_ZSTD_LEVEL		19

/* A growable byte buffer; ENOMEM is sticky and checked once. */
struct ar_buf {
	unsigned char *p;
	size_t len;
	size_t cap;
	bool nomem;
};

void ar_buf_free(struct ar_buf *b);
bool ar_buf_reserve(struct ar_buf *b, size_t more);
void ar_buf_add(struct ar_buf *b, const void *p, size_t n);
void ar_buf_u8(struct ar_buf *b, uint8_t v);
void ar_buf_le16(struct ar_buf *b, uint16_t v);
void ar_buf_le32(struct ar_buf *b, uint32_t v);
void ar_buf_le64(struct ar_buf *b, uint64_t v);
/* LEB128, at most 10 bytes */
void ar_buf_uv(struct ar_buf *b, uint64_t v);
/* zigzag, then LEB128 */
void ar_buf_sv(struct ar_buf *b, int64_t v);

/* A bounded little-endian reader; a short read is sticky. */
struct ar_rd {
	const unsigned char *p;
	const unsigned char *end;
	bool bad;		/* ran past end, or a malformed varint */
};

static inline void
ar_rd_init(struct ar_rd *r, const void *p, size_t len)
{
	r->p = p;
	r->end = r->p + len;
	r->bad = false;
}

static inline size_t
ar_rd_left(const struct ar_rd *r)
{
	return r->bad ? 0 : (size_t)(r->end - r->p);
}

const unsigned char *ar_rd_bytes(struct ar_rd *r, size_t n);
uint8_t ar_rd_u8(struct ar_rd *r);
uint16_t ar_rd_le16(struct ar_rd *r);
uint32_t ar_rd_le32(struct ar_rd *r);
uint64_t ar_rd_le64(struct ar_rd *r);
uint64_t ar_rd_uv(struct ar_rd *r);

static inline uint64_t
ar_le64(const unsigned char *p)
{
	uint64_t v = 0;
	int i;

	for (i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/*
 * Payload codec.  sym_ar_payload_encode() appends the payload of d (its
 * symbols, covers and lines; the rest of d lives in the entry header)
 * to out; it checks what a reader would refuse (covers unsorted or
 * overlapping, a cover's symbol out of range, lines not in increasing
 * address order, a NULL string) and returns -EINVAL with why set then,
 * -EFBIG past AR_RAW_MAX or AR_TEXT_MAX, -ENOMEM when out of memory.
 */
int sym_ar_payload_encode(const struct sym_ar_dso *d, struct ar_buf *out,
			  char *why, size_t whysz);

/*
 * Decode len bytes of payload (at most AR_RAW_MAX) into d's syms, covers
 * and lines; the other fields of d are left alone.  They all point into
 * one block, *mem, which the caller frees; its size is taken from
 * *budget, and a block larger than *budget is refused (-EFBIG).  Returns
 * 0, or -EINVAL / -EFBIG with why set (what was wrong, with the payload
 * offset where one helps) or -ENOMEM; on error d's tables are empty and
 * *mem is NULL.  lenient: bytes after the last table are ignored (the
 * archive is of a newer minor version) instead of an error.
 */
int sym_ar_payload_decode(const void *raw, size_t len, bool lenient,
			  uint64_t *budget, struct sym_ar_dso *d, void **mem,
			  char *why, size_t whysz);

/* Call frame information (archive-cfi.c, archive-cfi-codec.c). */
#define AR_CFI_LOADS_MAX	64
#define AR_CFI_SECTION_MAX	((uint64_t)64 << 20)
/* One block: the struct, then loads, pieces and rows, then the bytes. */
struct sym_ar_cfi *ar_cfi_alloc(size_t nr_loads, size_t nr_pieces,
				size_t nr_rows, uint64_t bytes);
unsigned char *ar_cfi_bytes(struct sym_ar_cfi *c);
/* v, an address difference, as a signed 32-bit table entry */
bool ar_fits_s32(uint64_t v);
/*
 * The call frame information table that follows the source lines
 * (format 1.1; archive-cfi.c).  ar_cfi_decode() reads it at r into one
 * malloc'd block in *out (NULL for the form that holds none), taken from
 * *budget; a form it does not know is skipped with the rest of the
 * payload when lenient (a newer minor version), else refused.  0, or
 * -EINVAL with why set (base: the payload's start, for offsets),
 * -EFBIG, or -ENOMEM.
 */
void ar_cfi_encode(const struct sym_ar_cfi *c, struct ar_buf *out);
int ar_cfi_decode(struct ar_rd *r, const unsigned char *base, bool lenient,
		  uint64_t *budget, struct sym_ar_cfi **out, char *why,
		  size_t whysz);

/*
 * The inline frames table that follows the call frame information
 * (format 1.1; archive-inline-codec.c): one malloc'd block in *out, NULL
 * for an empty table; errors as ar_cfi_decode().
 */
void ar_inline_encode(const struct sym_ar_inlines *t, struct ar_buf *out);
int ar_inline_decode(struct ar_rd *r, const unsigned char *base,
		     uint64_t *budget, struct sym_ar_inlines **out, char *why,
		     size_t whysz);

#endif /* PDATA_SYM_ARCHIVE_INT_H */
