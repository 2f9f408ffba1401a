/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * symbol/buildid-cache.c - add a DSO to perf's build-id cache, laid out
 * as perf 6.1's build_id_cache__add() (util/build-id.c) leaves it:
 *
 * - DIR/<name>/<hex>/, made with mode 0755 (less the umask), <name> the
 *   real path of a file DSO, or "[kernel.kallsyms]" / "[vdso]";
 * - in it "elf", "kallsyms" or "vdso": a hard link to the file where
 *   link(2) works, else a copy with mode 0755;  kallsyms is always a
 *   copy; the vDSO goes through a mkstemp file in /tmp first, as perf
 *   writes its own vDSO there before caching it (so the cached file is
 *   0600 when /tmp and the cache share a file system);
 * - "debug" next to "elf" when /usr/lib/debug/.build-id/xx/rest.debug
 *   exists (not for kernel modules, kallsyms or the vDSO);
 * - DIR/.build-id/xx/rest, a symlink to "../../<name>/<hex>";
 * - "probes", perf's SDT probe cache, mode 0644 (less the umask), for
 *   every entry but kallsyms, listing the binary's SDT probes.
 *
 * An existing file is never replaced; an existing link is kept even
 * when it points elsewhere (perf only logs that).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/safefile.h"
#include "symbol/buildid-cache.h"
#include "symbol/sym-int.h"

#define KALLSYMS_NAME "[kernel.kallsyms]"
#define VDSO_NAME "[vdso]"

/* perf's system-wide debug files by build-id (build_id_cache__find_debug) */
#define DEBUG_BUILDID_DIR "/usr/lib/debug/.build-id"

char *
sym_cache_dir(void)
{
	const char *env = getenv("PERF_BUILDID_DIR");
	const char *home;
	char *s;

	if (env && env[0])
		return strdup(env);
	home = getenv("HOME");
	if (!home || !home[0])
		return NULL;
	if (asprintf(&s, "%s/.debug", home) < 0)
		return NULL;
	return s;
}

/* One add: the paths it works on and where its error goes. */
struct cache_add {
	const char *dir;
	const char *name;	/* the cache name: real path, or a [name] */
	const char *orig;	/* the name as given */
	char hex[2 * SYM_BUILD_ID_MAX + 1];
	bool is_kallsyms, is_vdso;
	char *entry;		/* DIR/<name>/<hex> */
	char *err;
	size_t errsz;
};

static int
add_fail(struct cache_add *a, int e, const char *what, const char *path)
{
	snprintf(a->err, a->errsz, "%s %s: %s", what, path, sfile_strerror(e));
	return -e;
}

/*
 * One directory of a path: made when missing; below the cache directory
 * it must be a directory itself, never a symlink we did not make, so
 * that nothing is written outside the cache (doc/security.md).
 */
static int
mkdir_one(struct cache_add *a, const char *path, bool inside, mode_t mode)
{
	struct stat st;
	int r = inside ? lstat(path, &st) : stat(path, &st);

	if (r == 0 && inside && S_ISLNK(st.st_mode)) {
		snprintf(a->err, a->errsz, "cannot create %s: a symbolic link "
			 "inside the build-id cache", path);
		return -ELOOP;
	}
	if (r == 0 && inside && !S_ISDIR(st.st_mode))
		return add_fail(a, ENOTDIR, "cannot create", path);
	if (r != 0 && mkdir(path, mode) != 0 && errno != EEXIST)
		return add_fail(a, errno, "cannot create", path);
	return 0;
}

/* mkdir -p with mode, as perf's mkdir_p: existing directories are kept. */
static int
mkdir_parents(struct cache_add *a, char *path, mode_t mode)
{
	size_t root = strlen(a->dir);
	char *p = path;

	while (*p == '/')
		p++;
	for (;;) {
		char *slash = strchr(p, '/');
		int r;

		if (slash)
			*slash = '\0';
		/* the message names the directory that failed */
		r = mkdir_one(a, path, (size_t)(p - path) > root, mode);
		if (r < 0) {
			if (slash)
				*slash = '/';
			return r;
		}
		if (!slash)
			return 0;
		*slash = '/';
		p = slash + 1;
		while (*p == '/')
			p++;
		if (!*p)
			return 0;
	}
}

