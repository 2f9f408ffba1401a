/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * symbol/archive-build.c - noting the lookups a report makes, and
 * turning them into pdata symbol archive entries (doc/symbol-archive.md).
 *
 * An entry holds only the answers the noted lookups got.  The symbols
 * keep their full [start, end) (a report tells symbols apart by both),
 * while the covers that lead to them are clipped where a neighbouring
 * noted address got a different answer, so every noted address finds
 * exactly what it found here, "none" included, whatever the symbols
 * overlap.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/u64map.h"
#include "symbol/archive.h"
#include "symbol/sym-dso.h"

struct sym_notes {
	struct u64map finds;	/* al_addr -> 0: a set */
	struct u64map lines;
	struct u64map cfi;	/* ELF vaddr an unwinder read CFI for */
	struct u64map inl;	/* al_addr whose inline frames were asked */
};

void
sym_ctx_note_lookups(struct sym_ctx *ctx)
{
	pthread_mutex_lock(&ctx->note_lock);
	__atomic_store_n(&ctx->noting, true, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&ctx->note_lock);
}

/* The notes of dso, made (and dso listed) on first use; under note_lock. */
static struct sym_notes *
notes_of(struct sym_dso *dso)
{
	struct sym_ctx *ctx = dso->ctx;
	struct sym_notes *n = dso->notes;
	struct sym_dso **v;
	size_t cap;

	if (n)
		return n;
	if (ctx->nr_noted == ctx->cap_noted) {
		cap = ctx->cap_noted ? 2 * ctx->cap_noted : 16;
		v = realloc(ctx->noted, cap * sizeof(*v));
		if (!v)
			return NULL;
		ctx->noted = v;
		ctx->cap_noted = cap;
	}
	n = calloc(1, sizeof(*n));
	if (!n)
		return NULL;
	n->finds = (struct u64map)U64MAP_INIT;
	n->lines = (struct u64map)U64MAP_INIT;
	n->cfi = (struct u64map)U64MAP_INIT;
	n->inl = (struct u64map)U64MAP_INIT;
	dso->notes = n;
	ctx->noted[ctx->nr_noted++] = dso;
	return n;
}

void
sym_note_find(struct sym_dso *dso, uint64_t al_addr)
{
	struct sym_notes *n;

	pthread_mutex_lock(&dso->ctx->note_lock);
	n = notes_of(dso);
	if (n)
		u64map_slot(&n->finds, al_addr);
	pthread_mutex_unlock(&dso->ctx->note_lock);
}

void
sym_note_srcline(struct sym_dso *dso, uint64_t al_addr)
{
	struct sym_notes *n;

	pthread_mutex_lock(&dso->ctx->note_lock);
	n = notes_of(dso);
	if (n)
		u64map_slot(&n->lines, al_addr);
	pthread_mutex_unlock(&dso->ctx->note_lock);
}

void
sym_note_inline(struct sym_dso *dso, uint64_t al_addr)
{
	struct sym_notes *n;

	pthread_mutex_lock(&dso->ctx->note_lock);
	n = notes_of(dso);
	if (n)
		u64map_slot(&n->inl, al_addr);
	pthread_mutex_unlock(&dso->ctx->note_lock);
}

bool
sym_dso_noting(const struct sym_dso *dso)
{
	return sym_ctx_noting(dso->ctx);
}

bool
sym_ctx_noting(const struct sym_ctx *ctx)
{
	return __atomic_load_n(&ctx->noting, __ATOMIC_RELAXED);
}

void
sym_dso_note_cfi(struct sym_dso *dso, uint64_t vaddr)
{
	struct sym_notes *n;

	if (!sym_dso_noting(dso))
		return;
	pthread_mutex_lock(&dso->ctx->note_lock);
	n = notes_of(dso);
	if (n)
		u64map_slot(&n->cfi, vaddr);
	pthread_mutex_unlock(&dso->ctx->note_lock);
}

