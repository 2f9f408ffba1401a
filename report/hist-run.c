/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * report/hist-run.c - the report mode from file to text: sort keys and
 * columns from the options (perf 6.1 util/sort.c setup_sorting()), the
 * event groups (HEADER_GROUP_DESC, --group), the session run and the
 * printing.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/diag.h"
#include "lib/u64map.h"
#include "lib/xalloc.h"
#include "pdata/abi.h"
#include "pdata/meta.h"
#include "pdata/records.h"
#include "report/hist/branch.h"
#include "report/hist/mem.h"
#include "session/trace.h"
#include "report/hist/hist.h"
#include "report/inspect/inspect.h"
#include "report/report.h"
#include "session/session.h"

/* The evsels' groups: perf's process_group_desc(), or --group's forced one. */
struct groups {
	size_t n;
	unsigned int *leader, *member, *nr_members, *file_members;
	bool forced;
};

static void
groups_from_desc(struct groups *g, const struct pd_meta *meta)
{
	size_t i, gi = 0;
	unsigned int left = 0, lead = 0;

	for (i = 0; i < g->n; i++) {
		if (gi < meta->nr_groups && meta->groups[gi].leader_idx == i &&
		    left == 0) {
			lead = (unsigned int)i;
			g->file_members[i] = meta->groups[gi].nr_members;
			left = meta->groups[gi].nr_members ?
				meta->groups[gi].nr_members - 1 : 0;
			gi++;
		} else if (left) {
			g->leader[i] = lead;
			g->member[i] = g->member[i - 1] + 1;
			left--;
		}
	}
}

static void
groups_setup(struct groups *g, struct pd_reader *r, const struct rep_report_opts *o)
{
	const struct pd_meta *meta = pd_reader_meta(r);
	size_t i, n = pd_reader_nr_evsels(r);

	g->n = n;
	g->leader = xcalloc(n ? n : 1, sizeof(unsigned int));
	g->member = xcalloc(n ? n : 1, sizeof(unsigned int));
	g->nr_members = xcalloc(n ? n : 1, sizeof(unsigned int));
	g->file_members = xcalloc(n ? n : 1, sizeof(unsigned int));
	for (i = 0; i < n; i++) {
		g->leader[i] = (unsigned int)i;
		g->file_members[i] = 1;
	}
	if (meta && meta->nr_groups) {
		groups_from_desc(g, meta);
	} else if (o->group_set && n > 1) {
		for (i = 0; i < n; i++) {
			g->leader[i] = 0;
			g->member[i] = (unsigned int)i;
		}
		g->file_members[0] = (unsigned int)n;
		g->forced = true;
	}
	if (!o->group) {
		for (i = 0; i < n; i++) {
			g->leader[i] = (unsigned int)i;
			g->member[i] = 0;
		}
	}
	for (i = 0; i < n; i++)
		g->nr_members[g->leader[i]]++;
}

static void
groups_free(struct groups *g)
{
	free(g->leader);
	free(g->member);
	free(g->nr_members);
	free(g->file_members);
}

/* evsel__group_desc(): "anon group { a, b }", or "a, b" when forced. */
static char *
group_title(struct pd_reader *r, const struct groups *g, size_t lead)
{
	const struct pd_meta *meta = pd_reader_meta(r);
	const char *gname = "anon group";
	size_t i, len = 64, k;
	char *buf;

	for (i = 0; meta && i < meta->nr_groups; i++)
		if (meta->groups[i].leader_idx == lead && meta->groups[i].name &&
		    strcmp(meta->groups[i].name, "{anon_group}"))
			gname = meta->groups[i].name;
	len += strlen(gname);
	for (i = 0; i < g->n; i++)
		if (g->leader[i] == lead)
			len += strlen(pd_evsel_name(pd_reader_evsel(r, i))) + 2;
	buf = xmalloc(len);
	k = g->forced ? 0 : (size_t)snprintf(buf, len, "%s { ", gname);
	for (i = 0; i < g->n; i++) {
		if (g->leader[i] != lead)
			continue;
		k += (size_t)snprintf(buf + k, len - k, "%s%s", i == lead ? "" : ", ",
				      pd_evsel_name(pd_reader_evsel(r, i)));
	}
	if (!g->forced)
		snprintf(buf + k, len - k, " }");
	return buf;
}

