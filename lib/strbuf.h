/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * lib/strbuf.h - a growable NUL-terminated string.
 */
#ifndef PD_LIB_STRBUF_H
#define PD_LIB_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

#include "lib/diag.h"

struct strbuf {
	char *s;		/* always NUL-terminated once used */
	size_t len;
	size_t cap;
};

#define STRBUF_INIT { NULL, 0, 0 }

void sb_reset(struct strbuf *sb);
void sb_free(struct strbuf *sb);
void sb_add(struct strbuf *sb, const char *s);
void sb_addn(struct strbuf *sb, const char *s, size_t n);
void sb_addc(struct strbuf *sb, char c);
void sb_addf(struct strbuf *sb, const char *fmt, ...) PD_PRINTF(2, 3);
void sb_vaddf(struct strbuf *sb, const char *fmt, va_list ap) PD_PRINTF(2, 0);
/* the string so far ("" when empty) */
const char *sb_str(const struct strbuf *sb);

#endif /* PD_LIB_STRBUF_H */
