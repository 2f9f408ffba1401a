/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * record/synth-kernel.c - the kernel and module maps perf 6.1 synthesises
 * (PERF_RECORD_MMAP, pid -1), and the THREAD_MAP and CPU_MAP records
 * (doc/perf-data-format.md §7.2, §7.5).
 *
 * The kernel map starts at the first of "_text", "_stext" that
 * /proc/kallsyms lists as a text symbol, and ends at "_etext" or, lacking
 * it, at the next module; its pgoff is that start address and its name
 * "[kernel.kallsyms]" followed by the symbol's name.  Modules come from
 * /proc/modules in address order, named by their file under
 * /lib/modules/RELEASE when one is found, else "[name]".
 *
 * With --all-cgroups, one CGROUP record per directory of the cgroup
 * hierarchy perf_event events use (a v1 mount with the perf_event
 * controller, else the cgroup2 mount), depth first in directory order:
 * the id is the directory's 8-byte file handle (the kernfs node id, the
 * id samples carry) and the path is relative to the mount, "/" first.
 */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "lib/xalloc.h"
#include "record/sys.h"
#include "record/sys-int.h"
#include "record/synth-int.h"

#define KERNEL_MMAP_NAME	"[kernel.kallsyms]"

struct kmodule {
	uint64_t start, end;
	char *name;		/* "[name]", '-' written '_' */
	char *path;		/* the .ko file, or NULL */
};

/* A text symbol, or 'A' as some architectures list _text. */
static bool
ksym_is_text(char type)
{
	type = (char)toupper((unsigned char)type);
	return type == 'T' || type == 'W' || type == 'A';
}

/* /proc/kallsyms is read in blocks of this many bytes */
#define KSYMS_BLOCK	65536
/* longer lines of it are not "ADDR T _etext" */
#define KSYM_LINE_MAX	256

/* First text-symbol addresses of _text, _stext and _etext. */
struct ksyms {
	uint64_t text, stext, etext;
	bool has_text, has_stext, has_etext;
};

static void
ksyms_note(struct ksyms *k, const char *name, uint64_t addr)
{
	if (!k->has_text && !strcmp(name, "_text")) {
		k->text = addr;
		k->has_text = true;
	} else if (!k->has_stext && !strcmp(name, "_stext")) {
		k->stext = addr;
		k->has_stext = true;
	} else if (!k->has_etext && !strcmp(name, "_etext")) {
		k->etext = addr;
		k->has_etext = true;
	}
}

/* One line of /proc/kallsyms: "ADDR TYPE NAME[\t[module]]". */
static void
ksyms_line(struct ksyms *k, char *line)
{
	unsigned long long addr;
	char *p, *name;

	addr = strtoull(line, &p, 16);
	if (p == line || p[0] != ' ' || !p[1] || p[2] != ' ' ||
	    !ksym_is_text(p[1]))
		return;
	name = p + 3;
	name[strcspn(name, " \t\n")] = '\0';
	ksyms_note(k, name, addr);
}

/*
 * The whole lines of buf[0, len) whose symbol name ends in "text", as
 * those three do: a search for them skips the other hundred thousand.
 */
static void
ksyms_scan(struct ksyms *k, char *buf, size_t len)
{
	char *p = buf, *end = buf + len, *hit, *line;
	char copy[KSYM_LINE_MAX];

	while ((hit = memmem(p, (size_t)(end - p), "text\n", 5))) {
		line = hit;
		while (line > buf && line[-1] != '\n')
			line--;
		p = hit + 5;
		if ((size_t)(p - line) < sizeof(copy)) {
			memcpy(copy, line, (size_t)(p - line));
			copy[p - line] = '\0';
			ksyms_line(k, copy);
		}
	}
}

/*
 * The kernel writes /proc/kallsyms as it is read, a few megabytes of
 * it: the reading stops once the three symbols are found (_etext comes
 * after the kernel's text, before the modules').  It is read in blocks;
 * a line longer than a block is dropped.
 */
