/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * report/inspect/dump-user.c - preport -D for the records perf itself writes
 * (type 64 and up): the rest of perf 6.1's headline where it prints one,
 * and every field beneath it.
 */
#include "config.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>

#include "pdata/events.h"
#include "pdata/reader.h"
#include "report/inspect/dump-int.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* The header of a pipe-mode stream */

static void
dump_attr(const struct rep_dump *d, const struct pd_attr *a)
{
	fprintf(d->out, "... attr: type %" PRIu32 ", size %" PRIu32
		", config %#" PRIx64 ", config1 %#" PRIx64 ", config2 %#"
		PRIx64 ", config3 %#" PRIx64 "\n", a->type, a->size, a->config,
		a->config1, a->config2, a->config3);
	fprintf(d->out, "... attr: %s %" PRIu64 ", sample_type %#" PRIx64
		", read_format %#" PRIx64 ", flags %#" PRIx64 "\n",
		pd_attr_has(a, PD_ATTR_FREQ) ? "sample_freq" : "sample_period",
		a->sample_period, a->sample_type, a->read_format, a->flags);
	fprintf(d->out, "... attr: branch_sample_type %#" PRIx64
		", sample_regs_user %#" PRIx64 ", sample_stack_user %" PRIu32
		", sample_regs_intr %#" PRIx64 ", clockid %" PRId32 "\n",
		a->branch_sample_type, a->sample_regs_user,
		a->sample_stack_user, a->sample_regs_intr, a->clockid);
	fprintf(d->out, "... attr: wakeup %" PRIu32 ", bp_type %" PRIu32
		", aux_watermark %" PRIu32 ", sample_max_stack %" PRIu16
		", aux_sample_size %" PRIu32 ", aux_action %#" PRIx32
		", sig_data %#" PRIx64 "\n", a->wakeup_events, a->bp_type,
		a->aux_watermark, a->sample_max_stack, a->aux_sample_size,
		a->aux_action, a->sig_data);
}

static void
dump_header_attr(const struct rep_dump *d, const struct pd_record *rec,
		 const union pd_event *e)
{
	FILE *out = d->out;
	size_t i;

	fputc('\n', out);
	dump_attr(d, &e->attr.attr);
	fprintf(out, "... ids: %zu", e->attr.ids.nr);
	for (i = 0; i < e->attr.ids.nr; i++)
		fprintf(out, "%s%" PRIu64, i ? ", " : " (",
			pd_u64_array_get(&e->attr.ids, i));
	fputs(e->attr.ids.nr ? ")\n" : "\n", out);
}

static void
dump_event_type(const struct rep_dump *d, const struct pd_record *rec,
		const union pd_event *e)
{
	fprintf(d->out, "\n... event_id: %" PRIu64 ", name: ",
		e->event_type.event_id);
	rep_dump_str(d->out, e->event_type.name);
	fputc('\n', d->out);
}

static void
dump_tracing_data(const struct rep_dump *d, const struct pd_record *rec,
		  const union pd_event *e)
{
	fprintf(d->out, "\n... size: %" PRIu32 "\n", e->tracing_data.size);
}

static void
dump_build_id(const struct rep_dump *d, const struct pd_record *rec,
	      const union pd_event *e)
{
	FILE *out = d->out;

	fprintf(out, "\n... pid: %d, build_id: ", (int)e->build_id.pid);
	rep_dump_hex(out, e->build_id.build_id, e->build_id.size);
	fputs(", filename: ", out);
	rep_dump_str(out, e->build_id.filename);
	fputc('\n', out);
}

static void
dump_feature(const struct rep_dump *d, const struct pd_record *rec,
	     const union pd_event *e)
{
	const char *name = pd_feature_name((unsigned int)e->feature.feat_id);

	fprintf(d->out, "\n... feature: %" PRIu64 " (%s), %zu bytes\n",
		e->feature.feat_id, name ? name : "unknown",
		e->feature.payload.len);
}

/* Event ids, threads and CPUs */

