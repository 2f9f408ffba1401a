/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * tests/unit/test-archive.c - the pdata symbol archive's container and
 * payload codec (doc/symbol-archive.md): round trips of every kind of
 * entry, lookups, the writer's checks and its temporary file, and damage:
 * the file cut at every length and every byte flipped, entries re-signed
 * after a change so that the checks behind the checksums are reached,
 * and the payload decoder fed cut, flipped and random bytes.  Runs under
 * ASan and UBSan in CI: "no crash" is part of what it checks.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <xxhash.h>
#include <zstd.h>

#include "symbol/archive-int.h"
#include "tests/unit/t.h"

static char tmpdir[4096];

/* Warnings collected by the reader. */
struct warns {
	char msg[16][1024];
	size_t nr;
};

static void
warn_cb(void *ctx, const char *msg)
{
	struct warns *w = ctx;

	if (getenv("TEST_ARCHIVE_VERBOSE"))
		fprintf(stderr, "warning: %s\n", msg);
	if (w->nr < ARRAY_SIZE(w->msg))
		snprintf(w->msg[w->nr], sizeof(w->msg[0]), "%s", msg);
	w->nr++;
}

static bool
warns_have(const struct warns *w, const char *needle)
{
	size_t i;

	for (i = 0; i < w->nr && i < ARRAY_SIZE(w->msg); i++)
		if (strstr(w->msg[i], needle))
			return true;
	return false;
}

static void
path_in_tmp(char *out, size_t n, const char *name)
{
	snprintf(out, n, "%s/%s", tmpdir, name);
}

static void
tmpdir_make(void)
{
	const char *base = getenv("TMPDIR");
	char unique[7];

	/* mkdtemp's template: six capital letters it replaces */
	memset(unique, 'X', 6);
	unique[6] = '\0';
	snprintf(tmpdir, sizeof(tmpdir), "%s/pdata-test-archive.%s",
		 base && *base ? base : "/tmp", unique);
	if (!mkdtemp(tmpdir)) {
		perror(tmpdir);
		exit(99);
	}
}

static size_t
dir_count(void)
{
	DIR *d = opendir(tmpdir);
	struct dirent *e;
	size_t n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

static void
tmpdir_remove(void)
{
	DIR *d = opendir(tmpdir);
	struct dirent *e;
	char p[4600];

	if (d) {
		while ((e = readdir(d))) {
			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			snprintf(p, sizeof(p), "%s/%s", tmpdir, e->d_name);
			unlink(p);
		}
		closedir(d);
	}
	rmdir(tmpdir);
}

static void
file_put(const char *path, const void *p, size_t n)
{
	FILE *f = fopen(path, "wb");

	if (!f || (n && fwrite(p, 1, n, f) != n) || fclose(f) != 0) {
		perror(path);
		exit(99);
	}
}

static unsigned char *
file_get(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	unsigned char *p;
	long len;

	if (!f || fseek(f, 0, SEEK_END) || (len = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET)) {
		perror(path);
		exit(99);
	}
	p = malloc((size_t)len + 1);
	if (!p || fread(p, 1, (size_t)len, f) != (size_t)len) {
		perror(path);
		exit(99);
	}
	fclose(f);
	*n = (size_t)len;
	return p;
}

/* The entries: every kind, with and without build-ids and tables. */

static struct sym_ar_symbol syms_lib[] = {
	{ 0x1000, 0x1040, "main", false },
	{ 0x1040, 0x10a0, "std::vector<int>::push_back(int const&)", false },
	{ 0x4000, 0x4010, "table", true },
};
static struct sym_ar_cover covers_lib[] = {
	{ 0x1000, 0x1030, 0 }, { 0x1030, 0x1031, 0 }, { 0x1050, 0x10a0, 1 },
	{ 0x4000, 0x4008, 2 },
};
static struct sym_ar_line lines_lib[] = {
	{ 0x1000, "main.c:10" }, { 0x1001, "main.c:10" }, { 0x1004, "??:0" },
	{ 0x1010, "main.c:12" },
	{ 0x1050, "/usr/include/c++/12/bits/stl_vector.h:1287" },
	{ 0x1051, "odd.c:0012" }, { 0x1052, "noline" }, { 0x1053, "x:" },
	{ 0x1054, ":7" }, { 0x1055, "a:b:9" },
};
static struct sym_ar_symbol syms_kernel[] = {
	{ 0xffffffff81000000ULL, 0xffffffff81000100ULL, "_stext", false },
	{ 0xffffffffff600000ULL, 0xffffffffffffffffULL, "vsyscall_top", false },
};
static struct sym_ar_cover covers_kernel[] = {
	{ 0xffffffff81000000ULL, 0xffffffff81000100ULL, 0 },
	{ 0xffffffffff600000ULL, 0xffffffffffffffffULL, 1 },
};
static struct sym_ar_symbol syms_mod[] = {
	{ 0xffffffffc0001000ULL, 0xffffffffc0001200ULL, "ext4_readdir", false },
};
static struct sym_ar_cover covers_mod[] = {
	{ 0xffffffffc0001000ULL, 0xffffffffc0001200ULL, 0 },
};
static struct sym_ar_symbol syms_vdso[] = {
	{ 0x900, 0x980, "__vdso_clock_gettime", false },
};
static struct sym_ar_cover covers_vdso[] = { { 0x900, 0x980, 0 } };
static struct sym_ar_symbol syms_jit[] = {
	{ 0x7f0000001000ULL, 0x7f0000001100ULL, "LazyCompile:~foo", false },
	{ 0x7f0000000800ULL, 0x7f0000000700ULL, "backwards", true },
	{ 0x7f0000002000ULL, 0x7f0000002000ULL, "LazyCompile:~foo", false },
};
static struct sym_ar_cover covers_jit[] = {
	{ 0x7f0000000700ULL, 0x7f0000000800ULL, 1 },
	{ 0x7f0000001000ULL, 0x7f0000001100ULL, 0 },
	{ 0x7f0000002000ULL, 0x7f0000002001ULL, 2 },
};

enum { E_LIB, E_KERNEL, E_MOD, E_VDSO, E_JIT, E_NOBID, E_SHORTBID,
       E_BIG, NR_E };

static struct sym_ar_dso ents[NR_E];

static void
set_bid(struct sym_ar_dso *d, size_t n, uint8_t seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		d->build_id[i] = (uint8_t)(seed + i * 7);
	d->build_id_size = n;
}

#define TABLES(d, s, c)	do {						\
		(d)->syms = (s); (d)->nr_syms = ARRAY_SIZE(s);		\
		(d)->covers = (c); (d)->nr_covers = ARRAY_SIZE(c);	\
	} while (0)