static int
ksyms_read(struct ksyms *k)
{
	char buf[KSYMS_BLOCK];
	size_t have = 0, whole;
	ssize_t n;
	char *last;
	int fd;

	memset(k, 0, sizeof(*k));
	fd = open("/proc/kallsyms", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (!(k->has_text && k->has_stext && k->has_etext)) {
		n = read(fd, buf + have, KSYMS_BLOCK - have);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		have += (size_t)n;
		last = memrchr(buf, '\n', have);
		if (!last) {
			if (have == KSYMS_BLOCK)
				have = 0;
			continue;
		}
		whole = (size_t)(last + 1 - buf);
		ksyms_scan(k, buf, whole);
		memmove(buf, buf + whole, have - whole);
		have -= whole;
	}
	close(fd);
	return 0;
}

static int
kmodule_cmp(const void *a, const void *b)
{
	const struct kmodule *x = a, *y = b;

	return (x->start > y->start) - (x->start < y->start);
}

/* /proc/modules: "name size refs deps state 0xaddr [taints]". */
static void
kmodules_read(struct kmodule **out, size_t *nr)
{
	char *text, *line, *next;

	*out = NULL;
	*nr = 0;
	if (rec_sys_read_file("/proc/modules", &text, NULL))
		return;
	for (line = text; *line; line = next) {
		char *x, *sp, *end;
		unsigned long long size;
		struct kmodule *m;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		else
			next = line + strlen(line);
		x = strrchr(line, 'x');
		sp = strchr(line, ' ');
		if (!x || !sp)
			continue;
		size = strtoull(sp + 1, &end, 0);
		if (*end != ' ' && *end != '\t')
			continue;
		*out = xreallocarray(*out, *nr + 1, sizeof(**out));
		m = &(*out)[(*nr)++];
		m->start = strtoull(x + 1, NULL, 16);
		m->end = m->start + size;
		*sp = '\0';
		m->name = xmalloc(strlen(line) + 3);
		sprintf(m->name, "[%s]", line);
		m->path = NULL;
	}
	free(text);
	if (*nr)
		qsort(*out, *nr, sizeof(**out), kmodule_cmp);
}

char *
rec_kmod_name(const char *file)
{
	static const char *const exts[] = {
		".ko", ".ko.gz", ".ko.xz", ".ko.zst",
	};
	size_t len = strlen(file), i;

	for (i = 0; i < sizeof(exts) / sizeof(exts[0]); i++) {
		size_t el = strlen(exts[i]);
		char *s, *p;

		if (len <= el || strcmp(file + len - el, exts[i]))
			continue;
		s = xmalloc(len - el + 3);
		snprintf(s, len - el + 3, "[%.*s]", (int)(len - el), file);
		for (p = s; *p; p++)
			if (*p == '-')
				*p = '_';
		return s;
	}
	return NULL;
}

static void
kmodules_set_path(struct kmodule *mods, size_t nr, const char *file,
		  const char *path)
{
	char *name = rec_kmod_name(file);
	size_t i;

	if (!name)
		return;
	for (i = 0; i < nr; i++) {
		if (strcmp(mods[i].name, name))
			continue;
		free(mods[i].path);
		mods[i].path = xstrdup(path);
	}
	free(name);
}

/* Walk /lib/modules/RELEASE as perf does: stat every entry, no source/build. */
static void
kmodules_walk(struct kmodule *mods, size_t nr, const char *dir, int depth)
{
	struct dirent *d;
	DIR *dp;

	if (depth > 16)
		return;
	dp = opendir(dir);
	if (!dp)
		return;
	while ((d = readdir(dp))) {
		char path[PATH_MAX];
		struct stat st;

		if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
			continue;
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir,
				     d->d_name) >= sizeof(path) ||
		    stat(path, &st))
			continue;
		if (S_ISDIR(st.st_mode)) {
			if (depth == 0 && (!strcmp(d->d_name, "source") ||
					   !strcmp(d->d_name, "build")))
				continue;
			kmodules_walk(mods, nr, path, depth + 1);
		} else {
			kmodules_set_path(mods, nr, d->d_name, path);
		}
	}
	closedir(dp);
}

/* The release perf reads from /proc/version ("Linux version X ..."). */
static char *
kernel_version(void)
{
	char *s, *v = NULL, *p;

	if (rec_sys_read_line("/proc/version", &s))
		return NULL;
	p = strstr(s, " version ");
	if (p) {
		p += 9;
		v = xstrndup(p, strcspn(p, " "));
	}
	free(s);
	return v;
}

static void
kmodules_free(struct kmodule *m, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		free(m[i].name);
		free(m[i].path);
	}
	free(m);
}

static int
emit_kmmap(struct pd_wbuf *b, uint64_t start, uint64_t len, uint64_t pgoff,
	   const char *name, const struct rec_synth_opts *o,
	   rec_emit_fn emit, void *ctx)
{
	rec_buf_start(b, PD_RECORD_MMAP, PD_MISC_KERNEL);
	pd_wbuf_u32(b, (uint32_t)-1);
	pd_wbuf_u32(b, 0);
	pd_wbuf_u64(b, start);
	pd_wbuf_u64(b, len);
	pd_wbuf_u64(b, pgoff);
	rec_buf_str(b, name, strlen(name));
	return rec_buf_emit(b, o, emit, ctx);
}

