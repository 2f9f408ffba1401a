/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * symbol/dso.c - the symbol context: DSOs by (name, build-id), finding
 * the file that holds a DSO's symbols in perf 6.1's order, and the
 * tables shared by build-id (doc/perf-records.md §7).
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <xxhash.h>

#include "lib/u64map.h"
#include "lib/xalloc.h"
#include "symbol/sym-int.h"
#include "symbol/sym-dso.h"

static uint64_t
dso_key(const char *name, const uint8_t *bid, size_t bid_size)
{
	XXH64_state_t *st = XXH64_createState();
	uint64_t h;

	if (!st)
		return XXH64(name, strlen(name), bid_size);
	XXH64_reset(st, 0);
	XXH64_update(st, name, strlen(name) + 1);
	if (bid_size)
		XXH64_update(st, bid, bid_size);
	h = XXH64_digest(st);
	XXH64_freeState(st);
	return h;
}

static uint64_t
bid_key(const uint8_t *bid, size_t size)
{
	return XXH64(bid, size, 0x5359);
}

struct sym_ctx *
sym_ctx_new(const struct sym_opts *opts)
{
	struct sym_ctx *ctx = calloc(1, sizeof(*ctx));

	if (!ctx)
		return NULL;
	if (opts)
		ctx->opts = *opts;
	pthread_mutex_init(&ctx->lock, NULL);
	ctx->dsos = (struct u64map)U64MAP_INIT;
	ctx->tables = (struct u64map)U64MAP_INIT;
	if (ctx->opts.symfs && !ctx->opts.symfs[0])
		ctx->opts.symfs = NULL;
	ctx->symfs = ctx->opts.symfs ? strdup(ctx->opts.symfs) : NULL;
	ctx->kallsyms_path = ctx->opts.kallsyms ? strdup(ctx->opts.kallsyms) :
						 NULL;
	ctx->os_release = ctx->opts.os_release ? strdup(ctx->opts.os_release) :
						 NULL;
	ctx->opts.symfs = ctx->symfs;
	ctx->opts.kallsyms = ctx->kallsyms_path;
	ctx->vmlinux_path = ctx->opts.vmlinux ? strdup(ctx->opts.vmlinux) :
						NULL;
	ctx->opts.vmlinux = ctx->vmlinux_path;
	ctx->opts.os_release = ctx->os_release;
	ctx->recording_id = ctx->opts.recording_id ?
			    strdup(ctx->opts.recording_id) : NULL;
	ctx->opts.recording_id = ctx->recording_id;
	if (ctx->opts.buildid_dir) {
		ctx->buildid_dir = strdup(ctx->opts.buildid_dir);
	} else if (ctx->symfs) {
		/* perf's --symfs also moves the build-id cache there */
		if (asprintf(&ctx->buildid_dir, "%s/.debug", ctx->symfs) < 0)
			ctx->buildid_dir = NULL;
	} else if (getenv("PERF_BUILDID_DIR") && getenv("PERF_BUILDID_DIR")[0]) {
		ctx->buildid_dir = strdup(getenv("PERF_BUILDID_DIR"));
	} else {
		const char *home = getenv("HOME");

		if (asprintf(&ctx->buildid_dir, "%s/.debug",
			     home ? home : "") < 0)
			ctx->buildid_dir = NULL;
	}
	ctx->opts.buildid_dir = ctx->buildid_dir;
	pthread_mutex_init(&ctx->note_lock, NULL);
	ctx->ar_tables = (struct u64map)U64MAP_INIT;
	if (ctx->opts.archive && ctx->opts.archive[0])
		sym_ctx_open_archive(ctx, ctx->opts.archive);
	ctx->opts.archive = NULL;
	/* an archived kernel needs no kallsyms of this machine */
	if (!ctx->opts.no_prefetch &&
	    !sym_ctx_archive_has_kind(ctx, SYM_DSO_KERNEL))
		sym_ctx_prefetch_kallsyms(ctx);
	return ctx;
}