/* Read all of fd into tofd. */
static int
copy_fd(int fd, int tofd)
{
	char buf[65536];

	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf)), off = 0;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return 0;
		while (off < n) {
			ssize_t w = write(tofd, buf + off, (size_t)(n - off));

			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0)
				return w < 0 ? -errno : -EIO;
			off += w;
		}
	}
}

/* prefix and the six 'X' mkstemp() replaces, malloc'd, or NULL */
static char *
temp_template(const char *prefix)
{
	size_t n = strlen(prefix);
	char *s = malloc(n + 7);

	if (!s)
		return NULL;
	memcpy(s, prefix, n);
	memset(s + n, 'X', 6);
	s[n + 6] = '\0';
	return s;
}

/*
 * The mkstemp() template "DIR/.NAME." for to = "DIR/NAME": the temporary
 * perf's copyfile fills before linking it into place.
 */
static char *
copy_temp_name(const char *to)
{
	const char *base = strrchr(to, '/');
	char *prefix, *s;
	int r;

	if (base)
		r = asprintf(&prefix, "%.*s/.%s.", (int)(base - to), to,
			     base + 1);
	else
		r = asprintf(&prefix, ".%s.", to);
	if (r < 0)
		return NULL;
	s = temp_template(prefix);
	free(prefix);
	return s;
}

/* perf's copyfile_mode(): a temporary, chmod'ed, then linked as to. */
static int
copy_file(struct cache_add *a, const char *from, const char *to, mode_t mode)
{
	char *tmp = copy_temp_name(to);
	int fd, tofd, r;

	if (!tmp)
		return add_fail(a, ENOMEM, "cannot copy to", to);
	fd = sfile_open_input(from, 0, NULL);
	if (fd < 0) {
		r = add_fail(a, -fd, "cannot read", from);
		free(tmp);
		return r;
	}
	tofd = mkstemp(tmp);
	if (tofd < 0) {
		r = add_fail(a, errno, "cannot create", tmp);
		goto out_close;
	}
	r = copy_fd(fd, tofd);
	if (r < 0)
		r = add_fail(a, -r, "cannot copy to", tmp);
	else if (fchmod(tofd, mode) != 0)
		r = add_fail(a, errno, "cannot chmod", tmp);
	if (close(tofd) != 0 && r == 0)
		r = add_fail(a, errno, "cannot write", tmp);
	if (r == 0 && link(tmp, to) != 0 && errno != EEXIST)
		r = add_fail(a, errno, "cannot create", to);
	unlink(tmp);
out_close:
	close(fd);
	free(tmp);
	return r;
}

/* link(2) src as to, else copy it: perf's order for ELF files. */
static int
link_or_copy(struct cache_add *a, const char *src, const char *to)
{
	char *real = realpath(src, NULL);
	int r;

	if (!real)
		return add_fail(a, errno, "cannot resolve", src);
	if (link(real, to) == 0 || errno == EEXIST)
		r = 0;
	else
		r = copy_file(a, src, to, 0755);
	free(real);
	return r;
}

static bool
exists(const char *path)
{
	return access(path, F_OK) == 0;
}

/*
 * 0 when path's build-id is bid, or (unless strict) cannot be read, as
 * perf's dso__build_id_mismatch(); else -EBADE.
 */
static int
check_build_id(struct cache_add *a, const char *path, const uint8_t *bid,
	       size_t bid_size, bool strict)
{
	uint8_t got[SYM_BUILD_ID_MAX];
	char hex[2 * SYM_BUILD_ID_MAX + 1];
	int n = sym_elf_build_id(path, got);

	if (n <= 0 && !strict)
		return 0;
	if (n <= 0) {
		snprintf(a->err, a->errsz, "%s has no build-id, not %s", path,
			 a->hex);
		return -EBADE;
	}
	if ((size_t)n == bid_size && !memcmp(got, bid, bid_size))
		return 0;
	sym_build_id_hex(got, (size_t)n, hex);
	snprintf(a->err, a->errsz, "%s has build-id %s, not %s", path, hex,
		 a->hex);
	return -EBADE;
}

/*
 * The vDSO: perf writes the image to a mkstemp() file /tmp/perf-vdso.so-
 * (mode 0600) and caches that file, so do the same with ours.
 */