void
sym_notes_free(struct sym_ctx *ctx)
{
	size_t i;

	for (i = 0; i < ctx->nr_noted; i++) {
		struct sym_notes *n = ctx->noted[i]->notes;

		u64map_free(&n->finds);
		u64map_free(&n->lines);
		u64map_free(&n->cfi);
		u64map_free(&n->inl);
		free(n);
		ctx->noted[i]->notes = NULL;
	}
	free(ctx->noted);
	ctx->noted = NULL;
	ctx->nr_noted = ctx->cap_noted = 0;
}

size_t
sym_ctx_noted_dsos(struct sym_ctx *ctx, struct sym_dso ***out)
{
	size_t n;

	pthread_mutex_lock(&ctx->note_lock);
	*out = ctx->noted;
	n = ctx->nr_noted;
	pthread_mutex_unlock(&ctx->note_lock);
	return n;
}

size_t
sym_dso_build_id(const struct sym_dso *dso, uint8_t out[SYM_BUILD_ID_MAX])
{
	if (dso->bid_size) {
		memcpy(out, dso->bid, dso->bid_size);
		return dso->bid_size;
	}
	if (!__atomic_load_n(&dso->loaded, __ATOMIC_ACQUIRE))
		return 0;
	memcpy(out, dso->file_bid, dso->file_bid_size);
	return dso->file_bid_size;
}

const char *
sym_dso_image_path(struct sym_dso *dso)
{
	sym_dso_load(dso);
	if (dso->ar_ent)
		return NULL;
	if (dso->kind == SYM_DSO_KERNEL)
		return dso->origin == 'k' ? dso->ctx->kallsyms_read : NULL;
	return dso->image_path;
}

/* One noted lookup and its answer, as the writer collects them. */
struct found {
	uint64_t addr;
	const struct sym_symbol *sym;
	size_t seq;		/* order collected: the first answer wins */
};

struct line {
	uint64_t addr;
	const char *line;
	size_t seq;
};

/* The DSOs sharing one archive key (a build-id, else kind and name). */
struct group {
	enum sym_ar_kind kind;
	uint8_t bid[SYM_BUILD_ID_MAX];
	size_t bid_size;
	struct sym_dso *first;
	bool has_table;
	struct found *finds;
	size_t nr_finds, cap_finds;
	struct line *lines;
	size_t nr_lines, cap_lines;
	uint64_t *cfi;		/* lookup addresses of an unwinder */
	size_t nr_cfi, cap_cfi;
	struct sym_ar_inline *inl;	/* first: index in inl_frames */
	size_t nr_inl, cap_inl;
	struct sym_ar_inline_frame *inl_frames;	/* borrowed strings */
	size_t nr_inl_frames, cap_inl_frames;
	struct sym_dso *cfi_dso;	/* the DSO whose file has the CFI */
};

struct build {
	struct group *groups;
	size_t nr, cap;
	size_t seq;
};

static bool
ar_kind_of(enum sym_dso_kind k, enum sym_ar_kind *out)
{
	switch (k) {
	case SYM_DSO_FILE:
		*out = SYM_AR_FILE;
		return true;
	case SYM_DSO_KERNEL:
		*out = SYM_AR_KERNEL;
		return true;
	case SYM_DSO_MODULE:
		*out = SYM_AR_MODULE;
		return true;
	case SYM_DSO_VDSO:
		*out = SYM_AR_VDSO;
		return true;
	case SYM_DSO_JIT:
		*out = SYM_AR_JIT;
		return true;
	case SYM_DSO_OTHER:
	default:
		return false;
	}
}

static bool
grow_array(void **p, size_t *cap, size_t need, size_t elem)
{
	size_t n = *cap ? *cap : 16;
	void *q;

	if (need <= *cap)
		return true;
	while (n < need)
		n *= 2;
	q = realloc(*p, n * elem);
	if (!q)
		return false;
	*p = q;
	*cap = n;
	return true;
}

