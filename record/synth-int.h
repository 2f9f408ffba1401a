/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * record/synth-int.h - building synthesised records, shared by
 * record/synth*.c.
 */
#ifndef PD_RECORD_SYNTH_INT_H
#define PD_RECORD_SYNTH_INT_H

#include <stddef.h>
#include <stdint.h>

#include "record/sys.h"

/* A record under construction: the header first, fields in order. */
struct rec_buf {
	unsigned char *p;
	size_t len, cap;
};

void rec_buf_start(struct rec_buf *b, uint32_t type, uint16_t misc);
void rec_buf_put(struct rec_buf *b, const void *src, size_t n);
void rec_buf_zero(struct rec_buf *b, size_t n);
void rec_buf_u16(struct rec_buf *b, uint16_t v);
void rec_buf_u32(struct rec_buf *b, uint32_t v);
void rec_buf_u64(struct rec_buf *b, uint64_t v);
/* s (len bytes), a NUL, zeros up to a multiple of 8 bytes */
void rec_buf_str(struct rec_buf *b, const char *s, size_t len);
/* Zero padding up to a multiple of 8 bytes. */
void rec_buf_align(struct rec_buf *b);
/*
 * Append id_hdr_size zero bytes (o may be NULL: none), set the header's
 * size and emit.  -E2BIG when the record exceeds 64 KiB.
 */
int rec_buf_emit(struct rec_buf *b, const struct rec_synth_opts *o,
		 rec_emit_fn emit, void *ctx);

/*
 * "[name]" for a kernel module file name ("a-b.ko.xz" gives "[a_b]"),
 * as perf names module DSOs, or NULL when file is not a module; free().
 */
char *rec_kmod_name(const char *file);

#endif /* PD_RECORD_SYNTH_INT_H */