static int
add_vdso(struct cache_add *a, const char *src, const char *to)
{
	char *tmp = temp_template("/tmp/perf-vdso.so-");
	int fd, tofd, r;

	if (!tmp)
		return add_fail(a, ENOMEM, "cannot cache", to);
	fd = sfile_open_input(src, 0, NULL);
	if (fd < 0) {
		r = add_fail(a, -fd, "cannot read", src);
		free(tmp);
		return r;
	}
	tofd = mkstemp(tmp);
	if (tofd < 0) {
		r = add_fail(a, errno, "cannot create", tmp);
		close(fd);
		free(tmp);
		return r;
	}
	r = copy_fd(fd, tofd);
	close(fd);
	if (r < 0)
		r = add_fail(a, -r, "cannot copy to", tmp);
	if (close(tofd) != 0 && r == 0)
		r = add_fail(a, errno, "cannot write", tmp);
	if (r == 0)
		r = link_or_copy(a, tmp, to);
	unlink(tmp);
	free(tmp);
	return r;
}

/*
 * The file to cache: kallsyms by default /proc/kallsyms, the vDSO by
 * default this process's own; a vDSO must carry the build-id, an ELF
 * file must not carry another one (perf's dso__build_id_mismatch()).
 * Checked before anything is created.
 */
static int
add_source(struct cache_add *a, const char **src, const uint8_t *bid,
	   size_t bid_size)
{
	if (a->is_kallsyms) {
		if (!*src)
			*src = "/proc/kallsyms";
		return 0;
	}
	if (a->is_vdso) {
		int r;

		if (*src)
			return check_build_id(a, *src, bid, bid_size, true);
		*src = sym_self_vdso_path();
		if (!*src) {
			snprintf(a->err, a->errsz,
				 "no vDSO image for build-id %s", a->hex);
			return -ENOENT;
		}
		r = check_build_id(a, *src, bid, bid_size, true);
		if (r == -EBADE)
			snprintf(a->err, a->errsz, "the vDSO of this machine "
				 "does not have build-id %s", a->hex);
		return r;
	}
	return check_build_id(a, *src, bid, bid_size, false);
}

/* The image file ("elf", "kallsyms" or "vdso") of the entry. */
static int
add_image(struct cache_add *a, const char *src)
{
	const char *base = a->is_kallsyms ? "kallsyms" :
			   a->is_vdso ? "vdso" : "elf";
	char *to;
	int r;

	if (asprintf(&to, "%s/%s", a->entry, base) < 0)
		return add_fail(a, ENOMEM, "cannot add", a->entry);
	if (exists(to))
		r = 0;
	else if (a->is_kallsyms)
		r = copy_file(a, src, to, 0755);
	else if (a->is_vdso)
		r = add_vdso(a, src, to);
	else
		r = link_or_copy(a, src, to);
	free(to);
	return r;
}

static bool
ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

/* The distribution's separate debug file, as perf adds it. */
static int
add_debug(struct cache_add *a)
{
	char *cand, *real, *to;
	int r = 0;

	if (a->is_kallsyms || a->is_vdso || ends_with(a->orig, ".ko"))
		return 0;
	if (asprintf(&cand, "%s/%.2s/%s.debug", DEBUG_BUILDID_DIR, a->hex,
		     a->hex + 2) < 0)
		return add_fail(a, ENOMEM, "cannot add", a->entry);
	real = realpath(cand, NULL);
	free(cand);
	if (!real || access(real, R_OK) != 0) {
		free(real);
		return 0;
	}
	if (asprintf(&to, "%s/debug", a->entry) < 0) {
		free(real);
		return add_fail(a, ENOMEM, "cannot add", a->entry);
	}
	if (!exists(to))
		r = link_or_copy(a, real, to);
	free(to);
	free(real);
	return r;
}

/* An existing link is used only when it is the one we would make. */
static bool
link_is(const char *link, const char *target)
{
	size_t n = strlen(target);
	char *buf = malloc(n + 2);
	ssize_t got;
	bool same;

	if (!buf)
		return false;
	got = readlink(link, buf, n + 1);
	same = got == (ssize_t)n && !memcmp(buf, target, n);
	free(buf);
	return same;
}