struct run {
	struct pd_reader *r;
	struct rep_report_opts *o;
	struct groups g;
	struct rep_report *rep;
	struct rep_branch_mode *bm;	/* branch mode (branch.c), or NULL */
	/* samples added one by one (mem.c): memory mode, value keys; or NULL */
	struct rep_mem_mode *mm;
	struct ses_session *sess;
	uint64_t lost_samples;
	bool has_callchain;
	bool progress;			/* stderr is a terminal */
	bool failed;			/* the columns could not be set up */
	uint64_t nr_samples;
	/* --switch-on/--switch-off: their evsels (-1: none), and the state */
	long on, off;
	bool discarding;
	struct rep_thread_values threads;	/* -T */
	struct u64map cgroups;		/* CGROUP records: id -> name (owned) */
	struct ses_trace *trace;	/* the trace key's formatter, or NULL */
	bool trace_tried;		/* ses_trace_new() was called */
	bool trace_kernel;		/* it resolves kernel addresses */
	struct strbuf trace_text;
	struct strbuf field_text;
};

static bool
file_has_callchain(struct pd_reader *r)
{
	size_t i, n = pd_reader_nr_evsels(r);

	for (i = 0; i < n; i++)
		if (pd_reader_evsel(r, i)->attr.sample_type & PD_SAMPLE_CALLCHAIN)
			return true;
	return false;
}

/* The file's tracing data, read once; NULL when it has none. */
static struct ses_trace *
run_trace(struct run *run)
{
	if (!run->trace_tried) {
		run->trace = ses_trace_new(run->r);
		run->trace_tried = true;
	}
	/* as perf, which has no tracing data yet when a stream starts */
	if (run->trace && run->sess && !run->trace_kernel && !run->o->pipe) {
		ses_trace_resolve_kernel(run->trace, run->sess);
		run->trace_kernel = true;
	}
	return run->trace;
}

/*
 * perf's get_trace_output(): the sample's raw data through its event's
 * print fmt, as a record of CPU 0, or its fields with --raw-trace; ""
 * when the file has no tracing data.
 */
static const char *
trace_text(void *ctx, unsigned int evsel, const struct pd_sample *ps,
	   size_t *n)
{
	struct run *run = ctx;
	const struct pd_attr *attr = &pd_reader_evsel(run->r, evsel)->attr;
	struct pd_sample cpu0;

	if (attr->type != PD_TYPE_TRACEPOINT)
		return NULL;
	sb_reset(&run->trace_text);
	run_trace(run);
	cpu0 = *ps;
	cpu0.cpu = 0;
	if (run->trace && run->o->raw_trace)
		ses_trace_format_fields(run->trace, attr, &cpu0, &run->trace_text);
	else if (run->trace)
		ses_trace_format(run->trace, attr, &cpu0, &run->trace_text);
	*n = run->trace_text.len;
	return run->trace_text.len ? run->trace_text.s : "";
}

/* What the run holds of the tracing data, given back. */
static void
run_end(struct run *run)
{
	/* the fields' names lived in the tracing data */
	run->o->hist.field_resolver = NULL;
	run->o->hist.nr_fields = 0;
	ses_trace_free(run->trace);
	run->trace = NULL;
	sb_free(&run->trace_text);
	sb_free(&run->field_text);
}

/* A raw field's text (perf's tep_print_field()). */
static const char *
field_text(void *ctx, const struct rep_field *f, const unsigned char *raw,
	   size_t len)
{
	struct run *run = ctx;
	struct ses_trace_field tf = {
		.name = f->name, .offset = f->offset, .size = f->size,
		.big_endian = f->big_endian, .handle = f->handle,
	};

	sb_reset(&run->field_text);
	ses_trace_format_field(&tf, raw, len, &run->field_text);
	return run->field_text.len ? run->field_text.s : "";
}

