/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * symbol/archive-use.c - the reading side of the pdata symbol archive
 * (doc/symbol-archive.md): a DSO the archive has an entry for takes its
 * symbols, origin letter and source lines from that entry alone, and
 * no file is opened for it.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/u64map.h"
#include "symbol/archive.h"
#include "symbol/sym-dso.h"

static bool
ar_kind(enum sym_dso_kind k, enum sym_ar_kind *out)
{
	static const struct {
		enum sym_dso_kind dso;
		enum sym_ar_kind ar;
	} map[] = {
		{ SYM_DSO_FILE, SYM_AR_FILE },
		{ SYM_DSO_KERNEL, SYM_AR_KERNEL },
		{ SYM_DSO_MODULE, SYM_AR_MODULE },
		{ SYM_DSO_VDSO, SYM_AR_VDSO },
		{ SYM_DSO_JIT, SYM_AR_JIT },
	};
	size_t i;

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
		if (map[i].dso == k) {
			*out = map[i].ar;
			return true;
		}
	}
	return false;
}

/* Entries made with the other demangling setting: used as they are. */
static void
check_demangling(struct sym_ctx *ctx, const char *path)
{
	size_t i, n = sym_ar_count(ctx->ar);
	bool want = !ctx->opts.no_demangle;

	for (i = 0; i < n; i++) {
		const struct sym_ar_dso *d = sym_ar_entry(ctx->ar, i);

		if (d->demangled != want) {
			sym_warn(ctx, "%s: symbol names were stored %s; they are shown as stored",
				 path, d->demangled ? "demangled" :
				 "without demangling");
			return;
		}
	}
}

/*
 * An archive names the recording it was made from; one made from
 * another recording (a FILE.pdsym left beside a new FILE) answers the
 * wrong lookups, so it is not used.  Archives without the name are,
 * when the user named them: FILE.pdsym, found rather than named, must
 * name this recording and be trusted (doc/security.md).
 */
static bool
same_recording(struct sym_ctx *ctx, const char *path)
{
	size_t i, n = sym_ar_count(ctx->ar);
	bool beside = ctx->opts.archive_beside;

	if (beside && !sym_ar_trusted(ctx->ar)) {
		sym_warn(ctx, "symbol archive %s: not owned by the current user or root, or writable by others; not used",
			 path);
		return false;
	}
	if (!ctx->recording_id)
		goto unnamed;
	for (i = 0; i < n; i++) {
		const struct sym_ar_dso *d = sym_ar_entry(ctx->ar, i);

		if (d->kind != SYM_AR_RECORDING)
			continue;
		if (d->name && !strcmp(d->name, ctx->recording_id))
			return true;
		sym_warn(ctx, "symbol archive %s: made from another recording; not used",
			 path);
		return false;
	}
unnamed:
	if (beside)
		sym_warn(ctx, "symbol archive %s: names no recording to match; not used (use --symbol-archive to use it)",
			 path);
	return !beside;
}

void
sym_ctx_open_archive(struct sym_ctx *ctx, const char *path)
{
	char err[512];
	int ret;

	err[0] = '\0';
	ret = sym_ar_open(path, &ctx->ar, ctx->opts.warn, ctx->opts.warn_ctx,
			  err, sizeof(err));
	if (ret) {
		ctx->ar = NULL;
		if (!err[0])
			snprintf(err, sizeof(err), "cannot read it");
		if (strstr(err, path))
			sym_warn(ctx, "symbol archive %s; not used", err);
		else
			sym_warn(ctx, "symbol archive %s: %s; not used", path,
				 err);
		return;
	}
	if (!same_recording(ctx, path)) {
		sym_ar_close(ctx->ar);
		ctx->ar = NULL;
		return;
	}
	check_demangling(ctx, path);
}

void
sym_ctx_close_archive(struct sym_ctx *ctx)
{
	size_t pos = 0;
	uint64_t key, val;

	while (u64map_next(&ctx->ar_tables, &pos, &key, &val))
		sym_table_free((struct sym_table *)(uintptr_t)val);
	u64map_free(&ctx->ar_tables);
	if (ctx->ar)
		sym_ar_close(ctx->ar);
	ctx->ar = NULL;
}

bool
sym_ctx_archive_has_kind(const struct sym_ctx *ctx, enum sym_dso_kind kind)
{
	enum sym_ar_kind k;
	size_t i, n;

	if (!ctx->ar || !ar_kind(kind, &k))
		return false;
	n = sym_ar_count(ctx->ar);
	for (i = 0; i < n; i++)
		if (sym_ar_entry(ctx->ar, i)->kind == k)
			return true;
	return false;
}

/*
 * The entry for dso: by build-id when one was recorded; else by name,
 * including entries keyed by the build-id the file had where the archive
 * was made (the file need not exist here).
 */
