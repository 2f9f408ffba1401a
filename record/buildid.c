/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * record/buildid.c - the BUILD_ID and SAMPLE_TIME features of a finished
 * recording, as perf 6.1 computes them after recording
 * (builtin-record.c process_buildids, util/build-id.c).
 *
 * perf replays the data in time order with a minimal session: MMAP and
 * MMAP2 add maps (the kernel's and modules' when the record's cpumode is
 * kernel), FORK gives a new process a copy of its parent's maps and a
 * new thread its process's, EXIT forgets a thread, and every sample
 * marks the DSO of the map that holds its ip (the thread's maps for user
 * samples, the kernel maps for kernel ones).  Then every DSO that was
 * hit, and every vDSO, gets an entry, in the order the DSOs were first
 * met (the kernel first), if its build-id can be read; the rest are left
 * out, as perf does.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/u64map.h"
#include "lib/xalloc.h"
#include "pdata/events.h"
#include "pdata/sample.h"
#include "record/buildid-int.h"
#include "record/sys-int.h"
#include "record/synth-int.h"
#include "record/sys.h"
#include "symbol/symbol.h"

#define KERNEL_NAME	"[kernel.kallsyms]"

enum bdso_kind { BDSO_USER, BDSO_KERNEL, BDSO_MODULE, BDSO_VDSO };

struct bdso {
	char *name;
	enum bdso_kind kind;
	bool hit;
	bool done;			/* its entry is written */
	uint32_t rank;			/* replay order of its first map, + 1 */
	uint8_t id_size;		/* from an MMAP2 that carried it */
	uint8_t id[PD_BUILD_ID_SIZE];
	uint32_t next;			/* same hash, index + 1 */
};

struct bmap {
	uint64_t start, end;
	uint32_t dso;
};

/* The maps of one process, shared by its threads; newest last. */
struct bmaps {
	struct bmap *v;
	size_t nr, cap;
};

enum bev_kind { BEV_MMAP, BEV_FORK, BEV_EXIT, BEV_SAMPLE };

/* A record that matters here, kept for the replay in time order. */
struct bev {
	uint64_t time, seq;
	enum bev_kind kind;
	uint8_t cpumode;
	uint32_t pid, tid, ppid, ptid;
	uint64_t start, len;		/* MMAP; start is the ip of a SAMPLE */
	uint32_t dso;
};

struct bstate {
	struct bdso *dsos;
	size_t nr_dsos;
	struct u64map dso_hash;		/* name hash -> first index + 1 */
	struct bdso **order;		/* by rank, after the replay */
	struct bev *evs;
	size_t nr_evs, cap_evs;
	struct bmaps kmaps;
	struct bmaps **maps;		/* index + 1 is a thread's value */
	size_t nr_maps;
	/* tid -> (maps index + 1) | pid << 32 */
	struct u64map threads;
	uint64_t first_time, last_time;
	uint32_t nr_ranked;
};

static uint32_t
dso_findnew(struct bstate *st, const char *name, size_t len,
	    enum bdso_kind kind)
{
	char *s = xstrndup(name, len);
	uint64_t *slot = u64map_slot(&st->dso_hash, u64map_str_key(s));
	uint32_t i;
	struct bdso *d;

	for (i = (uint32_t)*slot; i; i = st->dsos[i - 1].next)
		if (!strcmp(st->dsos[i - 1].name, s)) {
			free(s);
			return i - 1;
		}
	st->dsos = xreallocarray(st->dsos, st->nr_dsos + 1, sizeof(*st->dsos));
	d = &st->dsos[st->nr_dsos];
	memset(d, 0, sizeof(*d));
	d->name = s;
	d->kind = kind;
	d->next = (uint32_t)*slot;
	*slot = ++st->nr_dsos;
	return (uint32_t)(st->nr_dsos - 1);
}

static struct bev *
ev_new(struct bstate *st, enum bev_kind kind, uint64_t time)
{
	struct bev *e;

	if (st->nr_evs == st->cap_evs) {
		st->cap_evs = st->cap_evs ? 2 * st->cap_evs : 1024;
		st->evs = xreallocarray(st->evs, st->cap_evs, sizeof(*st->evs));
	}
	e = &st->evs[st->nr_evs];
	memset(e, 0, sizeof(*e));
	e->kind = kind;
	e->time = time;
	e->seq = st->nr_evs++;
	return e;
}

static bool
is_vdso_name(const char *s, size_t len)
{
	return (len == 6 && !memcmp(s, "[vdso]", 6)) ||
	       (len == 8 && !memcmp(s, "[vdso32]", 8)) ||
	       (len == 9 && !memcmp(s, "[vdsox32]", 9));
}