static void
dso_free(struct sym_dso *dso)
{
	sym_inline_free(dso);
	sym_srcline_free(dso);
	/* kept for a first ask that never came: never said */
	while (dso->warm_notes) {
		struct sym_warm_note *n = dso->warm_notes;

		dso->warm_notes = n->next;
		free(n->text);
		free(n);
	}
	if (dso->own_table)
		sym_table_free(dso->table);
	pthread_mutex_destroy(&dso->lock);
	if (dso->data_fd >= 0)
		close(dso->data_fd);
	if (dso->cfi_fd >= 0)
		close(dso->cfi_fd);
	free(dso->image_path);
	free(dso->debug_frame_path);
	free(dso->symsrc_path);
	free(dso->ref_name);
	free(dso->ksections);
	free(dso->long_name);
	free(dso->short_name);
	free(dso);
}

void
sym_ctx_free(struct sym_ctx *ctx)
{
	size_t pos = 0;
	uint64_t key, val;

	if (!ctx)
		return;
	sym_warm_stop(ctx);
	sym_notes_free(ctx);
	while (u64map_next(&ctx->dsos, &pos, &key, &val)) {
		struct sym_dso *dso = (struct sym_dso *)(uintptr_t)val;

		while (dso) {
			struct sym_dso *next = dso->hash_next;

			dso_free(dso);
			dso = next;
		}
	}
	pos = 0;
	while (u64map_next(&ctx->tables, &pos, &key, &val))
		sym_table_free((struct sym_table *)(uintptr_t)val);
	u64map_free(&ctx->dsos);
	u64map_free(&ctx->tables);
	/* frees a prefetch never taken too */
	sym_kallsyms_free(&ctx->kallsyms);
	sym_ctx_close_archive(ctx);
	pthread_mutex_destroy(&ctx->note_lock);
	pthread_mutex_destroy(&ctx->lock);
	free(ctx->kallsyms_read);
	free(ctx->symfs);
	free(ctx->kallsyms_path);
	free(ctx->vmlinux_path);
	free(ctx->os_release);
	free(ctx->recording_id);
	free(ctx->buildid_dir);
	free(ctx);
}

/* The DSO this thread loads keeping its warnings, or NULL. */
static __thread struct sym_dso *warming;

/* Keep text for the DSO this thread loads quietly: true; false if none. */
static bool
keep_warning(const char *text)
{
	struct sym_dso *dso = warming;
	struct sym_warm_note *n, **tail;

	if (!dso)
		return false;
	n = xmalloc(sizeof(*n));
	n->next = NULL;
	n->text = xstrdup(text);
	for (tail = &dso->warm_notes; *tail; tail = &(*tail)->next)
		;
	*tail = n;
	return true;
}

/* Say what the DSO's quiet load kept. */
static void
say_warnings(struct sym_dso *dso)
{
	struct sym_warm_note *n, *next;

	n = __atomic_exchange_n(&dso->warm_notes, NULL, __ATOMIC_ACQ_REL);
	for (; n; n = next) {
		next = n->next;
		if (dso->ctx->opts.warn)
			dso->ctx->opts.warn(dso->ctx->opts.warn_ctx, n->text);
		free(n->text);
		free(n);
	}
}