/* The big entry: many symbols, covers and lines over a few files. */
static char big_names[20000][24];
static char big_files[30][48];
static char big_lines[50000][64];
static struct sym_ar_symbol big_syms[20000];
static struct sym_ar_cover big_covers[20000];
static struct sym_ar_line big_line[50000];

static void
big_make(struct sym_ar_dso *d)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(big_files); i++)
		snprintf(big_files[i], sizeof(big_files[i]),
			 "/home/user/src/project/file%zu.c", i);
	for (i = 0; i < ARRAY_SIZE(big_syms); i++) {
		snprintf(big_names[i], sizeof(big_names[i]), "fn_%zu",
			 i % 17 == 0 ? 0 : i);
		big_syms[i].start = 0x400000 + i * 0x40;
		big_syms[i].end = big_syms[i].start + 0x20 + i % 32;
		big_syms[i].name = big_names[i];
		big_syms[i].is_object = i % 11 == 0;
		big_covers[i].lo = big_syms[i].start + (i % 3);
		big_covers[i].hi = big_syms[i].start + 0x30;
		big_covers[i].sym = (uint32_t)(i % 5 ? i :
					       ARRAY_SIZE(big_syms) - 1 - i);
	}
	for (i = 0; i < ARRAY_SIZE(big_line); i++) {
		snprintf(big_lines[i], sizeof(big_lines[i]), "%s:%zu",
			 big_files[(i / 40) % ARRAY_SIZE(big_files)],
			 1 + i / 3);
		big_line[i].addr = 0x400000 + i * 5 + (i % 4);
		big_line[i].line = big_lines[i];
	}
	d->kind = SYM_AR_FILE;
	set_bid(d, 20, 0x90);
	d->name = "/usr/bin/big";
	d->origin = 'd';
	TABLES(d, big_syms, big_covers);
	d->lines = big_line;
	d->nr_lines = ARRAY_SIZE(big_line);
}

/* Call frame information (format 1.1): the codec keeps bytes as given. */
static const unsigned char cfi_cie[] = {
	20, 0, 0, 0, 0, 0, 0, 0, 1, 'z', 'R', 0, 1, 0x78, 16, 1, 0x1b,
	0x0c, 7, 8, 0x90, 1, 0, 0,
};
static const unsigned char cfi_fde_a[] = {
	16, 0, 0, 0, 0x44, 0, 0, 0, 1, 2, 3, 4, 0x20, 0, 0, 0, 0, 0, 0, 0,
};
static const unsigned char cfi_fde_b[] = {
	12, 0, 0, 0, 0x64, 0, 0, 0, 5, 6, 7, 8, 0x10, 0, 0, 0,
};
static struct sym_ar_load cfi_loads[] = {
	{ .vaddr = 0, .offset = 0, .filesz = 0x800, .memsz = 0x800,
	  .align = 0x1000, .flags = 4 },
	{ .vaddr = 0x1000, .offset = 0x1000, .filesz = 0x500, .memsz = 0x500,
	  .align = 0x1000, .flags = 5 },
};
static struct sym_ar_cfi_piece cfi_pieces[] = {
	{ .off = 0, .len = sizeof(cfi_cie), .bytes = cfi_cie },
	{ .off = 0x40, .len = sizeof(cfi_fde_a), .bytes = cfi_fde_a },
	{ .off = 0x60, .len = sizeof(cfi_fde_b), .bytes = cfi_fde_b },
};
static struct sym_ar_cfi_row cfi_rows[] = {
	{ .pc = 0x1100, .fde_off = 0x40 },
	{ .pc = 0x1200, .fde_off = 0x60 },
};
static struct sym_ar_cfi lib_cfi = {
	.machine = 62, .type = 3, .eh_frame_addr = 0x2000, .hdr_addr = 0x1f00,
	.loads = cfi_loads, .nr_loads = ARRAY_SIZE(cfi_loads),
	.pieces = cfi_pieces, .nr_pieces = ARRAY_SIZE(cfi_pieces),
	.rows = cfi_rows, .nr_rows = ARRAY_SIZE(cfi_rows),
};

/* Inline frames (format 1.1): NULL names are the symbol's own. */
static struct sym_ar_inline_frame inl_frames[] = {
	{ .name = "inner_fn", .srcline = "foo.c:10" },
	{ .name = NULL, .srcline = "foo.c:3" },
	{ .name = "std::vector<int>::size() const", .srcline = "vector:990" },
	{ .name = "mid_fn", .srcline = "" },
	{ .name = NULL, .srcline = "??:0" },
};
static struct sym_ar_inline inl_addrs[] = {
	{ .addr = 0x1104, .first = 0, .nr = 2 },
	{ .addr = 0x1105, .first = 2, .nr = 3 },
};
static struct sym_ar_inlines lib_inl = {
	.addrs = inl_addrs, .nr_addrs = ARRAY_SIZE(inl_addrs),
	.frames = inl_frames, .nr_frames = ARRAY_SIZE(inl_frames),
};

static bool
str_same(const char *a, const char *b)
{
	return a && b ? !strcmp(a, b) : a == b;
}

static bool
inl_same(const struct sym_ar_inlines *got, const struct sym_ar_inlines *want)
{
	if (!got || !want)
		return got == want;
	if (got->nr_addrs != want->nr_addrs)
		return false;
	for (size_t i = 0; i < want->nr_addrs; i++) {
		const struct sym_ar_inline *g = &got->addrs[i];
		const struct sym_ar_inline *w = &want->addrs[i];

		if (g->addr != w->addr || g->nr != w->nr)
			return false;
		for (uint32_t k = 0; k < w->nr; k++)
			if (!str_same(got->frames[g->first + k].name,
				      want->frames[w->first + k].name) ||
			    !str_same(got->frames[g->first + k].srcline,
				      want->frames[w->first + k].srcline))
				return false;
	}
	return true;
}

