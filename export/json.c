/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * export/json.c - pexport --to json: what perf 6.1's `perf data convert
 * --to-json` writes, byte for byte: the header's facts, then every
 * sample in time order with its pid, tid, cpu (when the events sample
 * it), comm and its callchain (or its ip) resolved to symbols and DSOs;
 * perf 6.1 writes no tracepoint field.  Tab-indented, one value a line,
 * perf's string escapes.
 */
#include "config.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <string.h>
#include <time.h>

#include "export/export.h"
#include "lib/diag.h"
#include "pdata/abi.h"
#include "pdata/meta.h"

struct json {
	FILE *out;
	struct exp_run *x;
	uint64_t sample_type;		/* of every event together */
	bool first;			/* no sample written yet */
};

/*
 * RFC 8259's short escapes and \u%04x for the other control bytes.  With
 * perf_bytes, as perf's output_json_string() and its signed char test,
 * every byte from 0x80 up too, as a negative int ("\uffffffc3": not
 * JSON, but perf's); without, such bytes (UTF-8) pass as they are.
 */
void
exp_json_string(FILE *out, const char *s, bool perf_bytes)
{
	fputc('"', out);
	for (; *s; s++) {
		switch (*s) {
		case '"': fputs("\\\"", out); break;
		case '\\': fputs("\\\\", out); break;
		case '\b': fputs("\\b", out); break;
		case '\f': fputs("\\f", out); break;
		case '\n': fputs("\\n", out); break;
		case '\r': fputs("\\r", out); break;
		case '\t': fputs("\\t", out); break;
		default:
			if ((unsigned char)*s <= 0x1f ||
			    (perf_bytes && (signed char)*s < 0))
				fprintf(out, "\\u%04x", (int)(signed char)*s);
			else
				fputc(*s, out);
		}
	}
	fputc('"', out);
}

/* A comma when asked, a newline and depth tabs: before each value. */
static void
delim(FILE *out, bool comma, int depth)
{
	if (comma)
		fputc(',', out);
	fputc('\n', out);
	while (depth-- > 0)
		fputc('\t', out);
}

static void PD_PRINTF(5, 6)
key_format(FILE *out, bool comma, int depth, const char *key,
	   const char *fmt, ...)
{
	va_list ap;

	delim(out, comma, depth);
	exp_json_string(out, key, true);
	fputs(": ", out);
	va_start(ap, fmt);
	vfprintf(out, fmt, ap);
	va_end(ap);
}

/* A string value; a missing one is written empty. */
static void
key_string(FILE *out, bool comma, int depth, const char *key,
	   const char *value)
{
	delim(out, comma, depth);
	exp_json_string(out, key, true);
	fputs(": ", out);
	exp_json_string(out, value ? value : "", true);
}

static void
headers(struct json *j)
{
	const struct pd_file_info *info = pd_reader_info(j->x->r);
	const struct pd_meta *m = pd_reader_meta(j->x->r);
	FILE *out = j->out;
	char when[64];
	time_t mtime = (time_t)info->mtime_sec;
	struct tm tm;

	/* perf's header version: 1 for PERFILE2, 0 for PERFFILE */
	key_format(out, false, 2, "header-version", "%u",
		   info->version ? info->version - 1 : 0);
	if (gmtime_r(&mtime, &tm) && strftime(when, sizeof(when),
					      "%FT%TZ", &tm))
		key_string(out, true, 2, "captured-on", when);
	key_format(out, true, 2, "data-offset", "%" PRIu64, info->data_offset);
	key_format(out, true, 2, "data-size", "%" PRIu64, info->data_size);
	key_format(out, true, 2, "feat-offset", "%" PRIu64, info->feat_offset);
	key_string(out, true, 2, "hostname", m->hostname);
	key_string(out, true, 2, "os-release", m->os_release);
	key_string(out, true, 2, "arch", m->arch);
	key_string(out, true, 2, "cpu-desc", m->cpu_desc);
	key_string(out, true, 2, "cpuid", m->cpuid);
	key_format(out, true, 2, "nrcpus-online", "%u", m->nr_cpus_online);
	key_format(out, true, 2, "nrcpus-avail", "%u", m->nr_cpus_avail);
	if (pd_meta_has(m, PD_FEAT_CLOCK_DATA)) {
		key_format(out, true, 2, "clockid", "%u",
			   m->clock_data_clockid);
		key_format(out, true, 2, "clock-time", "%" PRIu64,
			   m->clock_clockid_ns);
		key_format(out, true, 2, "real-time", "%" PRIu64,
			   m->clock_tod_ns);
	}
	key_string(out, true, 2, "perf-version", m->version);
	key_format(out, true, 2, "cmdline", "[");
	for (size_t i = 0; i < m->cmdline.nr; i++) {
		delim(out, i != 0, 3);
		exp_json_string(out, m->cmdline.s[i], true);
	}
	delim(out, false, 2);
	fputc(']', out);
}

/* One callchain entry: the ip, and the symbol and DSO when resolved. */
static void
entry(FILE *out, uint64_t ip, const struct ses_loc *l)
{
	delim(out, false, 4);
	fputc('{', out);
	key_format(out, false, 5, "ip", "\"0x%" PRIx64 "\"", ip);
	if (l && l->sym && l->sym->name[0]) {
		fputc(',', out);
		key_string(out, false, 5, "symbol", l->sym->name);
		if (l->map && l->dso && sym_dso_short_name(l->dso)[0]) {
			fputc(',', out);
			key_string(out, false, 5, "dso",
				   sym_dso_short_name(l->dso));
		}
	}
	delim(out, false, 4);
	fputc('}', out);
}

/*
 * The callchain as recorded: each address looked up in the mode its
 * context marker gives (user before any marker), as perf's converter
 * does, with no correction of return addresses.
 */
static void
callchain(struct json *j, const struct ses_sample *s)
{
	const struct pd_u64_array *cc = &s->raw->callchain;
	uint8_t cpumode = PD_MISC_USER;
	bool first = true;

	for (size_t i = 0; i < cc->nr; i++) {
		uint64_t ip = pd_u64_array_get(cc, i);
		struct ses_loc l;

		if (ip >= PD_CONTEXT_MAX) {
			if (ip == PD_CONTEXT_HV)
				cpumode = PD_MISC_HYPERVISOR;
			else if (ip == PD_CONTEXT_KERNEL)
				cpumode = PD_MISC_KERNEL;
			else if (ip == PD_CONTEXT_USER)
				cpumode = PD_MISC_USER;
			continue;
		}
		if (!first)
			fputc(',', j->out);
		first = false;
		ses_resolve(j->x->ses, s->thread, cpumode, ip, &l);
		entry(j->out, ip, &l);
	}
}

static void
sample(struct json *j, const struct ses_sample *s)
{
	FILE *out = j->out;

	j->x->samples++;
	if (!j->first)
		fputc(',', out);
	j->first = false;
	delim(out, false, 2);
	fputc('{', out);
	key_format(out, false, 3, "timestamp", "%" PRIi64, (int64_t)s->time);
	key_format(out, true, 3, "pid", "%i", s->thread->pid);
	key_format(out, true, 3, "tid", "%i", s->thread->tid);
	if (j->sample_type & PD_SAMPLE_CPU)
		key_format(out, true, 3, "cpu", "%i", (int)s->cpu);
	key_string(out, true, 3, "comm", s->comm);
	key_format(out, true, 3, "callchain", "[");
	if (pd_sample_has(s->raw, PD_SAMPLE_CALLCHAIN))
		callchain(j, s);
	else
		entry(out, s->raw->ip, &s->self);
	delim(out, false, 3);
	fputc(']', out);
	delim(out, false, 2);
	fputc('}', out);
}

static uint64_t
combined_sample_type(struct pd_reader *r)
{
	uint64_t t = 0;

	for (size_t i = 0; i < pd_reader_nr_evsels(r); i++)
		t |= pd_reader_evsel(r, i)->attr.sample_type;
	return t;
}

int
exp_json(struct exp_run *x, void *state)
{
	struct json j = {
		.out = x->out, .x = x, .first = true,
		.sample_type = combined_sample_type(x->r),
	};
	struct ses_event ev;
	int err;

	(void)state;
	fputc('{', j.out);
	delim(j.out, false, 1);
	fputs("\"linux-perf-json-version\": 1", j.out);
	delim(j.out, true, 1);
	fputs("\"headers\": {", j.out);
	headers(&j);
	delim(j.out, false, 1);
	fputc('}', j.out);
	delim(j.out, true, 1);
	fputs("\"samples\": [", j.out);
	while ((err = ses_next(x->ses, &ev)) > 0)
		if (ev.kind == SES_SAMPLE && ev.sample->raw)
			sample(&j, ev.sample);
	delim(j.out, false, 1);
	fputc(']', j.out);
	delim(j.out, false, 0);
	fputs("}\n", j.out);
	if (err < 0) {
		error_msg("%s: %s", x->input, ses_errmsg(x->ses));
		return -1;
	}
	return 0;
}