static bool
is_tracepoint(struct pd_reader *r, size_t evsel)
{
	return pd_reader_evsel(r, evsel)->attr.type == PD_TYPE_TRACEPOINT;
}

/*
 * perf's find_evsel(): "%N" the Nth event, a name with ':' the event of
 * that name, else the one event whose name holds it; -1 for none.
 */
static long
field_evsel(struct pd_reader *r, const char *name)
{
	size_t n = pd_reader_nr_evsels(r), i;
	long found = -1, nr;

	if (name[0] == '%') {
		nr = strtol(name + 1, NULL, 0);
		if (nr > (long)n || !n)
			return -1;
		return nr > 1 ? nr - 1 : 0;
	}
	for (i = 0; i < n; i++) {
		const char *ev = pd_evsel_name(pd_reader_evsel(r, i));

		if (strchr(name, ':')) {
			if (!strcmp(ev, name))
				return (long)i;
		} else if (strstr(ev, name)) {
			if (found >= 0)
				return -1;	/* ambiguous */
			found = (long)i;
		}
	}
	return found;
}

static int
add_field(struct rep_hist_opts *o, size_t evsel,
	  const struct ses_trace_field *tf, bool raw)
{
	struct rep_field f = {
		.evsel = (unsigned int)evsel,
		.name = tf->name,
		.offset = tf->offset,
		.size = tf->size,
		.dynamic = (tf->flags & SES_TRACE_FIELD_DYNAMIC) != 0,
		.relative = (tf->flags & SES_TRACE_FIELD_RELATIVE) != 0,
		.string = (tf->flags & SES_TRACE_FIELD_STRING) != 0,
		.big_endian = tf->big_endian,
		.raw = raw,
		.handle = tf->handle,
	};

	return rep_hist_add_field(o, &f) < 0 ? -1 : 0;
}

/* perf's add_evsel_fields(): every field of the event, common ones left out. */
static int
add_event_fields(struct run *run, struct rep_hist_opts *o, size_t evsel,
		 bool raw)
{
	struct ses_trace_field tf[REP_MAX_FIELDS];
	uint64_t id = pd_reader_evsel(run->r, evsel)->attr.config;
	long n = ses_trace_event_fields(run->trace, id, tf, REP_MAX_FIELDS);
	long i;

	if (n > REP_MAX_FIELDS)
		return -1;
	for (i = 0; i < n; i++)
		if (add_field(o, evsel, &tf[i], raw))
			return -1;
	return 0;
}

/* The field named name of evsel, a tracepoint: 1 added, 0 none, -1 too many. */
static int
add_named_field(struct run *run, struct rep_hist_opts *o, size_t evsel,
		const char *name, bool raw)
{
	struct ses_trace_field tf;
	uint64_t id = pd_reader_evsel(run->r, evsel)->attr.config;

	if (ses_trace_find_field(run->trace, id, name, &tf))
		return 0;
	return add_field(o, evsel, &tf, raw) ? -1 : 1;
}

/* perf's add_dynamic_entry() on "[event.]field[/raw]" split into its parts. */
static int
add_fields(struct run *run, struct rep_hist_opts *o, const char *event,
	   const char *field, bool raw)
{
	size_t n = pd_reader_nr_evsels(run->r), i;
	int found = 0, ret;
	long ev;

	if (!strcmp(field, "trace_fields")) {
		for (i = 0; i < n; i++)
			if (is_tracepoint(run->r, i) &&
			    add_event_fields(run, o, i, raw))
				return -1;
		return 0;
	}
	if (!event) {
		for (i = 0; i < n; i++) {
			if (!is_tracepoint(run->r, i))
				continue;
			ret = add_named_field(run, o, i, field, raw);
			if (ret < 0)
				return -1;
			found |= ret;
		}
		return found ? 0 : -1;
	}
	ev = field_evsel(run->r, event);
	if (ev < 0 || !is_tracepoint(run->r, (size_t)ev))
		return -1;
	if (!strcmp(field, "*"))
		return add_event_fields(run, o, (size_t)ev, raw);
	return add_named_field(run, o, (size_t)ev, field, raw) > 0 ? 0 : -1;
}

