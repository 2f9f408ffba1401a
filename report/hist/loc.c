/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * report/hist/loc.c - the keys' shared parts on a resolved address, as
 * perf 6.1's util/sort.c prints and compares a map_symbol.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "lib/xalloc.h"
#include "report/hist/hist-int.h"
#include "report/hist/loc.h"

#define CHUNK_COPIES 1024

struct rep_keep_chunk {
	struct rep_keep_chunk *next;
	size_t used;
	max_align_t v[];
};

struct sym_dso *
rep_loc_dso(const struct ses_loc *l)
{
	return l->map ? l->dso : NULL;
}

const struct sym_symbol *
rep_loc_sym(const struct ses_loc *l)
{
	return l->map ? l->sym : NULL;
}

const char *
rep_dso_name(const struct sym_dso *dso, bool verbose)
{
	return verbose ? sym_dso_shown_long_name(dso) : sym_dso_short_name(dso);
}

int
rep_loc_dso_cmp(const struct ses_loc *l, const struct ses_loc *r, bool verbose)
{
	struct sym_dso *dl = rep_loc_dso(l), *dr = rep_loc_dso(r);
	int c;

	if (!dl || !dr)
		return rep_cmp_null(dr, dl);
	if (dl == dr)
		return 0;
	c = strcmp(rep_dso_name(dl, verbose), rep_dso_name(dr, verbose));
	return (c > 0) - (c < 0);
}

void
rep_loc_dso_snprint(const struct ses_loc *l, bool verbose, int w, char *buf,
		    size_t size)
{
	struct sym_dso *d = rep_loc_dso(l);

	snprintf(buf, size, "%-*.*s", w, w,
		 d ? rep_dso_name(d, verbose) : "[unknown]");
}

uint64_t
rep_loc_dso_hash(const struct ses_loc *l, bool verbose)
{
	struct sym_dso *d = rep_loc_dso(l);
	const char *name;

	if (!d)
		return 0x5bd1e995;
	name = rep_dso_name(d, verbose);
	return XXH3_64bits(name, strlen(name));
}

/*
 * perf's -v prefix: the address (a kernel map's, that perf relocates,
 * unmapped again) and the letter of where the DSO's symbols came from.
 */
static int
verbose_prefix(const struct ses_loc *l, uint64_t ip, char *buf, size_t size)
{
	struct sym_dso *d = rep_loc_dso(l);

	/* a kernel read from a vmlinux: its symbols are relocated */
	if (d && l->map && sym_dso_vmlinux_path(d))
		ip = ip - l->map->pgoff + l->map->start;
	return snprintf(buf, size, "%-#*" PRIx64 " %c ", 16 + 2, ip,
			d ? sym_dso_origin(d) : '!');
}

void
rep_loc_sym_snprint(const struct ses_loc *l, uint64_t ip, char level,
		    bool verbose, int w, char *buf, size_t size)
{
	const struct sym_symbol *sym = rep_loc_sym(l);
	int n = verbose ? verbose_prefix(l, ip, buf, size) : 0;

	if (n >= 0 && (size_t)n < size)
		n += snprintf(buf + n, size - (size_t)n, "[%c] ", level);
	if (n < 0 || (size_t)n >= size)
		return;
	buf += n;
	size -= (size_t)n;
	if (sym && sym->is_object) {
		uint64_t abs = l->map->identity ? sym->start :
			sym->start + l->map->start - l->map->pgoff;

		snprintf(buf, size, "%s+0x%" PRIx64, sym->name, ip - abs);
	} else if (sym) {
		snprintf(buf, size, "%.*s%s", w - n > 0 ? w - n : 0, sym->name,
			 sym->inlined ? " (inlined)" : "");
	} else {
		snprintf(buf, size, "%-#.*" PRIx64, 16, ip);
	}
}

void *
rep_keep_next(struct rep_keep *k)
{
	struct rep_keep_chunk *c = k->chunks;
	size_t units = (k->size + sizeof(max_align_t) - 1) / sizeof(max_align_t);

	if (!c || c->used == CHUNK_COPIES) {
		c = xmalloc(sizeof(*c) + CHUNK_COPIES * units * sizeof(max_align_t));
		c->used = 0;
		c->next = k->chunks;
		k->chunks = c;
	}
	return &c->v[c->used * units];
}

void
rep_keep_commit(struct rep_keep *k)
{
	k->chunks->used++;
}

void
rep_keep_free(struct rep_keep *k)
{
	struct rep_keep_chunk *c, *next;

	for (c = k->chunks; c; c = next) {
		next = c->next;
		free(c);
	}
	k->chunks = NULL;
}
