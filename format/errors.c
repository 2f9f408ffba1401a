/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * format/errors.c - names for the library's error values.
 */
#include "config.h"

#include <string.h>

#include "pdata/errors.h"

static const char *const error_text[] = {
#define PD_E(name, text) [PD_E_##name] = text,
	PD_ERRORS
#undef PD_E
};

const char *
pd_strerror(int err)
{
	if (err <= -PD_ERRNO_BASE)
		return strerror(-err - PD_ERRNO_BASE);
	if (err > 0 || -err >= PD_E_COUNT)
		return "unknown error";
	return error_text[-err];
}