static void
dump_id_index(const struct rep_dump *d, const struct pd_record *rec,
	      const union pd_event *e)
{
	FILE *out = d->out;
	size_t i;

	fprintf(out, " nr: %zu\n", e->id_index.nr);
	for (i = 0; i < e->id_index.nr; i++) {
		struct pd_id_index_entry x;

		pd_id_index_get(&e->id_index, i, &x);
		fprintf(out, " ... id: %" PRIu64 "  idx: %" PRIu64
			"  cpu: %" PRId64 "  tid: %" PRId64, x.id,
			x.idx, (int64_t)x.cpu, (int64_t)x.tid);
		if (e->id_index.has_vm)
			fprintf(out, "  machine_pid: %" PRId64
				"  vcpu: %" PRIu64,
				(int64_t)x.machine_pid, x.vcpu);
		fputc('\n', out);
	}
}

static void
dump_thread_map(const struct rep_dump *d, const struct pd_record *rec,
		const union pd_event *e)
{
	FILE *out = d->out;
	size_t i;

	fprintf(out, " nr: %zu thread%s: ", e->thread_map.nr,
		e->thread_map.nr > 1 ? "s" : "");
	for (i = 0; i < e->thread_map.nr; i++) {
		struct pd_thread_map_entry t;

		pd_thread_map_get(&e->thread_map, i, &t);
		fprintf(out, "%s%d", i ? ", " : "", (int)t.pid);
	}
	fputc('\n', out);
	for (i = 0; i < e->thread_map.nr; i++) {
		struct pd_thread_map_entry t;

		pd_thread_map_get(&e->thread_map, i, &t);
		fprintf(out, "... thread %d: ", (int)t.pid);
		rep_dump_str(out, t.comm);
		fputc('\n', out);
	}
}

/* perf's cpu list: runs of consecutive CPUs as "a-b" (cpu_map__snprint). */
static void
print_cpu_map(FILE *out, const struct pd_cpu_map *m)
{
	size_t pos = 0;
	int cpu, start = 0, prev = 0;
	bool have = false, first = true;

	for (;;) {
		bool more = pd_cpu_map_next(m, &pos, &cpu) == 1;

		if (have && (!more || cpu != prev + 1)) {
			fprintf(out, start == prev ? "%s%d" : "%s%d-%d",
				first ? "" : ",", start, prev);
			first = false;
			have = false;
		}
		if (!more)
			break;
		if (!have)
			start = cpu;
		prev = cpu;
		have = true;
	}
	fputc('\n', out);
}

static void
dump_cpu_map(const struct rep_dump *d, const struct pd_record *rec,
	     const union pd_event *e)
{
	fputs(": ", d->out);
	print_cpu_map(d->out, &e->cpu_map.map);
}

/* AUX area tracing */

static void
dump_auxtrace_info(const struct rep_dump *d, const struct pd_record *rec,
		   const union pd_event *e)
{
	size_t i;

	fprintf(d->out, " type: %" PRIu32 "\n", e->auxtrace_info.type);
	for (i = 0; i < e->auxtrace_info.priv.nr; i++)
		fprintf(d->out, "... priv[%zu]: %#" PRIx64 "\n", i,
			pd_u64_array_get(&e->auxtrace_info.priv, i));
}

static void
dump_auxtrace(const struct rep_dump *d, const struct pd_record *rec,
	      const union pd_event *e)
{
	fprintf(d->out, " size: %#" PRIx64 "  offset: %#" PRIx64
		"  ref: %#" PRIx64 "  idx: %" PRIu32 "  tid: %d  cpu: %d\n",
		e->auxtrace.size, e->auxtrace.offset, e->auxtrace.reference,
		e->auxtrace.idx, (int)e->auxtrace.tid, (int)e->auxtrace.cpu);
}