/* The sort keys naming tracepoint fields (rep_field_resolver). */
static int
resolve_field_key(void *ctx, const char *key, struct rep_hist_opts *o)
{
	struct run *run = ctx;
	char *copy = xstrdup(key), *field = strchr(copy, '.'), *opt;
	const char *event = copy;
	bool raw = run->o->raw_trace;
	int ret = -1;

	if (field)
		*field++ = '\0';
	else {
		event = NULL;
		field = copy;
	}
	opt = strchr(field, '/');
	if (opt)
		*opt++ = '\0';
	if (opt && strcmp(opt, "raw"))
		goto out;
	if (opt)
		raw = true;
	if (run_trace(run))
		ret = add_fields(run, o, event, field, raw);
out:
	free(copy);
	return ret;
}

static void
stack_users(void *src, rep_user_fn *fn, void *ctx)
{
	ses_stack_user_each(src, fn, ctx);
}

static void
stacks_forget(void *src)
{
	ses_stacks_forget(src);
}

static void
run_setup(struct run *run)
{
	const struct pd_meta *meta = pd_reader_meta(run->r);
	int32_t *sockets = NULL;
	size_t nr_sockets = 0, i;
	char err[256];
	bool children;

	run->has_callchain = file_has_callchain(run->r);
	children = run->o->cc.children < 0 ? run->has_callchain :
		(run->o->cc.children && run->has_callchain);
	if (run->o->pipe)
		children = false;
	if (rep_report_setup_dims(run->o, children, err, sizeof(err))) {
		/* only a list that --children makes one key too long */
		error_msg("%s", err);
		run->failed = true;
		run->o->hist.nr_sort = run->o->hist.nr_cols = 0;
	}
	groups_setup(&run->g, run->r, run->o);
	if (meta && meta->topo_has_ids && meta->topo_cpus) {
		nr_sockets = meta->nr_topo_cpus;
		sockets = xcalloc(nr_sockets ? nr_sockets : 1, sizeof(int32_t));
		for (i = 0; i < nr_sockets; i++)
			sockets[i] = (int32_t)meta->topo_cpus[i].socket_id;
	}
	run->rep = rep_report_new(run->o, run->g.n, run->g.leader, run->g.member,
				  run->g.nr_members, sockets, nr_sockets,
				  run->has_callchain);
	rep_report_lost_samples(run->rep, run->lost_samples);
	rep_report_cgroup_names(run->rep, &run->cgroups);
	rep_report_trace_formatter(run->rep, trace_text, run);
	rep_report_field_formatter(run->rep, field_text, run);
	rep_report_set_users(run->rep, stack_users, stacks_forget, run->sess);
	free(sockets);
}

static void
progress_tick(struct run *run)
{
	if (run->progress && (++run->nr_samples & 0xffff) == 0)
		fprintf(stderr, "\rpreport: %llu samples processed",
			(unsigned long long)run->nr_samples);
}

/* perf's sample__resolve_mem(), then the sample as one entry. */
static void
mem_add(struct run *run, const struct ses_sample *s)
{
	const struct pd_sample *ps = s->raw;
	struct rep_mem *m;

	if (run->o->hist.mem_mode && ps) {
		m = rep_mem_next(run->mm);
		ses_resolve_any(run->sess, s->thread, ps->ip, &m->iaddr);
		ses_resolve(run->sess, s->thread, s->self.cpumode, ps->addr,
			    &m->daddr);
		m->data_src = ps->data_src;
		m->phys_addr = ps->phys_addr;
		m->data_page_size = ps->data_page_size;
	}
	rep_mem_add(run->mm, run->rep, s);
}