/* An MMAP or MMAP2: its DSO now, as perf creates DSOs in file order. */
static void
note_mmap(struct bstate *st, const union pd_event *ev, uint64_t time)
{
	const struct pd_ev_mmap2 *m2 = &ev->mmap2;
	const struct pd_ev_mmap *m1 = &ev->mmap;
	bool is2 = ev->header.type == PD_RECORD_MMAP2;
	struct pd_str name = is2 ? m2->filename : m1->filename;
	uint8_t cpumode = ev->header.misc & PD_MISC_CPUMODE_MASK;
	enum bdso_kind kind = BDSO_USER;
	struct bev *e;

	if (cpumode == PD_MISC_KERNEL) {
		kind = (name.len >= sizeof(KERNEL_NAME) - 1 &&
			!memcmp(name.s, KERNEL_NAME, sizeof(KERNEL_NAME) - 1)) ?
		       BDSO_KERNEL : BDSO_MODULE;
		if (kind == BDSO_KERNEL)
			name.len = sizeof(KERNEL_NAME) - 1;
	} else if (cpumode != PD_MISC_USER) {
		return;		/* guests and hypervisors are not followed */
	} else if (is_vdso_name(name.s, name.len)) {
		kind = BDSO_VDSO;
	}
	e = ev_new(st, BEV_MMAP, time);
	e->cpumode = cpumode;
	e->pid = is2 ? m2->pid : m1->pid;
	e->tid = is2 ? m2->tid : m1->tid;
	e->start = is2 ? m2->start : m1->start;
	e->len = is2 ? m2->len : m1->len;
	e->dso = dso_findnew(st, name.s, name.len, kind);
	if (is2 && m2->has_build_id && m2->build_id_size &&
	    !st->dsos[e->dso].id_size) {
		st->dsos[e->dso].id_size = m2->build_id_size;
		memcpy(st->dsos[e->dso].id, m2->build_id, m2->build_id_size);
	}
}

static int
note_record(struct bstate *st, const struct pd_reader *r,
	    const struct pd_record *rec)
{
	const struct pd_attr *attr = rec->evsel >= 0 ?
		&pd_reader_evsel(r, (size_t)rec->evsel)->attr : NULL;
	uint32_t type = rec->header.type;
	union pd_event ev;
	uint64_t time;

	if (type == PD_RECORD_SAMPLE) {
		struct pd_sample s;
		struct bev *e;

		if (!attr || pd_sample_decode(attr, rec, &s))
			return 0;	/* perf skips what it cannot decode */
		e = ev_new(st, BEV_SAMPLE,
			   pd_sample_has(&s, PD_SAMPLE_TIME) ? s.time : 0);
		e->cpumode = s.cpumode;
		e->pid = s.pid;
		e->tid = s.tid;
		e->start = s.ip;
		return 0;
	}
	if (type != PD_RECORD_MMAP && type != PD_RECORD_MMAP2 &&
	    type != PD_RECORD_FORK && type != PD_RECORD_EXIT)
		return 0;
	if (pd_event_decode(attr, rec, &ev))
		return 0;
	time = ev.base.sample_id.time == (uint64_t)-1 ? 0 :
							ev.base.sample_id.time;
	if (type == PD_RECORD_MMAP || type == PD_RECORD_MMAP2) {
		note_mmap(st, &ev, time);
	} else {
		struct bev *e = ev_new(st, type == PD_RECORD_FORK ? BEV_FORK :
							     BEV_EXIT, time);

		e->pid = ev.fork.pid;
		e->tid = ev.fork.tid;
		e->ppid = ev.fork.ppid;
		e->ptid = ev.fork.ptid;
	}
	return 0;
}

