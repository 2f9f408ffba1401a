/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * report/inspect/dump-kernel.c - preport -D for the kernel's records other than
 * SAMPLE: the rest of perf 6.1's headline for each type (the fprintf
 * hooks of util/event.c), the fields it leaves out, and the sample_id
 * trailer, which perf does not print.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "pdata/events.h"
#include "pdata/reader.h"
#include "pdata/text.h"
#include "lib/xalloc.h"
#include "report/inspect/dump-int.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/*
 * The records whose text perf script prints alike (pd_event_text());
 * -D adds MMAP2's prot and flags in numbers.
 */
static void
dump_shared(const struct rep_dump *d, const struct pd_record *rec,
	    const union pd_event *e)
{
	size_t n = pd_event_text(NULL, 0, rec->header.type, rec->header.misc,
				 e);
	char *text = xmalloc(n + 1);

	pd_event_text(text, n + 1, rec->header.type, rec->header.misc, e);
	fwrite(text, 1, n, d->out);
	free(text);
	if (rec->header.type == PD_RECORD_MMAP2)
		fprintf(d->out, "... prot: %#" PRIx32 ", flags: %#" PRIx32 "\n",
			e->mmap2.prot, e->mmap2.flags);
}

static void
dump_lost(const struct rep_dump *d, const struct pd_record *rec,
	  const union pd_event *e)
{
	fprintf(d->out, ": id:%" PRIu64 ": lost:%" PRIu64 "\n", e->lost.id,
		e->lost.lost);
}

/* FORK and EXIT */
static void
dump_fork(const struct rep_dump *d, const struct pd_record *rec,
	  const union pd_event *e)
{
	fprintf(d->out, "(%d:%d):(%d:%d)\n... time: %" PRIu64 "\n",
		(int)e->fork.pid, (int)e->fork.tid, (int)e->fork.ppid,
		(int)e->fork.ptid, e->fork.time);
}

/* THROTTLE and UNTHROTTLE */
static void
dump_throttle(const struct rep_dump *d, const struct pd_record *rec,
	      const union pd_event *e)
{
	fprintf(d->out, "\n... time: %" PRIu64 ", id: %" PRIu64
		", stream_id: %" PRIu64 "\n", e->throttle.time,
		e->throttle.id, e->throttle.stream_id);
}

static void
dump_read(const struct rep_dump *d, const struct pd_record *rec,
	  const union pd_event *u)
{
	const struct pd_ev_read *e = &u->read;
	const struct pd_read *rd = &e->values;
	struct pd_read_value v = { 0 };
	size_t i;

	pd_read_value_get(rd, 0, &v);
	fprintf(d->out, ": %d %d %s %" PRIu64 "\n", (int)e->pid, (int)e->tid,
		pd_evsel_name(rep_dump_evsel(d, rec)), v.value);
	if (rd->format & PD_FORMAT_TOTAL_TIME_ENABLED)
		fprintf(d->out, "... time enabled : %" PRIu64 "\n",
			rd->time_enabled);
	if (rd->format & PD_FORMAT_TOTAL_TIME_RUNNING)
		fprintf(d->out, "... time running : %" PRIu64 "\n",
			rd->time_running);
	if (!(rd->format & PD_FORMAT_GROUP)) {
		if (rd->format & PD_FORMAT_ID)
			fprintf(d->out, "... id           : %" PRIu64 "\n",
				v.id);
		if (rd->format & PD_FORMAT_LOST)
			fprintf(d->out, "... lost         : %" PRIu64 "\n",
				v.lost);
		return;
	}
	fprintf(d->out, "... group nr: %zu\n", rd->nr);
	for (i = 0; i < rd->nr && pd_read_value_get(rd, i, &v) == 0; i++) {
		fprintf(d->out, "..... value %" PRIu64, v.value);
		if (rd->format & PD_FORMAT_ID)
			fprintf(d->out, ", id %" PRIu64, v.id);
		if (rd->format & PD_FORMAT_LOST)
			fprintf(d->out, ", lost %" PRIu64, v.lost);
		fputc('\n', d->out);
	}
}

static void
dump_aux(const struct rep_dump *d, const struct pd_record *rec,
	 const union pd_event *e)
{
	fprintf(d->out, " offset: %#" PRIx64 " size: %#" PRIx64
		" flags: %#" PRIx64 " [%s%s%s]\n", e->aux.aux_offset,
		e->aux.aux_size, e->aux.flags,
		e->aux.flags & PD_AUX_FLAG_TRUNCATED ? "T" : "",
		e->aux.flags & PD_AUX_FLAG_OVERWRITE ? "O" : "",
		e->aux.flags & PD_AUX_FLAG_PARTIAL ? "P" : "");
	if (e->aux.flags & PD_AUX_FLAG_COLLISION)
		fputs("... collision\n", d->out);
}

static void
dump_itrace_start(const struct rep_dump *d, const struct pd_record *rec,
		  const union pd_event *e)
{
	fprintf(d->out, " pid: %" PRIu32 " tid: %" PRIu32 "\n",
		e->itrace_start.pid, e->itrace_start.tid);
}

static void
dump_lost_samples(const struct rep_dump *d, const struct pd_record *rec,
		  const union pd_event *e)
{
	/* perf prints the sample_id's id, the record has none */
	fprintf(d->out, ": id:%" PRIu64 ": lost samples :%" PRIu64 "\n",
		e->base.sample_id.id, e->lost_samples.lost);
	if (rec->header.misc & PD_MISC_LOST_SAMPLES_BPF)
		fputs("... dropped by a BPF filter\n", d->out);
}