static void
on_sample(struct run *run, const struct ses_sample *s)
{
	if (run->bm)
		rep_branch_mode_add(run->bm, run->rep, s);
	else if (run->mm)
		mem_add(run, s);
	else
		rep_report_add(run->rep, s);
	progress_tick(run);
}

/* perf's evswitch__discard(): whether the sample of evsel is dropped */
static bool
evswitch_discard(struct run *run, unsigned int evsel)
{
	if (run->on >= 0 && run->discarding) {
		if ((long)evsel != run->on)
			return true;
		run->discarding = false;
		return !run->o->show_on_off;
	}
	if (run->off >= 0 && !run->discarding && (long)evsel == run->off) {
		run->discarding = true;
		return !run->o->show_on_off;
	}
	return false;
}

/* The evsel perf's evlist__find_evsel_by_str() finds for name, or -1. */
static long
evsel_by_name(struct pd_reader *r, const char *name)
{
	size_t i, n = pd_reader_nr_evsels(r);

	for (i = 0; i < n; i++)
		if (!strcmp(pd_evsel_name(pd_reader_evsel(r, i)), name))
			return (long)i;
	return -1;
}

/* The evsel of --switch-on/off's event into *idx (-1 for none given). */
static int
switch_event(struct run *run, const char *opt, const char *name, long *idx,
	     char *err, size_t errsz)
{
	*idx = name ? evsel_by_name(run->r, name) : -1;
	if (name && *idx < 0) {
		snprintf(err, errsz, "%s: no event '%s' in the file", opt, name);
		return -1;
	}
	return 0;
}

/* perf's evswitch__init(): both events must be in the file. */
static int
evswitch_setup(struct run *run, char *err, size_t errsz)
{
	if (switch_event(run, "--switch-on", run->o->switch_on, &run->on,
			 err, errsz) ||
	    switch_event(run, "--switch-off", run->o->switch_off, &run->off,
			 err, errsz))
		return -1;
	run->discarding = run->on >= 0;
	return 0;
}

/*
 * A sample whose stack is interned goes to the histogram entry of its
 * stack's first sample while that entry's token is good; only then is
 * an unresolved repeat resolved.
 */
static int
run_sample(struct run *run, struct ses_session *sess, struct ses_event *ev)
{
	const struct ses_sample *s = ev->sample;
	struct ses_sample one;
	size_t pos = 0;
	int err;

	if (!run->rep)
		run_setup(run);
	if (!s->stack_id) {
		while (ses_read_split(sess, s, &pos, &one))
			if (!evswitch_discard(run, one.evsel))
				on_sample(run, &one);
		return 0;
	}
	if (evswitch_discard(run, s->evsel))
		return 0;
	if (!s->resolved) {
		if (rep_report_add_again(run->rep, s->stack_user, s)) {
			progress_tick(run);
			return 0;
		}
		err = ses_resolve_sample(sess, ev);
		if (err)
			return err;
	}
	rep_report_add_user(run->rep, s->stack_user, s);
	progress_tick(run);
	return 0;
}

static void
progress_end(const struct run *run)
{
	if (run->progress && run->nr_samples > 0xffff)
		fputs("\r\033[K", stderr);
}

static void
on_lost_samples(struct run *run, uint64_t lost)
{
	if (run->rep)
		rep_report_lost_samples(run->rep, lost);
	else
		run->lost_samples += lost;
}

/* perf's cgroup__findnew(): the first name given to an id stays. */
static void
on_cgroup(struct run *run, const struct pd_ev_cgroup *c)
{
	uint64_t *slot = u64map_slot(&run->cgroups, c->id);

	if (!*slot)
		*slot = (uintptr_t)xstrndup(c->path.s, c->path.len);
}

