/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * record/archive.c - precord --archive and --perf-archive: once the file
 * is finished, the archive driver of session/archive.h reads it back and
 * writes FILE.pdsym and FILE.tar.bz2, as preport -i FILE --archive and
 * --perf-archive would (one pass serves both).
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/diag.h"
#include "lib/xalloc.h"
#include "pdata/errors.h"
#include "record/record.h"
#include "session/archive.h"
#include "symbol/archive.h"

static void
print_sym_warning(void *ctx, const char *msg)
{
	(void)ctx;
	warn_msg("%s", msg);
}

static int
write_one(struct ses_archive *a, const struct rec_opts *o, bool tar)
{
	const char *suffix = tar ? ".tar.bz2" : ".pdsym";
	char *out = xmalloc(strlen(o->output) + strlen(suffix) + 1);
	struct sym_archive_stats st;
	char err[512];
	int ret;

	sprintf(out, "%s%s", o->output, suffix);
	if (tar)
		ret = ses_archive_write_perf_tar(a, out, &st, err, sizeof(err));
	else
		ret = ses_archive_write_pdsym(a, out, &st, err, sizeof(err));
	if (ret)
		error_msg("could not write the archive: %s (the recording is "
			  "kept)", err);
	else if (!o->quiet && tar)
		ses_archive_print_perf_tar(stdout, out);
	else if (!o->quiet)
		ses_archive_print_pdsym(stderr, out, &st);
	free(out);
	return ret ? -1 : 0;
}

int
rec_archive_run(const struct rec_opts *o)
{
	struct sym_opts so = { 0 };
	const struct pd_meta *meta;
	struct ses_archive *a;
	struct pd_reader *r;
	uint64_t nr_samples;
	const char *why;
	char *id;
	int err;

	err = pd_reader_open(&r, o->output, NULL);
	if (err) {
		error_msg("cannot read back '%s' for its archive: %s", o->output,
			  r ? pd_reader_errmsg(r) : pd_strerror(err));
		pd_reader_close(r);
		return -1;
	}
	meta = pd_reader_meta(r);
	id = sym_recording_id(o->output);
	so.os_release = meta ? meta->os_release : NULL;
	so.recording_id = id;
	so.warn = o->quiet ? NULL : print_sym_warning;
	a = ses_archive_new(r, &so);
	why = ses_archive_read_error(a, &nr_samples);
	if (why && !o->quiet)
		warn_msg("%s: %s; the archive holds the %" PRIu64
			 " samples read before", o->output, why, nr_samples);
	err = 0;
	if (o->archive)
		err |= write_one(a, o, false);
	if (o->perf_archive)
		err |= write_one(a, o, true);
	ses_archive_free(a);
	pd_reader_close(r);
	free(id);
	return err ? -1 : 0;
}
