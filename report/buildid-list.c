/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * report/buildid-list.c - preport --buildid-list[=hits]: the build-ids of
 * a recording's DSOs, as perf buildid-list 6.1 [-H] prints them
 * (builtin-buildid-list.c, __dsos__fprintf_buildid(); doc/perf-records.md
 * §7.13).
 *
 * perf lists the DSOs of its machines in the order it made them: those
 * of the BUILD_ID feature first, in the table's order, then, when it
 * reads the samples (with -H, in a stream, or when the file has no
 * BUILD_ID feature), the ones its MMAPs and a stream's HEADER_BUILD_ID
 * records add.  Each is "%-40s %s": the build-id in hex (empty when the
 * DSO has none) and the DSO's long name.  -H keeps the DSOs a sample's
 * own address fell in.  The host machine comes first, then each guest's
 * by pid.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "lib/u64map.h"
#include "lib/xalloc.h"
#include "pdata/abi.h"
#include "pdata/events.h"
#include "pdata/meta.h"
#include "report/report.h"
#include "session/session.h"

#include <xxhash.h>

struct bl_dso {
	char *name;
	int32_t machine;	/* -1: the host; else a guest's pid */
	uint8_t id[PD_BUILD_ID_SIZE];
	uint8_t id_size;
	bool hit;
};

struct bl_list {
	struct bl_dso *v;
	size_t nr, cap;
	struct u64map by_name;	/* hash of machine and name -> 1 + index */
};

static uint64_t
name_hash(int32_t machine, const char *name, size_t len)
{
	return XXH3_64bits_withSeed(name, len, (uint64_t)(uint32_t)machine) | 1;
}

/* The DSO named name (len bytes) in machine, added when new. */
static struct bl_dso *
bl_findnew(struct bl_list *l, int32_t machine, const char *name, size_t len)
{
	uint64_t h = name_hash(machine, name, len), *slot;
	struct bl_dso *d;

	for (;; h++) {
		slot = u64map_slot(&l->by_name, h);
		if (!*slot)
			break;
		d = &l->v[*slot - 1];
		if (d->machine == machine && strlen(d->name) == len &&
		    !memcmp(d->name, name, len))
			return d;
	}
	if (l->nr == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 32;
		l->v = xreallocarray(l->v, l->cap, sizeof(*l->v));
	}
	d = &l->v[l->nr++];
	memset(d, 0, sizeof(*d));
	d->name = xstrndup(name, len);
	d->machine = machine;
	*slot = l->nr;
	return d;
}

static void
set_id(struct bl_dso *d, const uint8_t *id, size_t size)
{
	if (size > PD_BUILD_ID_SIZE)
		size = PD_BUILD_ID_SIZE;
	memcpy(d->id, id, size);
	d->id_size = (uint8_t)size;
}

/* A guest's build-id entry names its machine by pid; the host's by -1. */
static int32_t
entry_machine(uint16_t misc, int32_t pid)
{
	unsigned int mode = misc & PD_MISC_CPUMODE_MASK;

	return mode == PD_MISC_GUEST_KERNEL || mode == PD_MISC_GUEST_USER ?
	       pid : -1;
}

/* The BUILD_ID feature's DSOs, in its order. */
static void
add_table(struct bl_list *l, const struct pd_meta *m)
{
	size_t i;

	for (i = 0; m && i < m->nr_build_ids; i++) {
		const struct pd_build_id *b = &m->build_ids[i];
		struct bl_dso *d;

		if (!b->filename)
			continue;
		d = bl_findnew(l, entry_machine(b->misc, b->pid), b->filename,
			       strlen(b->filename));
		set_id(d, b->id, b->size);
	}
}

struct bl_run {
	struct bl_list *list;
	struct ses_session *sess;
};

/* The DSO of the map an MMAP made, as the session resolved it. */
static void
on_mmap(struct bl_run *run, const struct ses_event *ev, uint64_t start,
	uint32_t pid, uint32_t tid)
{
	uint8_t mode = ev->rec->header.misc & PD_MISC_CPUMODE_MASK;
	const struct ses_thread *t = ses_thread_find(run->sess, (int32_t)pid,
						     (int32_t)tid);
	struct ses_loc loc;
	struct bl_dso *d;
	const char *name;
	uint8_t id[SYM_BUILD_ID_MAX];
	size_t n;

	ses_resolve(run->sess, t, mode, start, &loc);
	if (!loc.map || !loc.dso)
		return;
	name = sym_dso_long_name(loc.dso);
	d = bl_findnew(run->list, -1, name, strlen(name));
	n = d->id_size ? 0 : sym_dso_build_id(loc.dso, id);
	if (n)
		set_id(d, id, n);
}