static struct group *
group_for(struct build *b, struct sym_dso *dso, enum sym_ar_kind kind,
	  const uint8_t *bid, size_t bid_size)
{
	struct group *g;
	size_t i;

	for (i = 0; i < b->nr; i++) {
		g = &b->groups[i];
		if (g->kind != kind || g->bid_size != bid_size)
			continue;
		if (bid_size ? !memcmp(g->bid, bid, bid_size) :
			       !strcmp(g->first->long_name, dso->long_name))
			return g;
	}
	if (!grow_array((void **)&b->groups, &b->cap, b->nr + 1,
			sizeof(*b->groups)))
		return NULL;
	g = &b->groups[b->nr++];
	memset(g, 0, sizeof(*g));
	g->kind = kind;
	memcpy(g->bid, bid, bid_size);
	g->bid_size = bid_size;
	g->first = dso;
	return g;
}

/* The noted addresses of one map, copied out under note_lock. */
static uint64_t *
noted_addrs(struct sym_ctx *ctx, const struct u64map *m, size_t *nr)
{
	uint64_t *v, key, val;
	size_t pos = 0, k = 0;

	pthread_mutex_lock(&ctx->note_lock);
	v = calloc(m->nr ? m->nr : 1, sizeof(*v));
	while (v && u64map_next(m, &pos, &key, &val))
		v[k++] = key;
	pthread_mutex_unlock(&ctx->note_lock);
	*nr = k;
	return v;
}

/* The inline frames of each noted address, as the report got them. */
static int
collect_inlines(struct group *g, struct sym_dso *dso, const uint64_t *addrs,
		size_t n)
{
	const struct sym_inline_frame *f;
	const struct sym_symbol *sym;
	size_t i, k, nf;

	for (i = 0; i < n; i++) {
		sym = sym_table_find(dso->table, addrs[i]);
		nf = sym ? sym_dso_inlines(dso, addrs[i], sym, &f) : 0;
		if (!nf)
			continue;
		if (!grow_array((void **)&g->inl, &g->cap_inl, g->nr_inl + 1,
				sizeof(*g->inl)) ||
		    !grow_array((void **)&g->inl_frames, &g->cap_inl_frames,
				g->nr_inl_frames + nf, sizeof(*g->inl_frames)))
			return -ENOMEM;
		g->inl[g->nr_inl++] = (struct sym_ar_inline){
			.addr = addrs[i], .first = (uint32_t)g->nr_inl_frames,
			.nr = (uint32_t)nf };
		for (k = 0; k < nf; k++)
			g->inl_frames[g->nr_inl_frames++] =
				(struct sym_ar_inline_frame){
				.name = f[k].sym == sym ? NULL : f[k].sym->name,
				.srcline = f[k].srcline };
	}
	return 0;
}

static int
collect_dso(struct build *b, struct sym_dso *dso)
{
	uint8_t bid[SYM_BUILD_ID_MAX];
	enum sym_ar_kind kind;
	uint64_t *finds = NULL, *lines = NULL, *cfi = NULL, *inl = NULL;
	size_t nr_finds, nr_lines, nr_cfi, nr_inl, bid_size, i;
	struct group *g;
	int ret = -ENOMEM;

	if (!ar_kind_of(dso->kind, &kind))
		return 0;
	sym_dso_load(dso);
	bid_size = sym_dso_build_id(dso, bid);
	g = group_for(b, dso, kind, bid, bid_size);
	finds = noted_addrs(dso->ctx, &dso->notes->finds, &nr_finds);
	lines = noted_addrs(dso->ctx, &dso->notes->lines, &nr_lines);
	cfi = noted_addrs(dso->ctx, &dso->notes->cfi, &nr_cfi);
	inl = noted_addrs(dso->ctx, &dso->notes->inl, &nr_inl);
	if (!g || !finds || !lines || !cfi || !inl ||
	    collect_inlines(g, dso, inl, nr_inl))
		goto out;
	if (nr_cfi) {
		if (!grow_array((void **)&g->cfi, &g->cap_cfi,
				g->nr_cfi + nr_cfi, sizeof(*g->cfi)))
			goto out;
		memcpy(g->cfi + g->nr_cfi, cfi, nr_cfi * sizeof(*cfi));
		g->nr_cfi += nr_cfi;
		if (!g->cfi_dso)
			g->cfi_dso = dso;
	}
	if (!g->has_table && dso->table && (dso->table->nr || dso->ar_ent)) {
		/* the origin letter and name of the DSO that had symbols */
		g->first = dso;
		g->has_table = true;
	}
	if (!grow_array((void **)&g->finds, &g->cap_finds,
			g->nr_finds + nr_finds, sizeof(*g->finds)) ||
	    !grow_array((void **)&g->lines, &g->cap_lines,
			g->nr_lines + nr_lines, sizeof(*g->lines)))
		goto out;
	for (i = 0; i < nr_finds; i++) {
		struct found *f = &g->finds[g->nr_finds++];

		f->addr = finds[i];
		f->sym = sym_table_find(dso->table, finds[i]);
		f->seq = b->seq++;
	}
	for (i = 0; i < nr_lines; i++) {
		const char *s = sym_dso_srcline_unnoted(dso, lines[i]);

		/* no line: whether addr2line names the function there */
		if (!s && sym_addr2line_names_at(dso, sym_table_find(dso->table,
								     lines[i]),
						 lines[i]))
			s = SYM_AR_NAMED_LINE;
		if (!s)
			continue;
		g->lines[g->nr_lines].addr = lines[i];
		g->lines[g->nr_lines].line = s;
		g->lines[g->nr_lines].seq = b->seq++;
		g->nr_lines++;
	}
	ret = 0;
out:
	free(finds);
	free(lines);
	free(cfi);
	free(inl);
	return ret;
}