static void
cgroups_free(struct u64map *m)
{
	size_t pos = 0;
	uint64_t key, val;

	while (u64map_next(m, &pos, &key, &val))
		free((void *)(uintptr_t)val);
	u64map_free(m);
}

/* Every event of the session into the histogram. */
/*
 * perf's process_read_event(): the record's first value (perf reads its
 * fixed layout: a group's nr with PERF_FORMAT_GROUP), by the event's
 * index and name.
 */
static void
on_read(struct run *run, int evsel, const struct pd_ev_read *rd)
{
	struct pd_read_value v = { 0 };

	if (rd->values.format & PD_FORMAT_GROUP)
		v.value = rd->values.nr;
	else
		pd_read_value_get(&rd->values, 0, &v);
	rep_thread_values_add(&run->threads, rd->pid, rd->tid,
			      (uint64_t)evsel,
			      pd_evsel_name(pd_reader_evsel(run->r,
							    (size_t)evsel)),
			      v.value);
}

static int
run_session(struct run *run, struct ses_session *sess)
{
	struct ses_event ev;
	int ret;

	while ((ret = ses_next(sess, &ev)) > 0) {
		if (ev.kind == SES_SAMPLE) {
			ret = run_sample(run, sess, &ev);
			if (ret)
				return ret;
		} else if (ev.rec->header.type == PD_RECORD_LOST_SAMPLES &&
			   ev.event) {
			on_lost_samples(run, ev.event->lost_samples.lost);
		} else if (ev.rec->header.type == PD_RECORD_CGROUP && ev.event) {
			on_cgroup(run, &ev.event->cgroup);
		} else if (ev.rec->header.type == PD_RECORD_HEADER_FEATURE) {
			/* perf prints a pipe's features as it reads them */
			rep_header_feature(run->o->hdr, ev.rec);
		} else if (ev.rec->header.type == PD_RECORD_READ &&
			   ev.event && run->o->show_threads &&
			   ev.rec->evsel >= 0) {
			on_read(run, ev.rec->evsel, &ev.event->read);
		}
	}
	return ret;
}

static void
print_sym_warning(void *ctx, const char *msg)
{
	(void)ctx;
	warn_msg("%s", msg);
}

static void
print_report(struct run *run, FILE *out)
{
	size_t n = run->g.n, i;
	const char **titles = xcalloc(n ? n : 1, sizeof(char *));
	char **owned = xcalloc(n ? n : 1, sizeof(char *));
	bool *plural = xcalloc(n ? n : 1, sizeof(bool));

	for (i = 0; i < n; i++) {
		titles[i] = pd_evsel_name(pd_reader_evsel(run->r, i));
		plural[i] = run->g.file_members[i] > 1;
		if (run->g.nr_members[i] > 1) {
			owned[i] = group_title(run->r, &run->g, i);
			titles[i] = owned[i];
		}
	}
	rep_report_print(run->rep, out, titles, plural);
	for (i = 0; i < n; i++)
		free(owned[i]);
	free(owned);
	free(titles);
	free(plural);
}

/*
 * perf refuses -g, and the parent key, on a file without callchains
 * (report__setup_sample_type()); a pipe is not checked.
 */
/* perf_session__cpu_bitmap(): every event must sample the CPU for -C. */
static bool
file_has_cpu(struct pd_reader *r)
{
	size_t i, n = pd_reader_nr_evsels(r);

	for (i = 0; i < n; i++)
		if (!(pd_reader_evsel(r, i)->attr.sample_type & PD_SAMPLE_CPU))
			return false;
	return true;
}

static bool
has_parent_key(const struct rep_report_opts *o)
{
	size_t i;

	for (i = 0; i < o->hist.nr_sort; i++)
		if (o->hist.sort[i] == REP_DIM_PARENT)
			return true;
	return false;
}

static bool
is_srcline_dim(enum rep_dim d)
{
	return d == REP_DIM_SRCLINE || d == REP_DIM_SRCFILE ||
	       d == REP_DIM_SRCLINE_FROM || d == REP_DIM_SRCLINE_TO;
}

