/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * tests/tools/sym-lookup.c - drive symbol/ from the test scripts.
 *
 *   sym-lookup [OPTIONS] DSO [ADDR...]    look up map-relative addresses
 *   sym-lookup --dump [OPTIONS] DSO       every symbol: START END NAME
 *   sym-lookup --build-id FILE            the file's build-id in hex
 *   sym-lookup --perf-script FILE [--buildids FILE] [OPTIONS]
 *       check every sample of `perf script -F pid,ip,sym,symoff,dso
 *       --show-mmap-events` against our lookups; --buildids takes
 *       `perf buildid-list` output.  Prints mismatches and a summary;
 *       exits 1 on any mismatch.
 *
 * OPTIONS: --symfs DIR, --buildid-dir DIR, --kallsyms FILE,
 * --os-release REL, --no-demangle, --bid HEX (the recorded build-id),
 * --srcline (print the source line too), --origin (print the origin
 * letter first), --archive FILE (read with this symbol archive),
 * --note-archive OUT (note the lookups and write them as an archive
 * at OUT; its summary goes to stderr), --image (print the DSO's
 * sym_dso_image_path and build-id after loading).  For each ADDR (hex)
 * prints "ADDR NAME+0xOFF" or "ADDR -" (with --sizes, the symbol's
 * start and end too); warnings go to stderr as "warning: ...".
 *
 * After the first DSO's addresses, an argument starting with '/' or '['
 * starts another DSO ("NAME" or "NAME@HEXBUILDID"), printed as
 * "== NAME ORIGIN" before its lookups.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbol/sym-dso.h"

static void
warn_cb(void *ctx, const char *msg)
{
	(void)ctx;
	fprintf(stderr, "warning: %s\n", msg);
}

static size_t
parse_hex_id(const char *s, uint8_t *out)
{
	size_t n = 0;

	while (s[0] && s[1] && n < SYM_BUILD_ID_MAX) {
		unsigned v;

		if (sscanf(s, "%2x", &v) != 1)
			break;
		out[n++] = (uint8_t)v;
		s += 2;
	}
	return n;
}

struct map {
	long pid;
	unsigned long long start, len, pgoff;
	char *name;
};

struct bid {
	char *name;
	uint8_t id[SYM_BUILD_ID_MAX];
	size_t size;
};

static struct bid *bids;
static size_t nr_bids;

static void
read_buildids(const char *path)
{
	char line[4096], hex[128], name[4000];
	FILE *f = fopen(path, "r");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%127s %3999[^\n]", hex, name) != 2)
			continue;
		bids = realloc(bids, (nr_bids + 1) * sizeof(*bids));
		if (!bids)
			exit(1);
		bids[nr_bids].name = strdup(name);
		bids[nr_bids].size = parse_hex_id(hex, bids[nr_bids].id);
		nr_bids++;
	}
	fclose(f);
}

static struct sym_dso *
dso_for(struct sym_ctx *ctx, const char *name)
{
	size_t i;

	for (i = 0; i < nr_bids; i++)
		if (!strcmp(bids[i].name, name))
			return sym_dso_get(ctx, name, bids[i].id, bids[i].size);
	return sym_dso_get(ctx, name, NULL, 0);
}

/* "... PERF_RECORD_MMAP2 PID/TID: [0xSTART(0xLEN) @ PGOFF ...]: PROT NAME" */
static bool
parse_mmap(const char *line, struct map *m)
{
	const char *p = strstr(line, "PERF_RECORD_MMAP");
	const char *b, *name;
	char *end;

	if (!p)
		return false;
	p = strchr(p, ' ');
	if (!p)
		return false;
	m->pid = strtol(p + 1, NULL, 10);
	b = strstr(p, "[0x");
	if (!b)
		return false;
	m->start = strtoull(b + 1, &end, 16);
	if (*end != '(')
		return false;
	m->len = strtoull(end + 1, &end, 16);
	b = strstr(end, "@ ");
	if (!b)
		return false;
	m->pgoff = strtoull(b + 2, NULL, 0);
	name = strstr(b, "]: ");
	if (!name)
		return false;
	name = strchr(name + 3, ' ');
	if (!name)
		return false;
	m->name = strdup(name + 1);
	if (!m->name)
		return false;
	m->name[strcspn(m->name, "\n")] = '\0';
	return true;
}

