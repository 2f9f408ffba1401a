/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * record/synth-int.h - building synthesised records, shared by
 * record/synth*.c.
 */
#ifndef PD_RECORD_SYNTH_INT_H
#define PD_RECORD_SYNTH_INT_H

#include <stddef.h>
#include <stdint.h>

#include "format/writer-int.h"
#include "record/sys.h"

/*
 * A record under construction is a struct pd_wbuf (format/writer-int.h):
 * rec_buf_start writes the header, pd_wbuf_* append the fields in order
 * and rec_buf_emit sets the size and hands the record on.  An allocation
 * failure is sticky in the buffer and rec_buf_emit reports it.
 */
void rec_buf_start(struct pd_wbuf *b, uint32_t type, uint16_t misc);
/* s (len bytes), a NUL, zeros up to a multiple of 8 bytes */
void rec_buf_str(struct pd_wbuf *b, const char *s, size_t len);
/* Zero padding up to a multiple of 8 bytes. */
void rec_buf_align(struct pd_wbuf *b);
/*
 * Append id_hdr_size zero bytes (o may be NULL: none), set the header's
 * size and emit.  -E2BIG when the record exceeds 64 KiB, -ENOMEM when an
 * append failed.
 */
int rec_buf_emit(struct pd_wbuf *b, const struct rec_synth_opts *o,
		 rec_emit_fn emit, void *ctx);

/*
 * "[name]" for a kernel module file name ("a-b.ko.xz" gives "[a_b]"),
 * as perf names module DSOs, or NULL when file is not a module; free().
 */
char *rec_kmod_name(const char *file);

#endif /* PD_RECORD_SYNTH_INT_H */