void
sym_dso_load_quietly(struct sym_dso *dso)
{
	if (__atomic_load_n(&dso->loaded, __ATOMIC_ACQUIRE))
		return;
	pthread_mutex_lock(&dso->lock);
	if (!dso->loaded) {
		warming = dso;
		sym_dso_do_load(dso);
		warming = NULL;
		__atomic_store_n(&dso->loaded, true, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&dso->lock);
}

void
sym_warn(struct sym_ctx *ctx, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	if (!ctx->opts.warn)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (!keep_warning(buf))
		ctx->opts.warn(ctx->opts.warn_ctx, buf);
}

static bool
has_prefix(const char *s, const char *p)
{
	return strncmp(s, p, strlen(p)) == 0;
}

static bool
has_suffix(const char *s, const char *p)
{
	size_t n = strlen(s), m = strlen(p);

	return n >= m && strcmp(s + n - m, p) == 0;
}

/* "/lib/modules/.../foo-bar.ko.xz" -> "[foo_bar]", as perf names modules */
static char *
module_short_name(const char *path)
{
	const char *base = strrchr(path, '/');
	size_t n, i;
	char *s;

	base = base ? base + 1 : path;
	n = strcspn(base, ".");
	s = malloc(n + 3);
	if (!s)
		return NULL;
	s[0] = '[';
	for (i = 0; i < n; i++)
		s[i + 1] = base[i] == '-' ? '_' : base[i];
	s[n + 1] = ']';
	s[n + 2] = '\0';
	return s;
}

static enum sym_dso_kind
classify(const char *name)
{
	static const char *const other_brackets[] = {
		"[heap]", "[stack", "[vsyscall]", "[uprobes]", "[vvar]",
		"[anon", "[vectors]",
	};
	size_t i;

	if (has_prefix(name, "[kernel.kallsyms]") ||
	    has_prefix(name, "[guest.kernel.kallsyms"))
		return SYM_DSO_KERNEL;
	if (!strcmp(name, "[vdso]") || !strcmp(name, "[vdso32]") ||
	    !strcmp(name, "[vdsox32]"))
		return SYM_DSO_VDSO;
	if (has_prefix(name, "/tmp/perf-") && has_suffix(name, ".map"))
		return SYM_DSO_JIT;
	if (name[0] == '[') {
		for (i = 0; i < sizeof(other_brackets) / sizeof(other_brackets[0]); i++)
			if (has_prefix(name, other_brackets[i]))
				return SYM_DSO_OTHER;
		return has_suffix(name, "]") ? SYM_DSO_MODULE : SYM_DSO_OTHER;
	}
	if (has_prefix(name, "/lib/modules/") &&
	    (has_suffix(name, ".ko") || strstr(name, ".ko.")))
		return SYM_DSO_MODULE;
	if (has_prefix(name, "//anon") || has_prefix(name, "/dev/zero") ||
	    has_prefix(name, "/anon_hugepage") || has_prefix(name, "/SYSV") ||
	    has_prefix(name, "/memfd:"))
		return SYM_DSO_OTHER;
	return name[0] == '/' ? SYM_DSO_FILE : SYM_DSO_OTHER;
}

/*
 * "/tmp/perf-<tid>..." as sscanf("/tmp/perf-%d.map") accepts it: any
 * optional sign and digits after the prefix, whatever follows them.
 */
static bool
jit_map_tid(const char *name, int *tid)
{
	const char *p = name + strlen("/tmp/perf-");
	char *end;
	long v;

	if (!has_prefix(name, "/tmp/perf-"))
		return false;
	errno = 0;
	v = strtol(p, &end, 10);
	if (end == p || errno || v < INT_MIN || v > INT_MAX)
		return false;
	*tid = (int)v;
	return true;
}

static struct sym_dso *
dso_new(struct sym_ctx *ctx, const char *name, const uint8_t *bid,
	size_t bid_size)
{
	struct sym_dso *dso = calloc(1, sizeof(*dso));
	const char *base;
	int tid;

	if (!dso)
		return NULL;
	dso->ctx = ctx;
	dso->kind = classify(name);
	dso->long_name = strdup(name);
	if (dso->kind == SYM_DSO_MODULE && name[0] == '/') {
		dso->short_name = module_short_name(name);
	} else if (dso->kind == SYM_DSO_KERNEL) {
		dso->short_name = strdup("[kernel.kallsyms]");
	} else if (jit_map_tid(name, &tid)) {
		/* perf 6.1 names JIT maps by thread (util/dsos.c) */
		if (asprintf(&dso->short_name, "[JIT] tid %d", tid) < 0)
			dso->short_name = NULL;
	} else {
		base = strrchr(name, '/');
		dso->short_name = strdup(base && base[1] ? base + 1 : name);
	}
	if (!dso->long_name || !dso->short_name) {
		free(dso->long_name);
		free(dso->short_name);
		free(dso);
		return NULL;
	}
	if (bid && bid_size) {
		if (bid_size > SYM_BUILD_ID_MAX)
			bid_size = SYM_BUILD_ID_MAX;
		memcpy(dso->bid, bid, bid_size);
		dso->bid_size = bid_size;
	}
	dso->origin = '!';
	dso->is_64_bit = sizeof(void *) == 8;
	dso->data_fd = -1;
	dso->cfi_fd = -1;
	pthread_mutex_init(&dso->lock, NULL);
	return dso;
}

/*
 * The DSO of name and build-id, made if new; numbered in the order the
 * session first asks for it (ordered), which orders call graph siblings
 * as perf's order of making does: a DSO made for a hint (sym_dso_hint())
 * takes its number when the session first asks for it.
 */
static struct sym_dso *
dso_get(struct sym_ctx *ctx, const char *name, const uint8_t *build_id,
	size_t build_id_size, bool ordered)
{
	uint64_t key, *slot;
	struct sym_dso *dso;

	if (!build_id)
		build_id_size = 0;
	if (build_id_size > SYM_BUILD_ID_MAX)
		build_id_size = SYM_BUILD_ID_MAX;
	key = dso_key(name, build_id, build_id_size);
	pthread_mutex_lock(&ctx->lock);
	slot = u64map_slot(&ctx->dsos, key);
	if (!slot) {
		pthread_mutex_unlock(&ctx->lock);
		return NULL;
	}
	for (dso = (struct sym_dso *)(uintptr_t)*slot; dso; dso = dso->hash_next)
		if (!strcmp(dso->long_name, name) &&
		    dso->bid_size == build_id_size &&
		    !memcmp(dso->bid, build_id ? build_id : dso->bid,
			    build_id_size))
			break;
	if (!dso) {
		dso = dso_new(ctx, name, build_id, build_id_size);
		if (dso) {
			dso->hash_next = (struct sym_dso *)(uintptr_t)*slot;
			*slot = (uint64_t)(uintptr_t)dso;
			if (dso->kind == SYM_DSO_KERNEL && !ctx->kernel)
				ctx->kernel = dso;
		}
	}
	if (dso && ordered && !dso->seq)
		dso->seq = ++ctx->nr_dsos_made;
	pthread_mutex_unlock(&ctx->lock);
	return dso;
}

struct sym_dso *
sym_dso_get(struct sym_ctx *ctx, const char *name, const uint8_t *build_id,
	    size_t build_id_size)
{
	return dso_get(ctx, name, build_id, build_id_size, true);
}

void
sym_dso_hint(struct sym_ctx *ctx, const char *name, const uint8_t *build_id,
	     size_t build_id_size)
{
	struct sym_dso *dso;

	if (!ctx->warm)
		return;
	dso = dso_get(ctx, name, build_id, build_id_size, false);
	if (dso)
		sym_dso_warm(dso);
}

uint64_t
sym_dso_seq(const struct sym_dso *dso)
{
	return dso ? dso->seq : 0;
}

enum sym_dso_kind
sym_dso_kind(const struct sym_dso *dso)
{
	return dso->kind;
}

const char *
sym_dso_long_name(const struct sym_dso *dso)
{
	return dso->long_name;
}

const char *
sym_dso_short_name(const struct sym_dso *dso)
{
	return dso->short_name;
}

bool
sym_dso_identity_map(const struct sym_dso *dso)
{
	return dso->kind == SYM_DSO_KERNEL || dso->kind == SYM_DSO_MODULE ||
	       dso->kind == SYM_DSO_JIT;
}

char
sym_dso_origin(const struct sym_dso *dso)
{
	return dso->origin;
}

void
sym_dso_set_ref_reloc(struct sym_dso *dso, const char *name, uint64_t addr)
{
	pthread_mutex_lock(&dso->lock);
	if (!dso->loaded && (!dso->ref_name || strcmp(dso->ref_name, name))) {
		free(dso->ref_name);
		dso->ref_name = strdup(name);
	}
	if (!dso->loaded)
		dso->ref_addr = addr;
	pthread_mutex_unlock(&dso->lock);
}

bool
sym_dso_vmlinux_text(struct sym_dso *dso, struct sym_kernel_section *text)
{
	sym_dso_load(dso);
	if (!dso->has_ktext)
		return false;
	*text = dso->ktext;
	return true;
}

size_t
sym_dso_vmlinux_sections(struct sym_dso *dso,
			 const struct sym_kernel_section **secs)
{
	sym_dso_load(dso);
	*secs = dso->ksections;
	return dso->nr_ksections;
}

const char *
sym_dso_vmlinux_path(const struct sym_dso *dso)
{
	return dso->has_ktext ? dso->ctx->vmlinux_path : NULL;
}

const char *
sym_dso_shown_long_name(const struct sym_dso *dso)
{
	/* perf renames the kernel after the image, as -k named it */
	if (dso->has_ktext)
		return dso->ctx->vmlinux_path;
	/* a section's DSO took the kernel's name from before that */
	if (dso->section_of)
		return dso->section_of->long_name;
	return dso->long_name;
}

void
sym_dso_set_section_table(struct sym_dso *dso, struct sym_dso *kernel,
			  struct sym_table *table)
{
	char *path = kernel->symsrc_path ? strdup(kernel->symsrc_path) : NULL;
	char *name = strdup(dso->long_name);

	pthread_mutex_lock(&dso->lock);
	if (!dso->loaded && name) {
		free(dso->short_name);
		dso->short_name = name;
		name = NULL;
		dso->table = table;
		dso->own_table = true;
		table = NULL;
		dso->origin = 'v';
		dso->section_of = kernel;
		dso->symsrc_path = path;
		path = NULL;
		__atomic_store_n(&dso->loaded, true, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&dso->lock);
	sym_table_free(table);
	free(name);
	free(path);
}

/* A table shared by build-id: the cached one, or t (now cached). */
struct sym_table *
sym_ctx_share_table(struct sym_ctx *ctx, const uint8_t *bid, size_t size,
		    struct sym_table *t, bool *shared)
{
	uint64_t *slot;

	*shared = false;
	if (!size || !t)
		return t;
	pthread_mutex_lock(&ctx->lock);
	slot = u64map_slot(&ctx->tables, bid_key(bid, size));
	if (slot && *slot) {
		sym_table_free(t);
		t = (struct sym_table *)(uintptr_t)*slot;
		*shared = true;
	} else if (slot) {
		*slot = (uint64_t)(uintptr_t)t;
		*shared = true;
	}
	pthread_mutex_unlock(&ctx->lock);
	return t;
}

struct sym_table *
sym_ctx_cached_table(struct sym_ctx *ctx, const uint8_t *bid, size_t size)
{
	uint64_t *val;
	struct sym_table *t = NULL;

	if (!size)
		return NULL;
	pthread_mutex_lock(&ctx->lock);
	val = u64map_find(&ctx->tables, bid_key(bid, size));
	if (val)
		t = (struct sym_table *)(uintptr_t)*val;
	pthread_mutex_unlock(&ctx->lock);
	return t;
}

int
sym_dso_load(struct sym_dso *dso)
{
	sym_dso_load_quietly(dso);
	/* what a load, this one or an earlier quiet one, warned: now */
	if (__atomic_load_n(&dso->warm_notes, __ATOMIC_RELAXED))
		say_warnings(dso);
	return 0;
}

const struct sym_symbol *
sym_dso_find(struct sym_dso *dso, uint64_t al_addr)
{
	if (sym_dso_noting(dso))
		sym_note_find(dso, al_addr);
	sym_dso_load(dso);
	return sym_table_find(dso->table, al_addr);
}