/*
 * Whether the report prints source lines: perf asks addr2line about the
 * vmlinux image for the kernel's, which -k does not model.
 */
static bool
prints_srclines(const struct rep_report_opts *o)
{
	size_t i;

	for (i = 0; i < o->hist.nr_sort; i++)
		if (is_srcline_dim(o->hist.sort[i]))
			return true;
	for (i = 0; i < o->hist.nr_cols; i++)
		if (is_srcline_dim(o->hist.cols[i]))
			return true;
	return o->cc.param.key != REP_CC_KEY_FUNCTION;
}

/* --branch-history on branch stacks makes its chains from them */
static bool
callchain_required(const struct rep_report_opts *o)
{
	return (o->cc.use_callchain == 1 && !o->cc.branch_counts) ||
	       has_parent_key(o);
}

/* --stitch-lbr where the samples have no LBR call stack: perf's warning */
static bool
stitch_lbr_check(struct pd_reader *r)
{
	if (ses_stitch_lbr_applies(r))
		return true;
	fprintf(stderr, "Warning:\nCan't find LBR callchain. Switch off "
		"--stitch-lbr.\nPlease apply --call-graph lbr when "
		"recording.\n");
	return false;
}

int
rep_session_error(struct pd_reader *r, const struct ses_session *sess)
{
	/* the session's message, which may not be the reader's */
	error_msg("%s: %s", pd_reader_source_name(r, 0), ses_errmsg(sess));
	return 1;
}

void
rep_sym_opts_init(struct sym_opts *so, struct pd_reader *r,
		  const struct rep_report_opts *o, const char *archive)
{
	const struct pd_meta *meta = pd_reader_meta(r);

	memset(so, 0, sizeof(*so));
	so->symfs = o->symfs;
	so->kallsyms = o->kallsyms;
	so->vmlinux = o->vmlinux;
	so->demangle_kernel = o->demangle_kernel;
	so->os_release = meta ? meta->os_release : NULL;
	so->no_demangle = o->no_demangle;
	/* perf demangles with parameters under -v */
	so->demangle_params = o->hist.verbose;
	so->full_source_paths = o->full_source_paths;
	so->archive = archive;
	so->recording_id = o->recording_id;
	so->archive_beside = o->archive_beside;
	so->force = o->force;
	so->warn = o->quiet ? NULL : print_sym_warning;
}

