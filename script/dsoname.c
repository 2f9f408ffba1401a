/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * script/dsoname.c - perf script's DSO names.
 */
#include "config.h"

#include <string.h>

#include "script/dsoname.h"
#include "symbol/symbol.h"

/* whether the file's build-id table names path */
static bool
in_build_id_table(const struct pd_meta *m, const char *path)
{
	size_t i;

	for (i = 0; m && i < m->nr_build_ids; i++)
		if (m->build_ids[i].filename &&
		    !strcmp(m->build_ids[i].filename, path))
			return true;
	return false;
}

const char *
scr_dso_name(const struct pd_meta *m, const struct ses_loc *l)
{
	const char *path;

	if (!l->dso)
		return "[unknown]";
	if (l->cpumode != PD_MISC_KERNEL && l->cpumode != PD_MISC_GUEST_KERNEL)
		return sym_dso_long_name(l->dso);
	path = sym_dso_long_name(l->dso);
	if (sym_dso_kind(l->dso) == SYM_DSO_MODULE && in_build_id_table(m, path))
		return path;
	return sym_dso_short_name(l->dso);
}
