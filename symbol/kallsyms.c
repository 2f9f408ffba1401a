/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * symbol/kallsyms.c - kernel and module symbols from a kallsyms file, as
 * perf 6.1 loads them (doc/perf-records.md §7.5): lines
 * "ADDR TYPE NAME[\t[MODULE]]", types T W D B (either case) kept, names
 * starting with '$' dropped, all sizes 0 and ends fixed up to the next
 * symbol (a kernel/module boundary ends at the next page instead), one
 * symbol per address, then module symbols split into "[module]" tables.
 *
 * The file is read whole and parsed by hand into an array (names stay in
 * the file's text): /proc/kallsyms has some 100k-200k lines and must
 * load in milliseconds.  After the fixups no two symbols overlap, so the
 * tables need not copy perf's tree shape.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <elf.h>

#include "lib/safefile.h"
#include "symbol/sym-int.h"

#define KALLSYMS_MAX_BYTES (256u << 20)
#define KALLSYMS_MAX_SYMS (16u << 20)

/*
 * The buffer a whole file is read into at first: its size and a byte
 * more (to see the end), or 16 MiB for a /proc file, whose size reads as
 * 0 (today's /proc/kallsyms is 5 to 10 MiB: no copy as it grows).
 */
static size_t
first_cap(int fd)
{
	struct stat st;

	if (fstat(fd, &st) == 0 && st.st_size > 0 &&
	    (uint64_t)st.st_size < KALLSYMS_MAX_BYTES)
		return (size_t)st.st_size + 1;
	return 16u << 20;
}

/*
 * Read a whole file, also from /proc where st_size is 0; stop early,
 * failing with ECANCELED, once *cancel (when given) is set.  Closes fd.
 */
static char *
slurp(int fd, size_t *len, const bool *cancel)
{
	size_t cap = first_cap(fd), n = 0;
	char *buf, *nb;

	buf = malloc(cap + 1);
	while (buf) {
		ssize_t r;

		if (n == cap) {
			if (cap >= KALLSYMS_MAX_BYTES) {
				free(buf);
				buf = NULL;
				break;
			}
			cap *= 2;
			nb = realloc(buf, cap + 1);
			if (!nb) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = nb;
		}
		if (cancel && __atomic_load_n(cancel, __ATOMIC_RELAXED)) {
			free(buf);
			buf = NULL;
			errno = ECANCELED;
			break;
		}
		r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			free(buf);
			buf = NULL;
			break;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	if (buf) {
		buf[n] = '\0';
		*len = n;
	}
	return buf;
}

static int
hexdig(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

static uint8_t
kallsyms_binding(char t)
{
	if (t == 'W' || t == 'w')
		return STB_WEAK;
	return isupper((unsigned char)t) ? STB_GLOBAL : STB_LOCAL;
}

static uint8_t
kallsyms_type(char t)
{
	t = (char)tolower((unsigned char)t);
	return (t == 't' || t == 'w') ? STT_FUNC : STT_OBJECT;
}

struct ks_ent {
	uint64_t start, end;
	char *name;		/* in the file's text, "\t[module]" included */
	uint32_t seq;
	uint8_t binding, type;
};

struct ks_vec {
	struct ks_ent *v;
	size_t nr, cap;
};

/* Parse every line; names point into text. */
static int
parse(struct ks_vec *vec, char *p, char *end)
{
	while (p < end) {
		char *eol = memchr(p, '\n', (size_t)(end - p));
		uint64_t addr = 0;
		int d, n = 0;
		char type, *name;

		if (!eol)
			eol = end;
		*eol = '\0';
		while ((d = hexdig((unsigned char)*p)) >= 0 && n < 17) {
			addr = addr << 4 | (uint64_t)d;
			p++;
			n++;
		}
		if (n == 0 || n > 16 || p[0] != ' ' || !p[1] || p[2] != ' ')
			goto next;
		type = p[1];
		name = p + 3;
		if (!strchr("TtWwDdBb", type) || name[0] == '$' || !name[0])
			goto next;
		if (vec->nr == vec->cap) {
			/* a line takes 20 bytes or more: most fit at once */
			size_t cap = vec->cap ? vec->cap * 2 :
				(size_t)(end - p) / 20 + 1;
			void *nv;

			if (cap > KALLSYMS_MAX_SYMS)
				return -E2BIG;
			nv = realloc(vec->v, cap * sizeof(*vec->v));
			if (!nv)
				return -ENOMEM;
			vec->v = nv;
			vec->cap = cap;
		}
		vec->v[vec->nr].start = addr;
		vec->v[vec->nr].end = addr;
		vec->v[vec->nr].name = name;
		vec->v[vec->nr].seq = (uint32_t)vec->nr;
		vec->v[vec->nr].binding = kallsyms_binding(type);
		vec->v[vec->nr].type = kallsyms_type(type);
		vec->nr++;
next:
		p = eol + 1;
	}
	return 0;
}

static int
ent_cmp(const void *pa, const void *pb)
{
	const struct ks_ent *a = pa, *b = pb;

	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static bool
vec_sorted(const struct ks_vec *vec)
{
	size_t i;

	for (i = 1; i < vec->nr; i++)
		if (ent_cmp(&vec->v[i - 1], &vec->v[i]) > 0)
			return false;
	return true;
}

/* perf's symbols__fixup_end for kallsyms, on the sorted array */
static void
fixup_end(struct ks_vec *vec)
{
	size_t i;

	for (i = 0; i + 1 < vec->nr; i++) {
		struct ks_ent *prev = &vec->v[i], *curr = &vec->v[i + 1];

		if (prev->end != prev->start)
			continue;
		if (!strchr(prev->name, '[') != !strchr(curr->name, '['))
			prev->end = ((prev->end + 4096) + 4095) & ~(uint64_t)4095;
		else
			prev->end = curr->start;
	}
	if (vec->nr && vec->v[vec->nr - 1].end == vec->v[vec->nr - 1].start)
		vec->v[vec->nr - 1].end =
			((vec->v[vec->nr - 1].start + 4095) & ~(uint64_t)4095) + 4096;
}

/* perf's symbols__fixup_duplicate, on the sorted array */
static void
dedup(struct ks_vec *vec)
{
	size_t i, out = 0;
	struct ks_ent cur;

	if (vec->nr < 2)
		return;
	cur = vec->v[0];
	for (i = 1; i < vec->nr; i++) {
		const struct ks_ent *next = &vec->v[i];

		if (next->start != cur.start) {
			vec->v[out++] = cur;
			cur = *next;
		} else if (!sym_prefer_first(cur.name, cur.end == cur.start,
					     cur.binding, next->name,
					     next->end == next->start,
					     next->binding)) {
			cur = *next;
		}
	}
	vec->v[out++] = cur;
	vec->nr = out;
}

/* The table index of e's module (0: the kernel), adding it if new. */
static int
module_of(struct sym_kallsyms *k, struct ks_ent *e, size_t *counts_cap,
	  size_t **counts)
{
	char *tab = strchr(e->name, '\t');
	size_t mlen, i;

	if (!tab || tab[1] != '[')
		return 0;
	*tab = '\0';
	tab++;
	mlen = strcspn(tab, "\t");
	for (i = 0; i < k->nr_mods; i++)
		if (strlen(k->mod_names[i]) == mlen &&
		    !memcmp(k->mod_names[i], tab, mlen))
			return (int)i + 1;
	if (k->nr_mods + 1 >= *counts_cap) {
		size_t cap = *counts_cap ? *counts_cap * 2 : 16;
		void *p1 = realloc(k->mod_names, cap * sizeof(char *));
		void *p2;

		if (!p1)
			return -1;
		k->mod_names = p1;
		p2 = realloc(*counts, (cap + 1) * sizeof(size_t));
		if (!p2)
			return -1;
		*counts = p2;
		*counts_cap = cap;
	}
	k->mod_names[k->nr_mods] = strndup(tab, mlen);
	if (!k->mod_names[k->nr_mods])
		return -1;
	(*counts)[k->nr_mods + 1] = 0;
	return (int)++k->nr_mods;
}

/*
 * The names the symbols keep, copied together: the file's text also
 * holds every line's address, type and the symbols left out, twice the
 * size.
 */
static char *
names_compact(struct ks_vec *vec)
{
	size_t total = 0, i, len;
	char *names, *at;

	for (i = 0; i < vec->nr; i++)
		total += strlen(vec->v[i].name) + 1;
	names = malloc(total ? total : 1);
	if (!names)
		return NULL;
	at = names;
	for (i = 0; i < vec->nr; i++) {
		len = strlen(vec->v[i].name) + 1;
		memcpy(at, vec->v[i].name, len);
		vec->v[i].name = at;
		at += len;
	}
	return names;
}

/*
 * Split the fixed-up symbols into the kernel's table and each module's;
 * their names go into one block the kernel's table owns.
 */
static int
split(struct ks_vec *vec, char *text, struct sym_kallsyms *k)
{
	size_t *counts = calloc(1, sizeof(size_t)), counts_cap = 0, i, n;
	struct sym_symbol **arrs = NULL;
	int *which = calloc(vec->nr ? vec->nr : 1, sizeof(int));
	char *names = NULL;
	int ret = -ENOMEM, m;

	if (!counts || !which)
		goto out;
	for (i = 0; i < vec->nr; i++) {
		m = module_of(k, &vec->v[i], &counts_cap, &counts);
		if (m < 0)
			goto out;
		which[i] = m;
		counts[m]++;
	}
	/* the module names are cut off now */
	names = names_compact(vec);
	if (!names)
		goto out;
	free(text);
	text = NULL;
	n = k->nr_mods + 1;
	arrs = calloc(n, sizeof(*arrs));
	k->mods = calloc(n, sizeof(*k->mods));
	if (!arrs || !k->mods)
		goto out;
	for (i = 0; i < n; i++) {
		arrs[i] = calloc(counts[i] ? counts[i] : 1, sizeof(**arrs));
		if (!arrs[i])
			goto out;
		counts[i] = 0;
	}
	for (i = 0; i < vec->nr; i++) {
		struct sym_symbol *s = &arrs[which[i]][counts[which[i]]++];

		s->start = vec->v[i].start;
		s->end = vec->v[i].end;
		s->name = vec->v[i].name;
		s->is_object = vec->v[i].type == STT_OBJECT;
	}
	for (i = 1; i < n; i++) {
		k->mods[i - 1] = sym_table_from_sorted(arrs[i], counts[i], NULL);
		arrs[i] = NULL;
		if (!k->mods[i - 1])
			goto out;
	}
	k->kernel = sym_table_from_sorted(arrs[0], counts[0], names);
	arrs[0] = NULL;
	ret = k->kernel ? 0 : -ENOMEM;
	names = NULL;
out:
	if (arrs)
		for (i = 0; i < k->nr_mods + 1; i++)
			free(arrs[i]);
	free(arrs);
	free(counts);
	free(which);
	free(names);
	free(text);
	return ret;
}

static int
kallsyms_load_now(const char *path, struct sym_kallsyms *out,
		  const bool *cancel)
{
	struct ks_vec vec = { NULL, 0, 0 };
	size_t len;
	char *text;
	int fd, ret;

	memset(out, 0, sizeof(*out));
	fd = sfile_open_input(path, 0, NULL);
	if (fd < 0)
		return fd;
	errno = 0;
	text = slurp(fd, &len, cancel);
	if (!text)
		return errno ? -errno : -ENOMEM;
	ret = parse(&vec, text, text + len);
	if (ret) {
		free(vec.v);
		free(text);
		return ret;
	}
	/* /proc/kallsyms comes sorted: check before sorting */
	if (vec.nr > 1 && !vec_sorted(&vec))
		qsort(vec.v, vec.nr, sizeof(*vec.v), ent_cmp);
	fixup_end(&vec);
	dedup(&vec);
	/* split frees text from here */
	ret = split(&vec, text, out);
	free(vec.v);
	if (ret)
		sym_kallsyms_free(out);
	return ret;
}

struct sym_ks_prefetch {
	pthread_t thread;
	char *path;
	struct sym_kallsyms res;
	int err;
	bool cancel;		/* nobody will use it: stop reading */
};

static void *
prefetch_main(void *arg)
{
	struct sym_ks_prefetch *p = arg;

	p->err = kallsyms_load_now(p->path, &p->res, &p->cancel);
	return NULL;
}

void
sym_kallsyms_prefetch(struct sym_kallsyms *k, const char *path)
{
	struct sym_ks_prefetch *p;

	if (k->prefetch || !path)
		return;
	p = calloc(1, sizeof(*p));
	if (!p)
		return;
	p->path = strdup(path);
	if (!p->path || pthread_create(&p->thread, NULL, prefetch_main, p)) {
		free(p->path);
		free(p);
		return;
	}
	k->prefetch = p;
}

/* Wait for the prefetch; returns it, now k's no longer. */
static struct sym_ks_prefetch *
prefetch_join(struct sym_kallsyms *k)
{
	struct sym_ks_prefetch *p = k->prefetch;

	if (!p)
		return NULL;
	pthread_join(p->thread, NULL);
	k->prefetch = NULL;
	return p;
}

static void
prefetch_drop(struct sym_ks_prefetch *p)
{
	if (!p)
		return;
	if (!p->err)
		sym_kallsyms_free(&p->res);
	free(p->path);
	free(p);
}

int
sym_kallsyms_load(const char *path, struct sym_kallsyms *out)
{
	struct sym_ks_prefetch *p = prefetch_join(out);
	int err;

	if (p && !strcmp(p->path, path)) {
		err = p->err;
		*out = p->res;
		free(p->path);
		free(p);
		return err;
	}
	prefetch_drop(p);
	return kallsyms_load_now(path, out, NULL);
}

void
sym_kallsyms_free(struct sym_kallsyms *k)
{
	size_t i;

	/* a prefetch nobody asked for: reading /proc/kallsyms is slow */
	if (k->prefetch)
		__atomic_store_n(&k->prefetch->cancel, true, __ATOMIC_RELAXED);
	prefetch_drop(prefetch_join(k));

	for (i = 0; i < k->nr_mods; i++) {
		free(k->mod_names[i]);
		if (k->mods)
			sym_table_free(k->mods[i]);
	}
	free(k->mod_names);
	free(k->mods);
	sym_table_free(k->kernel);
	memset(k, 0, sizeof(*k));
}
