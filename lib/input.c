/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * lib/input.c - the reading tools' input: the default one, and how the
 * reader's warnings are printed.
 */
#include "config.h"

#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/diag.h"
#include "lib/input.h"
#include "lib/safefile.h"

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

bool
tool_input_allowed(const char *path, bool force)
{
	struct stat st;

	if (force || !strcmp(path, "-") || stat(path, &st) != 0 ||
	    sfile_owned(&st))
		return true;
	error_msg("File %s not owned by current user or root (use -f to override)",
		  path);
	return false;
}