static int
check_perf_script(struct sym_ctx *ctx, const char *path)
{
	struct map *maps = NULL;
	size_t nr_maps = 0, samples = 0, bad = 0, i;
	char line[8192];
	FILE *f = fopen(path, "r");

	if (!f)
		return 1;
	while (fgets(line, sizeof(line), f)) {
		char want[4096], got[4200], dso_name[4096], *open, *close;
		unsigned long long ip, al;
		const struct sym_symbol *s;
		struct sym_dso *dso;
		struct map m;
		long pid;
		int n;

		if (strstr(line, "PERF_RECORD_")) {
			if (parse_mmap(line, &m)) {
				maps = realloc(maps, (nr_maps + 1) * sizeof(*maps));
				if (!maps)
					return 1;
				maps[nr_maps++] = m;
			}
			continue;
		}
		if (sscanf(line, "%ld %llx %n", &pid, &ip, &n) != 2)
			continue;
		open = strrchr(line, '(');
		close = strrchr(line, ')');
		if (!open || !close || close < open)
			continue;
		snprintf(dso_name, sizeof(dso_name), "%.*s",
			 (int)(close - open - 1), open + 1);
		snprintf(want, sizeof(want), "%.*s", (int)(open - line - n),
			 line + n);
		want[strcspn(want, "\n")] = '\0';
		while (*want && want[strlen(want) - 1] == ' ')
			want[strlen(want) - 1] = '\0';
		if (!strcmp(want, "[unknown]"))
			strcpy(want, "-");
		if (!strcmp(dso_name, "[unknown]"))
			continue;
		dso = dso_for(ctx, dso_name);
		if (!dso)
			return 1;
		al = ip;
		if (!sym_dso_identity_map(dso)) {
			for (i = nr_maps; i-- > 0;) {
				if (maps[i].pid == pid &&
				    !strcmp(maps[i].name, dso_name) &&
				    ip >= maps[i].start &&
				    ip - maps[i].start < maps[i].len)
					break;
			}
			if (i == (size_t)-1)
				continue;
			al = ip - maps[i].start +
			     (sym_dso_kind(dso) == SYM_DSO_VDSO ? 0 : maps[i].pgoff);
		}
		s = sym_dso_find(dso, al);
		if (s)
			snprintf(got, sizeof(got), "%s+0x%llx", s->name,
				 al - (unsigned long long)s->start);
		else
			strcpy(got, "-");
		samples++;
		if (strcmp(got, want)) {
			if (++bad <= 20)
				printf("mismatch: %s %llx: perf '%s', ours '%s'\n",
				       dso_name, al, want, got);
		}
	}
	fclose(f);
	for (i = 0; i < nr_maps; i++)
		free(maps[i].name);
	free(maps);
	printf("%zu samples, %zu mismatches\n", samples, bad);
	return bad ? 1 : 0;
}

static int
usage(void)
{
	fprintf(stderr, "usage: sym-lookup [--dump] [options] DSO [ADDR...] [DSO2[@BID] ADDR...]...\n"
		"       sym-lookup --build-id FILE\n");
	return 2;
}

struct show {
	bool dump, srcline, sizes, image;
};

static void
print_image(struct sym_dso *dso)
{
	uint8_t bid[SYM_BUILD_ID_MAX];
	char hex[2 * SYM_BUILD_ID_MAX + 1];
	const char *p = sym_dso_image_path(dso);
	size_t n = sym_dso_build_id(dso, bid);

	sym_build_id_hex(bid, n, hex);
	printf("image %s %s\n", p ? p : "-", n ? hex : "-");
}

static void
lookup_one(struct sym_dso *dso, const char *arg, const struct show *sh)
{
	unsigned long long a = strtoull(arg, NULL, 16);
	const struct sym_symbol *s = sym_dso_find(dso, a);

	if (s)
		printf("%llx %s+0x%llx", a, s->name,
		       a - (unsigned long long)s->start);
	else
		printf("%llx -", a);
	if (s && sh->sizes)
		printf(" [%llx,%llx)", (unsigned long long)s->start,
		       (unsigned long long)s->end);
	if (sh->srcline) {
		const char *l = sym_dso_srcline(dso, a);

		printf(" %s", l ? l : "??");
	}
	putchar('\n');
}

static bool
starts_dso(const char *a)
{
	return a[0] == '/' || a[0] == '[';
}

/* "NAME" or "NAME@HEX": the DSO of a later argument. */
static struct sym_dso *
later_dso(struct sym_ctx *ctx, const char *arg)
{
	uint8_t bid[SYM_BUILD_ID_MAX];
	const char *at = strrchr(arg, '@');
	struct sym_dso *dso;
	size_t n = 0;
	char *name;

	if (!at)
		return sym_dso_get(ctx, arg, NULL, 0);
	n = parse_hex_id(at + 1, bid);
	name = strndup(arg, (size_t)(at - arg));
	if (!name)
		return NULL;
	dso = sym_dso_get(ctx, name, n ? bid : NULL, n);
	free(name);
	return dso;
}

