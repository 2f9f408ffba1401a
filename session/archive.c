/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * session/archive.c - the archive driver of preport and precord
 * (session/archive.h).
 *
 * A report's srcline and srcfile keys look a location up by its
 * map-relative address (a sample's own ip) and by its raw ip (a
 * callchain frame), so both are asked here.
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
#include "lib/safefile.h"
#include "lib/xalloc.h"
#include "session/archive.h"
#include "session/session.h"
#include "symbol/buildid-cache.h"

struct ses_archive {
	struct sym_ctx *syms;
	uint64_t nr_samples;
	bool read_failed;
	char read_err[512];
};

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
	struct ses_archive *a = ctx;
	size_t i;

	a->nr_samples++;
	note_loc(&s->self);
	for (i = 0; i < s->nr_chain; i++)
		note_loc(&s->chain[i]);
	for (i = 0; i < s->nr_branches; i++) {
		note_loc(&s->branches[i].from);
		note_loc(&s->branches[i].to);
	}
}

struct ses_archive *
ses_archive_new(struct pd_reader *r, const struct sym_opts *so)
{
	const struct ses_opts sopts = {
		.max_stack = UINT_MAX,
		.branches = true,
		/* the inline frames of unwound frames are answers to keep */
		.inline_frames = true,
		.threads = ses_threads_default(),
	};
	const struct ses_ops ops = { .sample = on_sample };
	struct ses_archive *a = xcalloc(1, sizeof(*a));
	struct ses_session *sess;

	a->syms = sym_ctx_new(so);
	sym_ctx_note_lookups(a->syms);
	sess = ses_new(r, a->syms, &sopts);
	if (ses_run(sess, &ops, a)) {
		a->read_failed = true;
		snprintf(a->read_err, sizeof(a->read_err), "%s",
			 ses_errmsg(sess));
	}
	ses_free(sess);
	return a;
}

void
ses_archive_free(struct ses_archive *a)
{
	if (!a)
		return;
	sym_ctx_free(a->syms);
	free(a);
}

const char *
ses_archive_read_error(const struct ses_archive *a, uint64_t *nr_samples)
{
	*nr_samples = a->nr_samples;
	return a->read_failed ? a->read_err : NULL;
}

/* "cannot write PATH: why", why from the layer below or errno's words */
/* "cannot write PATH: why", PATH said once when the cause names it */
static int
write_error(int ret, const char *path, char *err, size_t errsz)
{
	size_t n = strlen(path);
	char *why = xstrdup(err[0] ? err :
			    sfile_strerror(ret < 0 ? ret : -EIO));

	if (!strncmp(why, path, n) && !strncmp(why + n, ": ", 2))
		snprintf(err, errsz, "cannot write %s", why);
	else if (strstr(why, path))
		snprintf(err, errsz, "%s", why);
	else
		snprintf(err, errsz, "cannot write %s: %s", path, why);
	free(why);
	return ret < 0 ? ret : -EIO;
}

int
ses_archive_write_pdsym(struct ses_archive *a, const char *path,
			struct sym_archive_stats *st, char *err, size_t errsz)
{
	int ret;

	memset(st, 0, sizeof(*st));
	err[0] = '\0';
	ret = sym_ctx_write_archive(a->syms, path, st, err, errsz);
	return ret ? write_error(ret, path, err, errsz) : 0;
}

int
ses_archive_write_perf_tar(struct ses_archive *a, const char *path,
			   struct sym_archive_stats *st, char *err,
			   size_t errsz)
{
	char *dir = sym_cache_dir();
	int ret;

	memset(st, 0, sizeof(*st));
	err[0] = '\0';
	if (!dir) {
		snprintf(err, errsz, "no build-id cache: neither "
			 "PERF_BUILDID_DIR nor HOME is set");
		return -ENOENT;
	}
	ret = sym_ctx_write_perf_archive(a->syms, path, dir, st, err, errsz);
	free(dir);
	if (ret)
		return write_error(ret, path, err, errsz);
	if (!st->nr_dsos) {
		/* perf archive makes no tarball then, and fails */
		unlink(path);
		snprintf(err, errsz, "no build-ids found");
		return -ENODATA;
	}
	return 0;
}

void
ses_archive_print_pdsym(FILE *out, const char *path,
			const struct sym_archive_stats *st)
{
	fprintf(out, "%s: wrote %s: %zu DSOs, %zu symbols, %zu source lines, "
		"%" PRIu64 " bytes\n", diag_program(), path, st->nr_dsos,
		st->nr_symbols, st->nr_lines, st->bytes);
}

void
ses_archive_print_perf_tar(FILE *out, const char *path)
{
	fprintf(out, "Now please run:\n\n"
		"$ tar xvf %s -C ~/.debug\n\n"
		"wherever you need to run 'perf report' on.\n", path);
}