static bool
cfi_same(const struct sym_ar_cfi *got, const struct sym_ar_cfi *want)
{
	size_t i;

	if (!got || !want)
		return got == want;
	if (got->machine != want->machine || got->type != want->type ||
	    got->eh_frame_addr != want->eh_frame_addr ||
	    got->hdr_addr != want->hdr_addr ||
	    got->nr_loads != want->nr_loads ||
	    got->nr_pieces != want->nr_pieces ||
	    got->nr_rows != want->nr_rows)
		return false;
	for (i = 0; i < want->nr_loads; i++)
		if (memcmp(&got->loads[i], &want->loads[i],
			   offsetof(struct sym_ar_load, flags)) ||
		    got->loads[i].flags != want->loads[i].flags)
			return false;
	for (i = 0; i < want->nr_pieces; i++)
		if (got->pieces[i].off != want->pieces[i].off ||
		    got->pieces[i].len != want->pieces[i].len ||
		    memcmp(got->pieces[i].bytes, want->pieces[i].bytes,
			   want->pieces[i].len))
			return false;
	for (i = 0; i < want->nr_rows; i++)
		if (got->rows[i].pc != want->rows[i].pc ||
		    got->rows[i].fde_off != want->rows[i].fde_off)
			return false;
	return true;
}

static void
ents_make(void)
{
	struct sym_ar_dso *d;

	d = &ents[E_LIB];
	d->kind = SYM_AR_FILE;
	set_bid(d, 20, 1);
	d->name = "/usr/lib/libfoo.so";
	d->origin = 'B';
	d->demangled = true;
	TABLES(d, syms_lib, covers_lib);
	d->lines = lines_lib;
	d->nr_lines = ARRAY_SIZE(lines_lib);
	d->cfi = &lib_cfi;
	d->inl = &lib_inl;

	d = &ents[E_KERNEL];
	d->kind = SYM_AR_KERNEL;
	set_bid(d, 20, 0x40);
	d->name = "[kernel.kallsyms]";
	d->origin = 'k';
	TABLES(d, syms_kernel, covers_kernel);

	d = &ents[E_MOD];
	d->kind = SYM_AR_MODULE;
	d->name = "[ext4]";
	d->origin = '[';
	TABLES(d, syms_mod, covers_mod);

	d = &ents[E_VDSO];
	d->kind = SYM_AR_VDSO;
	set_bid(d, 20, 0x77);
	d->name = "[vdso]";
	d->origin = 'v';
	TABLES(d, syms_vdso, covers_vdso);

	d = &ents[E_JIT];
	d->kind = SYM_AR_JIT;
	d->name = "/tmp/perf-1234.map";
	d->origin = 'j';
	TABLES(d, syms_jit, covers_jit);

	d = &ents[E_NOBID];
	d->kind = SYM_AR_FILE;
	d->name = "/opt/no build id";
	d->origin = '!';

	d = &ents[E_SHORTBID];
	d->kind = SYM_AR_FILE;
	set_bid(d, 8, 1);	/* E_LIB's first 8 bytes: another key */
	d->name = "/usr/lib/libfoo.so";
	d->origin = 'd';
	TABLES(d, syms_vdso, covers_vdso);

	big_make(&ents[E_BIG]);
}

/* Whether got is want, field by field; T() failures name what. */
static bool
dso_same(const struct sym_ar_dso *got, const struct sym_ar_dso *want)
{
	size_t i;

	if (!got || got->kind != want->kind ||
	    got->build_id_size != want->build_id_size ||
	    memcmp(got->build_id, want->build_id, want->build_id_size) ||
	    strcmp(got->name, want->name) || got->origin != want->origin ||
	    got->demangled != want->demangled ||
	    got->nr_syms != want->nr_syms ||
	    got->nr_covers != want->nr_covers ||
	    got->nr_lines != want->nr_lines || !cfi_same(got->cfi, want->cfi) ||
	    !inl_same(got->inl, want->inl))
		return false;
	for (i = 0; i < want->nr_syms; i++)
		if (got->syms[i].start != want->syms[i].start ||
		    got->syms[i].end != want->syms[i].end ||
		    strcmp(got->syms[i].name, want->syms[i].name) ||
		    got->syms[i].is_object != want->syms[i].is_object)
			return false;
	for (i = 0; i < want->nr_covers; i++)
		if (got->covers[i].lo != want->covers[i].lo ||
		    got->covers[i].hi != want->covers[i].hi ||
		    got->covers[i].sym != want->covers[i].sym)
			return false;
	for (i = 0; i < want->nr_lines; i++)
		if (got->lines[i].addr != want->lines[i].addr ||
		    strcmp(got->lines[i].line, want->lines[i].line))
			return false;
	return true;
}

static const struct sym_ar_dso *
find_like(const struct sym_ar *a, const struct sym_ar_dso *d)
{
	return sym_ar_find(a, d->kind, d->build_id, d->build_id_size, d->name);
}

/* Write the entries named by which (NR_E ends the list); 0 or -errno. */
static int
archive_write(const char *path, const int *which, uint64_t *bytes)
{
	struct sym_ar_writer *w;
	char err[512];
	int ret;

	ret = sym_ar_writer_open(&w, path, err, sizeof(err));
	T(ret == 0, "writer_open: %s", err);
	if (ret)
		return ret;
	for (; *which != NR_E; which++) {
		ret = sym_ar_writer_add(w, &ents[*which], err, sizeof(err));
		T(ret == 0, "writer_add %d: %s", *which, err);
	}
	ret = sym_ar_writer_finish(w, bytes, err, sizeof(err));
	T(ret == 0, "writer_finish: %s", err);
	return ret;
}