static int
bev_cmp(const void *a, const void *b)
{
	const struct bev *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

static void
bmaps_insert(struct bmaps *m, uint64_t start, uint64_t len, uint32_t dso)
{
	if (m->nr == m->cap) {
		m->cap = m->cap ? 2 * m->cap : 16;
		m->v = xreallocarray(m->v, m->cap, sizeof(*m->v));
	}
	m->v[m->nr].start = start;
	m->v[m->nr].end = start + len;
	m->v[m->nr++].dso = dso;
}

/* The newest map holding ip: later maps replace what they overlap. */
static const struct bmap *
bmaps_find(const struct bmaps *m, uint64_t ip)
{
	size_t i;

	for (i = m->nr; i-- > 0; )
		if (ip >= m->v[i].start && ip < m->v[i].end)
			return &m->v[i];
	return NULL;
}

static size_t
maps_new(struct bstate *st, const struct bmaps *copy)
{
	struct bmaps *m = xcalloc(1, sizeof(*m));

	if (copy && copy->nr) {
		m->v = xcalloc(copy->nr, sizeof(*m->v));
		memcpy(m->v, copy->v, copy->nr * sizeof(*m->v));
		m->nr = m->cap = copy->nr;
	}
	st->maps = xreallocarray(st->maps, st->nr_maps + 1, sizeof(*st->maps));
	st->maps[st->nr_maps] = m;
	return st->nr_maps++;
}

static uint64_t
thread_val(size_t maps, uint32_t pid)
{
	return (uint64_t)(maps + 1) | (uint64_t)pid << 32;
}

/*
 * The maps of thread (pid, tid), created as perf's findnew_thread does:
 * a process leader gets new maps, another thread shares its leader's.
 */
static struct bmaps *
thread_maps(struct bstate *st, uint32_t pid, uint32_t tid)
{
	uint64_t *slot = u64map_slot(&st->threads, tid);
	size_t idx;

	if (*slot)
		return st->maps[(uint32_t)*slot - 1];
	if (pid == tid || pid == (uint32_t)-1) {
		idx = maps_new(st, NULL);
	} else {
		thread_maps(st, pid, pid);
		slot = u64map_slot(&st->threads, tid);
		idx = (uint32_t)*u64map_find(&st->threads, pid) - 1;
	}
	*slot = thread_val(idx, pid);
	return st->maps[idx];
}

static void
replay_fork(struct bstate *st, const struct bev *e)
{
	struct bmaps *parent = thread_maps(st, e->ppid, e->ptid);
	uint64_t *slot;
	size_t idx;

	/* a thread of the same process shares; a new process copies */
	if (e->pid == e->ppid) {
		thread_maps(st, e->pid, e->pid);
		idx = (uint32_t)*u64map_find(&st->threads, e->pid) - 1;
	} else {
		idx = maps_new(st, parent);
	}
	slot = u64map_slot(&st->threads, e->tid);
	*slot = thread_val(idx, e->pid);
}

static void
replay_sample(struct bstate *st, const struct bev *e)
{
	const struct bmap *m = NULL;

	if (!st->first_time)
		st->first_time = e->time;
	st->last_time = e->time;
	if (e->cpumode == PD_MISC_KERNEL)
		m = bmaps_find(&st->kmaps, e->start);
	else if (e->cpumode == PD_MISC_USER)
		m = bmaps_find(thread_maps(st, e->pid, e->tid), e->start);
	if (m)
		st->dsos[m->dso].hit = true;
}

static void
replay(struct bstate *st)
{
	size_t i;

	if (st->nr_evs)
		qsort(st->evs, st->nr_evs, sizeof(*st->evs), bev_cmp);
	for (i = 0; i < st->nr_evs; i++) {
		const struct bev *e = &st->evs[i];

		switch (e->kind) {
		case BEV_MMAP:
			if (!st->dsos[e->dso].rank)
				st->dsos[e->dso].rank = ++st->nr_ranked;
			bmaps_insert(e->cpumode == PD_MISC_KERNEL ? &st->kmaps :
				     thread_maps(st, e->pid, e->tid),
				     e->start, e->len, e->dso);
			break;
		case BEV_FORK:
			replay_fork(st, e);
			break;
		case BEV_EXIT: {
			uint64_t *slot = u64map_find(&st->threads, e->tid);

			if (slot)
				*slot = 0;
			break;
		}
		case BEV_SAMPLE:
			replay_sample(st, e);
			break;
		}
	}
}

/* "[name]" of a module DSO, whatever it is named by; free() it. */
static char *
module_key(const char *name)
{
	const char *base = strrchr(name, '/');

	if (name[0] == '[')
		return xstrdup(name);
	return rec_kmod_name(base ? base + 1 : name);
}

/* The build-id of a DSO that perf would list; 0 when it has none. */
static size_t
dso_build_id(const struct bdso *d, uint8_t out[PD_BUILD_ID_SIZE])
{
	uint8_t id[SYM_BUILD_ID_MAX];
	char *mod;
	size_t n = 0;
	int ret;

	if (d->id_size) {
		memcpy(out, d->id, d->id_size);
		return d->id_size;
	}
	switch (d->kind) {
	case BDSO_KERNEL:
		return rec_kernel_build_id(out);
	case BDSO_VDSO:
		/* only the 64-bit vDSO is the one this process has */
		return strcmp(d->name, "[vdso]") ? 0 : rec_vdso_build_id(out);
	case BDSO_MODULE:
		mod = module_key(d->name);
		if (mod && strlen(mod) > 2) {
			mod[strlen(mod) - 1] = '\0';
			n = rec_module_build_id(mod + 1, out);
		}
		free(mod);
		return n;
	case BDSO_USER:
		break;
	}
	ret = sym_elf_build_id(d->name, id);
	if (ret <= 0)
		return 0;
	n = (size_t)ret < PD_BUILD_ID_SIZE ? (size_t)ret : PD_BUILD_ID_SIZE;
	memset(out, 0, PD_BUILD_ID_SIZE);
	memcpy(out, id, n);
	return n;
}

static void
add_entry(struct pd_meta *meta, const struct bdso *d)
{
	uint8_t id[PD_BUILD_ID_SIZE] = { 0 };
	struct pd_build_id *b;
	size_t n;

	if (!d->hit && d->kind != BDSO_VDSO)
		return;
	n = dso_build_id(d, id);
	if (!n)
		return;
	meta->build_ids = xreallocarray(meta->build_ids, meta->nr_build_ids + 1,
					sizeof(*meta->build_ids));
	b = &meta->build_ids[meta->nr_build_ids++];
	memset(b, 0, sizeof(*b));
	b->misc = (uint16_t)((d->kind == BDSO_KERNEL || d->kind == BDSO_MODULE ?
			      PD_MISC_KERNEL : PD_MISC_USER) |
			     PD_MISC_BUILD_ID_SIZE);
	b->pid = -1;
	memcpy(b->id, id, n);
	b->size = (uint8_t)n;
	b->filename = xstrdup(d->name);
}

/*
 * perf creates a DSO when it replays the first map of it, in time
 * order; the kernel's exists before (rank 1 in rec_buildids_collect).
 */
static void
rank_dsos(struct bstate *st)
{
	size_t i;

	st->order = xcalloc(st->nr_ranked ? st->nr_ranked : 1,
			    sizeof(*st->order));
	for (i = 0; i < st->nr_dsos; i++)
		if (st->dsos[i].rank)
			st->order[st->dsos[i].rank - 1] = &st->dsos[i];
}

/*
 * perf's session knows the kernel and the modules of /proc/modules, in
 * that file's order, before it reads any record; the other DSOs follow
 * in the order their maps were met.
 */
static void
add_entries(struct bstate *st, struct pd_meta *meta)
{
	char *mods = NULL, *line, *next;
	size_t i;

	for (i = 0; i < st->nr_dsos; i++)
		if (st->dsos[i].kind == BDSO_KERNEL)
			add_entry(meta, &st->dsos[i]);
	rec_sys_read_file("/proc/modules", &mods, NULL);
	for (line = mods; line && *line; line = next) {
		char key[256];

		next = strchr(line, '\n');
		next = next ? next + 1 : line + strlen(line);
		if (sscanf(line, "%253s", key + 1) != 1)
			continue;
		key[0] = '[';
		strcat(key, "]");
		for (i = 0; i < st->nr_dsos; i++) {
			struct bdso *d = &st->dsos[i];
			char *k;

			if (d->kind != BDSO_MODULE || d->done)
				continue;
			k = module_key(d->name);
			if (k && !strcmp(k, key)) {
				add_entry(meta, d);
				d->done = true;
			}
			free(k);
		}
	}
	free(mods);
	for (i = 0; i < st->nr_ranked; i++)
		if (st->order[i]->kind != BDSO_KERNEL && !st->order[i]->done)
			add_entry(meta, st->order[i]);
}

static void
bstate_free(struct bstate *st)
{
	size_t i;

	for (i = 0; i < st->nr_dsos; i++)
		free(st->dsos[i].name);
	free(st->dsos);
	free(st->order);
	for (i = 0; i < st->nr_maps; i++) {
		free(st->maps[i]->v);
		free(st->maps[i]);
	}
	free(st->maps);
	free(st->kmaps.v);
	free(st->evs);
	u64map_free(&st->dso_hash);
	u64map_free(&st->threads);
}

int
rec_buildids_collect(struct pd_reader *r, struct pd_meta *meta)
{
	struct bstate st;
	struct pd_record rec;
	int n;

	memset(&st, 0, sizeof(st));
	/* perf's session has the kernel DSO before any record is read */
	dso_findnew(&st, KERNEL_NAME, sizeof(KERNEL_NAME) - 1, BDSO_KERNEL);
	st.dsos[0].rank = ++st.nr_ranked;
	while ((n = pd_reader_next(r, &rec)) > 0)
		note_record(&st, r, &rec);
	if (n < 0) {
		bstate_free(&st);
		return n;
	}
	replay(&st);
	rank_dsos(&st);
	add_entries(&st, meta);
	if (meta->nr_build_ids)
		meta->features[PD_FEAT_BUILD_ID / 64] |=
			1ULL << (PD_FEAT_BUILD_ID % 64);
	meta->first_sample_time = st.first_time;
	meta->last_sample_time = st.last_time;
	meta->features[PD_FEAT_SAMPLE_TIME / 64] |=
		1ULL << (PD_FEAT_SAMPLE_TIME % 64);
	bstate_free(&st);
	return 0;
}
