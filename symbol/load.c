/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * symbol/load.c - where a DSO's symbols come from, in perf 6.1's order
 * (dso__load and dso__read_binary_type_filename):
 *
 *   l  the .gnu_debuglink target (as named, DIR/, DIR/.debug/,
 *      /usr/lib/debug/DIR/)
 *   B  build-id cache: BUILDID_DIR/.build-id/xx/rest[/elf]
 *   D  build-id cache debug file: BUILDID_DIR/.build-id/xx/rest/debug
 *   f  SYMFS/usr/lib/debug/PATH.debug
 *   u  SYMFS/usr/lib/debug/PATH
 *   b  SYMFS/usr/lib/debug/.build-id/xx/rest.debug
 *   d  SYMFS/PATH
 *   o  SYMFS/DIR/.debug/BASE
 *   x  SYMFS/usr/lib/debug/lib/... for /usr/lib/... paths
 *
 * The first candidate with .symtab gives the symbols, the first with
 * .dynsym is the runtime image (program headers, PLT); a candidate whose
 * build-id differs from the DSO's is skipped.  perf 6.1 does not read
 * .gnu_debugdata (MiniDebugInfo), so neither do we.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "lib/safefile.h"
#include "symbol/sym-dso.h"

static bool
is_regular(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* perf's path__join of the symfs and path. */
char *
sym_join_symfs(const struct sym_ctx *ctx, const char *path)
{
	char *s;

	if (!ctx->symfs)
		return strdup(path);
	if (asprintf(&s, "%s/%s", ctx->symfs, path) < 0)
		return NULL;
	return s;
}

/* BUILDID_DIR/.build-id/xx/rest, or that + "/" + base when a directory. */
char *
sym_buildid_cache_path(const struct sym_ctx *ctx, const uint8_t *bid,
		       size_t size, const char *base)
{
	char hex[2 * SYM_BUILD_ID_MAX + 1];
	char *link, *s;

	if (!size || !ctx->buildid_dir)
		return NULL;
	sym_build_id_hex(bid, size, hex);
	if (asprintf(&link, "%s/.build-id/%.2s/%s", ctx->buildid_dir, hex,
		     hex + 2) < 0)
		return NULL;
	if (is_regular(link))
		return link;
	if (asprintf(&s, "%s/%s", link, base) < 0)
		s = NULL;
	free(link);
	return s;
}

enum cand {
	CAND_DEBUGLINK, CAND_CACHE, CAND_CACHE_DEBUG, CAND_FEDORA,
	CAND_UBUNTU, CAND_BUILDID_DEBUG, CAND_SYSTEM, CAND_OPENEMBEDDED,
	CAND_MIXEDUP, CAND_NR,
};

static const char cand_origin[CAND_NR] = {
	'l', 'B', 'D', 'f', 'u', 'b', 'd', 'o', 'x',
};

/* One debuglink candidate: 0 as named, 1 DIR/, 2 DIR/.debug/, 3 /usr/lib/debug/DIR/ */
static char *
debuglink_candidate(int i, const char *dir, const char *link)
{
	char *s = NULL;
	int r = -1;

	switch (i) {
	case 0:
		s = strdup(link);
		return s;
	case 1:
		r = asprintf(&s, "%s/%s", dir, link);
		break;
	case 2:
		r = asprintf(&s, "%s/.debug/%s", dir, link);
		break;
	case 3:
		r = asprintf(&s, "/usr/lib/debug%s/%s", dir, link);
		break;
	default:
		break;
	}
	return r < 0 ? NULL : s;
}

static char *
debuglink_path(const struct sym_ctx *ctx, const char *long_name)
{
	char *file = sym_join_symfs(ctx, long_name), *link, *slash, *s = NULL;
	int i;

	if (!file)
		return NULL;
	if (!is_regular(file)) {
		free(file);
		return NULL;
	}
	link = sym_elf_debuglink(file);
	slash = strrchr(file, '/');
	if (slash)
		*slash = '\0';
	else
		file[0] = '\0';
	for (i = 0; link && i < 4; i++) {
		s = debuglink_candidate(i, file, link);
		if (s && is_regular(s))
			break;
		free(s);
		s = NULL;
	}
	free(link);
	free(file);
	return s;
}

static char *
candidate_path(struct sym_dso *dso, enum cand c, const uint8_t *bid,
	       size_t bid_size)
{
	const struct sym_ctx *ctx = dso->ctx;
	const char *name = dso->long_name;
	bool vdso = dso->kind == SYM_DSO_VDSO;
	char hex[2 * SYM_BUILD_ID_MAX + 1], *s = NULL, *t;
	const char *slash;

	switch (c) {
	case CAND_DEBUGLINK:
		return vdso ? NULL : debuglink_path(ctx, name);
	case CAND_CACHE:
		return sym_buildid_cache_path(ctx, bid, bid_size,
					      vdso ? "vdso" : "elf");
	case CAND_CACHE_DEBUG:
		return sym_buildid_cache_path(ctx, bid, bid_size,
					      vdso ? "vdso" : "debug");
	case CAND_FEDORA:
		if (vdso || asprintf(&t, "/usr/lib/debug%s.debug", name) < 0)
			return NULL;
		break;
	case CAND_UBUNTU:
		if (vdso || asprintf(&t, "/usr/lib/debug%s", name) < 0)
			return NULL;
		break;
	case CAND_BUILDID_DEBUG:
		if (vdso || !bid_size)
			return NULL;
		sym_build_id_hex(bid, bid_size, hex);
		if (asprintf(&t, "/usr/lib/debug/.build-id/%.2s/%s.debug", hex,
			     hex + 2) < 0)
			return NULL;
		break;
	case CAND_SYSTEM:
		if (vdso) {
			const char *self = sym_self_vdso_path();

			return self && sym_dso_is_host_vdso(dso) ?
				sym_join_symfs(ctx, self) : NULL;
		}
		return sym_join_symfs(ctx, name);
	case CAND_OPENEMBEDDED:
		slash = strrchr(name, '/');
		if (vdso || !slash ||
		    asprintf(&t, "%.*s/.debug%s", (int)(slash - name), name,
			     slash) < 0)
			return NULL;
		break;
	case CAND_MIXEDUP:
		if (vdso || strncmp(name, "/usr/lib/", 9) != 0 ||
		    asprintf(&t, "/usr/lib/debug%s", name + 4) < 0)
			return NULL;
		break;
	default:
		return NULL;
	}
	s = sym_join_symfs(ctx, t);
	free(t);
	return s;
}

/* The files found so far for a DSO: symbols and the runtime image. */
struct srcs {
	struct sym_elf_src ss[2];
	int pos;
	struct sym_elf_src *syms, *rt;
	char *rt_path;
	bool mismatch;
	int unreadable;
};

/*
 * Consider path (taken) as a source with the given origin; true once
 * both the symbols and the runtime image are found.
 */
static bool
try_source(struct sym_dso *dso, struct srcs *f, char *path, char origin,
	   const uint8_t *bid, size_t bid_size)
{
	struct sym_elf_src *s = &f->ss[f->pos];
	bool used = false;
	int err;

	if (!is_regular(path)) {
		free(path);
		return false;
	}
	err = sym_elf_src_open(s, path, bid, bid_size);
	if (err) {
		if (err == -EBADE)
			f->mismatch = true;
		else
			f->unreadable = err;
		free(path);
		return false;
	}
	s->origin = origin;
	if (!f->rt && s->dynsym) {
		f->rt = s;
		used = true;
		free(f->rt_path);
		f->rt_path = strdup(path);
	}
	if (!f->syms && s->symtab) {
		f->syms = s;
		used = true;
		free(dso->symsrc_path);
		dso->symsrc_path = path;
		path = NULL;
	}
	free(path);
	if (!used) {
		sym_elf_src_close(s);
		return false;
	}
	f->pos++;
	return f->syms && f->rt;
}

/*
 * Last, debuginfod (ours, not perf 6.1's): the debug file for the
 * symbols, the executable for the program headers.
 */
static void
try_debuginfod(struct sym_dso *dso, struct srcs *f, const uint8_t *bid,
	       size_t bid_size)
{
	char *path;

	if (!bid_size || dso->kind != SYM_DSO_FILE || !sym_debuginfod_enabled())
		return;
	path = sym_debuginfod_fetch(bid, bid_size, true);
	if (path && try_source(dso, f, path, 'i', bid, bid_size))
		return;
	if (f->pos >= 2)
		return;
	path = sym_debuginfod_fetch(bid, bid_size, false);
	if (path)
		try_source(dso, f, path, 'i', bid, bid_size);
}

static void
warn_not_found(struct sym_dso *dso, const struct srcs *f)
{
	if (f->mismatch)
		sym_warn(dso->ctx, "%s: no file with build-id matching the recorded one; no symbols",
			 dso->long_name);
	else if (f->unreadable)
		sym_warn(dso->ctx, "%s: cannot read symbols: %s",
			 dso->long_name, f->unreadable == -ENOEXEC ?
			 "not an ELF file" : sfile_strerror(f->unreadable));
}

static void
load_file(struct sym_dso *dso)
{
	struct sym_ctx *ctx = dso->ctx;
	struct srcs f;
	uint8_t bid[SYM_BUILD_ID_MAX];
	size_t bid_size = dso->bid_size;
	struct sym_builder b;
	struct sym_table *t;
	bool shared;
	int i, n;

	memset(&f, 0, sizeof(f));
	memcpy(bid, dso->bid, sizeof(bid));
	if (!bid_size && dso->kind == SYM_DSO_FILE &&
	    is_regular(dso->long_name)) {
		char *p = sym_join_symfs(ctx, dso->long_name);

		n = p ? sym_elf_build_id(p, bid) : 0;
		if (n > 0) {
			bid_size = (size_t)n;
			memcpy(dso->file_bid, bid, bid_size);
			dso->file_bid_size = bid_size;
		}
		free(p);
	}
	t = sym_ctx_cached_table(ctx, bid, bid_size);
	if (t) {
		dso->table = t;
		dso->origin = 'B';
	}
	for (i = 0; i < CAND_NR && f.pos < 2; i++) {
		char *path = candidate_path(dso, (enum cand)i, bid, bid_size);

		if (path && try_source(dso, &f, path, cand_origin[i], bid,
				       bid_size))
			break;
	}
	if (!f.syms && !f.rt)
		try_debuginfod(dso, &f, bid, bid_size);
	if (!f.syms && f.rt)
		f.syms = f.rt;
	if (!f.rt && f.syms) {
		/* a static executable: no .dynsym anywhere */
		f.rt = f.syms;
		f.rt_path = dso->symsrc_path ? strdup(dso->symsrc_path) : NULL;
	}
	if (!f.syms) {
		/* srcline must not read the mismatched file either */
		dso->bid_mismatch = f.mismatch;
		warn_not_found(dso, &f);
		free(f.rt_path);
		return;
	}
	dso->image_path = f.rt_path;
	sym_dso_save_text_offset(dso, f.rt->elf);
	dso->origin = f.syms->origin;
	dso->is_64_bit = f.syms->ehdr.e_ident[EI_CLASS] == ELFCLASS64;
	if (!dso->table) {
		sym_builder_init(&b);
		/* on a failed pass, what was added stays, unfixed, as in perf */
		sym_elf_load(&b, f.syms, f.rt, sym_ctx_demangle_mode(ctx));
		t = sym_builder_finish(&b);
		if (!t)
			sym_warn(ctx, "%s: out of memory loading symbols",
				 dso->long_name);
		t = sym_ctx_share_table(ctx, bid, bid_size, t, &shared);
		dso->table = t;
		dso->own_table = t && !shared;
	}
	for (i = 0; i < f.pos; i++)
		sym_elf_src_close(&f.ss[i]);
}

static bool
has_debug_frame(const struct sym_elf_src *s)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	const char *name;

	while ((scn = elf_nextscn(s->elf, scn))) {
		if (!gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS)
			continue;
		name = elf_strptr(s->elf, s->shstrndx, sh.sh_name);
		if (name && !strcmp(name, ".debug_frame"))
			return true;
	}
	return false;
}

