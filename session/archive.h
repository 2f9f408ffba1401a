/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * session/archive.h - the offline archives of a recording (issue 5,
 * doc/offline.md): the pdata symbol archive FILE.pdsym and perf
 * archive's tarball, for preport --archive / --perf-archive and precord
 * --archive / --perf-archive alike.
 *
 * ses_archive_new() replays the whole recording once with every
 * resolution on (the sample ip, every callchain frame without a
 * --max-stack cut, both ends of every branch) while the symbol layer
 * notes each (DSO, address) it is asked about; the writers then store
 * the answers of every report mode and nothing else.
 *
 * Errors come back as values with a message, for the tool to print;
 * what was written the tool says with the two printers at the end, so
 * that preport and precord say it alike.
 */
#ifndef PD_SESSION_ARCHIVE_H
#define PD_SESSION_ARCHIVE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pdata/reader.h"
#include "symbol/symbol.h"

struct ses_archive;

/*
 * One pass over r with the lookups noted, symbols found as so says
 * (so->recording_id: sym_recording_id() of the input, so that the
 * archive is tied to it).  The pass borrows r; so is copied.  A reading
 * error ends the pass but not the archive (ses_archive_read_error()).
 */
struct ses_archive *ses_archive_new(struct pd_reader *r,
				    const struct sym_opts *so);
void ses_archive_free(struct ses_archive *a);

/*
 * Why the pass stopped before the end of the file, and how many samples
 * it had read then (*nr_samples); NULL when it read the whole file.
 */
const char *ses_archive_read_error(const struct ses_archive *a,
				   uint64_t *nr_samples);

/*
 * Write the pdata symbol archive (doc/symbol-archive.md) at path, what
 * it holds into *st.  Returns 0, or -errno with err set to a sentence
 * ("cannot write PATH: why").
 */
int ses_archive_write_pdsym(struct ses_archive *a, const char *path,
			    struct sym_archive_stats *st, char *err,
			    size_t errsz);

/*
 * Write perf archive's tarball at path from the build-id cache
 * ($PERF_BUILDID_DIR, else ~/.debug), adding the files it lacks first.
 * As perf archive, no tarball when no DSO has a build-id: -ENODATA and
 * "no build-ids found" then.  Returns 0, or -errno with err set.
 */
int ses_archive_write_perf_tar(struct ses_archive *a, const char *path,
			       struct sym_archive_stats *st, char *err,
			       size_t errsz);

/* "PROG: wrote PATH: N DSOs, N symbols, N source lines, N bytes" */
void ses_archive_print_pdsym(FILE *out, const char *path,
			     const struct sym_archive_stats *st);
/* perf-archive.sh's closing words, with the tarball's name */
void ses_archive_print_perf_tar(FILE *out, const char *path);

#endif /* PD_SESSION_ARCHIVE_H */
