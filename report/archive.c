/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * report/archive.c - preport --archive and --perf-archive (issue 5,
 * doc/offline.md): the archive driver of session/archive.h with the
 * report's symbol options, and preport's words about what it wrote.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include "lib/diag.h"
#include "report/report.h"
#include "session/archive.h"

static int
write_pdsym(struct ses_archive *a, const char *out, bool quiet)
{
	struct sym_archive_stats st;
	char err[512];

	if (ses_archive_write_pdsym(a, out, &st, err, sizeof(err))) {
		error_msg("%s", err);
		return 1;
	}
	if (!quiet)
		ses_archive_print_pdsym(stderr, out, &st);
	return 0;
}

static int
write_perf_tar(struct ses_archive *a, const char *input, const char *out,
	       bool quiet)
{
	struct sym_archive_stats st;
	char err[512];
	int ret;

	ret = ses_archive_write_perf_tar(a, out, &st, err, sizeof(err));
	if (ret == -ENODATA) {
		error_msg("%s: %s", input, err);
		return 1;
	}
	if (ret) {
		error_msg("--perf-archive: %s", err);
		return 1;
	}
	if (!quiet)
		ses_archive_print_perf_tar(stdout, out);
	return 0;
}

int
rep_archive_run(struct pd_reader *r, const char *input,
		const struct rep_report_opts *o, const char *ar_out,
		const char *tar_out)
{
	struct ses_archive *a;
	struct sym_opts so;
	const char *why;
	uint64_t nr_samples;
	int ret = 0;

	rep_sym_opts_init(&so, r, o, NULL);
	/* an archive holds source lines as a report shows them by default */
	so.full_source_paths = false;
	a = ses_archive_new(r, &so);
	why = ses_archive_read_error(a, &nr_samples);
	if (why && !o->quiet)
		warn_msg("%s: %s; the archive holds the %" PRIu64
			 " samples read before", input, why, nr_samples);
	if (ar_out)
		ret |= write_pdsym(a, ar_out, o->quiet);
	if (tar_out)
		ret |= write_perf_tar(a, input, tar_out, o->quiet);
	ses_archive_free(a);
	return ret;
}