static void
on_event(void *ctx, const struct ses_event *ev)
{
	struct bl_run *run = ctx;
	const union pd_event *e = ev->event;
	struct bl_dso *d;

	if (!e)
		return;
	switch (ev->rec->header.type) {
	case PD_RECORD_MMAP:
		on_mmap(run, ev, e->mmap.start, e->mmap.pid, e->mmap.tid);
		break;
	case PD_RECORD_MMAP2:
		on_mmap(run, ev, e->mmap2.start, e->mmap2.pid, e->mmap2.tid);
		break;
	case PD_RECORD_HEADER_BUILD_ID:
		d = bl_findnew(run->list, entry_machine(e->build_id.header.misc,
							e->build_id.pid),
			       e->build_id.filename.s, e->build_id.filename.len);
		set_id(d, e->build_id.build_id, e->build_id.size);
		break;
	default:
		break;
	}
}

/* perf's build_id__mark_dso_hit(): the DSO of the map of the sample's ip. */
static void
on_sample(void *ctx, const struct ses_sample *s)
{
	struct bl_run *run = ctx;
	const char *name;

	if (!s->self.map || !s->self.dso)
		return;
	name = sym_dso_long_name(s->self.dso);
	bl_findnew(run->list, -1, name, strlen(name))->hit = true;
}

static int
read_samples(struct bl_list *l, struct pd_reader *r,
	     const struct rep_report_opts *o)
{
	struct ses_opts sopts = {
		.threads = ses_threads_default(),
		.maps_only = true,
		.no_callchain = true,
	};
	struct ses_ops ops = { .sample = on_sample, .event = on_event };
	struct bl_run run = { .list = l };
	struct sym_ctx *syms;
	struct sym_opts so;
	int err;

	rep_sym_opts_init(&so, r, o, NULL);
	syms = sym_ctx_new(&so);
	run.sess = ses_new(r, syms, &sopts);
	err = ses_run(run.sess, &ops, &run);
	if (err < 0)
		err = rep_session_error(r, run.sess);
	ses_free(run.sess);
	sym_ctx_free(syms);
	return err;
}

static int
machine_order(const void *a, const void *b)
{
	const struct bl_dso *l = *(const struct bl_dso *const *)a;
	const struct bl_dso *r = *(const struct bl_dso *const *)b;

	/* the host first, then the guests by pid; stable by index */
	if (l->machine != r->machine) {
		if (l->machine == -1 || r->machine == -1)
			return l->machine == -1 ? -1 : 1;
		return l->machine < r->machine ? -1 : 1;
	}
	return l < r ? -1 : l > r;
}

static void
print_list(FILE *out, const struct bl_list *l, bool with_hits)
{
	const struct bl_dso **order = xcalloc(l->nr ? l->nr : 1, sizeof(*order));
	size_t i;

	for (i = 0; i < l->nr; i++)
		order[i] = &l->v[i];
	qsort(order, l->nr, sizeof(*order), machine_order);
	for (i = 0; i < l->nr; i++) {
		const struct bl_dso *d = order[i];
		char hex[2 * SYM_BUILD_ID_MAX + 1] = "";

		if (with_hits && !d->hit)
			continue;
		if (d->id_size)
			sym_build_id_hex(d->id, d->id_size, hex);
		fprintf(out, "%-40s %s\n", hex, d->name);
	}
	free(order);
}

int
rep_buildid_list_run(FILE *out, struct pd_reader *r,
		     const struct rep_report_opts *o, bool with_hits)
{
	const struct pd_meta *m = pd_reader_meta(r);
	bool pipe = pd_reader_info(r)->mode == PD_MODE_PIPE;
	struct bl_list l = { .by_name = U64MAP_INIT };
	int err = 0;
	size_t i;

	/* perf takes every DSO of a file with AUX area data: it decodes none */
	if (!pipe && m && pd_meta_has(m, PD_FEAT_AUXTRACE))
		with_hits = false;
	if (!m || !pd_meta_has(m, PD_FEAT_BUILD_ID))
		with_hits = true;
	if (!pipe)
		add_table(&l, m);
	if (with_hits || pipe)
		err = read_samples(&l, r, o);
	if (!err)
		print_list(out, &l, with_hits);
	for (i = 0; i < l.nr; i++)
		free(l.v[i].name);
	free(l.v);
	u64map_free(&l.by_name);
	return err;
}
