/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * report/unwind-stats.c - preport --unwind-stats: how the user stacks of
 * --call-graph dwarf samples unwound, and for those that stopped early,
 * per reason and per DSO where they stopped, how many samples, with what
 * would have helped (a bigger stack copy, the binary, its CFI).  Every
 * sample is resolved (no stack table), so each one counts where it ended.
 */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "lib/diag.h"
#include "lib/u64map.h"
#include "lib/xalloc.h"
#include "report/report.h"
#include "session/session.h"

/* Samples that ended one way at one DSO. */
struct uw_row {
	enum ses_unwind_end end;
	const char *dso;		/* where it ended: a path, "[unknown]" */
	uint64_t samples;
	uint64_t need;			/* SHORT_COPY: the most any read wanted */
};

struct uw_stats {
	struct u64map index;		/* (end, dso name) -> 1 + row */
	struct uw_row *rows;
	size_t nr, cap;
	uint64_t by_end[SES_UW_BAD_REGS + 1];
	uint64_t unwound;		/* samples with a stack copy */
	uint64_t copy_max;		/* largest copy seen */
	uint32_t copy_asked;		/* largest sample_stack_user asked */
};

static const char *const end_names[] = {
	[SES_UW_SHORT_COPY] = "stack copy too short",
	[SES_UW_NO_BINARY] = "no binary",
	[SES_UW_NO_CFI] = "no CFI",
	[SES_UW_BAD_REGS] = "bad register",
};

static struct uw_row *
row_of(struct uw_stats *st, enum ses_unwind_end end, const char *dso)
{
	uint64_t key = u64_mix(u64map_str_key(dso) + end);
	uint64_t *slot;

	/* equal keys of two rows: look at the next key */
	for (;;) {
		slot = u64map_slot(&st->index, key);
		if (!*slot)
			break;
		if (st->rows[*slot - 1].end == end &&
		    !strcmp(st->rows[*slot - 1].dso, dso))
			return &st->rows[*slot - 1];
		key = u64_mix(key + 1);
	}
	if (st->nr == st->cap) {
		st->cap = st->cap ? st->cap * 2 : 16;
		st->rows = xreallocarray(st->rows, st->cap, sizeof(*st->rows));
	}
	st->rows[st->nr] = (struct uw_row){ .end = end, .dso = dso };
	*slot = ++st->nr;
	return &st->rows[st->nr - 1];
}

static void
add(struct uw_stats *st, struct ses_session *ses, const struct ses_sample *s)
{
	const struct ses_unwind_info *u = &s->unwind;
	struct ses_loc loc;
	struct uw_row *row;

	if (u->end == SES_UW_NONE)
		return;
	st->unwound++;
	st->by_end[u->end]++;
	if (u->copy > st->copy_max)
		st->copy_max = u->copy;
	if (u->end == SES_UW_COMPLETE || u->end == SES_UW_MAX_STACK)
		return;
	ses_resolve(ses, s->thread, PD_MISC_USER, u->pc, &loc);
	row = row_of(st, u->end, loc.dso ? sym_dso_long_name(loc.dso) :
		     "[unknown]");
	row->samples++;
	if (u->need > row->need)
		row->need = u->need;
}

static int
row_cmp(const void *a, const void *b)
{
	const struct uw_row *x = a, *y = b;

	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	if (x->end != y->end)
		return x->end < y->end ? -1 : 1;
	return strcmp(x->dso, y->dso);
}

static double
pct(uint64_t n, uint64_t of)
{
	return of ? 100.0 * (double)n / (double)of : 0;
}

/*
 * The --call-graph dwarf,SIZE that would hold the most a read wanted:
 * a multiple of 1024 at least twice that (the next frames lie further
 * up), within perf's limit of 65528 bytes; 0 when even that is short.
 */
static uint64_t
suggested_size(uint64_t need)
{
	uint64_t size = (need * 2 + 1023) / 1024 * 1024;

	if (need > 65528)
		return 0;
	return size > 65528 ? 65528 : size;
}

static void
print_hints(FILE *out, const struct uw_stats *st)
{
	uint64_t need = 0, size;

	for (size_t i = 0; i < st->nr; i++)
		if (st->rows[i].end == SES_UW_SHORT_COPY &&
		    st->rows[i].need > need)
			need = st->rows[i].need;
	if (need) {
		size = suggested_size(need);
		if (size)
			fprintf(out, "# Hint: stacks needed %" PRIu64 " bytes or more "
				"of the %u copied; record with --call-graph "
				"dwarf,%" PRIu64 "\n", need, st->copy_asked, size);
		else
			fprintf(out, "# Hint: stacks needed %" PRIu64 " bytes or more, "
				"above perf's limit of 65528: use --call-graph "
				"fp (with -fno-omit-frame-pointer) or lbr\n",
				need);
	}
	if (st->by_end[SES_UW_NO_BINARY])
		fprintf(out, "# Hint: no binary: the file is not here (use "
			"--symfs, or record with --archive), or the code is "
			"not in a file (JIT, anonymous memory)\n");
	if (st->by_end[SES_UW_NO_CFI])
		fprintf(out, "# Hint: no CFI: install the binary's debug info, "
			"or build it with -fasynchronous-unwind-tables\n");
}

