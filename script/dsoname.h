/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * script/dsoname.h - the name perf script prints for the DSO of a
 * resolved address (perf's map__fprintf_dsoname(): dso->name).
 */
#ifndef PD_SCRIPT_DSONAME_H
#define PD_SCRIPT_DSONAME_H

#include "pdata/meta.h"
#include "session/model.h"

/*
 * The path of a user DSO; for the kernel's, "[kernel.kallsyms]" or
 * "[module]", except a module that the build-id table (m, may be NULL)
 * named first, whose name is then its path; "[unknown]" without a DSO.
 */
const char *scr_dso_name(const struct pd_meta *m, const struct ses_loc *l);

#endif /* PD_SCRIPT_DSONAME_H */
