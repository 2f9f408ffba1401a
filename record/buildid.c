/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * record/buildid.c - the BUILD_ID and SAMPLE_TIME features of a finished
 * recording, as perf 6.1 computes them after recording
 * (builtin-record.c process_buildids, util/build-id.c).
 *
 * perf replays the data in time order with a session that follows maps
 * and threads (MMAP, MMAP2, FORK, EXIT), and every sample marks the DSO
 * of the map that holds its ip (the thread's maps for user samples, the
 * kernel maps for kernel ones; not the callchain).  The replay here is
 * the session library's (session/session.h), which follows them as
 * perf does.  Then every DSO that was hit, and every vDSO, gets an
 * entry, in the order the DSOs were first met (the kernel first), if its
 * build-id can be read; the rest are left out, as perf does.  Reading
 * build-ids from files and from the kernel's notes is precord's own
 * (record/buildid-notes.c).
 */
#include "config.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/u64map.h"
#include "lib/xalloc.h"
#include "pdata/events.h"
#include "record/buildid-int.h"
#include "record/sys-int.h"
#include "record/synth-int.h"
#include "record/sys.h"
#include "session/session.h"
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

struct bstate {
	struct ses_session *sess;
	struct bdso *dsos;
	size_t nr_dsos;
	struct u64map dso_hash;		/* name hash -> first index + 1 */
	struct bdso **order;		/* by rank, after the replay */
	uint64_t first_time, last_time;
	uint32_t nr_ranked;
};

/* The DSO named name: its index, or -1 when create is false and none. */
static ptrdiff_t
dso_lookup(struct bstate *st, const char *name, bool create,
	   enum bdso_kind kind)
{
	uint64_t *slot = u64map_slot(&st->dso_hash, u64map_str_key(name));
	uint32_t i;
	struct bdso *d;

	for (i = (uint32_t)*slot; i; i = st->dsos[i - 1].next)
		if (!strcmp(st->dsos[i - 1].name, name))
			return i - 1;
	if (!create)
		return -1;
	st->dsos = xreallocarray(st->dsos, st->nr_dsos + 1, sizeof(*st->dsos));
	d = &st->dsos[st->nr_dsos];
	memset(d, 0, sizeof(*d));
	d->name = xstrdup(name);
	d->kind = kind;
	d->next = (uint32_t)*slot;
	*slot = ++st->nr_dsos;
	return (ptrdiff_t)(st->nr_dsos - 1);
}

static bool
is_vdso_name(const char *s)
{
	return !strcmp(s, "[vdso]") || !strcmp(s, "[vdso32]") ||
	       !strcmp(s, "[vdsox32]");
}

/*
 * Whether map m can be the one an MMAP named name added: the session
 * names a module's DSO as recorded, the kernel's "[kernel.kallsyms]".
 */
static bool
map_named(const struct ses_map *m, const char *name)
{
	if (sym_dso_kind(m->dso) == SYM_DSO_KERNEL)
		return !strncmp(name, KERNEL_NAME, sizeof(KERNEL_NAME) - 2);
	return !strcmp(sym_dso_long_name(m->dso), name);
}

/*
 * The DSO of the map an MMAP record has just added at start in t's maps
 * (the kernel's for t NULL, where maps may overlap and share a start:
 * the one named name), or NULL when the session added none (a kernel
 * map it does not model, a map that wraps).
 */
static struct sym_dso *
map_dso_at(struct ses_session *sess, const struct ses_thread *t,
	   uint64_t start, const char *name)
{
	const struct ses_map *const *maps;
	size_t nr = ses_thread_maps(sess, t, &maps), lo = 0, hi = nr, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (maps[mid]->start < start)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < nr && maps[lo]->start == start; lo++)
		if (t || map_named(maps[lo], name))
			return maps[lo]->dso;
	return NULL;
}

/*
 * An MMAP or MMAP2 the session has applied: perf creates a DSO when it
 * replays the first map of it, so the order of first meeting is taken
 * here.  Guests and hypervisors are not followed.
 */