static int
cmp_found(const void *pa, const void *pb)
{
	const struct found *a = pa, *b = pb;

	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static int
cmp_line(const void *pa, const void *pb)
{
	const struct line *a = pa, *b = pb;

	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static int
cmp_symp(const void *pa, const void *pb)
{
	const struct sym_symbol *a = *(const struct sym_symbol *const *)pa;
	const struct sym_symbol *b = *(const struct sym_symbol *const *)pb;
	int c;

	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	if (a->end != b->end)
		return a->end < b->end ? -1 : 1;
	c = strcmp(a->name, b->name);
	if (c)
		return c;
	return a < b ? -1 : a > b;
}

/* Sort by address and keep the first answer for each address. */
static size_t
dedup_finds(struct found *f, size_t n)
{
	size_t i, k = 0;

	if (n < 2)
		return n;
	qsort(f, n, sizeof(*f), cmp_found);
	for (i = 0; i < n; i++)
		if (!k || f[k - 1].addr != f[i].addr)
			f[k++] = f[i];
	return k;
}

static size_t
dedup_lines(struct line *l, size_t n)
{
	size_t i, k = 0;

	if (n < 2)
		return n;
	qsort(l, n, sizeof(*l), cmp_line);
	for (i = 0; i < n; i++)
		if (!k || l[k - 1].addr != l[i].addr)
			l[k++] = l[i];
	return k;
}

/* The index of s in the sorted unique pointers v[0..n). */
static uint32_t
sym_index(const struct sym_symbol *const *v, size_t n,
	  const struct sym_symbol *s)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = cmp_symp(&v[mid], &s);

		if (!c)
			return (uint32_t)mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

static uint64_t
max_u64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

/*
 * Covers over the sorted, unique finds: a run of addresses with the same
 * symbol gets the symbol's range stretched over the run (a zero-size
 * symbol holds its own start) and clipped at the next noted address and
 * at the end of the cover before it (or the address after a "none").
 */
static size_t
make_covers(const struct found *f, size_t n,
	    const struct sym_symbol *const *syms, size_t nr_syms,
	    struct sym_ar_cover *out)
{
	uint64_t floor = 0, last_plus;
	size_t i = 0, j, k = 0;

	while (i < n) {
		const struct sym_symbol *s = f[i].sym;
		uint64_t lo, hi;

		for (j = i; j + 1 < n && f[j + 1].sym == s; j++)
			;
		last_plus = f[j].addr == UINT64_MAX ? UINT64_MAX :
			    f[j].addr + 1;
		if (!s) {
			floor = max_u64(floor, last_plus);
			i = j + 1;
			continue;
		}
		lo = max_u64(s->start, floor);
		if (lo > f[i].addr)
			lo = f[i].addr;
		hi = max_u64(s->end, last_plus);
		if (j + 1 < n && hi > f[j + 1].addr)
			hi = f[j + 1].addr;
		if (hi > lo) {
			out[k].lo = lo;
			out[k].hi = hi;
			out[k].sym = sym_index(syms, nr_syms, s);
			k++;
			floor = hi;
		}
		i = j + 1;
	}
	return k;
}

/* The CFI of the addresses unwound through, from the DSO's data file. */
static int
make_cfi(struct group *g, struct sym_ar_dso *d)
{
	int fd, ret;

	if (!g->nr_cfi || (g->kind != SYM_AR_FILE && g->kind != SYM_AR_VDSO))
		return 0;
	fd = sym_dso_data_dup(g->cfi_dso);
	if (fd < 0)
		return 0;
	ret = sym_ar_cfi_extract(fd, g->cfi, g->nr_cfi, &d->cfi);
	close(fd);
	return ret;
}

static int
cmp_inline(const void *pa, const void *pb)
{
	const struct sym_ar_inline *a = pa, *b = pb;

	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

/* The inline frames table of a group: sorted, one row an address. */
static int
make_inlines(struct group *g, struct sym_ar_dso *d)
{
	struct sym_ar_inlines *t;
	size_t i, n = 0;

	if (!g->nr_inl)
		return 0;
	qsort(g->inl, g->nr_inl, sizeof(*g->inl), cmp_inline);
	for (i = 0; i < g->nr_inl; i++)
		if (!n || g->inl[n - 1].addr != g->inl[i].addr)
			g->inl[n++] = g->inl[i];
	t = malloc(sizeof(*t));
	if (!t)
		return -ENOMEM;
	*t = (struct sym_ar_inlines){
		.addrs = g->inl, .nr_addrs = n,
		.frames = g->inl_frames, .nr_frames = g->nr_inl_frames,
	};
	d->inl = t;
	return 0;
}

/* The entry of one group; its arrays are malloc'd into d. */
static int
make_entry(struct sym_ctx *ctx, struct group *g, struct sym_ar_dso *d)
{
	const struct sym_symbol **uniq = NULL;
	size_t i, nu = 0;

	memset(d, 0, sizeof(*d));
	d->kind = g->kind;
	memcpy(d->build_id, g->bid, g->bid_size);
	d->build_id_size = g->bid_size;
	d->name = g->first->long_name;
	d->origin = sym_dso_origin(g->first);
	d->demangled = !ctx->opts.no_demangle;
	g->nr_finds = dedup_finds(g->finds, g->nr_finds);
	g->nr_lines = dedup_lines(g->lines, g->nr_lines);
	uniq = calloc(g->nr_finds ? g->nr_finds : 1, sizeof(*uniq));
	d->covers = calloc(g->nr_finds ? g->nr_finds : 1, sizeof(*d->covers));
	d->lines = calloc(g->nr_lines ? g->nr_lines : 1, sizeof(*d->lines));
	if (!uniq || !d->covers || !d->lines)
		goto fail;
	for (i = 0; i < g->nr_finds; i++)
		if (g->finds[i].sym)
			uniq[nu++] = g->finds[i].sym;
	if (nu > 1)
		qsort(uniq, nu, sizeof(*uniq), cmp_symp);
	for (i = 0, d->nr_syms = 0; i < nu; i++)
		if (!d->nr_syms || uniq[d->nr_syms - 1] != uniq[i])
			uniq[d->nr_syms++] = uniq[i];
	d->syms = calloc(d->nr_syms ? d->nr_syms : 1, sizeof(*d->syms));
	if (!d->syms)
		goto fail;
	for (i = 0; i < d->nr_syms; i++) {
		d->syms[i].start = uniq[i]->start;
		d->syms[i].end = uniq[i]->end;
		d->syms[i].name = uniq[i]->name;
		d->syms[i].is_object = uniq[i]->is_object;
	}
	d->nr_covers = make_covers(g->finds, g->nr_finds, uniq, d->nr_syms,
				   d->covers);
	for (i = 0; i < g->nr_lines; i++) {
		d->lines[i].addr = g->lines[i].addr;
		d->lines[i].line = g->lines[i].line;
	}
	d->nr_lines = g->nr_lines;
	free(uniq);
	uniq = NULL;
	if (!make_cfi(g, d) && !make_inlines(g, d))
		return 0;
	free(d->cfi);
	goto fail;
fail:
	free(uniq);
	free(d->syms);
	free(d->covers);
	free(d->lines);
	return -ENOMEM;
}

static void
entry_free(struct sym_ar_dso *d)
{
	free(d->inl);		/* its arrays are the group's */
	free(d->cfi);
	free(d->syms);
	free(d->covers);
	free(d->lines);
}

static void
build_free(struct build *b)
{
	size_t i;

	for (i = 0; i < b->nr; i++) {
		free(b->groups[i].finds);
		free(b->groups[i].lines);
		free(b->groups[i].cfi);
		free(b->groups[i].inl);
		free(b->groups[i].inl_frames);
	}
	free(b->groups);
}

/* The entry that ties the archive to its recording (SYM_AR_RECORDING). */
static int
add_recording_id(struct sym_ctx *ctx, struct sym_ar_writer *w, char *err,
		 size_t errsz)
{
	struct sym_ar_dso d;

	if (!ctx->recording_id)
		return 0;
	memset(&d, 0, sizeof(d));
	d.kind = SYM_AR_RECORDING;
	d.name = ctx->recording_id;
	d.origin = '!';
	d.demangled = !ctx->opts.no_demangle;
	return sym_ar_writer_add(w, &d, err, errsz);
}

static int
write_groups(struct sym_ctx *ctx, struct build *b, const char *path,
	     struct sym_archive_stats *st, char *err, size_t errsz)
{
	struct sym_ar_writer *w;
	struct sym_ar_dso d;
	size_t i;
	int ret;

	ret = sym_ar_writer_open(&w, path, err, errsz);
	if (ret)
		return ret;
	for (i = 0; i < b->nr; i++) {
		struct group *g = &b->groups[i];

		if (!g->has_table && !g->nr_lines) {
			st->nr_missing++;
			continue;
		}
		ret = make_entry(ctx, g, &d);
		if (ret) {
			snprintf(err, errsz, "%s: out of memory", path);
			goto fail;
		}
		ret = sym_ar_writer_add(w, &d, err, errsz);
		entry_free(&d);
		if (ret)
			goto fail;
		st->nr_dsos++;
		st->nr_symbols += d.nr_syms;
		st->nr_lines += d.nr_lines;
	}
	ret = add_recording_id(ctx, w, err, errsz);
	if (ret)
		goto fail;
	return sym_ar_writer_finish(w, &st->bytes, err, errsz);
fail:
	sym_ar_writer_abort(w);
	return ret;
}

int
sym_ctx_write_archive(struct sym_ctx *ctx, const char *path,
		      struct sym_archive_stats *st, char *err, size_t errsz)
{
	struct sym_archive_stats dummy;
	struct sym_dso **dsos = NULL;
	struct build b = { 0 };
	size_t n, i;
	int ret = 0;

	if (!st)
		st = &dummy;
	memset(st, 0, sizeof(*st));
	pthread_mutex_lock(&ctx->note_lock);
	n = ctx->nr_noted;
	dsos = calloc(n ? n : 1, sizeof(*dsos));
	if (dsos && n)
		memcpy(dsos, ctx->noted, n * sizeof(*dsos));
	pthread_mutex_unlock(&ctx->note_lock);
	if (!dsos) {
		snprintf(err, errsz, "%s: out of memory", path);
		return -ENOMEM;
	}
	for (i = 0; i < n && !ret; i++) {
		if (dsos[i]->kind == SYM_DSO_OTHER)
			st->nr_missing++;
		else
			ret = collect_dso(&b, dsos[i]);
	}
	if (ret)
		snprintf(err, errsz, "%s: out of memory", path);
	else
		ret = write_groups(ctx, &b, path, st, err, errsz);
	build_free(&b);
	free(dsos);
	return ret;
}