char *
sym_dso_find_debug_frame(struct sym_dso *dso)
{
	const uint8_t *bid = dso->bid_size ? dso->bid : dso->file_bid;
	size_t bid_size = dso->bid_size ? dso->bid_size : dso->file_bid_size;
	struct sym_elf_src s;
	bool found;
	int i;

	if (dso->kind != SYM_DSO_FILE)
		return NULL;
	for (i = 0; i < CAND_NR; i++) {
		char *path = candidate_path(dso, (enum cand)i, bid, bid_size);

		if (!path || !is_regular(path) ||
		    (dso->image_path && !strcmp(path, dso->image_path)) ||
		    sym_elf_src_open(&s, path, bid, bid_size)) {
			free(path);
			continue;
		}
		found = has_debug_frame(&s);
		sym_elf_src_close(&s);
		if (found)
			return path;
		free(path);
	}
	return NULL;
}

/* The build-id in /sys/kernel/notes (raw ELF notes), size or 0. */
static size_t
running_kernel_build_id(uint8_t out[SYM_BUILD_ID_MAX])
{
	unsigned char buf[4096];
	size_t off = 0;
	ssize_t len;
	int fd;

	fd = open("/sys/kernel/notes", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	len = read(fd, buf, sizeof(buf));
	close(fd);
	while (len > 0 && off + 12 <= (size_t)len) {
		uint32_t namesz, descsz, type;
		size_t name_end, desc_end;

		memcpy(&namesz, buf + off, 4);
		memcpy(&descsz, buf + off + 4, 4);
		memcpy(&type, buf + off + 8, 4);
		if (namesz > 4096 || descsz > 4096)
			break;
		name_end = off + 12 + ((namesz + 3u) & ~3u);
		desc_end = name_end + ((descsz + 3u) & ~3u);
		if (desc_end > (size_t)len)
			break;
		if (type == 3 && namesz == 4 && !memcmp(buf + off + 12, "GNU", 4)) {
			size_t n = descsz < SYM_BUILD_ID_MAX ? descsz :
							      SYM_BUILD_ID_MAX;

			memcpy(out, buf + name_end, n);
			return n;
		}
		off = desc_end;
	}
	return 0;
}

static bool
release_matches(const char *os_release)
{
	struct utsname u;

	if (!os_release)
		return true;
	return uname(&u) == 0 && strcmp(u.release, os_release) == 0;
}

/* Which kallsyms file perf 6.1 would read for the recorded kernel. */
static char *
kallsyms_file(struct sym_ctx *ctx)
{
	uint8_t run[SYM_BUILD_ID_MAX], kbid[SYM_BUILD_ID_MAX];
	char hex[2 * SYM_BUILD_ID_MAX + 1], *p;
	size_t n, kbid_size = 0;

	if (ctx->kallsyms_path)
		return strdup(ctx->kallsyms_path);
	pthread_mutex_lock(&ctx->lock);
	if (ctx->kernel) {
		kbid_size = ctx->kernel->bid_size;
		memcpy(kbid, ctx->kernel->bid, sizeof(kbid));
	}
	pthread_mutex_unlock(&ctx->lock);
	if (!kbid_size) {
		if (release_matches(ctx->os_release))
			return strdup("/proc/kallsyms");
		sym_warn(ctx, "[kernel.kallsyms]: the recorded kernel (%s) is not the running one; no kernel symbols (use --kallsyms)",
			 ctx->os_release);
		return NULL;
	}
	n = running_kernel_build_id(run);
	if (n >= kbid_size && !memcmp(run, kbid, kbid_size))
		return strdup("/proc/kallsyms");
	sym_build_id_hex(kbid, kbid_size, hex);
	if (ctx->buildid_dir &&
	    asprintf(&p, "%s/[kernel.kallsyms]/%s/kallsyms", ctx->buildid_dir,
		     hex) >= 0) {
		if (is_regular(p))
			return p;
		free(p);
	}
	sym_warn(ctx, "No kallsyms or vmlinux with build-id %s was found",
		 hex);
	return NULL;
}

/*
 * Reading and parsing /proc/kallsyms takes a good part of a report's
 * time (the kernel writes it out slowly): start it at once in a thread
 * when it is the file kallsyms_file() will return.  A --kallsyms file
 * is read when needed: it reads fast, and a thread costs more than that
 * on a small report.
 */
void
sym_ctx_prefetch_kallsyms(struct sym_ctx *ctx)
{
	if (!ctx->kallsyms_path && release_matches(ctx->os_release))
		sym_kallsyms_prefetch(&ctx->kallsyms, "/proc/kallsyms");
}

static void
load_kallsyms_once(struct sym_ctx *ctx)
{
	char *path;
	int err;

	pthread_mutex_lock(&ctx->lock);
	if (ctx->kallsyms_loaded) {
		pthread_mutex_unlock(&ctx->lock);
		return;
	}
	pthread_mutex_unlock(&ctx->lock);
	path = kallsyms_file(ctx);
	pthread_mutex_lock(&ctx->lock);
	if (!ctx->kallsyms_loaded) {
		if (path) {
			err = sym_kallsyms_load(path, &ctx->kallsyms);
			if (err)
				sym_warn(ctx, "%s: cannot read kernel symbols: %s",
					 path, sfile_strerror(err));
			ctx->kallsyms_ok = err == 0;
			if (!err) {
				ctx->kallsyms_read = path;
				path = NULL;
			}
		}
		ctx->kallsyms_loaded = true;
	}
	pthread_mutex_unlock(&ctx->lock);
	free(path);
}

/*
 * perf's dso__load_vmlinux() for -k: that image only (its build-id
 * checked), never kallsyms instead; a path not starting with '/' is
 * under --symfs.
 */
static void
load_vmlinux(struct sym_dso *dso)
{
	struct sym_ctx *ctx = dso->ctx;
	const char *vml = ctx->vmlinux_path;
	char *path = vml[0] == '/' ? strdup(vml) : sym_join_symfs(ctx, vml);
	int err;

	if (!path)
		return;
	err = sym_vmlinux_load(dso, path);
	if (err) {
		sym_warn(ctx, "%s: no kernel symbols from it: %s", path,
			 err == -EBADE ? "its build-id is not the recorded kernel's" :
			 err == -ENODATA ? "it has no symbol table" :
			 sfile_strerror(err));
		free(path);
		return;
	}
	dso->symsrc_path = path;
	dso->origin = 'v';
}

static void
load_kernel(struct sym_dso *dso)
{
	struct sym_ctx *ctx = dso->ctx;
	size_t i;

	if (dso->kind == SYM_DSO_KERNEL && ctx->vmlinux_path &&
	    !ctx->kallsyms_path &&
	    !strcmp(dso->long_name, "[kernel.kallsyms]")) {
		load_vmlinux(dso);
		return;
	}
	load_kallsyms_once(ctx);
	if (!ctx->kallsyms_ok)
		return;
	/* perf's kallsyms origin needs its reference symbol: none, nothing */
	if (dso->kind == SYM_DSO_KERNEL) {
		dso->table = ctx->kallsyms.kernel;
		dso->origin = dso->table && dso->table->nr ? 'k' : '!';
		return;
	}
	for (i = 0; i < ctx->kallsyms.nr_mods; i++) {
		if (!strcmp(ctx->kallsyms.mod_names[i], dso->short_name)) {
			dso->table = ctx->kallsyms.mods[i];
			dso->origin = dso->table && dso->table->nr ? 'k' : '!';
			/* perf would read the module's .ko file instead */
			if (ctx->vmlinux_path && !ctx->kallsyms_path)
				sym_warn(ctx, "%s: with -k, perf reads the module's "
					 ".ko file; its symbols here come from kallsyms",
					 dso->short_name);
			return;
		}
	}
}

static void
load_jit(struct sym_dso *dso)
{
	struct sym_table *t;
	int err = sym_jitmap_load(dso->long_name, dso->ctx->opts.force, &t);

	if (err == -EPERM)
		sym_warn(dso->ctx, "File %s not owned by current user or root, ignoring it (use -f to override).",
			 dso->long_name);
	if (err)
		return;
	dso->table = t;
	dso->own_table = true;
	dso->origin = t->nr ? 'j' : '!';
}

void
sym_dso_do_load(struct sym_dso *dso)
{
	if (dso->ctx->ar && sym_dso_load_archived(dso))
		return;
	switch (dso->kind) {
	case SYM_DSO_FILE:
	case SYM_DSO_VDSO:
		load_file(dso);
		break;
	case SYM_DSO_KERNEL:
	case SYM_DSO_MODULE:
		load_kernel(dso);
		break;
	case SYM_DSO_JIT:
		load_jit(dso);
		break;
	case SYM_DSO_OTHER:
	default:
		break;
	}
}