/* DIR/.build-id/xx/rest -> ../../<name>/<hex> */
static int
add_link(struct cache_add *a)
{
	const char *sep = a->name[0] == '/' ? "" : "/";
	char *link, *target;
	int r = 0;

	if (asprintf(&link, "%s/.build-id/%.2s", a->dir, a->hex) < 0)
		return add_fail(a, ENOMEM, "cannot add", a->entry);
	if (access(link, X_OK) != 0)
		r = mkdir_parents(a, link, 0755);
	free(link);
	if (r < 0)
		return r;
	if (asprintf(&link, "%s/.build-id/%.2s/%s", a->dir, a->hex,
		     a->hex + 2) < 0)
		return add_fail(a, ENOMEM, "cannot add", a->entry);
	if (asprintf(&target, "../..%s%s/%s", sep, a->name, a->hex) < 0) {
		free(link);
		return add_fail(a, ENOMEM, "cannot add", a->entry);
	}
	if (symlink(target, link) != 0 && errno != EEXIST) {
		r = add_fail(a, errno, "cannot create", link);
	} else if (!link_is(link, target)) {
		snprintf(a->err, a->errsz, "cannot create %s: something else "
			 "is there (not a link to %s)", link, target);
		r = -EEXIST;
	}
	free(target);
	free(link);
	return r;
}

/*
 * perf's SDT probe cache ("probes"), as perf 6.1's probe_cache__scan_sdt()
 * and probe_cache__commit() write it for a binary with SystemTap probes
 * (util/probe-file.c, util/symbol-elf.c): per (provider, name), in the
 * order of the notes,
 *
 *   %sdt_PROVIDER:NAME=NAME
 *   p:sdt_PROVIDER/NAME PATH:0xLOC[(0xSEMAPHORE)] arg1=OP:TYPE ...
 *
 * with the "p:" lines of one name sorted and without duplicates.
 */
#define SDT_NOTE_OWNER "stapsdt"
#define SDT_NOTE_TYPE 3
#define SDT_GROUP_MAX 64	/* perf's buffer for "sdt_PROVIDER" */

struct sdt_note {
	uint64_t loc, base, refctr;
	const char *provider, *name;
	char *args;		/* NULL: none */
};

struct sdt_entry {
	char *group, *event;
	char **cmds;
	size_t nr, cap;
};

struct sdt_cache {
	struct sdt_entry *ents;
	size_t nr, cap;
};

/* x86 registers renamed for uprobe_events (arch/x86/util/perf_regs.c facts). */
static const char *const sdt_regs[][2] = {
	{ "%eax", "%ax" }, { "%rax", "%ax" }, { "%al", "%ax" },
	{ "%ah", "%ax" }, { "%ebx", "%bx" }, { "%rbx", "%bx" },
	{ "%bl", "%bx" }, { "%bh", "%bx" }, { "%ecx", "%cx" },
	{ "%rcx", "%cx" }, { "%cl", "%cx" }, { "%ch", "%cx" },
	{ "%edx", "%dx" }, { "%rdx", "%dx" }, { "%dl", "%dx" },
	{ "%dh", "%dx" }, { "%esi", "%si" }, { "%rsi", "%si" },
	{ "%sil", "%si" }, { "%edi", "%di" }, { "%rdi", "%di" },
	{ "%dil", "%di" }, { "%ebp", "%bp" }, { "%rbp", "%bp" },
	{ "%bpl", "%bp" }, { "%rsp", "%sp" }, { "%esp", "%sp" },
	{ "%spl", "%sp" },
	{ "%r8b", "%r8" }, { "%r8w", "%r8" }, { "%r8d", "%r8" },
	{ "%r9b", "%r9" }, { "%r9w", "%r9" }, { "%r9d", "%r9" },
	{ "%r10b", "%r10" }, { "%r10w", "%r10" }, { "%r10d", "%r10" },
	{ "%r11b", "%r11" }, { "%r11w", "%r11" }, { "%r11d", "%r11" },
	{ "%r12b", "%r12" }, { "%r12w", "%r12" }, { "%r12d", "%r12" },
	{ "%r13b", "%r13" }, { "%r13w", "%r13" }, { "%r13d", "%r13" },
	{ "%r14b", "%r14" }, { "%r14w", "%r14" }, { "%r14d", "%r14" },
	{ "%r15b", "%r15" }, { "%r15w", "%r15" }, { "%r15d", "%r15" },
};

/* The type suffix for an argument size -8..8 (perf's type_to_suffix). */
static const char *const sdt_suffix[17] = {
	":s64", "", "", "", ":s32", "", ":s16", ":s8",
	"", ":u8", ":u16", "", ":u32", "", "", "", ":u64",
};

static bool
is_lower(int c)
{
	return c >= 'a' && c <= 'z';
}

static bool
is_digit(int c)
{
	return c >= '0' && c <= '9';
}