static void
test_round_trip(void)
{
	static const int all[] = { E_LIB, E_KERNEL, E_MOD, E_VDSO, E_JIT,
				   E_NOBID, E_SHORTBID, E_BIG, NR_E };
	struct warns w = { .nr = 0 };
	struct sym_ar *a;
	char path[4200], err[512];
	uint64_t bytes = 0;
	size_t i, n;
	unsigned char *file;
	int ret;

	path_in_tmp(path, sizeof(path), "all.pdsym");
	if (archive_write(path, all, &bytes))
		return;
	file = file_get(path, &n);
	T_EQ_U64(bytes, n, "finish reports the file's size");
	T(memcmp(file, "PDSYMARC", 8) == 0, "magic first");
	free(file);
	T_EQ_U64(dir_count(), 1, "no temporary file left behind");

	ret = sym_ar_open(path, &a, warn_cb, &w, err, sizeof(err));
	T(ret == 0, "open: %s", err);
	if (ret)
		return;
	T_EQ_U64(w.nr, 0, "no warnings on a sound archive");
	T_EQ_U64(sym_ar_count(a), NR_E, "entry count");
	for (i = 0; i < NR_E; i++) {
		T(dso_same(sym_ar_entry(a, i), &ents[all[i]]),
		  "entry %zu in file order, unchanged", i);
		T(find_like(a, &ents[i]) &&
		  dso_same(find_like(a, &ents[i]), &ents[i]),
		  "entry %zu found by its key", i);
	}
	T(sym_ar_entry(a, NR_E) == NULL, "no entry past the end");
	T_EQ_STR(find_like(a, &ents[E_LIB])->lines[3].line, "main.c:12",
		 "srcline rebuilt from (file, line)");
	T_EQ_STR(find_like(a, &ents[E_LIB])->lines[5].line, "odd.c:0012",
		 "a non-canonical line number kept whole");

	/* misses */
	T(!sym_ar_find(a, SYM_AR_KERNEL, ents[E_LIB].build_id, 20, NULL),
	  "another kind with the same build-id");
	T(!sym_ar_find(a, SYM_AR_FILE, ents[E_LIB].build_id, 19, NULL),
	  "a build-id one byte short");
	T(!sym_ar_find(a, SYM_AR_FILE, NULL, 0, "/usr/lib/libfoo.so"),
	  "a build-id-keyed entry is not found by name");
	T(!sym_ar_find(a, SYM_AR_JIT, NULL, 0, "/tmp/perf-1235.map"),
	  "an unknown name");
	T(!sym_ar_find(a, SYM_AR_FILE, ents[E_LIB].build_id, 21, NULL),
	  "an oversized build-id");
	T(sym_ar_find(a, SYM_AR_FILE, ents[E_SHORTBID].build_id, 8, "x") ==
	  sym_ar_entry(a, 6), "the name is no part of a build-id key");
	sym_ar_close(a);
	unlink(path);

	path_in_tmp(path, sizeof(path), "empty.pdsym");
	if (archive_write(path, all + NR_E, NULL) == 0 &&
	    sym_ar_open(path, &a, warn_cb, &w, err, sizeof(err)) == 0) {
		T_EQ_U64(sym_ar_count(a), 0, "an empty archive");
		T_EQ_U64(w.nr, 0, "an empty archive is sound");
		sym_ar_close(a);
	}
	unlink(path);
}

/* The writer refuses what a reader would, and keeps going after. */
static void
test_writer_checks(void)
{
	struct sym_ar_cover bad_covers[] = {
		{ 0x10, 0x20, 0 }, { 0x18, 0x30, 0 },
	};
	struct sym_ar_cover far_cover[] = { { 0x10, 0x20, 1 } };
	struct sym_ar_cover empty_cover[] = { { 0x10, 0x10, 0 } };
	struct sym_ar_line bad_lines[] = {
		{ 0x10, "a.c:1" }, { 0x10, "a.c:2" },
	};
	struct sym_ar_dso d;
	struct sym_ar_writer *w;
	struct sym_ar *a;
	char path[4200], err[512], *longname;
	int ret;

	path_in_tmp(path, sizeof(path), "checks.pdsym");
	ret = sym_ar_writer_open(&w, path, err, sizeof(err));
	T(ret == 0, "open: %s", err);
	if (ret)
		return;
	T_EQ_U64(dir_count(), 1, "the temporary file, only");
	T(access(path, F_OK) != 0, "nothing at path before finish");
	T(sym_ar_writer_add(w, &ents[E_MOD], err, sizeof(err)) == 0, "add");

	d = ents[E_JIT];
	d.covers = bad_covers;
	d.nr_covers = 2;
	T(sym_ar_writer_add(w, &d, err, sizeof(err)) == -EINVAL &&
	  strstr(err, "cover 1"), "overlapping covers refused: %s", err);
	d.covers = far_cover;
	d.nr_covers = 1;
	d.nr_syms = 1;
	T(sym_ar_writer_add(w, &d, err, sizeof(err)) == -EINVAL,
	  "a cover past the symbols refused");
	d.covers = empty_cover;
	T(sym_ar_writer_add(w, &d, err, sizeof(err)) == -EINVAL,
	  "an empty cover refused");
	d = ents[E_JIT];
	d.lines = bad_lines;
	d.nr_lines = 2;
	T(sym_ar_writer_add(w, &d, err, sizeof(err)) == -EINVAL,
	  "lines at one address refused");
	d = ents[E_JIT];
	d.build_id_size = 21;
	T(sym_ar_writer_add(w, &d, err, sizeof(err)) == -EINVAL,
	  "a 21-byte build-id refused");
	d = ents[E_JIT];
	d.kind = (enum sym_ar_kind)9;
	T(sym_ar_writer_add(w, &d, err, sizeof(err)) == -EINVAL,
	  "an unknown kind refused");
	d = ents[E_JIT];
	d.name = "";
	T(sym_ar_writer_add(w, &d, err, sizeof(err)) == -EINVAL,
	  "no key at all refused");
	longname = malloc(AR_NAME_MAX + 2);
	memset(longname, 'n', AR_NAME_MAX + 1);
	longname[AR_NAME_MAX + 1] = '\0';
	d.name = longname;
	T(sym_ar_writer_add(w, &d, err, sizeof(err)) == -EINVAL,
	  "a name past the limit refused");
	longname[AR_NAME_MAX] = '\0';
	T(sym_ar_writer_add(w, &d, err, sizeof(err)) == 0,
	  "a name at the limit: %s", err);
	T(sym_ar_writer_add(w, &ents[E_MOD], err, sizeof(err)) == -EEXIST,
	  "a second entry with one key refused");
	d = ents[E_MOD];
	d.name = "[ext5]";
	T(sym_ar_writer_add(w, &d, err, sizeof(err)) == 0, "another name");
	T(sym_ar_writer_add(w, &ents[E_JIT], err, sizeof(err)) == 0, "add");
	T(sym_ar_writer_finish(w, NULL, err, sizeof(err)) == 0, "finish: %s",
	  err);
	T_EQ_U64(dir_count(), 1, "the archive, only");
	if (sym_ar_open(path, &a, NULL, NULL, err, sizeof(err)) == 0) {
		T_EQ_U64(sym_ar_count(a), 4, "the accepted entries");
		T(sym_ar_find(a, SYM_AR_JIT, NULL, 0, longname) != NULL,
		  "the long name");
		T(dso_same(find_like(a, &ents[E_JIT]), &ents[E_JIT]),
		  "the JIT entry");
		sym_ar_close(a);
	} else {
		T(0, "open: %s", err);
	}
	free(longname);
	unlink(path);

	ret = sym_ar_writer_open(&w, path, err, sizeof(err));
	T(ret == 0, "open: %s", err);
	if (!ret) {
		sym_ar_writer_add(w, &ents[E_LIB], err, sizeof(err));
		sym_ar_writer_abort(w);
	}
	T_EQ_U64(dir_count(), 0, "abort removes the temporary file");
	T(sym_ar_writer_open(&w, "/nonexistent-dir/x.pdsym", err,
			     sizeof(err)) == -ENOENT && !w,
	  "a writer in a missing directory: %s", err);
}