static int
write_archive(struct sym_ctx *ctx, const char *path)
{
	struct sym_archive_stats st;
	char err[512];

	if (sym_ctx_write_archive(ctx, path, &st, err, sizeof(err))) {
		fprintf(stderr, "sym-lookup: %s\n", err);
		return 1;
	}
	fprintf(stderr, "archive: %zu DSOs, %zu symbols, %zu lines, %zu missing, %llu bytes\n",
		st.nr_dsos, st.nr_symbols, st.nr_lines, st.nr_missing,
		(unsigned long long)st.bytes);
	return 0;
}

static int
lookups(struct sym_ctx *ctx, int argc, char **argv, int i, bool origin,
	const uint8_t *bid, size_t bid_size, const struct show *sh)
{
	struct sym_dso *dso;
	size_t j;

	dso = sym_dso_get(ctx, argv[i++], bid_size ? bid : NULL, bid_size);
	if (!dso)
		return 1;
	sym_dso_load(dso);
	if (origin)
		printf("origin %c\n", sym_dso_origin(dso));
	if (sh->image)
		print_image(dso);
	if (sh->dump && dso->table) {
		for (j = 0; j < dso->table->nr; j++) {
			const struct sym_symbol *s = &dso->table->syms[j];

			printf("%llx %llx %s\n", (unsigned long long)s->start,
			       (unsigned long long)s->end, s->name);
		}
	}
	for (; i < argc; i++) {
		if (!starts_dso(argv[i])) {
			lookup_one(dso, argv[i], sh);
			continue;
		}
		dso = later_dso(ctx, argv[i]);
		if (!dso)
			return 1;
		sym_dso_load(dso);
		printf("== %s %c\n", sym_dso_long_name(dso),
		       sym_dso_origin(dso));
		if (sh->image)
			print_image(dso);
	}
	return 0;
}

int
main(int argc, char **argv)
{
	struct sym_opts opts = { .warn = warn_cb };
	uint8_t bid[SYM_BUILD_ID_MAX];
	size_t bid_size = 0;
	struct show sh = { 0 };
	bool origin = false;
	const char *script = NULL, *note = NULL;
	struct sym_ctx *ctx;
	int i, ret;

	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1] == '-'; i++) {
		const char *o = argv[i];

		if (!strcmp(o, "--build-id") && i + 1 < argc) {
			char hex[2 * SYM_BUILD_ID_MAX + 1];
			int n = sym_elf_build_id(argv[i + 1], bid);

			if (n <= 0)
				return 1;
			sym_build_id_hex(bid, (size_t)n, hex);
			printf("%s\n", hex);
			return 0;
		} else if (!strcmp(o, "--dump")) {
			sh.dump = true;
		} else if (!strcmp(o, "--srcline")) {
			sh.srcline = true;
		} else if (!strcmp(o, "--sizes")) {
			sh.sizes = true;
		} else if (!strcmp(o, "--image")) {
			sh.image = true;
		} else if (!strcmp(o, "--origin")) {
			origin = true;
		} else if (!strcmp(o, "--no-demangle")) {
			opts.no_demangle = true;
		} else if (i + 1 >= argc) {
			return usage();
		} else if (!strcmp(o, "--symfs")) {
			opts.symfs = argv[++i];
		} else if (!strcmp(o, "--buildid-dir")) {
			opts.buildid_dir = argv[++i];
		} else if (!strcmp(o, "--kallsyms")) {
			opts.kallsyms = argv[++i];
		} else if (!strcmp(o, "--os-release")) {
			opts.os_release = argv[++i];
		} else if (!strcmp(o, "--perf-script")) {
			script = argv[++i];
		} else if (!strcmp(o, "--buildids")) {
			read_buildids(argv[++i]);
		} else if (!strcmp(o, "--bid")) {
			bid_size = parse_hex_id(argv[++i], bid);
		} else if (!strcmp(o, "--archive")) {
			opts.archive = argv[++i];
		} else if (!strcmp(o, "--note-archive")) {
			note = argv[++i];
		} else {
			return usage();
		}
	}
	if (script) {
		ctx = sym_ctx_new(&opts);
		if (!ctx)
			return 1;
		ret = check_perf_script(ctx, script);
		sym_ctx_free(ctx);
		return ret;
	}
	if (i >= argc)
		return usage();
	ctx = sym_ctx_new(&opts);
	if (!ctx)
		return 1;
	if (note)
		sym_ctx_note_lookups(ctx);
	ret = lookups(ctx, argc, argv, i, origin, bid, bid_size, &sh);
	if (!ret && note)
		ret = write_archive(ctx, note);
	sym_ctx_free(ctx);
	return ret;
}
