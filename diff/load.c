/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * diff/load.c - one recording of pdiff read into preport's histograms,
 * one per event, as perf diff reads each file (builtin-diff.c,
 * diff__process_sample_event): no callchains, the filters' bits, --time
 * and --cpu dropping samples, the totals of every sample counted.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "diff/diff.h"
#include "lib/diag.h"
#include "lib/input.h"
#include "lib/xalloc.h"
#include "pdata/meta.h"
#include "report/hist/hist-int.h"
#include "session/session.h"
#include "symbol/archive.h"

/*
 * The file's report: one section per evsel, no groups, with the
 * topology's CPU -> socket table for the socket key.  Made at the first
 * sample: a pipe's evsels arrive with its first records.
 */
static struct rep_report *
report_new(const struct pdiff_file *f)
{
	const struct pd_meta *meta = pd_reader_meta(f->r);
	size_t n = pd_reader_nr_evsels(f->r), i, nr_sockets = 0;
	unsigned int *leader = xcalloc(n ? n : 1, sizeof(unsigned int));
	unsigned int *member = xcalloc(n ? n : 1, sizeof(unsigned int));
	unsigned int *nr_members = xcalloc(n ? n : 1, sizeof(unsigned int));
	int32_t *sockets = NULL;
	struct rep_report *rep;

	for (i = 0; i < n; i++) {
		leader[i] = (unsigned int)i;
		nr_members[i] = 1;
	}
	if (meta && meta->topo_has_ids && meta->topo_cpus) {
		nr_sockets = meta->nr_topo_cpus;
		sockets = xcalloc(nr_sockets ? nr_sockets : 1, sizeof(int32_t));
		for (i = 0; i < nr_sockets; i++)
			sockets[i] = (int32_t)meta->topo_cpus[i].socket_id;
	}
	rep = rep_report_new(&f->ropts, n, leader, member, nr_members, sockets,
			     nr_sockets, false);
	free(leader);
	free(member);
	free(nr_members);
	free(sockets);
	return rep;
}

static void
on_sample(void *ctx, const struct ses_sample *s)
{
	struct pdiff_file *f = ctx;

	if (!f->rep)
		f->rep = report_new(f);
	rep_report_add(f->rep, s);
}

static bool
file_has_cpu(struct pd_reader *r)
{
	size_t i, n = pd_reader_nr_evsels(r);

	for (i = 0; i < n; i++)
		if (!(pd_reader_evsel(r, i)->attr.sample_type & PD_SAMPLE_CPU))
			return false;
	return true;
}

/* --time and --cpu for this file; 0, or 1 after a message. */
static int
file_filters(struct pdiff_file *f, const char *time)
{
	const struct pd_meta *meta = pd_reader_meta(f->r);
	struct rep_filters *filt = &f->ropts.hist.filt;
	char err[256];

	filt->times = NULL;
	filt->nr_times = 0;
	filt->time_str = NULL;
	if (time && (rep_filter_parse_time(filt, time, err, sizeof(err)) ||
		     (meta && rep_filter_resolve_time(filt,
						      meta->first_sample_time,
						      meta->last_sample_time,
						      err, sizeof(err))))) {
		error_msg("%s: --time: %s", f->path, err);
		return 1;
	}
	if (filt->cpus && !file_has_cpu(f->r)) {
		error_msg("%s: --cpu: the file does not record the CPU of its "
			  "samples", f->path);
		return 1;
	}
	return 0;
}

/* perf's stats.total_period and total_non_filtered_period, per evsel. */
static void
file_totals(struct pdiff_file *f)
{
	size_t n = f->rep->nr_evsels, e, i;

	f->total = xcalloc(n ? n : 1, sizeof(uint64_t));
	f->total_vis = xcalloc(n ? n : 1, sizeof(uint64_t));
	for (e = 0; e < n; e++) {
		const struct rep_hist *h = f->rep->hists[e];

		for (i = 0; h && i < h->nr; i++) {
			f->total[e] += h->vals[i].period;
			if (rep_hent_shown(&h->ents[i]))
				f->total_vis[e] += h->vals[i].period;
		}
	}
}

static void
print_sym_warning(void *ctx, const char *msg)
{
	(void)ctx;
	warn_msg("%s", msg);
}

/* What preport gives its symbols (rep_sym_opts_init), for this file. */
static void
sym_opts_fill(struct sym_opts *so, const struct pdiff_file *f)
{
	const struct pd_meta *meta = pd_reader_meta(f->r);

	memset(so, 0, sizeof(*so));
	so->symfs = f->ropts.symfs;
	so->kallsyms = f->ropts.kallsyms;
	so->os_release = meta ? meta->os_release : NULL;
	so->archive = f->archive;
	so->archive_beside = true;	/* FILE.pdsym, never named */
	so->force = f->ropts.force;
	so->recording_id = f->recording_id;
}

int
pdiff_file_load(struct pdiff_file *f, const struct pdiff_opts *o)
{
	struct pd_reader_opts ropts = { 0 };
	struct ses_opts sopts = { .no_callchain = true };
	struct ses_ops ops = { .sample = on_sample };
	struct sym_opts so;
	int err;

	f->ropts = o->rep;
	if (!o->quiet) {
		ropts.warn = tool_input_warning;
		ropts.warn_ctx = (void *)f->path;
	}
	if (!tool_input_allowed(f->path, o->rep.force))
		return 1;
	err = pd_reader_open(&f->r, f->path, &ropts);
	if (err) {
		error_msg("%s: %s", f->path, pd_reader_errmsg(f->r));
		return 1;
	}
	if (file_filters(f, f->time))
		return 1;
	f->recording_id = sym_recording_id(f->path);
	f->archive = sym_archive_beside(f->path);
	f->ropts.recording_id = f->recording_id;
	sym_opts_fill(&so, f);
	so.warn = o->quiet ? NULL : print_sym_warning;
	f->syms = sym_ctx_new(&so);
	f->sess = ses_new(f->r, f->syms, &sopts);
	err = ses_run(f->sess, &ops, f);
	if (err) {
		error_msg("%s: %s", f->path, ses_errmsg(f->sess));
		return 1;
	}
	if (!f->rep)
		f->rep = report_new(f);
	rep_report_flush(f->rep);
	file_totals(f);
	return 0;
}

void
pdiff_file_close(struct pdiff_file *f)
{
	rep_report_free(f->rep);
	if (f->sess)
		ses_free(f->sess);
	if (f->syms)
		sym_ctx_free(f->syms);
	pd_reader_close(f->r);
	free(f->ropts.hist.filt.times);
	free(f->archive);
	free(f->recording_id);
	free(f->time);
	free(f->total);
	free(f->total_vis);
}

long
pdiff_evsel_match(const struct pdiff_file *base, size_t e,
		  const struct pdiff_file *f)
{
	const struct pd_evsel *b = pd_reader_evsel(base->r, e);
	size_t i, n = pd_reader_nr_evsels(f->r);

	for (i = 0; i < n; i++) {
		const struct pd_evsel *x = pd_reader_evsel(f->r, i);

		if (x->attr.type == b->attr.type &&
		    x->attr.config == b->attr.config)
			return (long)i;
	}
	return -1;
}