static void
test_not_archives(void)
{
	static const int one[] = { E_MOD, NR_E };
	struct sym_ar *a = (struct sym_ar *)&a;
	char path[4200], err[512];
	unsigned char *file;
	size_t n;

	path_in_tmp(path, sizeof(path), "none.pdsym");
	T(sym_ar_open(path, &a, NULL, NULL, err, sizeof(err)) == -ENOENT &&
	  !a && strstr(err, path), "a missing file: %s", err);
	file_put(path, "PDSYMAR", 7);
	T(sym_ar_open(path, &a, NULL, NULL, err, sizeof(err)) == -EINVAL &&
	  strstr(err, "offset 0: not a pdata symbol archive"),
	  "a short file: %s", err);
	file_put(path, "PERFILE2 and so on, quite long enough", 37);
	T(sym_ar_open(path, &a, NULL, NULL, err, sizeof(err)) == -EINVAL &&
	  strstr(err, "offset 0: not a pdata symbol archive"),
	  "a perf.data file: %s", err);
	T(sym_ar_open(tmpdir, &a, NULL, NULL, err, sizeof(err)) < 0,
	  "a directory: %s", err);
	unlink(path);

	if (archive_write(path, one, NULL))
		return;
	file = file_get(path, &n);
	file[8] = 2;
	file[10] = 0;
	file_put(path, file, n);
	T(sym_ar_open(path, &a, NULL, NULL, err, sizeof(err)) == -EINVAL &&
	  strstr(err, "format 2.0"), "a newer major version: %s", err);
	file[8] = 1;
	file[10] = 3;
	file_put(path, file, n);
	T(sym_ar_open(path, &a, NULL, NULL, err, sizeof(err)) == 0 &&
	  sym_ar_count(a) == 1, "a newer minor version is read: %s", err);
	sym_ar_close(a);
	free(file);
	unlink(path);
}

/* The file's layout, read the way doc/symbol-archive.md describes it. */
struct layout {
	size_t nr;
	uint64_t off[8];	/* each entry's offset */
	uint64_t end[8];	/* and its end */
	uint64_t hsize[8];	/* its header's size */
	uint64_t row[8];	/* its index row's offset */
	uint64_t ioff;		/* the index */
	size_t size;		/* the file's */
};

static void
layout_read(const unsigned char *f, size_t n, struct layout *l)
{
	const unsigned char *p;
	uint32_t i;

	l->size = n;
	l->ioff = ar_le64(f + n - 32);
	p = f + l->ioff + 4;
	l->nr = (size_t)(p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24);
	p += 4;
	for (i = 0; i < l->nr && i < 8; i++) {
		l->row[i] = (uint64_t)(p - f);
		l->off[i] = ar_le64(p);
		l->hsize[i] = AR_ENTRY_MIN +
			      ar_le64(f + l->off[i] + 8) % (1ULL << 32);
		p += AR_INDEX_ROW_FIXED + (p[26] | p[27] << 8);
	}
	for (i = 0; i < l->nr && i < 8; i++)
		l->end[i] = i + 1 < l->nr ? l->off[i + 1] : l->ioff;
}

static const int small[] = { E_LIB, E_MOD, E_JIT, NR_E };
#define NR_SMALL 3

/*
 * Open the archive at path and check that exactly the entries not in
 * lost are there, unchanged; returns the number of warnings.
 */
static size_t
check_survivors(const char *path, unsigned int lost, struct warns *w,
		const char *what, size_t at)
{
	struct sym_ar *a;
	char err[512];
	size_t i, left = 0;
	int ret;

	w->nr = 0;
	ret = sym_ar_open(path, &a, warn_cb, w, err, sizeof(err));
	T(ret == 0, "%s %zu: open: %s", what, at, err);
	if (ret)
		return w->nr;
	for (i = 0; i < NR_SMALL; i++) {
		const struct sym_ar_dso *d = find_like(a, &ents[small[i]]);

		if (lost & 1u << i) {
			T(d == NULL, "%s %zu: entry %zu is left out", what,
			  at, i);
		} else {
			T(dso_same(d, &ents[small[i]]),
			  "%s %zu: entry %zu is there, unchanged", what, at, i);
			left++;
		}
	}
	T_EQ_U64(sym_ar_count(a), left, "entries read");
	sym_ar_close(a);
	for (i = 0; i < w->nr && i < ARRAY_SIZE(w->msg); i++)
		T(strncmp(w->msg[i], path, strlen(path)) == 0 &&
		  strstr(w->msg[i], ": offset "),
		  "%s %zu: a warning names the file and offset: %s", what,
		  at, w->msg[i]);
	return w->nr;
}

static void
test_truncated(void)
{
	struct warns w;
	struct layout l;
	struct sym_ar *a;
	char path[4200], cut[4200], err[512];
	unsigned char *file;
	unsigned int lost;
	size_t n, len, i;

	path_in_tmp(path, sizeof(path), "small.pdsym");
	path_in_tmp(cut, sizeof(cut), "cut.pdsym");
	if (archive_write(path, small, NULL))
		return;
	file = file_get(path, &n);
	layout_read(file, n, &l);
	T_EQ_U64(l.nr, NR_SMALL, "index rows");
	for (len = 0; len < n; len++) {
		file_put(cut, file, len);
		if (len < AR_HEADER_SIZE) {
			a = NULL;
			T(sym_ar_open(cut, &a, warn_cb, &w, err, sizeof(err)) ==
			  -EINVAL && !a, "cut at %zu: not an archive", len);
			continue;
		}
		lost = 0;
		for (i = 0; i < NR_SMALL; i++)
			if (l.end[i] > len)
				lost |= 1u << i;
		check_survivors(cut, lost, &w, "cut at", len);
		T(w.nr >= 1 && warns_have(&w, "index damaged"),
		  "cut at %zu: the index is missed", len);
		if (lost && len > l.off[__builtin_ctz(lost)]) {
			unsigned long long first = l.off[__builtin_ctz(lost)];
			char at[64];

			snprintf(at, sizeof(at), "offset %#llx: ", first);
			T(warns_have(&w, at), "cut at %zu: the cut entry's "
			  "offset is named", len);
		}
	}
	free(file);
	unlink(cut);
	unlink(path);
}

