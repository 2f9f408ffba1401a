/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * export/speedscope.c - pexport --to speedscope: speedscope's file
 * format (https://www.speedscope.app/file-format-schema.json): the
 * functions as shared frames, and one "sampled" profile per event and
 * thread, its samples in time order (root first), each weighted by its
 * period; a run of samples with the same stack is one weighted sample.
 */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "export/export.h"
#include "lib/u64map.h"
#include "lib/xalloc.h"
#include "pdata/abi.h"

/* One profile: an event's samples in one thread. */
struct thread_seq {
	unsigned int evsel;
	int32_t pid, tid;
	const char *comm;		/* the first sample's */
	uint32_t *stacks;		/* stack of each weighted sample */
	uint64_t *weights;
	size_t nr, cap;
	uint64_t total;
};

struct speedscope {
	struct exp_run *x;
	struct u64map by_thread;	/* (evsel, tid) key -> 1 + seq */
	struct thread_seq *seqs;
	size_t nr_seqs, cap_seqs;
};

static struct thread_seq *
seq_of(struct speedscope *sp, const struct ses_sample *s)
{
	uint64_t key = u64_mix(((uint64_t)s->evsel << 32) ^
			       (uint32_t)s->tid) ^ (uint32_t)s->pid;
	uint64_t *slot = u64map_slot(&sp->by_thread, key);
	struct thread_seq *q;

	/* equal keys of two threads would merge them: check and chain */
	while (*slot) {
		q = &sp->seqs[*slot - 1];
		if (q->evsel == s->evsel && q->pid == s->pid &&
		    q->tid == s->tid)
			return q;
		key = u64_mix(key + 1);
		slot = u64map_slot(&sp->by_thread, key);
	}
	if (sp->nr_seqs == sp->cap_seqs) {
		sp->cap_seqs = sp->cap_seqs ? sp->cap_seqs * 2 : 64;
		sp->seqs = xreallocarray(sp->seqs, sp->cap_seqs,
					 sizeof(*sp->seqs));
	}
	q = &sp->seqs[sp->nr_seqs];
	*q = (struct thread_seq){ .evsel = s->evsel, .pid = s->pid,
				  .tid = s->tid, .comm = s->comm };
	*slot = ++sp->nr_seqs;
	return q;
}

static void
each_sample(void *ctx, const struct ses_sample *s, uint32_t row)
{
	struct speedscope *sp = ctx;
	struct thread_seq *q = seq_of(sp, s);
	uint32_t stack = sp->x->profile.rows[row].stack;

	q->total += s->period;
	if (q->nr && q->stacks[q->nr - 1] == stack) {
		q->weights[q->nr - 1] += s->period;
		return;
	}
	if (q->nr == q->cap) {
		q->cap = q->cap ? q->cap * 2 : 256;
		q->stacks = xreallocarray(q->stacks, q->cap, sizeof(uint32_t));
		q->weights = xreallocarray(q->weights, q->cap,
					   sizeof(uint64_t));
	}
	q->stacks[q->nr] = stack;
	q->weights[q->nr++] = s->period;
}

static void
frames(struct speedscope *sp)
{
	const struct exp_profile *p = &sp->x->profile;
	FILE *out = sp->x->out;

	fputs("\"shared\":{\"frames\":[", out);
	for (size_t i = 0; i < p->nr_funcs; i++) {
		const struct exp_func *f = &p->funcs[i];

		fputs(i ? ",\n{\"name\":" : "\n{\"name\":", out);
		exp_json_string(out, exp_func_name(f), false);
		fputs(",\"file\":", out);
		exp_json_string(out, f->dso_name, false);
		fputc('}', out);
	}
	fputs("]},\n", out);
}

/* The unit of an event's periods: speedscope's "none" for counts. */
static const char *
unit_of(struct pd_reader *r, unsigned int evsel)
{
	return exp_period_in_ns(&pd_reader_evsel(r, evsel)->attr) ?
		"nanoseconds" : "none";
}

static void
profile(struct speedscope *sp, const struct thread_seq *q)
{
	const struct exp_profile *p = &sp->x->profile;
	FILE *out = sp->x->out;
	char name[512];

	snprintf(name, sizeof(name), "%s %" PRIi32 "/%" PRIi32 " %s", q->comm,
		 q->pid, q->tid,
		 pd_evsel_name(pd_reader_evsel(sp->x->r, q->evsel)));
	fputs("{\"type\":\"sampled\",\"name\":", out);
	exp_json_string(out, name, false);
	fprintf(out, ",\"unit\":\"%s\",\"startValue\":0,\"endValue\":%" PRIu64
		",\n\"samples\":[", unit_of(sp->x->r, q->evsel), q->total);
	for (size_t i = 0; i < q->nr; i++) {
		const uint32_t *locs = exp_stack_locs(p, q->stacks[i]);
		size_t n = exp_stack_len(p, q->stacks[i]);

		fputs(i ? ",[" : "[", out);
		for (size_t k = n; k-- > 0;)
			fprintf(out, k + 1 == n ? "%" PRIu32 : ",%" PRIu32,
				p->locs[locs[k]].func);
		fputc(']', out);
	}
	fputs("],\n\"weights\":[", out);
	for (size_t i = 0; i < q->nr; i++)
		fprintf(out, i ? ",%" PRIu64 : "%" PRIu64, q->weights[i]);
	fputs("]}", out);
}

void *
exp_speedscope_start(struct exp_run *x, struct exp_collect_opts *co)
{
	struct speedscope *sp = xcalloc(1, sizeof(*sp));

	sp->x = x;
	co->each = each_sample;
	co->ctx = sp;
	return sp;
}

int
exp_speedscope(struct exp_run *x, void *state)
{
	struct speedscope *sp = state;
	FILE *out = x->out;
	const char *base = strrchr(x->input, '/');

	fputs("{\"$schema\":\"https://www.speedscope.app/file-format-schema"
	      ".json\",\n", out);
	frames(sp);
	fputs("\"profiles\":[", out);
	for (size_t i = 0; i < sp->nr_seqs; i++) {
		fputs(i ? ",\n" : "\n", out);
		profile(sp, &sp->seqs[i]);
	}
	fputs("],\n\"name\":", out);
	exp_json_string(out, base ? base + 1 : x->input, false);
	fputs(",\"activeProfileIndex\":0,\"exporter\":\"pexport@"
	      PACKAGE_VERSION "\"}\n", out);
	for (size_t i = 0; i < sp->nr_seqs; i++) {
		free(sp->seqs[i].stacks);
		free(sp->seqs[i].weights);
	}
	free(sp->seqs);
	u64map_free(&sp->by_thread);
	free(sp);
	return 0;
}