static void
dump_auxtrace_error(const struct rep_dump *d, const struct pd_record *rec,
		    const union pd_event *e)
{
	const struct pd_ev_auxtrace_error *x = &e->auxtrace_error;
	FILE *out = d->out;

	fprintf(out, " %s error type %" PRIu32,
		x->type == 1 ? "instruction trace" : "unknown", x->type);
	if (x->fmt && x->time)
		fprintf(out, " time %" PRIu64 ".%09" PRIu64,
			x->time / 1000000000, x->time % 1000000000);
	else
		fputs(" time 0", out);
	if (x->fmt >= 2 && x->machine_pid)
		fprintf(out, " machine_pid %d vcpu %d", (int)x->machine_pid,
			(int)x->vcpu);
	fprintf(out, " cpu %d pid %d tid %d ip %#" PRIx64 " code %" PRIu32
		": ", (int)x->cpu, (int)x->pid, (int)x->tid, x->ip, x->code);
	rep_dump_str(out, x->msg);
	fputc('\n', out);
}

/* perf stat */

static const char *
stat_config_tag_name(uint64_t tag)
{
	static const char *const names[] = {
		"aggr_mode", "interval", "scale", "aggr_level",
	};

	return tag < ARRAY_SIZE(names) ? names[tag] : NULL;
}

static void
dump_stat_config(const struct rep_dump *d, const struct pd_record *rec,
		 const union pd_event *e)
{
	const struct pd_u64_array *entries = &e->stat_config.entries;
	size_t i;

	fputc('\n', d->out);
	for (i = 0; i < e->stat_config.nr; i++) {
		uint64_t tag = pd_u64_array_get(entries, 2 * i);
		uint64_t val = pd_u64_array_get(entries, 2 * i + 1);
		const char *name = stat_config_tag_name(tag);

		if (name)
			fprintf(d->out, "... %-9s %" PRIu64 "\n", name, val);
		else
			fprintf(d->out, "... tag %" PRIu64 " %" PRIu64 "\n",
				tag, val);
	}
}

static void
dump_stat(const struct rep_dump *d, const struct pd_record *rec,
	  const union pd_event *e)
{
	fprintf(d->out, "\n... id %" PRIu64 ", cpu %d, thread %d\n"
		"... value %" PRIu64 ", enabled %" PRIu64 ", running %"
		PRIu64 "\n", e->stat.id, (int)e->stat.cpu,
		(int)e->stat.thread, e->stat.val, e->stat.ena, e->stat.run);
}

static void
dump_stat_round(const struct rep_dump *d, const struct pd_record *rec,
		const union pd_event *e)
{
	fprintf(d->out, "\n... time %" PRIu64 ", type %s\n",
		e->stat_round.time,
		e->stat_round.type == 1 ? "FINAL" : "INTERVAL");
}

static void
dump_event_update(const struct rep_dump *d, const struct pd_record *rec,
		  const union pd_event *e)
{
	const struct pd_ev_event_update *u = &e->event_update;
	FILE *out = d->out;

	fprintf(out, "\n... id:    %" PRIu64 "\n", u->id);
	switch (u->type) {
	case PD_EVENT_UPDATE_SCALE:
		fprintf(out, "... scale: %f\n", u->scale);
		break;
	case PD_EVENT_UPDATE_UNIT:
		fputs("... unit:  ", out);
		rep_dump_str(out, u->str);
		fputc('\n', out);
		break;
	case PD_EVENT_UPDATE_NAME:
		fputs("... name:  ", out);
		rep_dump_str(out, u->str);
		fputc('\n', out);
		break;
	case PD_EVENT_UPDATE_CPUS:
		fputs("... ", out);
		print_cpu_map(out, &u->cpus);
		break;
	default:
		fputs("... unknown type\n", out);
		break;
	}
}

/* Time, compression and the rest */

static void
dump_time_conv(const struct rep_dump *d, const struct pd_record *rec,
	       const union pd_event *e)
{
	const struct pd_ev_time_conv *t = &e->time_conv;

	/* "Muliplier" is perf's spelling */
	fprintf(d->out, "\n... Time Shift      %" PRIu64
		"\n... Time Muliplier  %" PRIu64
		"\n... Time Zero       %" PRIu64 "\n",
		t->time_shift, t->time_mult, t->time_zero);
	if (t->has_cycles)
		fprintf(d->out, "... Time Cycles     %" PRIu64
			"\n... Time Mask       %#" PRIx64
			"\n... Cap Time Zero   %d"
			"\n... Cap Time Short  %d\n", t->time_cycles,
			t->time_mask, t->cap_user_time_zero,
			t->cap_user_time_short);
}

