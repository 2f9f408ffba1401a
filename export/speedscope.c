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
#include "lib/strbuf.h"
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
	/*
	 * Each stack's "[f,f,...]" text, made once: a recording has few
	 * stacks and many samples.  Offsets into text, by stack; 0: not yet.
	 */
	struct strbuf text;
	size_t *text_at, *text_len;
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

/* The text of stack i, "[f,f,...]" root first, made on first use. */
static void
stack_text(struct speedscope *sp, uint32_t i, const char **s, size_t *len)
{
	const struct exp_profile *p = &sp->x->profile;

	if (!sp->text_at) {
		sp->text_at = xcalloc(p->nr_stacks + 1, sizeof(*sp->text_at));
		sp->text_len = xcalloc(p->nr_stacks + 1,
				       sizeof(*sp->text_len));
		sb_addc(&sp->text, ' ');	/* offset 0: not made */
	}
	if (!sp->text_at[i]) {
		const uint32_t *locs = exp_stack_locs(p, i);
		size_t n = exp_stack_len(p, i), at = sp->text.len;

		sb_addc(&sp->text, '[');
		for (size_t k = n; k-- > 0;)
			sb_addf(&sp->text, k + 1 == n ? "%" PRIu32 : ",%" PRIu32,
				p->locs[locs[k]].func);
		sb_addc(&sp->text, ']');
		sp->text_at[i] = at;
		sp->text_len[i] = sp->text.len - at;
	}
	*s = sb_str(&sp->text) + sp->text_at[i];
	*len = sp->text_len[i];
}

/* v in decimal, preceded by a comma unless first: at most 21 bytes at buf */
static size_t
u64_item(char *buf, uint64_t v, bool first)
{
	char digits[20];
	size_t n = 0, len = 0;

	do {
		digits[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	if (!first)
		buf[len++] = ',';
	while (n)
		buf[len++] = digits[--n];
	return len;
}

static void
profile(struct speedscope *sp, const struct thread_seq *q)
{
	FILE *out = sp->x->out;
	char name[512], buf[4096];
	size_t used = 0, len;
	const char *s;

	snprintf(name, sizeof(name), "%s %" PRIi32 "/%" PRIi32 " %s", q->comm,
		 q->pid, q->tid,
		 pd_evsel_name(pd_reader_evsel(sp->x->r, q->evsel)));
	fputs("{\"type\":\"sampled\",\"name\":", out);
	exp_json_string(out, name, false);
	fprintf(out, ",\"unit\":\"%s\",\"startValue\":0,\"endValue\":%" PRIu64
		",\n\"samples\":[", unit_of(sp->x->r, q->evsel), q->total);
	for (size_t i = 0; i < q->nr; i++) {
		if (i)
			fputc(',', out);
		stack_text(sp, q->stacks[i], &s, &len);
		fwrite(s, 1, len, out);
	}
	fputs("],\n\"weights\":[", out);
	for (size_t i = 0; i < q->nr; i++) {
		if (used > sizeof(buf) - 24) {
			fwrite(buf, 1, used, out);
			used = 0;
		}
		used += u64_item(buf + used, q->weights[i], !i);
	}
	fwrite(buf, 1, used, out);
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
	sb_free(&sp->text);
	free(sp->text_at);
	free(sp->text_len);
	u64map_free(&sp->by_thread);
	free(sp);
	return 0;
}