static void
dump_bpf_event(const struct rep_dump *d, const struct pd_record *rec,
	       const union pd_event *e)
{
	fprintf(d->out, " type %" PRIu16 ", flags %" PRIu16 ", id %" PRIu32
		"\n... tag: ", e->bpf.type, e->bpf.flags, e->bpf.id);
	rep_dump_hex(d->out, e->bpf.tag, PD_BPF_TAG_SIZE);
	fputc('\n', d->out);
}

/* perf's text_poke byte lines: 16 per line, no ASCII column. */
static void
dump_poke_bytes(const struct rep_dump *d, const char *what, struct pd_bytes b)
{
	size_t i;

	for (i = 0; i < b.len; i++) {
		if (i % 16 == 0)
			fprintf(d->out, "            %s bytes:", what);
		fprintf(d->out, " %02x", b.p[i]);
		if (i % 16 == 15 || i == b.len - 1)
			fputc('\n', d->out);
	}
}

static void
dump_text_poke(const struct rep_dump *d, const struct pd_record *rec,
	       const union pd_event *e)
{
	fprintf(d->out, " %" PRIx64 "  old len %" PRIu16 " new len %"
		PRIu16 "\n", e->text_poke.addr, e->text_poke.old_len,
		e->text_poke.new_len);
	dump_poke_bytes(d, "Old", e->text_poke.old_bytes);
	dump_poke_bytes(d, "New", e->text_poke.new_bytes);
}

static void
dump_aux_output_hw_id(const struct rep_dump *d, const struct pd_record *rec,
		      const union pd_event *e)
{
	fprintf(d->out, " hw_id: %#" PRIx64 "\n", e->aux_output_hw_id.hw_id);
}

static void
dump_callchain_deferred(const struct rep_dump *d,
			const struct pd_record *rec, const union pd_event *e)
{
	const struct pd_u64_array *ips = &e->callchain_deferred.ips;
	size_t i;

	fprintf(d->out, " cookie: %#" PRIx64 "\n... chain: nr:%zu\n",
		e->callchain_deferred.cookie, ips->nr);
	for (i = 0; i < ips->nr; i++)
		rep_dump_chain_entry(d, i, pd_u64_array_get(ips, i));
}

static void
dump_sample_id(const struct rep_dump *d, const struct pd_sample_id *sid)
{
	FILE *out = d->out;

	if (!sid->type)
		return;
	fputs("... sample_id:", out);
	if (sid->type & PD_SAMPLE_TID)
		fprintf(out, " pid %d tid %d", (int)sid->pid, (int)sid->tid);
	if (sid->type & PD_SAMPLE_TIME)
		fprintf(out, " time %" PRIu64, sid->time);
	if (sid->type & (PD_SAMPLE_ID | PD_SAMPLE_IDENTIFIER))
		fprintf(out, " id %" PRIu64, sid->id);
	if (sid->type & PD_SAMPLE_STREAM_ID)
		fprintf(out, " stream_id %" PRIu64, sid->stream_id);
	if (sid->type & PD_SAMPLE_CPU)
		fprintf(out, " cpu %" PRIu32, sid->cpu);
	fputc('\n', out);
}

#define OP(type_, fn_)	[type_] = { .print = (fn_) }

static const struct rep_dump_ops kernel_ops[] = {
	OP(PD_RECORD_MMAP,		dump_shared),
	OP(PD_RECORD_LOST,		dump_lost),
	OP(PD_RECORD_COMM,		dump_shared),
	OP(PD_RECORD_EXIT,		dump_fork),
	OP(PD_RECORD_THROTTLE,		dump_throttle),
	OP(PD_RECORD_UNTHROTTLE,	dump_throttle),
	OP(PD_RECORD_FORK,		dump_fork),
	OP(PD_RECORD_READ,		dump_read),
	OP(PD_RECORD_MMAP2,		dump_shared),
	OP(PD_RECORD_AUX,		dump_aux),
	OP(PD_RECORD_ITRACE_START,	dump_itrace_start),
	OP(PD_RECORD_LOST_SAMPLES,	dump_lost_samples),
	OP(PD_RECORD_SWITCH,		dump_shared),
	OP(PD_RECORD_SWITCH_CPU_WIDE,	dump_shared),
	OP(PD_RECORD_NAMESPACES,	dump_shared),
	OP(PD_RECORD_KSYMBOL,		dump_shared),
	OP(PD_RECORD_BPF_EVENT,		dump_bpf_event),
	OP(PD_RECORD_CGROUP,		dump_shared),
	OP(PD_RECORD_TEXT_POKE,		dump_text_poke),
	OP(PD_RECORD_AUX_OUTPUT_HW_ID,	dump_aux_output_hw_id),
	OP(PD_RECORD_CALLCHAIN_DEFERRED, dump_callchain_deferred),
};

void
rep_dump_kernel_event(const struct rep_dump *d, const struct pd_record *rec,
		      const union pd_event *e)
{
	uint32_t type = rec->header.type;

	if (type < ARRAY_SIZE(kernel_ops) && kernel_ops[type].print)
		kernel_ops[type].print(d, rec, e);
	else
		fputc('\n', d->out);
	dump_sample_id(d, &e->base.sample_id);
}
