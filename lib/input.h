/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * lib/input.h - what the reading tools (preport, pscript, pexport) do
 * alike with their input.
 */
#ifndef PD_LIB_INPUT_H
#define PD_LIB_INPUT_H

#include <stdbool.h>
#include <stdint.h>

/* perf's rule: with no -i, a FIFO on standard input is the input ("-"). */
const char *tool_default_input(void);

/* A reader warning, as "INPUT: message"; ctx is the input's name. */
void tool_input_warning(void *ctx, uint64_t offset, const char *msg);

/*
 * perf's rule for a recording: one owned by another user (not root) is
 * read only with -f (force).  False, the error printed, when refused;
 * "-" and a file that cannot be seen pass (the reader says why).
 */
bool tool_input_allowed(const char *path, bool force);

#endif /* PD_LIB_INPUT_H */
