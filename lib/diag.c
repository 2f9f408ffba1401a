/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * lib/diag.c - the tools' messages.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "lib/diag.h"

static const char *program_name = "pdata";

void
diag_set_program(const char *name)
{
	program_name = name;
}

const char *
diag_program(void)
{
	return program_name;
}

void
verror_msg(const char *prefix, const char *fmt, va_list ap)
{
	fflush(stdout);
	fprintf(stderr, "%s: %s", program_name, prefix);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void
error_msg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verror_msg("", fmt, ap);
	va_end(ap);
}

void
warn_msg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verror_msg("warning: ", fmt, ap);
	va_end(ap);
}

void
hint_msg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verror_msg("hint: ", fmt, ap);
	va_end(ap);
}

void
die(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verror_msg("", fmt, ap);
	va_end(ap);
	exit(status);
}

void
die_oom(void)
{
	die(EXIT_FAILURE, "out of memory");
}