static void
on_mmap(struct bstate *st, const struct ses_event *ev)
{
	const union pd_event *e = ev->event;
	bool is2 = ev->rec->header.type == PD_RECORD_MMAP2;
	uint8_t cpumode = e->header.misc & PD_MISC_CPUMODE_MASK;
	const struct ses_thread *t = NULL;
	enum bdso_kind kind = BDSO_USER;
	struct sym_dso *dso;
	const char *name;
	struct bdso *d;
	uint32_t pid, tid;
	char *recorded;
	ptrdiff_t i;

	if (cpumode == PD_MISC_USER) {
		pid = is2 ? e->mmap2.pid : e->mmap.pid;
		tid = is2 ? e->mmap2.tid : e->mmap.tid;
		t = ses_thread_find(st->sess, (int32_t)pid, (int32_t)tid);
		if (!t)
			return;
	} else if (cpumode != PD_MISC_KERNEL) {
		return;
	}
	recorded = is2 ? xstrndup(e->mmap2.filename.s, e->mmap2.filename.len) :
			 xstrndup(e->mmap.filename.s, e->mmap.filename.len);
	dso = map_dso_at(st->sess, t, is2 ? e->mmap2.start : e->mmap.start,
			 recorded);
	free(recorded);
	if (!dso)
		return;
	name = sym_dso_long_name(dso);
	if (cpumode == PD_MISC_KERNEL)
		kind = sym_dso_kind(dso) == SYM_DSO_KERNEL ? BDSO_KERNEL :
							     BDSO_MODULE;
	else if (is_vdso_name(name))
		kind = BDSO_VDSO;
	i = dso_lookup(st, name, true, kind);
	d = &st->dsos[i];
	if (!d->rank)
		d->rank = ++st->nr_ranked;
	if (is2 && e->mmap2.has_build_id && e->mmap2.build_id_size &&
	    !d->id_size) {
		d->id_size = e->mmap2.build_id_size;
		memcpy(d->id, e->mmap2.build_id, e->mmap2.build_id_size);
	}
}

static void
on_event(void *ctx, const struct ses_event *ev)
{
	if (ev->kind == SES_RECORD && ev->event &&
	    (ev->rec->header.type == PD_RECORD_MMAP ||
	     ev->rec->header.type == PD_RECORD_MMAP2))
		on_mmap(ctx, ev);
}

/*
 * perf's process_sample_event: the first and last sample time (0 when
 * not sampled), and the DSO of the map holding the ip, kernel or user,
 * marked hit.
 */
static void
on_sample(void *ctx, const struct ses_sample *s)
{
	struct bstate *st = ctx;
	uint64_t time = s->time == (uint64_t)-1 ? 0 : s->time;
	ptrdiff_t i;

	if (!st->first_time)
		st->first_time = time;
	st->last_time = time;
	if (!s->self.dso || (s->self.cpumode != PD_MISC_KERNEL &&
			     s->self.cpumode != PD_MISC_USER))
		return;
	i = dso_lookup(st, sym_dso_long_name(s->self.dso), false, BDSO_USER);
	if (i >= 0)
		st->dsos[i].hit = true;
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
	u64map_free(&st->dso_hash);
}

int
rec_buildids_collect(struct pd_reader *r, struct pd_meta *meta)
{
	const struct ses_opts sopts = { .no_callchain = true,
					.maps_only = true };
	const struct ses_ops ops = { .sample = on_sample, .event = on_event };
	struct sym_opts so = { .no_prefetch = true };
	struct sym_ctx *syms;
	struct bstate st;
	int err;

	memset(&st, 0, sizeof(st));
	/* perf's session has the kernel DSO before any record is read */
	dso_lookup(&st, KERNEL_NAME, true, BDSO_KERNEL);
	st.dsos[0].rank = ++st.nr_ranked;
	syms = sym_ctx_new(&so);
	st.sess = ses_new(r, syms, &sopts);
	err = ses_run(st.sess, &ops, &st);
	ses_free(st.sess);
	sym_ctx_free(syms);
	if (err) {
		bstate_free(&st);
		return err;
	}
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