static void
test_flipped(void)
{
	struct warns w;
	struct layout l;
	struct sym_ar *a;
	char path[4200], bad[4200], err[512], at[64];
	unsigned char *file;
	size_t n, p, i, k;

	path_in_tmp(path, sizeof(path), "small.pdsym");
	path_in_tmp(bad, sizeof(bad), "flip.pdsym");
	if (archive_write(path, small, NULL))
		return;
	file = file_get(path, &n);
	layout_read(file, n, &l);
	for (p = 0; p < n; p++) {
		file[p] ^= 0xff;
		file_put(bad, file, n);
		file[p] ^= 0xff;
		if (p < 10) {
			a = NULL;
			T(sym_ar_open(bad, &a, warn_cb, &w, err, sizeof(err)) ==
			  -EINVAL && !a, "flip at %zu: refused", p);
			continue;
		}
		if (p < AR_HEADER_SIZE) {
			T_EQ_U64(check_survivors(bad, 0, &w, "flip at", p), 0,
				 "header flags and minor version: no warning");
			continue;
		}
		for (k = 0; k < NR_SMALL; k++)
			if (p >= l.off[k] && p < l.end[k])
				break;
		if (k == NR_SMALL) {
			check_survivors(bad, 0, &w, "flip at", p);
			T(w.nr == 1 && warns_have(&w, "index damaged"),
			  "flip at %zu: index or trailer damage noticed", p);
			continue;
		}
		check_survivors(bad, 1u << k, &w, "flip at", p);
		snprintf(at, sizeof(at), "offset %#llx: ",
			 (unsigned long long)l.off[k]);
		T(w.nr >= 1 && warns_have(&w, at),
		  "flip at %zu: the entry's offset is named", p);
		if (p >= l.off[k] + l.hsize[k])
			T(warns_have(&w, ents[small[k]].name) &&
			  warns_have(&w, "payload checksum mismatch"),
			  "flip at %zu: the payload's damage names the DSO", p);
		for (i = 0; i < w.nr && i < ARRAY_SIZE(w.msg); i++)
			T(!strstr(w.msg[i], "index damaged"),
			  "flip at %zu: the index is still used", p);
	}
	free(file);
	unlink(bad);
	unlink(path);
}

/* Fix the checksums after a deliberate change, so deeper checks are hit. */
static void
resign_entry(unsigned char *f, uint64_t off)
{
	uint64_t name_len = ar_le64(f + off + 8) % (1ULL << 32);
	uint64_t h = XXH64(f + off, AR_ENTRY_FIXED + name_len, 0);
	int i;

	for (i = 0; i < 8; i++)
		f[off + AR_ENTRY_FIXED + name_len + i] =
			(unsigned char)(h >> 8 * i);
}

static void
put_le64(unsigned char *p, uint64_t v)
{
	int i;

	for (i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> 8 * i);
}

static void
resign_index(unsigned char *f, size_t n)
{
	uint64_t ioff = ar_le64(f + n - 32), isize = ar_le64(f + n - 24);

	put_le64(f + n - 16, XXH64(f + ioff, isize, 0));
}

/*
 * Replace entry k's payload by a zstd frame of raw, no longer than the
 * old one; the bytes after it up to the next entry become a gap that a
 * reader going by the index never looks at.
 */
static bool
repayload(unsigned char *f, const struct layout *l, size_t k,
	  const void *raw, size_t len)
{
	uint64_t zsize = l->end[k] - l->off[k] - l->hsize[k];
	unsigned char z[4096];
	size_t got;

	got = ZSTD_compress(z, sizeof(z), raw, len, 1);
	if (ZSTD_isError(got) || got > zsize)
		return false;
	memcpy(f + l->off[k] + l->hsize[k], z, got);
	put_le64(f + l->off[k] + 16, got);
	put_le64(f + l->off[k] + 24, len);
	put_le64(f + l->off[k] + 32, XXH64(z, got, 0));
	put_le64(f + l->row[k] + 8, got);
	put_le64(f + l->row[k] + 16, len);
	resign_entry(f, l->off[k]);
	resign_index(f, l->size);
	return true;
}