int
rec_synth_kernel(const struct rec_synth_opts *o, rec_emit_fn emit, void *ctx)
{
	struct pd_wbuf b = { 0 };
	struct kmodule *mods;
	struct ksyms k;
	uint64_t start, end = ~0ULL;
	const char *sym;
	char name[64];
	size_t nr, i;
	int err;

	err = ksyms_read(&k);
	if (err)
		return err;
	if (!k.has_text && !k.has_stext)
		return -ENOENT;
	sym = k.has_text ? "_text" : "_stext";
	start = k.has_text ? k.text : k.stext;
	/* kptr_restrict hides the addresses: perf writes no kernel map */
	if (!start)
		return -EACCES;
	if (k.has_etext)
		end = k.etext;
	kmodules_read(&mods, &nr);
	if (nr) {
		char *ver = kernel_version();

		if (ver) {
			char dir[PATH_MAX];

			snprintf(dir, sizeof(dir), "/lib/modules/%s", ver);
			kmodules_walk(mods, nr, dir, 0);
			free(ver);
		}
	}
	for (i = 0; i < nr && end == ~0ULL; i++)
		if (mods[i].start > start)
			end = mods[i].start;
	snprintf(name, sizeof(name), KERNEL_MMAP_NAME "%s", sym);
	err = emit_kmmap(&b, start, end - start, start, name, o, emit, ctx);
	for (i = 0; i < nr && !err; i++)
		err = emit_kmmap(&b, mods[i].start, mods[i].end - mods[i].start,
				 0, mods[i].path ? mods[i].path : mods[i].name,
				 o, emit, ctx);
	kmodules_free(mods, nr);
	free(b.p);
	return err;
}

/*
 * perf writes the thread map of its evlist, whose comm it never reads
 * during perf record: every comm is empty.
 */
int
rec_synth_thread_map(const pid_t *tids, size_t nr_threads, rec_emit_fn emit,
		     void *ctx)
{
	static const pid_t any = -1;
	struct pd_wbuf b = { 0 };
	size_t i;
	int err;

	if (!nr_threads) {
		tids = &any;
		nr_threads = 1;
	}
	if (nr_threads > (PD_RECORD_MAX_SIZE - 16) / 24)
		return -E2BIG;
	rec_buf_start(&b, PD_RECORD_THREAD_MAP, 0);
	pd_wbuf_u64(&b, nr_threads);
	for (i = 0; i < nr_threads; i++) {
		pd_wbuf_u64(&b, (uint64_t)(int64_t)tids[i]);
		pd_wbuf_zeros(&b, PD_THREAD_MAP_COMM_LEN);
	}
	err = rec_buf_emit(&b, NULL, emit, ctx);
	free(b.p);
	return err;
}

static int
cpu_cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

static void
cpu_map_mask(struct pd_wbuf *b, const int *cpus, size_t nr, int max)
{
	size_t words = (size_t)(max + 31) / 32, i;
	uint32_t *mask;

	/* perf sizes the mask from max, one word short when max % 32 == 0 */
	if (words < (size_t)max / 32 + 1)
		words = (size_t)max / 32 + 1;
	mask = xcalloc(words, sizeof(*mask));
	for (i = 0; i < nr; i++)
		mask[cpus[i] / 32] |= 1U << (cpus[i] % 32);
	pd_wbuf_u16(b, PD_CPU_MAP_MASK);
	pd_wbuf_u16(b, (uint16_t)words);
	pd_wbuf_u16(b, 4);
	pd_wbuf_bytes(b, mask, words * sizeof(*mask));
	free(mask);
}

/*
 * perf's choice (§7.5): RANGE for consecutive CPUs; else CPUS when "any
 * CPU" (-1) is there or when it is smaller than a 32-bit MASK.
 */
int
rec_synth_cpu_map(const int *cpus_in, size_t nr, rec_emit_fn emit, void *ctx)
{
	struct pd_wbuf b = { 0 };
	size_t size_cpus, size_mask, i;
	int *cpus, min, max, err;
	bool any;

	if (!nr || nr > 0x7fff)
		return -EINVAL;
	cpus = xcalloc(nr, sizeof(*cpus));
	memcpy(cpus, cpus_in, nr * sizeof(*cpus));
	qsort(cpus, nr, sizeof(*cpus), cpu_cmp);
	for (i = 0; i < nr; i++)
		if (cpus[i] < -1 || cpus[i] > 0xfffe) {
			free(cpus);
			return -EINVAL;
		}
	any = cpus[0] == -1;
	min = (size_t)any < nr ? cpus[any] : -1;
	max = cpus[nr - 1];
	rec_buf_start(&b, PD_RECORD_CPU_MAP, 0);
	size_cpus = 2 + 2 + nr * 2;
	size_mask = 2 + 4 + (size_t)(max + 31) / 32 * 4;
	if ((size_t)(max - min + 1) == nr - any) {
		pd_wbuf_u16(&b, PD_CPU_MAP_RANGE);
		pd_wbuf_bytes(&b, &(uint8_t){ any }, 1);
		pd_wbuf_zeros(&b, 1);
		pd_wbuf_u16(&b, (uint16_t)min);
		pd_wbuf_u16(&b, (uint16_t)max);
	} else if (any || size_cpus < size_mask) {
		pd_wbuf_u16(&b, PD_CPU_MAP_CPUS);
		pd_wbuf_u16(&b, (uint16_t)nr);
		for (i = 0; i < nr; i++)
			pd_wbuf_u16(&b, (uint16_t)cpus[i]);
	} else {
		cpu_map_mask(&b, cpus, nr, max);
	}
	rec_buf_align(&b);
	free(cpus);
	err = rec_buf_emit(&b, NULL, emit, ctx);
	free(b.p);
	return err;
}

