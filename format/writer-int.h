/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * format/writer-int.h - a growable byte buffer with a sticky error, shared
 * by the feature encoders (feat-encode.c), the writer (writer.c) and
 * precord's record synthesis (record/synth-int.h).
 *
 * Values are appended in host byte order, unaligned, as perf writes its
 * feature payloads field after field (doc/perf-data-format.md §5).  An
 * allocation failure sets nomem; later appends do nothing, so an encoder
 * appends its fields like the layout reads and checks once at the end.
 */
#ifndef PD_FORMAT_WRITER_INT_H
#define PD_FORMAT_WRITER_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pd_wbuf {
	unsigned char *p;
	size_t len, cap;
	bool nomem;
};

void pd_wbuf_bytes(struct pd_wbuf *b, const void *src, size_t n);
void pd_wbuf_zeros(struct pd_wbuf *b, size_t n);
void pd_wbuf_u8(struct pd_wbuf *b, uint8_t v);
void pd_wbuf_u16(struct pd_wbuf *b, uint16_t v);
void pd_wbuf_u32(struct pd_wbuf *b, uint32_t v);
void pd_wbuf_u64(struct pd_wbuf *b, uint64_t v);

/*
 * A perf_header_string: u32 len, then the text, its NUL and zeros up to
 * len = ALIGN(strlen + 1, 64), as perf pads (§4.2).  NULL is written as "".
 */
void pd_wbuf_string(struct pd_wbuf *b, const char *s);

void pd_wbuf_free(struct pd_wbuf *b);

#endif /* PD_FORMAT_WRITER_INT_H */
