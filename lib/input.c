/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * lib/input.c - the reading tools' input: the default one, and how the
 * reader's warnings are printed.
 */
#include "config.h"

#include <sys/stat.h>
#include <unistd.h>

#include "lib/diag.h"
#include "lib/input.h"

const char *
tool_default_input(void)
{
	struct stat st;

	if (fstat(STDIN_FILENO, &st) == 0 && S_ISFIFO(st.st_mode))
		return "-";
	return "perf.data";
}

void
tool_input_warning(void *ctx, uint64_t offset, const char *msg)
{
	(void)offset;	/* the message names it */
	warn_msg("%s: %s", (const char *)ctx, msg);
}
