/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * report/archive.c - preport --archive and --perf-archive (issue 5,
 * doc/offline.md).
 *
 * One pass over the whole recording with every resolution on: the
 * sample ip, every callchain frame (no --max-stack cut) and both ends of
 * every branch.  Meanwhile the symbol layer notes each (DSO, address) it
 * is asked about, so the archive holds the answers of every report mode
 * and nothing else.  The srcline and srcfile keys look a location up by
 * its map-relative address (a sample's own ip) and by its raw ip (a
 * callchain frame, report/hist/hist.c key_from_loc), so both are asked here.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/diag.h"
#include "report/hist/hist.h"
#include "report/report.h"
#include "session/session.h"
#include "symbol/buildid-cache.h"
#include "symbol/symbol.h"

static void
note_loc(const struct ses_loc *l)
{
	if (!l->map || !l->dso)
		return;
	sym_dso_srcline(l->dso, l->al_addr);
	if (l->ip != l->al_addr)
		sym_dso_srcline(l->dso, l->ip);
}

static void
on_sample(void *ctx, const struct ses_sample *s)
{
	uint64_t *nr_samples = ctx;
	size_t i;

	(*nr_samples)++;
	note_loc(&s->self);
	for (i = 0; i < s->nr_chain; i++)
		note_loc(&s->chain[i]);
	for (i = 0; i < s->nr_branches; i++) {
		note_loc(&s->branches[i].from);
		note_loc(&s->branches[i].to);
	}
}

/*
 * Replay the recording with the lookups noted.  A reading error ends the
 * pass but not the archive: what was read is kept, with a warning.
 */
static void
note_pass(struct pd_reader *r, const char *input, struct sym_ctx *syms,
	  bool quiet)
{
	const struct ses_opts sopts = {
		.max_stack = UINT_MAX,
		.branches = true,
		.threads = ses_threads_default(),
	};
	const struct ses_ops ops = { .sample = on_sample };
	struct ses_session *sess;
	uint64_t nr_samples = 0;
	int err;

	sym_ctx_note_lookups(syms);
	sess = ses_new(r, syms, &sopts);
	err = ses_run(sess, &ops, &nr_samples);
	if (err && !quiet)
		warn_msg("%s: %s; the archive holds the %" PRIu64
			 " samples read before", input,
			 ses_errmsg(sess), nr_samples);
	ses_free(sess);
}

static int
write_pdsym(struct sym_ctx *syms, const char *out, bool quiet)
{
	struct sym_archive_stats st = { 0 };
	char err[512] = "";
	int ret;

	ret = sym_ctx_write_archive(syms, out, &st, err, sizeof(err));
	if (ret) {
		error_msg("cannot write %s: %s", out,
			  err[0] ? err : strerror(ret < 0 ? -ret : EIO));
		return 1;
	}
	if (!quiet)
		fprintf(stderr, "%s: wrote %s: %zu DSOs, %zu symbols, "
			"%zu source lines, %" PRIu64 " bytes\n", diag_program(),
			out, st.nr_dsos, st.nr_symbols, st.nr_lines, st.bytes);
	return 0;
}

/* perf-archive.sh's closing words, with our file's name. */
static void
print_tar_hint(const char *out)
{
	printf("Now please run:\n\n"
	       "$ tar xvf %s -C ~/.debug\n\n"
	       "wherever you need to run 'perf report' on.\n", out);
}

static int
write_perf_tar(struct sym_ctx *syms, const char *input, const char *out,
	       bool quiet)
{
	struct sym_archive_stats st = { 0 };
	char err[512] = "";
	char *dir = sym_cache_dir();
	int ret;

	if (!dir) {
		error_msg("--perf-archive: no build-id cache: neither "
			  "PERF_BUILDID_DIR nor HOME is set");
		return 1;
	}
	ret = sym_ctx_write_perf_archive(syms, out, dir, &st, err, sizeof(err));
	free(dir);
	if (ret) {
		error_msg("cannot write %s: %s", out,
			  err[0] ? err : strerror(ret < 0 ? -ret : EIO));
		return 1;
	}
	if (!st.nr_dsos) {
		/* perf archive makes no tarball then, and fails */
		unlink(out);
		error_msg("%s: no build-ids found", input);
		return 1;
	}
	if (!quiet)
		print_tar_hint(out);
	return 0;
}

int
rep_archive_run(struct pd_reader *r, const char *input,
		const struct rep_report_opts *o, const char *ar_out,
		const char *tar_out)
{
	struct sym_opts so;
	struct sym_ctx *syms;
	int ret = 0;

	rep_sym_opts_init(&so, r, o, NULL);
	syms = sym_ctx_new(&so);
	note_pass(r, input, syms, o->quiet);
	if (ar_out)
		ret |= write_pdsym(syms, ar_out, o->quiet);
	if (tar_out)
		ret |= write_perf_tar(syms, input, tar_out, o->quiet);
	sym_ctx_free(syms);
	return ret;
}