/*
 * An operand as uprobe_events takes it ("-80(%rbx)" -> "-80(%bx)"), or
 * NULL for one perf skips: only [+-][NUM][(]%REG[)] is kept (on x86;
 * elsewhere perf 6.1 keeps none).
 */
static char *
sdt_operand(const char *op)
{
#if defined(__x86_64__) || defined(__i386__)
	const char *p = op, *sign, *num, *reg, *rename = NULL;
	size_t nsign, nnum, nreg, i;
	bool lp, rp;
	char *s;

	if (strchr(op, ',') || strchr(op, '$'))
		return NULL;
	sign = p;
	nsign = (*p == '+' || *p == '-') ? 1 : 0;
	p += nsign;
	num = p;
	while (is_digit(*p))
		p++;
	nnum = (size_t)(p - num);
	lp = *p == '(';
	p += lp;
	reg = p;
	if (*p != '%' || !is_lower(p[1]) ||
	    !(is_lower(p[2]) || is_digit(p[2])))
		return NULL;
	p += 2;
	while (is_lower(*p) || is_digit(*p))
		p++;
	nreg = (size_t)(p - reg);
	rp = *p == ')';
	p += rp;
	if (*p || nreg > 6)
		return NULL;
	/* perf compares the first nreg bytes of each name, in table order */
	for (i = 0; i < sizeof(sdt_regs) / sizeof(sdt_regs[0]); i++)
		if (!strncmp(sdt_regs[i][0], reg, nreg)) {
			rename = sdt_regs[i][1];
			break;
		}
	if (asprintf(&s, "%s%.*s%s%.*s%s",
		     !lp ? "" : nsign ? (*sign == '-' ? "-" : "+") :
		     nnum ? "+" : "+0",
		     (int)nnum, num, lp ? "(" : "",
		     rename ? (int)strlen(rename) : (int)nreg,
		     rename ? rename : reg, rp ? ")" : "") < 0)
		return NULL;
	return s;
#else
	(void)op;
	return NULL;
#endif
}

/* Append " argN=OP[:TYPE]" for one "[SIZE@]OP"; -EINVAL for a bad size. */
static int
sdt_arg(char **cmd, int idx, const char *arg)
{
	const char *at = strchr(arg, '@'), *suffix = "", *op = arg;
	char *nop, *s;
	int r;

	if (at) {
		long size = strtol(arg, NULL, 10);

		if (size < -8 || size > 8)
			return -EINVAL;
		suffix = sdt_suffix[size + 8];
		op = at + 1;
	}
	nop = sdt_operand(op);
	if (!nop)
		return 0;
	r = asprintf(&s, "%s arg%d=%s%s", *cmd, idx + 1, nop, suffix);
	free(nop);
	if (r < 0)
		return -ENOMEM;
	free(*cmd);
	*cmd = s;
	return 0;
}

/* The whitespace-separated words of the arguments, in turn. */
static const char *
sdt_word(const char *p, size_t *len)
{
	while (*p == ' ' || (*p >= '\t' && *p <= '\r'))
		p++;
	*len = 0;
	while (p[*len] && !(p[*len] == ' ' ||
			    (p[*len] >= '\t' && p[*len] <= '\r')))
		(*len)++;
	return *len ? p : NULL;
}

static int
sdt_args(char **cmd, const char *args)
{
	const char *w = args;
	size_t len;
	int idx = 0, r = 0;

	while (r == 0 && (w = sdt_word(w, &len))) {
		char *arg = strndup(w, len);
		size_t len2;
		const char *w2;

		if (!arg)
			return -ENOMEM;
		w += len;
		/* an arm64 "-4@[sp, 12]" is split in two words: join them */
		w2 = sdt_word(w, &len2);
		if (strstr(arg, "[sp,") && w2) {
			char *j;

			if (asprintf(&j, "%s %.*s", arg, (int)len2, w2) < 0) {
				free(arg);
				return -ENOMEM;
			}
			free(arg);
			arg = j;
			w = w2 + len2;
		}
		r = sdt_arg(cmd, idx++, arg);
		free(arg);
	}
	return r;
}

static char *
sdt_command(const struct sdt_note *n, const char *group, const char *path)
{
	char *cmd, *s;

	if (asprintf(&cmd, "p:%s/%s %s:0x%" PRIx64, group, n->name, path,
		     n->loc) < 0)
		return NULL;
	if (n->refctr) {
		if (asprintf(&s, "%s(0x%" PRIx64 ")", cmd, n->refctr) < 0)
			s = NULL;
		free(cmd);
		cmd = s;
	}
	if (cmd && n->args && sdt_args(&cmd, n->args) < 0) {
		free(cmd);
		cmd = NULL;
	}
	return cmd;
}