static void
test_resigned(void)
{
	struct warns w;
	struct layout l;
	struct sym_ar *a;
	char path[4200], bad[4200], err[512];
	unsigned char *file, *f, raw[64];
	size_t n;

	path_in_tmp(path, sizeof(path), "small.pdsym");
	path_in_tmp(bad, sizeof(bad), "resigned.pdsym");
	if (archive_write(path, small, NULL))
		return;
	file = file_get(path, &n);
	layout_read(file, n, &l);
	f = malloc(n);

	/* sizes past the limits, with a sound header checksum */
	memcpy(f, file, n);
	put_le64(f + l.off[1] + 24, AR_RAW_MAX + 1);
	resign_entry(f, l.off[1]);
	file_put(bad, f, n);
	check_survivors(bad, 2, &w, "raw size", 0);
	T(warns_have(&w, "more than"), "raw size over the limit");

	memcpy(f, file, n);
	put_le64(f + l.off[1] + 16, 1ULL << 40);
	resign_entry(f, l.off[1]);
	file_put(bad, f, n);
	check_survivors(bad, 2, &w, "payload size", 0);
	T(warns_have(&w, "runs into the index") &&
	  warns_have(&w, ents[E_MOD].name), "payload past the entries");

	memcpy(f, file, n);
	f[l.off[1] + 5] = 21;
	resign_entry(f, l.off[1]);
	file_put(bad, f, n);
	check_survivors(bad, 2, &w, "build-id size", 0);

	memcpy(f, file, n);
	f[l.off[1] + AR_ENTRY_FIXED + 1] = '\0';
	resign_entry(f, l.off[1]);
	file_put(bad, f, n);
	check_survivors(bad, 2, &w, "NUL in name", 0);
	T(warns_have(&w, "NUL"), "a NUL in the name");

	/* an unknown kind from a newer writer is passed over in silence */
	memcpy(f, file, n);
	f[l.off[1] + 4] = 42;
	f[l.row[1] + 24] = 42;
	resign_entry(f, l.off[1]);
	resign_index(f, n);
	file_put(bad, f, n);
	T_EQ_U64(check_survivors(bad, 2, &w, "unknown kind", 0), 0,
		 "an unknown kind: no warning");

	/* payloads that decompress but do not decode */
	memcpy(f, file, n);
	memset(raw, 0x80, sizeof(raw));
	T(repayload(f, &l, 0, raw, sizeof(raw)), "re-payload");
	file_put(bad, f, n);
	check_survivors(bad, 1, &w, "bad varints", 0);
	T(warns_have(&w, "/usr/lib/libfoo.so") &&
	  warns_have(&w, "payload offset"),
	  "a payload that does not decode names the DSO and where");

	memcpy(f, file, n);
	raw[0] = 1;
	raw[1] = 0;
	raw[2] = 2;
	raw[3] = 0;
	raw[4] = 0;
	raw[5] = 0;
	raw[6] = 0;
	raw[7] = 0;
	raw[8] = 2;	/* the second symbol: string 0 again */
	raw[9] = 0;
	raw[10] = 0;
	raw[11] = 0;	/* no call frame information (format 1.1) */
	raw[12] = 0;	/* no inline frames */
	raw[13] = 0x7f;
	T(repayload(f, &l, 0, raw, 14), "re-payload");
	file_put(bad, f, n);
	check_survivors(bad, 1, &w, "trailing bytes", 0);
	T(warns_have(&w, "after the last table"), "bytes after the tables");
	raw[11] = 0x7f;	/* a form of call frame information unknown to 1.1 */
	T(repayload(f, &l, 0, raw, 12), "re-payload");
	file_put(bad, f, n);
	w.nr = 0;
	check_survivors(bad, 1, &w, "unknown CFI form", 0);
	T(warns_have(&w, "call frame information: unknown form"),
	  "an unknown form of call frame information");
	f[10] = AR_MINOR + 1;
	file_put(bad, f, n);
	w.nr = 0;
	if (sym_ar_open(bad, &a, warn_cb, &w, err, sizeof(err)) == 0) {
		const struct sym_ar_dso *d = find_like(a, &ents[E_LIB]);

		/* one empty string naming two symbols, then a spare byte */
		T(w.nr == 0 && d && d->nr_syms == 2 && d->nr_covers == 0 &&
		  d->nr_lines == 0 && strcmp(d->syms[1].name, "") == 0,
		  "a newer minor version: bytes after the tables ignored");
		sym_ar_close(a);
	} else {
		T(0, "open: %s", err);
	}

	memcpy(f, file, n);
	T(repayload(f, &l, 0, raw, 0), "re-payload");
	file_put(bad, f, n);
	check_survivors(bad, 1, &w, "empty payload", 0);

	/* an index row that points outside the entries, re-signed */
	memcpy(f, file, n);
	put_le64(f + l.ioff + 8, n);
	resign_index(f, n);
	file_put(bad, f, n);
	check_survivors(bad, 1, &w, "row outside", 0);
	T(warns_have(&w, "outside the entries"), "a row outside");

	/* an index row that does not match its entry */
	memcpy(f, file, n);
	put_le64(f + l.ioff + 8, l.off[1]);
	resign_index(f, n);
	file_put(bad, f, n);
	check_survivors(bad, 1, &w, "row mismatch", 0);
	T(warns_have(&w, "does not match"), "a row that does not match");

	free(f);
	free(file);
	unlink(bad);
	unlink(path);
}

/* Two entries with one key (re-signed by hand): the first is kept. */
static void
test_duplicate(void)
{
	struct sym_ar_dso twin = ents[E_MOD];
	struct sym_ar_writer *w;
	struct sym_ar *a;
	struct warns wr = { .nr = 0 };
	struct layout l;
	char path[4200], err[512];
	unsigned char *f;
	size_t n;

	path_in_tmp(path, sizeof(path), "twins.pdsym");
	twin.name = "[ext5]";
	twin.nr_covers = 0;
	if (sym_ar_writer_open(&w, path, err, sizeof(err)))
		return;
	sym_ar_writer_add(w, &ents[E_MOD], err, sizeof(err));
	sym_ar_writer_add(w, &twin, err, sizeof(err));
	T(sym_ar_writer_finish(w, NULL, err, sizeof(err)) == 0, "finish");
	f = file_get(path, &n);
	layout_read(f, n, &l);
	f[l.off[1] + AR_ENTRY_FIXED + 4] = '4';
	f[l.row[1] + AR_INDEX_ROW_FIXED + 4] = '4';
	resign_entry(f, l.off[1]);
	resign_index(f, n);
	file_put(path, f, n);
	if (sym_ar_open(path, &a, warn_cb, &wr, err, sizeof(err)) == 0) {
		T(sym_ar_count(a) == 1 && wr.nr == 1 &&
		  warns_have(&wr, "same key") &&
		  dso_same(find_like(a, &ents[E_MOD]), &ents[E_MOD]),
		  "the first of two entries with one key");
		sym_ar_close(a);
	} else {
		T(0, "open: %s", err);
	}
	free(f);
	unlink(path);
}

/* The decoder alone: cut, flipped and random payloads. */
static void
decode_must_be_sane(const unsigned char *p, size_t len, bool lenient,
		    const char *what, size_t at)
{
	struct sym_ar_dso d;
	uint64_t budget = AR_MEM_TOTAL_MAX;
	char why[256];
	void *mem = NULL;
	size_t i;
	int ret;

	memset(&d, 0, sizeof(d));
	ret = sym_ar_payload_decode(p, len, lenient, &budget, &d, &mem,
				    why, sizeof(why));
	if (ret) {
		T(ret == -EINVAL && !mem && !d.nr_syms && !d.nr_covers &&
		  !d.nr_lines && !d.cfi && !d.inl && why[0],
		  "%s %zu: a clean error", what, at);
		return;
	}
	for (i = 0; d.inl && i < d.inl->nr_addrs; i++)
		T(d.inl->addrs[i].nr &&
		  d.inl->addrs[i].first + d.inl->addrs[i].nr <=
		  d.inl->nr_frames && (!i || d.inl->addrs[i].addr >
				       d.inl->addrs[i - 1].addr),
		  "%s %zu: inline rows sound", what, at);
	free(d.cfi);
	free(d.inl);
	for (i = 0; i < d.nr_covers; i++)
		T(d.covers[i].lo < d.covers[i].hi &&
		  d.covers[i].sym < d.nr_syms &&
		  (!i || d.covers[i].lo >= d.covers[i - 1].hi),
		  "%s %zu: covers sound", what, at);
	for (i = 0; i < d.nr_lines; i++)
		T(d.lines[i].line &&
		  (!i || d.lines[i].addr > d.lines[i - 1].addr),
		  "%s %zu: lines sound", what, at);
	for (i = 0; i < d.nr_syms; i++)
		T(d.syms[i].name != NULL, "%s %zu: names", what, at);
	free(mem);
}