static void
print_stats(FILE *out, struct uw_stats *st)
{
	uint64_t early = st->unwound - st->by_end[SES_UW_COMPLETE] -
		st->by_end[SES_UW_MAX_STACK];

	fprintf(out, "# Unwinding of the user stacks (--call-graph dwarf,%u): "
		"%" PRIu64 " samples\n#\n", st->copy_asked, st->unwound);
	fprintf(out, "# %10s  %7s  %s\n", "Samples", "Share", "Unwinding");
	fprintf(out, "  %10" PRIu64 "  %6.2f%%  reached the outermost frame\n",
		st->by_end[SES_UW_COMPLETE],
		pct(st->by_end[SES_UW_COMPLETE], st->unwound));
	fprintf(out, "  %10" PRIu64 "  %6.2f%%  stopped at --max-stack\n",
		st->by_end[SES_UW_MAX_STACK],
		pct(st->by_end[SES_UW_MAX_STACK], st->unwound));
	fprintf(out, "  %10" PRIu64 "  %6.2f%%  stopped early\n", early,
		pct(early, st->unwound));
	if (!st->nr)
		return;
	qsort(st->rows, st->nr, sizeof(*st->rows), row_cmp);
	fprintf(out, "#\n# Stopped early, by reason and the DSO of the last "
		"frame found:\n#\n");
	fprintf(out, "# %10s  %7s  %-20s  %s\n", "Samples", "Share", "Reason",
		"DSO");
	for (size_t i = 0; i < st->nr; i++)
		fprintf(out, "  %10" PRIu64 "  %6.2f%%  %-20s  %s\n",
			st->rows[i].samples,
			pct(st->rows[i].samples, st->unwound),
			end_names[st->rows[i].end], st->rows[i].dso);
	fprintf(out, "#\n");
	print_hints(out, st);
}

/*
 * With PDATA_UNWIND_CHECK set, the unwinder's check of its fast walk
 * against the slow way (doc/perf-records.md §7.16).
 */
static void
print_check(FILE *out, const struct ses_session *sess)
{
	struct ses_unwind_check c;

	ses_unwind_check(sess, &c);
	if (!c.on)
		return;
	fprintf(out, "# Unwinder check: %" PRIu64 " fast, %" PRIu64 " slow, "
		"%" PRIu64 " differ", c.fast, c.slow, c.differ);
	if (c.differ)
		fprintf(out, " (the first at %" PRIu64 ")", c.first_time);
	fprintf(out, "\n");
}

static bool
kept(const struct rep_filters *f, const struct ses_sample *s)
{
	if (f->cpus && (s->cpu >= f->nr_cpus || !f->cpus[s->cpu]))
		return false;
	return rep_filter_keeps_time(f, s->time) &&
	       rep_filter_keeps_thread(f, s->thread);
}

static uint32_t
stack_size_asked(struct pd_reader *r)
{
	uint32_t size = 0;

	for (size_t i = 0; i < pd_reader_nr_evsels(r); i++) {
		const struct pd_attr *a = &pd_reader_evsel(r, i)->attr;

		if (a->sample_stack_user > size)
			size = a->sample_stack_user;
	}
	return size;
}

int
rep_unwind_stats_run(FILE *out, struct pd_reader *r,
		     struct rep_report_opts *o, const char *archive)
{
	const struct pd_meta *meta = pd_reader_meta(r);
	struct ses_opts sopts = {
		.max_stack = o->max_stack,
		.threads = ses_threads_default(),
	};
	struct uw_stats st = { .index = U64MAP_INIT };
	struct ses_session *sess;
	struct sym_ctx *syms;
	struct sym_opts so;
	struct ses_event ev;
	char errbuf[256];
	int err;

	if (meta && rep_filter_resolve_time(&o->hist.filt,
					    meta->first_sample_time,
					    meta->last_sample_time, errbuf,
					    sizeof(errbuf))) {
		error_msg("%s", errbuf);
		return 1;
	}
	rep_sym_opts_init(&so, r, o, archive);
	syms = sym_ctx_new(&so);
	sess = ses_new(r, syms, &sopts);
	while ((err = ses_next(sess, &ev)) > 0)
		if (ev.kind == SES_SAMPLE && kept(&o->hist.filt, ev.sample))
			add(&st, sess, ev.sample);
	if (err < 0)
		err = rep_session_error(r, sess);
	st.copy_asked = stack_size_asked(r);
	if (err >= 0 && !st.unwound)
		fprintf(out, "# No sample has user registers and a stack copy "
			"to unwind: record with --call-graph dwarf\n");
	else if (err >= 0)
		print_stats(out, &st);
	if (err >= 0)
		print_check(out, sess);
	ses_free(sess);
	sym_ctx_free(syms);
	free(st.rows);
	u64map_free(&st.index);
	return err;
}