/* Room for one more element of size esz in *v; -ENOMEM. */
static int
sdt_grow(void *vp, size_t nr, size_t *cap, size_t esz)
{
	void **v = vp;
	void *p;

	if (nr < *cap)
		return 0;
	p = realloc(*v, (*cap ? 2 * *cap : 4) * esz);
	if (!p)
		return -ENOMEM;
	*cap = *cap ? 2 * *cap : 4;
	*v = p;
	return 0;
}

static int
sdt_cache_add(struct sdt_cache *c, const struct sdt_note *n, const char *path)
{
	char group[SDT_GROUP_MAX];
	struct sdt_entry *e = NULL;
	char *cmd;
	size_t i;

	snprintf(group, sizeof(group), "sdt_%s", n->provider);
	cmd = sdt_command(n, group, path);
	if (!cmd)
		return -EINVAL;
	for (i = 0; i < c->nr && !e; i++)
		if (!strcmp(c->ents[i].group, group) &&
		    !strcmp(c->ents[i].event, n->name))
			e = &c->ents[i];
	if (!e) {
		if (sdt_grow(&c->ents, c->nr, &c->cap, sizeof(*c->ents)) < 0)
			goto nomem;
		e = &c->ents[c->nr];
		memset(e, 0, sizeof(*e));
		e->group = strdup(group);
		e->event = strdup(n->name);
		c->nr++;
		if (!e->group || !e->event)
			goto nomem;
	}
	if (sdt_grow(&e->cmds, e->nr, &e->cap, sizeof(*e->cmds)) < 0)
		goto nomem;
	e->cmds[e->nr++] = cmd;
	return 0;
nomem:
	free(cmd);
	return -ENOMEM;
}

static void
sdt_cache_free(struct sdt_cache *c)
{
	size_t i, j;

	for (i = 0; i < c->nr; i++) {
		for (j = 0; j < c->ents[i].nr; j++)
			free(c->ents[i].cmds[j]);
		free(c->ents[i].cmds);
		free(c->ents[i].group);
		free(c->ents[i].event);
	}
	free(c->ents);
}

static uint64_t
sdt_addr(const unsigned char *p, size_t size, bool msb)
{
	uint64_t v = 0;
	size_t i;

	for (i = 0; i < size; i++)
		v |= (uint64_t)p[msb ? size - 1 - i : i] << (8 * i);
	return v;
}

/* One note's descriptor; -EINVAL when it is malformed (perf then gives up). */
static int
sdt_note_parse(struct sdt_note *n, const unsigned char *d, size_t len,
	       size_t asz, bool msb)
{
	const char *end = (const char *)d + len, *prov, *name, *args;

	if (len < 3 * asz + 3)
		return -EINVAL;
	n->loc = sdt_addr(d, asz, msb);
	n->base = sdt_addr(d + asz, asz, msb);
	n->refctr = sdt_addr(d + 2 * asz, asz, msb);
	prov = (const char *)d + 3 * asz;
	name = memchr(prov, '\0', (size_t)(end - prov));
	if (!name++)
		return -EINVAL;
	args = memchr(name, '\0', (size_t)(end - name));
	if (!args)
		return -EINVAL;
	n->provider = prov;
	n->name = name;
	n->args = NULL;
	if (end - args >= 2 && args[1] != ':' && args[1] != '\0') {
		n->args = strndup(args + 1, (size_t)(end - args - 1));
		if (!n->args)
			return -ENOMEM;
	}
	return 0;
}

/* Relocation for prelinked files, from .stapsdt.base and .probes. */
struct sdt_adjust {
	bool has_base, has_probes;
	uint64_t base_off, probes_addr, probes_off, mask;
};

static void
sdt_note_adjust(struct sdt_note *n, const struct sdt_adjust *a)
{
	if (a->has_base && a->base_off)
		n->loc = (n->loc + a->base_off - n->base) & a->mask;
	if (a->has_probes && a->probes_off && n->refctr)
		n->refctr = (n->refctr - (a->probes_addr - a->probes_off)) &
			    a->mask;
}

