/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * report/hist/loc.h - what the keys on a resolved address other than the
 * sample's own share (branch ends, data and code addresses): perf's DSO
 * comparison and printing of a map, its symbol printing, and a store of
 * the copies entries point to.
 */
#ifndef PD_REPORT_HIST_LOC_H
#define PD_REPORT_HIST_LOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "session/model.h"

/* The DSO and symbol of l, NULL when no map covers it. */
struct sym_dso *rep_loc_dso(const struct ses_loc *l);
const struct sym_symbol *rep_loc_sym(const struct ses_loc *l);

/*
 * A DSO's name as perf's keys show and compare it: the short name, the
 * long one with -v (verbose).
 */
const char *rep_dso_name(const struct sym_dso *dso, bool verbose);

/* perf's _sort__dso_cmp(l, r): names in reverse order, no DSO last. */
int rep_loc_dso_cmp(const struct ses_loc *l, const struct ses_loc *r,
		    bool verbose);
/* perf's _hist_entry__dso_snprintf(): the name, or [unknown]. */
void rep_loc_dso_snprint(const struct ses_loc *l, bool verbose, int w,
			 char *buf, size_t size);
/* The hash of l's DSO name (equal names hash alike). */
uint64_t rep_loc_dso_hash(const struct ses_loc *l, bool verbose);

/*
 * perf's _hist_entry__sym_snprintf(): with -v (verbose) the address
 * (%-#18llx) and the DSO's symtab origin letter first; "[level] ", then
 * the symbol's name (an object's with "+0x" and ip's offset in it, ip as
 * perf passes it) cut to the width, or ip as %#.16x.
 */
void rep_loc_sym_snprint(const struct ses_loc *l, uint64_t ip, char level,
			 bool verbose, int w, char *buf, size_t size);

/* What -v adds to a resolved symbol's column: the address and origin. */
#define REP_VERBOSE_SYM_LEN (16 + 2 + 3)

/* Copies the histogram's entries point to, in chunks that never move. */
struct rep_keep {
	struct rep_keep_chunk *chunks;
	size_t size;			/* of one copy */
};

/* The next free copy (size bytes); it stays free until rep_keep_commit(). */
void *rep_keep_next(struct rep_keep *k);
void rep_keep_commit(struct rep_keep *k);
void rep_keep_free(struct rep_keep *k);

#endif /* PD_REPORT_HIST_LOC_H */