int
rep_report_run(FILE *out, struct pd_reader *r, struct rep_report_opts *o,
	       const char *archive)
{
	const struct pd_meta *meta = pd_reader_meta(r);
	struct sym_opts so;
	struct ses_opts sopts = {
		.max_stack = o->max_stack,
		.stack_ids = true,
		.threads = ses_threads_default(),
	};
	struct run run = { .r = r, .o = o, .progress = isatty(STDERR_FILENO) };
	struct ses_session *sess;
	struct sym_ctx *syms;
	char errbuf[256];
	int err;

	if (rep_branch_setup(o, r, errbuf, sizeof(errbuf))) {
		error_msg("%s", errbuf);
		return 1;
	}
	sopts.branches = o->hist.branch_mode;
	if (rep_mem_setup(o, errbuf, sizeof(errbuf))) {
		error_msg("%s", errbuf);
		return 1;
	}
	/* perf's --max-stack keeps the root end of the chain in caller order */
	sopts.callchain_caller_order = o->cc.param.order_set ?
		o->cc.param.caller : o->cc.children != 0;
	o->pipe = pd_reader_info(r)->mode == PD_MODE_PIPE;
	/* a stream's tracing data comes later: perf knows no field then */
	if (!o->pipe) {
		o->hist.field_resolver = resolve_field_key;
		o->hist.field_ctx = &run;
	}
	/* a key no table nor tracepoint field knows: a usage error */
	if (rep_report_setup_dims(o, false, errbuf, sizeof(errbuf))) {
		error_msg("%s (see --help)", errbuf);
		run_end(&run);
		return 2;
	}
	if (o->vmlinux && prints_srclines(o)) {
		error_msg("-k/--vmlinux: source lines of the kernel from a vmlinux "
			  "image are not supported (a srcline key, -g address or "
			  "srcline, --branch-history)");
		goto fail;
	}
	if (rep_branch_check_dims(o, errbuf, sizeof(errbuf)) ||
	    rep_mem_check_dims(o, errbuf, sizeof(errbuf))) {
		error_msg("%s", errbuf);
		goto fail;
	}
	/* before anything is printed, as perf's evswitch__init() */
	if (evswitch_setup(&run, errbuf, sizeof(errbuf))) {
		error_msg("%s", errbuf);
		goto fail;
	}
	rep_report_print_head(out, o);
	if (rep_branch_check_file(o, r, errbuf, sizeof(errbuf)) ||
	    rep_mem_check_file(o, r, errbuf, sizeof(errbuf))) {
		error_msg("%s", errbuf);
		goto fail;
	}
	if (!o->pipe && !file_has_callchain(r) && callchain_required(o)) {
		error_msg("%s asks for callchains, but the samples have none "
			  "(was the file recorded without -g%s?)",
			  has_parent_key(o) ? "--sort parent" :
			  o->cc.branch_history ? "--branch-history" : "-g",
			  o->cc.branch_history ? " or -b" : "");
		goto fail;
	}
	sopts.stack_key_cpu = rep_report_needs_cpu(o);
	sopts.stitch_lbr = o->stitch_lbr && stitch_lbr_check(r);
	sopts.inline_frames = !o->no_inline;
	/* a pipe's report has no children (run_setup()) */
	sopts.no_callchain = o->cc.param.mode == REP_CC_NONE &&
		(o->cc.children == 0 || o->pipe) && !has_parent_key(o) &&
		!o->cc.branch_counts;
	sopts.branch_frames = o->cc.param.branch;
	sopts.branch_frames_nochain = o->cc.branch_counts;
	if (meta && rep_filter_resolve_time(&o->hist.filt,
					    meta->first_sample_time,
					    meta->last_sample_time, errbuf,
					    sizeof(errbuf))) {
		error_msg("%s", errbuf);
		goto fail;
	}
	if (o->hist.filt.cpus && !file_has_cpu(r)) {
		error_msg("-C: the file does not record the CPU of its samples");
		goto fail;
	}
	run.bm = o->hist.branch_mode ? rep_branch_mode_new() : NULL;
	if (!run.bm && rep_mem_direct(o)) {
		run.mm = rep_mem_mode_new();
		sopts.stack_ids = false;
	}
	rep_sym_opts_init(&so, r, o, archive);
	syms = sym_ctx_new(&so);
	sess = ses_new(r, syms, &sopts);
	run.sess = sess;
	err = run_session(&run, sess);
	if (err < 0)
		err = rep_session_error(r, sess);
	progress_end(&run);
	if (!run.rep)
		run_setup(&run);
	rep_report_flush(run.rep);
	/* perf prints no report when reading failed, or found nothing */
	if (run.failed)
		err = err ? err : 1;
	else if (!err && rep_report_nr_entries(run.rep)) {
		print_report(&run, out);
		if (run.bm)
			rep_branch_mode_print_stats(run.bm, out);
		if (o->show_threads)
			rep_thread_values_print(out, &run.threads,
						o->pretty_raw);
	}
	else if (!err)
		error_msg("the %s data has no samples",
			  pd_reader_source_name(r, 0));
	ses_free(sess);
	sym_ctx_free(syms);
	rep_report_free(run.rep);
	rep_branch_mode_free(run.bm);
	rep_mem_mode_free(run.mm);
	groups_free(&run.g);
	rep_thread_values_free(&run.threads);
	cgroups_free(&run.cgroups);
	run_end(&run);
	return err;
fail:
	run_end(&run);
	return 1;
}