static int
sdt_notes(Elf_Scn *scn, const struct sdt_adjust *adj, size_t asz, bool msb,
	  struct sdt_cache *c, const char *path)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t off = 0, next, name_off, desc_off;
	GElf_Nhdr nh;
	int r = 0;

	if (!data)
		return -EINVAL;
	while (r == 0 && (next = gelf_getnote(data, off, &nh, &name_off,
					      &desc_off)) > 0) {
		struct sdt_note n;

		off = next;
		if (nh.n_namesz != sizeof(SDT_NOTE_OWNER) ||
		    memcmp((const char *)data->d_buf + name_off,
			   SDT_NOTE_OWNER, sizeof(SDT_NOTE_OWNER)))
			continue;
		/* perf stops at the first stapsdt note of another type */
		if (nh.n_type != SDT_NOTE_TYPE)
			break;
		r = sdt_note_parse(&n, (const unsigned char *)data->d_buf +
				   desc_off, nh.n_descsz, asz, msb);
		if (r < 0)
			break;
		sdt_note_adjust(&n, adj);
		r = sdt_cache_add(c, &n, path);
		free(n.args);
	}
	return r;
}

/* The SDT notes of file src, the binary named path; <0: write nothing. */
static int
sdt_scan(const char *src, const char *path, struct sdt_cache *c)
{
	struct sdt_adjust adj = { 0 };
	GElf_Shdr sh;
	GElf_Ehdr eh;
	Elf_Scn *scn;
	size_t shstrndx;
	Elf *elf;
	int fd, r = -ENOENT;

	sym_elf_init();
	fd = sfile_open_input(src, 0, NULL);
	if (fd < 0)
		return fd;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh) ||
	    elf_getshdrstrndx(elf, &shstrndx) != 0)
		goto out;
	scn = sym_elf_section_by_name(elf, shstrndx, ".note.stapsdt", &sh);
	if (!scn || sh.sh_type != SHT_NOTE || (sh.sh_flags & SHF_ALLOC))
		goto out;
	if (sym_elf_section_by_name(elf, shstrndx, ".stapsdt.base", &sh)) {
		adj.has_base = true;
		adj.base_off = sh.sh_offset;
	}
	if (sym_elf_section_by_name(elf, shstrndx, ".probes", &sh)) {
		adj.has_probes = true;
		adj.probes_addr = sh.sh_addr;
		adj.probes_off = sh.sh_offset;
	}
	adj.mask = gelf_getclass(elf) == ELFCLASS32 ? 0xffffffffu : ~0ull;
	r = sdt_notes(scn, &adj, gelf_getclass(elf) == ELFCLASS32 ? 4 : 8,
		      eh.e_ident[EI_DATA] == ELFDATA2MSB, c, path);
out:
	if (elf)
		elf_end(elf);
	close(fd);
	return r;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int
write_all(int fd, const char *s)
{
	size_t n = strlen(s);

	while (n) {
		ssize_t w = write(fd, s, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? -errno : -EIO;
		s += w;
		n -= (size_t)w;
	}
	return 0;
}

static int
sdt_write(int fd, struct sdt_cache *c)
{
	size_t i, j;
	int r = 0;

	if (ftruncate(fd, 0) != 0)
		return -errno;
	for (i = 0; r == 0 && i < c->nr; i++) {
		struct sdt_entry *e = &c->ents[i];
		char *head;

		if (asprintf(&head, "%%%s:%s=%s\n", e->group, e->event,
			     e->event) < 0)
			return -ENOMEM;
		r = write_all(fd, head);
		free(head);
		qsort(e->cmds, e->nr, sizeof(*e->cmds), cmp_str);
		for (j = 0; r == 0 && j < e->nr; j++) {
			if (j && !strcmp(e->cmds[j], e->cmds[j - 1]))
				continue;
			r = write_all(fd, e->cmds[j]);
			if (r == 0)
				r = write_all(fd, "\n");
		}
	}
	return r;
}

/*
 * The probes file, opened through the new link as perf opens it.  A
 * file with lines already is left as it is: perf would merge the same
 * lines into it again.
 */
static int
add_probes(struct cache_add *a, const char *src)
{
	struct sdt_cache c = { 0 };
	struct stat st;
	char *path;
	int fd, r = 0;

	if (a->is_kallsyms)
		return 0;
	if (asprintf(&path, "%s/.build-id/%.2s/%s/probes", a->dir, a->hex,
		     a->hex + 2) < 0)
		return add_fail(a, ENOMEM, "cannot add", a->entry);
	/* through our own link; the file itself never a link or a FIFO */
	fd = open(path, O_CREAT | O_RDWR | O_CLOEXEC | O_NOFOLLOW |
		  O_NONBLOCK, 0644);
	if (fd >= 0 && (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))) {
		close(fd);
		fd = SFILE_E_NOTREG;
		errno = -SFILE_E_NOTREG;
	}
	if (fd < 0) {
		r = add_fail(a, errno, "cannot create", path);
		free(path);
		return r;
	}
	if (src && st.st_size == 0 &&
	    sdt_scan(src, a->name, &c) == 0 && c.nr) {
		r = sdt_write(fd, &c);
		if (r < 0)
			r = add_fail(a, -r, "cannot write", path);
	}
	sdt_cache_free(&c);
	close(fd);
	free(path);
	return r;
}