/* Does the comma-separated option list opts hold the word w? */
static bool
opts_have(const char *opts, const char *w)
{
	size_t n = strlen(w);

	for (const char *p = opts; p; p = strchr(p, ',')) {
		if (*p == ',')
			p++;
		if (!strncmp(p, w, n) && (p[n] == ',' || p[n] == '\0'))
			return true;
	}
	return false;
}

/*
 * The mount point of the cgroup hierarchy that has the perf_event
 * controller: a v1 mount naming it, else the first cgroup2 mount.
 */
static int
cgroup_mountpoint(char *out, size_t len)
{
	char line[4096], dir[PATH_MAX], type[64], opts[2048], v2[PATH_MAX];
	FILE *f = fopen("/proc/self/mounts", "re");
	bool found = false;

	if (!f)
		return -errno;
	v2[0] = '\0';
	while (!found && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%*s %4095s %63s %2047s", dir, type, opts) != 3)
			continue;
		if (!strcmp(type, "cgroup") && opts_have(opts, "perf_event"))
			found = true;
		else if (!strcmp(type, "cgroup2") && !v2[0])
			snprintf(v2, sizeof(v2), "%s", dir);
	}
	fclose(f);
	if (!found && !v2[0])
		return -ENOENT;
	if (snprintf(out, len, "%s", found ? dir : v2) >= (int)len)
		return -ENAMETOOLONG;
	return 0;
}

struct cgroup_walk {
	struct pd_wbuf b;
	const struct rec_synth_opts *o;
	rec_emit_fn emit;
	void *ctx;
	size_t mount_len;
	char path[PATH_MAX];
};

static int
cgroup_emit(struct cgroup_walk *w)
{
	struct {
		struct file_handle fh;
		uint64_t id;
	} h;
	int mount_id;

	h.fh.handle_bytes = sizeof(h.id);
	if (name_to_handle_at(AT_FDCWD, w->path, &h.fh, &mount_id, 0) < 0)
		return -errno;
	rec_buf_start(&w->b, PD_RECORD_CGROUP, 0);
	pd_wbuf_u64(&w->b, h.id);
	rec_buf_str(&w->b, w->path + w->mount_len,
		    strlen(w->path + w->mount_len));
	return rec_buf_emit(&w->b, w->o, w->emit, w->ctx);
}

/* w->path and every directory below it. */
static int
cgroup_walk(struct cgroup_walk *w)
{
	size_t pos = strlen(w->path);
	struct dirent *d;
	DIR *dir;
	int err = cgroup_emit(w);

	if (err)
		return err;
	dir = opendir(w->path);
	if (!dir)
		return -errno;
	while ((d = readdir(dir))) {
		size_t n = strlen(d->d_name);
		bool slash = w->path[pos - 1] != '/';

		if (d->d_type != DT_DIR || !strcmp(d->d_name, ".") ||
		    !strcmp(d->d_name, ".."))
			continue;
		if (pos + slash + n >= sizeof(w->path))
			continue;
		if (slash)
			w->path[pos] = '/';
		memcpy(w->path + pos + slash, d->d_name, n + 1);
		err = cgroup_walk(w);
		w->path[pos] = '\0';
		if (err)
			break;
	}
	closedir(dir);
	return err;
}

int
rec_synth_cgroups(const struct rec_synth_opts *o, rec_emit_fn emit, void *ctx)
{
	struct cgroup_walk *w = xcalloc(1, sizeof(*w));
	int err = cgroup_mountpoint(w->path, sizeof(w->path) - 1);

	if (!err) {
		w->o = o;
		w->emit = emit;
		w->ctx = ctx;
		w->mount_len = strlen(w->path);
		strcat(w->path, "/");
		err = cgroup_walk(w);
	}
	free(w->b.p);
	free(w);
	return err;
}