/* COMPRESSED and COMPRESSED2 */
static void
dump_compressed(const struct rep_dump *d, const struct pd_record *rec,
		const union pd_event *e)
{
	fprintf(d->out, "\n... data size: %" PRIu64 "\n",
		e->compressed.data_size);
}

static void
dump_bpf_metadata(const struct rep_dump *d, const struct pd_record *rec,
		  const union pd_event *e)
{
	FILE *out = d->out;
	size_t i;

	fputs("\n... prog_name: ", out);
	rep_dump_str(out, e->bpf_metadata.prog_name);
	fputc('\n', out);
	for (i = 0; i < e->bpf_metadata.nr_entries; i++) {
		struct pd_bpf_metadata_entry m;

		pd_bpf_metadata_get(&e->bpf_metadata, i, &m);
		fputs("... ", out);
		rep_dump_str(out, m.key);
		fputs(" = ", out);
		rep_dump_str(out, m.value);
		fputc('\n', out);
	}
}

/* SCHEDSTAT_CPU and SCHEDSTAT_DOMAIN */
static void
dump_schedstat(const struct rep_dump *d, const struct pd_record *rec,
	       const union pd_event *e)
{
	fprintf(d->out, "\n... cpu %" PRIu32 ", domain %" PRIu16
		", version %" PRIu16 ", timestamp %" PRIu64
		", %zu bytes of counters\n", e->schedstat.cpu,
		e->schedstat.domain, e->schedstat.version,
		e->schedstat.timestamp, e->schedstat.counters.len);
}

#define OP(type_, fn_)						\
	[(type_) - PD_RECORD_USER_TYPE_START] = { .print = (fn_) }

/* FINISHED_ROUND and FINISHED_INIT carry nothing but the header */
static const struct rep_dump_ops user_ops[] = {
	OP(PD_RECORD_HEADER_ATTR,		dump_header_attr),
	OP(PD_RECORD_HEADER_EVENT_TYPE,		dump_event_type),
	OP(PD_RECORD_HEADER_TRACING_DATA,	dump_tracing_data),
	OP(PD_RECORD_HEADER_BUILD_ID,		dump_build_id),
	OP(PD_RECORD_ID_INDEX,			dump_id_index),
	OP(PD_RECORD_AUXTRACE_INFO,		dump_auxtrace_info),
	OP(PD_RECORD_AUXTRACE,			dump_auxtrace),
	OP(PD_RECORD_AUXTRACE_ERROR,		dump_auxtrace_error),
	OP(PD_RECORD_THREAD_MAP,		dump_thread_map),
	OP(PD_RECORD_CPU_MAP,			dump_cpu_map),
	OP(PD_RECORD_STAT_CONFIG,		dump_stat_config),
	OP(PD_RECORD_STAT,			dump_stat),
	OP(PD_RECORD_STAT_ROUND,		dump_stat_round),
	OP(PD_RECORD_EVENT_UPDATE,		dump_event_update),
	OP(PD_RECORD_TIME_CONV,			dump_time_conv),
	OP(PD_RECORD_HEADER_FEATURE,		dump_feature),
	OP(PD_RECORD_COMPRESSED,		dump_compressed),
	OP(PD_RECORD_COMPRESSED2,		dump_compressed),
	OP(PD_RECORD_BPF_METADATA,		dump_bpf_metadata),
	OP(PD_RECORD_SCHEDSTAT_CPU,		dump_schedstat),
	OP(PD_RECORD_SCHEDSTAT_DOMAIN,		dump_schedstat),
};

void
rep_dump_user_event(const struct rep_dump *d, const struct pd_record *rec,
		    const union pd_event *e)
{
	uint32_t type = rec->header.type;
	size_t i = type - PD_RECORD_USER_TYPE_START;

	if (type >= PD_RECORD_USER_TYPE_START && i < ARRAY_SIZE(user_ops) &&
	    user_ops[i].print)
		user_ops[i].print(d, rec, e);
	else
		fputc('\n', d->out);
}