/* A path that cannot step out of the cache directory. */
static bool
safe_path(const char *p)
{
	const char *c = p;

	if (p[0] != '/')
		return false;
	while (*c) {
		size_t n;

		while (*c == '/')
			c++;
		n = strcspn(c, "/");
		if ((n == 1 && c[0] == '.') ||
		    (n == 2 && c[0] == '.' && c[1] == '.'))
			return false;
		c += n;
	}
	return true;
}

/*
 * The entry's name: "[kernel.kallsyms]", "[vdso]" or the real path
 * (the name as it is when it does not resolve here, if it cannot step
 * out of the cache).  0 or -errno, the message in a->err.
 */
static int
cache_name(struct cache_add *a, const char *name, char **out)
{
	*out = NULL;
	if (!a->is_kallsyms && !a->is_vdso) {
		*out = realpath(name, NULL);
		if (*out)
			return 0;
		if (!safe_path(name)) {
			snprintf(a->err, a->errsz,
				 "cannot cache %s: not an absolute path", name);
			return -EINVAL;
		}
	}
	*out = strdup(name);
	if (*out)
		return 0;
	snprintf(a->err, a->errsz, "cannot cache %s: %s", name,
		 strerror(ENOMEM));
	return -ENOMEM;
}

static int
add_entry(struct cache_add *a, const char *src, const uint8_t *bid,
	  size_t bid_size)
{
	const char *sep = a->name[0] == '/' ? "" : "/";
	struct stat st;
	int r;

	if (asprintf(&a->entry, "%s%s%s/%s", a->dir, sep, a->name,
		     a->hex) < 0) {
		a->entry = NULL;
		return add_fail(a, ENOMEM, "cannot add", a->name);
	}
	r = add_source(a, &src, bid, bid_size);
	if (r < 0)
		return r;
	/* perf 6.1 drops an old-style cache entry: a plain file */
	if (lstat(a->entry, &st) == 0 && S_ISREG(st.st_mode) &&
	    unlink(a->entry) != 0)
		return add_fail(a, errno, "cannot remove", a->entry);
	r = mkdir_parents(a, a->entry, 0755);
	if (r == 0)
		r = add_image(a, src);
	if (r == 0)
		r = add_debug(a);
	if (r == 0)
		r = add_link(a);
	if (r == 0)
		r = add_probes(a, a->is_vdso ? NULL : src);
	return r;
}

int
sym_cache_add(const char *dir, const char *name, const uint8_t *bid,
	      size_t bid_size, const char *src, char *err, size_t errsz)
{
	struct cache_add a = {
		.dir = dir,
		.orig = name,
		.err = err,
		.errsz = errsz,
	};
	char *cname;
	int r;

	/* the link's two directory levels need two bytes at least */
	if (!dir || !dir[0] || !name || !name[0] || bid_size < 2 ||
	    bid_size > SYM_BUILD_ID_MAX) {
		snprintf(err, errsz, "cannot cache %s: %s",
			 name ? name : "(null)",
			 bid_size < 2 || bid_size > SYM_BUILD_ID_MAX ?
			 "bad build-id size" : "no cache directory");
		return -EINVAL;
	}
	a.is_kallsyms = !strcmp(name, KALLSYMS_NAME);
	a.is_vdso = !strcmp(name, VDSO_NAME);
	if (!a.is_kallsyms && !a.is_vdso && !src)
		src = name;
	sym_build_id_hex(bid, bid_size, a.hex);
	r = cache_name(&a, name, &cname);
	if (r < 0)
		return r;
	a.name = cname;
	r = add_entry(&a, src, bid, bid_size);
	free(a.entry);
	free(cname);
	return r;
}