/* Every cut and every bit flipped of d's payload. */
static void
codec_damage(const struct sym_ar_dso *ent)
{
	struct ar_buf b = { 0 }, plain = { 0 }, cfi_only = { 0 };
	struct sym_ar_dso d, no_cfi = *ent, no_inl = *ent;
	uint64_t budget = AR_MEM_TOTAL_MAX;
	char why[256];
	void *mem;
	size_t len, p;
	unsigned char *buf;
	int bit, ret;

	T(sym_ar_payload_encode(ent, &b, why, sizeof(why)) == 0,
	  "encode: %s", why);
	/* cut where the call frame information starts: a whole 1.0 payload */
	no_cfi.cfi = NULL;
	no_cfi.inl = NULL;
	T(sym_ar_payload_encode(&no_cfi, &plain, why, sizeof(why)) == 0,
	  "encode: %s", why);
	/* and where the inline frames start: no inline frames */
	no_inl.inl = NULL;
	T(sym_ar_payload_encode(&no_inl, &cfi_only, why, sizeof(why)) == 0,
	  "encode: %s", why);
	buf = malloc(b.len + 1);
	for (len = 0; len < b.len; len++) {
		memcpy(buf, b.p, len);
		memset(&d, 0, sizeof(d));
		ret = sym_ar_payload_decode(buf, len, false, &budget, &d, &mem,
					    why, sizeof(why));
		if ((ent->cfi || ent->inl) && len == plain.len) {
			T(ret == 0 && !d.cfi, "payload cut before its CFI");
			if (!ret)
				free(mem);
		} else if (ent->cfi && ent->inl && len == cfi_only.len) {
			T(ret == 0 && d.cfi && !d.inl,
			  "payload cut before its inline frames");
			free(d.cfi);
			if (!ret)
				free(mem);
		} else {
			T(ret == -EINVAL, "payload cut at %zu is refused", len);
		}
		decode_must_be_sane(buf, len, true, "lenient cut at", len);
	}
	for (p = 0; p < b.len; p++) {
		for (bit = 0; bit < 8; bit++) {
			memcpy(buf, b.p, b.len);
			buf[p] ^= (unsigned char)(1 << bit);
			decode_must_be_sane(buf, b.len, false, "flip at", p);
		}
	}
	free(buf);
	ar_buf_free(&b);
	ar_buf_free(&plain);
	ar_buf_free(&cfi_only);
}

static void
test_codec(void)
{
	unsigned char *buf;
	size_t len, p;
	int i;

	codec_damage(&ents[E_LIB]);
	codec_damage(&ents[E_JIT]);
	codec_damage(&ents[E_KERNEL]);

	{
		/* one string, "a", NUL, "b"; then three empty tables */
		static const unsigned char nul[] = {
			1, 3, 'a', 0, 'b', 0, 0, 0,
		};
		unsigned char nul_ok[sizeof(nul)];

		struct sym_ar_dso d;
		uint64_t budget = AR_MEM_TOTAL_MAX;
		char why[256];
		void *mem;
		int ret;

		memcpy(nul_ok, nul, sizeof(nul));
		memset(&d, 0, sizeof(d));
		ret = sym_ar_payload_decode(nul, sizeof(nul), false, &budget,
					    &d, &mem, why, sizeof(why));
		T(ret == -EINVAL && strstr(why, "NUL"),
		  "a NUL byte inside a string");
		if (!ret)
			free(mem);
		ret = sym_ar_payload_decode(nul, 2, true, &budget, &d, &mem,
					    why, sizeof(why));
		T(ret == -EINVAL, "a string past the end");
		if (!ret)
			free(mem);
		budget = 3;
		ret = sym_ar_payload_decode(nul, 2 + 3, true, &budget, &d,
					    &mem, why, sizeof(why));
		T(ret == -EINVAL, "a NUL byte, leniently");
		nul_ok[3] = 'a';	/* "aab": 4 bytes of text, no tables */
		ret = sym_ar_payload_decode(nul_ok, sizeof(nul_ok), false,
					    &budget, &d, &mem, why,
					    sizeof(why));
		T(ret == -EFBIG && !mem && budget == 3,
		  "tables past the budget: %s", why);
		budget = 4;
		ret = sym_ar_payload_decode(nul_ok, sizeof(nul_ok), false,
					    &budget, &d, &mem, why,
					    sizeof(why));
		T(ret == 0 && budget == 0 && !strcmp(mem, "aab"),
		  "tables within the budget take from it");
		if (!ret)
			free(mem);
	}
	srand(11);
	buf = malloc(512);
	for (i = 0; i < 4000; i++) {
		len = (size_t)rand() % 512;
		for (p = 0; p < len; p++)
			buf[p] = (unsigned char)(rand() % 7 ? rand() % 4 :
						 rand());
		decode_must_be_sane(buf, len, i & 1, "random", (size_t)i);
	}
	free(buf);

	/* varints: ten bytes at most, the tenth holding bit 63 only */
	{
		static const unsigned char max[] = { 0xff, 0xff, 0xff, 0xff,
			0xff, 0xff, 0xff, 0xff, 0xff, 0x01 };
		static const unsigned char over[] = { 0xff, 0xff, 0xff, 0xff,
			0xff, 0xff, 0xff, 0xff, 0xff, 0x02 };
		struct ar_rd r;

		ar_rd_init(&r, max, sizeof(max));
		T(ar_rd_uv(&r) == UINT64_MAX && !r.bad, "the largest varint");
		ar_rd_init(&r, over, sizeof(over));
		ar_rd_uv(&r);
		T(r.bad, "a varint past 64 bits");
	}
}

int
main(void)
{
	tmpdir_make();
	ents_make();
	test_round_trip();
	test_writer_checks();
	test_not_archives();
	test_truncated();
	test_flipped();
	test_resigned();
	test_duplicate();
	test_codec();
	tmpdir_remove();
	return t_done("test-archive");
}
