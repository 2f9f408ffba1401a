/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * lib/diag.h - the tools' messages: "prog: message" on stderr.
 */
#ifndef PD_LIB_DIAG_H
#define PD_LIB_DIAG_H

#include <stdarg.h>

#define PD_PRINTF(a, b) __attribute__((format(printf, a, b)))

void diag_set_program(const char *name);
const char *diag_program(void);

void error_msg(const char *fmt, ...) PD_PRINTF(1, 2);
void warn_msg(const char *fmt, ...) PD_PRINTF(1, 2);
void hint_msg(const char *fmt, ...) PD_PRINTF(1, 2);
void verror_msg(const char *prefix, const char *fmt, va_list ap) PD_PRINTF(2, 0);

/* Print and exit with status. */
void die(int status, const char *fmt, ...) PD_PRINTF(2, 3) __attribute__((noreturn));
void die_oom(void) __attribute__((noreturn));

#endif /* PD_LIB_DIAG_H */
