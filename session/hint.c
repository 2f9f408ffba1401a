/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * session/hint.c - the DSOs a file's samples land in, named to the
 * loading thread (symbol/warm.c) by the reading thread as it reads
 * (doc/perf-records.md §7.17).  The resolving thread makes the DSOs of
 * its model as it replays the maps, and at a report's start it first
 * waits for the kernel's symbols: the DWARF of the first libraries its
 * samples reach would only start loading then.  The reading thread
 * keeps the executable file maps of each process from the MMAP records
 * it reads, and names the DSO of the map a sample it decodes falls in
 * (its ip, or for a sample in the kernel the user pc of its registers),
 * once a map; the DSO is the one the resolving thread will ask for (its
 * name, and the build-id of the record or of the header's table), and
 * takes its place among the others when it does (sym_dso_hint()), so
 * the report is the same.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"
#include "session/hint.h"
#include "session/session-int.h"
#include "session/unwind.h"

/* maps kept at most, all processes together: hints only, past that */
#define HINT_MAPS_MAX	65536
/*
 * Of the samples read, those looked at (and, when not decoded ahead for
 * the caller, decoded here for their ip): a DSO many land in is named
 * soon enough, and a look at every sample took a sixth of the reading
 * thread's time on a big frame-pointer file.
 */
#define HINT_EVERY	16
#define PROT_EXEC_BIT	4u		/* PROT_EXEC */
#define MAP_HUGE_BIT	0x40000u	/* MAP_HUGETLB */

struct hint_map {
	uint64_t start, end;
	char *name;
	uint8_t id[PD_BUILD_ID_SIZE];
	uint8_t id_size;
	bool named;			/* its DSO was named */
};

struct hint_proc {
	struct hint_map *v;		/* in the order read */
	size_t nr, cap;
	size_t last;			/* the map the last sample fell in */
};

struct ses_hints {
	struct u64map procs;		/* pid -> struct hint_proc * */
	size_t nr_maps;
	const char *arch;		/* the recording's, or NULL */
	union pd_event ev;
	struct pd_sample sample;
	unsigned int tick;		/* samples read */
};

void
ses_hints_start(struct ses_session *s)
{
	const struct pd_meta *meta = pd_reader_meta(s->r);

	if (!sym_ctx_warming(s->syms))
		return;
	s->hints = xcalloc(1, sizeof(*s->hints));
	s->hints->arch = meta ? meta->arch : NULL;
}

void
ses_hints_free(struct ses_session *s)
{
	struct ses_hints *h = s->hints;
	size_t pos = 0, i;
	uint64_t key, val;

	if (!h)
		return;
	while (u64map_next(&h->procs, &pos, &key, &val)) {
		struct hint_proc *p = (struct hint_proc *)(uintptr_t)val;

		for (i = 0; i < p->nr; i++)
			free(p->v[i].name);
		free(p->v);
		free(p);
	}
	u64map_free(&h->procs);
	free(h);
	s->hints = NULL;
}

/* A map of a file the resolving thread makes a DSO of (resolve.c). */
static bool
file_map(const char *name, uint32_t prot, uint32_t flags)
{
	return name[0] == '/' && (prot & PROT_EXEC_BIT) &&
	       !(flags & MAP_HUGE_BIT) && strncmp(name, "/dev/zero", 9) &&
	       strncmp(name, "/anon_hugepage", 14) && strncmp(name, "/SYSV", 5);
}

static void
keep_map(struct ses_hints *h, int32_t pid, const struct hint_map *m)
{
	uint64_t *slot = u64map_slot(&h->procs, (uint32_t)pid);
	struct hint_proc *p;

	if (!slot)
		return;
	if (!*slot)
		*slot = (uint64_t)(uintptr_t)xcalloc(1, sizeof(*p));
	p = (struct hint_proc *)(uintptr_t)*slot;
	if (p->nr == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 16;
		p->v = xreallocarray(p->v, p->cap, sizeof(*p->v));
	}
	p->v[p->nr++] = *m;
	h->nr_maps++;
}

/* A user map of a file, into m; false for any other record. */
static bool
user_map(struct ses_session *s, struct ses_hints *h,
	 const struct pd_record *rec, struct hint_map *m, int32_t *pid)
{
	const struct pd_str *name;
	uint32_t prot, flags = 0;

	if ((rec->header.type != PD_RECORD_MMAP &&
	     rec->header.type != PD_RECORD_MMAP2) ||
	    (rec->header.misc & PD_MISC_CPUMODE_MASK) != PD_MISC_USER ||
	    pd_event_decode(ses_rec_attr(s, rec), rec, &h->ev))
		return false;
	memset(m, 0, sizeof(*m));
	if (rec->header.type == PD_RECORD_MMAP2) {
		const struct pd_ev_mmap2 *e = &h->ev.mmap2;

		*pid = (int32_t)e->pid;
		m->start = e->start;
		m->end = e->start + e->len;
		prot = e->prot;
		flags = e->flags;
		name = &e->filename;
		if (e->has_build_id && e->build_id_size) {
			m->id_size = e->build_id_size;
			memcpy(m->id, e->build_id, m->id_size);
		}
	} else {
		const struct pd_ev_mmap *e = &h->ev.mmap;

		*pid = (int32_t)e->pid;
		m->start = e->start;
		m->end = e->start + e->len;
		prot = (rec->header.misc & PD_MISC_MMAP_DATA) ? 0 : PROT_EXEC_BIT;
		name = &e->filename;
	}
	if (!name->len || m->end <= m->start)
		return false;
	m->name = xstrndup(name->s, name->len);
	if (!file_map(m->name, prot, flags)) {
		free(m->name);
		return false;
	}
	return true;
}

void
ses_hint_record(struct ses_session *s, const struct pd_record *rec)
{
	struct ses_hints *h = s->hints;
	struct hint_map m;
	int32_t pid;

	if (h && h->nr_maps < HINT_MAPS_MAX && user_map(s, h, rec, &m, &pid))
		keep_map(h, pid, &m);
}

/* The newest map of pid's process holding ip. */
static struct hint_map *
map_at(struct ses_hints *h, int32_t pid, uint64_t ip)
{
	uint64_t *slot = u64map_find(&h->procs, (uint32_t)pid);
	struct hint_proc *p;
	size_t i;

	if (!slot)
		return NULL;
	p = (struct hint_proc *)(uintptr_t)*slot;
	if (p->last < p->nr && ip >= p->v[p->last].start &&
	    ip < p->v[p->last].end)
		return &p->v[p->last];
	for (i = p->nr; i-- > 0;)
		if (ip >= p->v[i].start && ip < p->v[i].end) {
			p->last = i;
			return &p->v[i];
		}
	return NULL;
}

/* Names the DSO of pid's map at ip, the first time. */
static void
hint_at(struct ses_session *s, struct ses_hints *h, int32_t pid, uint64_t ip)
{
	const struct ses_bid *b;
	struct hint_map *m;

	m = map_at(h, pid, ip);
	if (!m || m->named)
		return;
	m->named = true;
	if (m->id_size) {
		sym_dso_hint(s->syms, m->name, m->id, m->id_size);
		return;
	}
	/* the header's build-id for the name, as resolve.c's dso_for() */
	b = ses_header_bid(s, m->name);
	sym_dso_hint(s->syms, m->name, b ? b->id : NULL, b ? b->size : 0);
}

/* Whether this sample is one of those looked at. */
static bool
hint_turn(struct ses_hints *h)
{
	return h && h->procs.nr && !(++h->tick % HINT_EVERY);
}

void
ses_hint_sample(struct ses_session *s, int32_t pid, uint64_t ip,
		uint8_t cpumode)
{
	if (hint_turn(s->hints) && cpumode == PD_MISC_USER)
		hint_at(s, s->hints, pid, ip);
}

static void
hint_decoded(struct ses_session *s, const struct pd_sample *ps)
{
	uint64_t pc;

	/* a sample in the kernel: where its user registers left user code */
	if (ps->cpumode == PD_MISC_USER)
		hint_at(s, s->hints, (int32_t)ps->pid, ps->ip);
	else if (ses_unwind_user_pc(s->hints->arch, ps, &pc))
		hint_at(s, s->hints, (int32_t)ps->pid, pc);
}

void
ses_hint_decoded(struct ses_session *s, const struct pd_sample *ps)
{
	if (hint_turn(s->hints))
		hint_decoded(s, ps);
}

void
ses_hint_undecoded(struct ses_session *s, const struct pd_record *rec)
{
	struct ses_hints *h = s->hints;
	const struct pd_attr *attr;

	if (!hint_turn(h))
		return;
	attr = ses_rec_attr(s, rec);
	if (attr && !pd_sample_decode(attr, rec, &h->sample))
		hint_decoded(s, &h->sample);
}