static const struct sym_ar_dso *
find_entry(const struct sym_dso *dso)
{
	const struct sym_ar *a = dso->ctx->ar;
	const struct sym_ar_dso *d;
	enum sym_ar_kind k;
	size_t i, n;

	if (!a || !ar_kind(dso->kind, &k))
		return NULL;
	if (dso->bid_size)
		return sym_ar_find(a, k, dso->bid, dso->bid_size,
				   dso->long_name);
	d = sym_ar_find(a, k, NULL, 0, dso->long_name);
	if (d)
		return d;
	n = sym_ar_count(a);
	for (i = 0; i < n; i++) {
		d = sym_ar_entry(a, i);
		if (d->kind == k && d->name && !strcmp(d->name, dso->long_name))
			return d;
	}
	return NULL;
}

/* Covers sorted, disjoint, non-empty and pointing at a symbol. */
static bool
covers_ok(const struct sym_ar_dso *d)
{
	size_t i;

	for (i = 0; i < d->nr_covers; i++) {
		const struct sym_ar_cover *c = &d->covers[i];

		if (c->lo >= c->hi || c->sym >= d->nr_syms)
			return false;
		if (i && c->lo < d->covers[i - 1].hi)
			return false;
	}
	for (i = 1; i < d->nr_lines; i++)
		if (d->lines[i].addr <= d->lines[i - 1].addr)
			return false;
	return true;
}

static struct sym_table *
table_of_entry(const struct sym_ar_dso *d)
{
	struct sym_symbol *syms;
	struct sym_cover *covers;
	size_t i;

	syms = calloc(d->nr_syms ? d->nr_syms : 1, sizeof(*syms));
	covers = calloc(d->nr_covers ? d->nr_covers : 1, sizeof(*covers));
	if (!syms || !covers) {
		free(syms);
		free(covers);
		return NULL;
	}
	for (i = 0; i < d->nr_syms; i++) {
		syms[i].start = d->syms[i].start;
		syms[i].end = d->syms[i].end;
		syms[i].name = d->syms[i].name;
		syms[i].is_object = d->syms[i].is_object;
	}
	for (i = 0; i < d->nr_covers; i++) {
		covers[i].lo = d->covers[i].lo;
		covers[i].hi = d->covers[i].hi;
		covers[i].sym = d->covers[i].sym;
	}
	return sym_table_from_covers(syms, d->nr_syms, covers, d->nr_covers);
}

/*
 * One table per entry, shared by every DSO that uses it: a report tells
 * symbols apart by identity too.
 */
static struct sym_table *
shared_table(struct sym_ctx *ctx, const struct sym_ar_dso *d)
{
	struct sym_table *t = NULL;
	uint64_t *slot;

	pthread_mutex_lock(&ctx->lock);
	slot = u64map_slot(&ctx->ar_tables, (uint64_t)(uintptr_t)d);
	if (slot && *slot) {
		t = (struct sym_table *)(uintptr_t)*slot;
	} else if (slot) {
		t = table_of_entry(d);
		*slot = (uint64_t)(uintptr_t)t;
	}
	pthread_mutex_unlock(&ctx->lock);
	return t;
}

bool
sym_dso_load_archived(struct sym_dso *dso)
{
	struct sym_ctx *ctx = dso->ctx;
	const struct sym_ar_dso *d = find_entry(dso);
	struct sym_table *t;

	if (!d)
		return false;
	if (!covers_ok(d)) {
		sym_warn(ctx, "%s: the symbol archive's entry is inconsistent; not used",
			 dso->long_name);
		return false;
	}
	t = shared_table(ctx, d);
	if (!t) {
		sym_warn(ctx, "%s: out of memory loading symbols from the archive",
			 dso->long_name);
		return false;
	}
	dso->table = t;
	dso->own_table = false;
	dso->origin = d->origin;
	dso->ar_ent = d;
	if (!dso->bid_size && d->build_id_size <= SYM_BUILD_ID_MAX) {
		memcpy(dso->file_bid, d->build_id, d->build_id_size);
		dso->file_bid_size = d->build_id_size;
	}
	return true;
}

static const char *
archived_line(const struct sym_dso *dso, uint64_t al_addr)
{
	const struct sym_ar_dso *d = dso->ar_ent;
	size_t lo = 0, hi;

	if (!d)
		return NULL;
	hi = d->nr_lines;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (d->lines[mid].addr == al_addr)
			return d->lines[mid].line;
		if (d->lines[mid].addr < al_addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const char *
sym_dso_archived_srcline(const struct sym_dso *dso, uint64_t al_addr)
{
	const char *line = archived_line(dso, al_addr);

	return line && strcmp(line, SYM_AR_NAMED_LINE) ? line : NULL;
}

bool
sym_dso_archived_named(const struct sym_dso *dso, uint64_t al_addr)
{
	const char *line = archived_line(dso, al_addr);

	return line && !strcmp(line, SYM_AR_NAMED_LINE);
}
