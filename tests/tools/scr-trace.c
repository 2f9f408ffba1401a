/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * scr-trace FILE: the `trace` field of every tracepoint sample of FILE,
 * one line each in file order, as script/trace.c formats it; what
 * `perf script -F trace` prints (in time order) for tests/script-trace.test.
 *
 * scr-trace -T FILE parses every prefix of FILE's tracing data (file
 * mode) and the whole blob with each of its bytes changed in turn, at a
 * stride, so that a bounds error shows under the sanitizers: it prints
 * how many of them parsed.
 *
 * With -k KALLSYMS, %pS-like arguments of a file (not of a pipe, as in
 * perf 6.1) are resolved through that file's symbols (the kernel's own,
 * not its modules).  A pipe's tracing data is read from its record,
 * which the reader keeps only when the input is a regular file.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/strbuf.h"
#include "pdata/reader.h"
#include "pdata/sample.h"
#include "script/trace.h"

struct ksym {
	uint64_t addr;
	char *name;
};

struct ksyms {
	struct ksym *v;
	size_t nr, cap;
};

static int
ksym_cmp(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int
ksyms_load(struct ksyms *k, const char *path)
{
	char line[512], name[256], type;
	unsigned long long addr;
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3 ||
		    strchr(line, '['))
			continue;
		if (k->nr == k->cap) {
			size_t cap = k->cap ? 2 * k->cap : 4096;
			struct ksym *v = realloc(k->v, cap * sizeof(*v));

			if (!v)
				break;
			k->v = v;
			k->cap = cap;
		}
		k->v[k->nr].addr = addr;
		k->v[k->nr].name = strdup(name);
		if (!k->v[k->nr].name)
			break;
		k->nr++;
	}
	fclose(f);
	qsort(k->v, k->nr, sizeof(*k->v), ksym_cmp);
	return 0;
}

static const char *
ksyms_resolve(void *ctx, uint64_t *addr, const char **mod)
{
	struct ksyms *k = ctx;
	size_t lo = 0, hi = k->nr;

	*mod = NULL;
	if (!k->nr || *addr < k->v[0].addr)
		return NULL;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (k->v[mid].addr <= *addr)
			lo = mid;
		else
			hi = mid;
	}
	*addr = k->v[lo].addr;
	return k->v[lo].name;
}

/* Every prefix of the blob, then each byte changed, at a stride. */
static int
torture(const char *path)
{
	const struct pd_meta *m;
	struct pd_reader *r = NULL;
	struct scr_trace *t;
	unsigned char *blob = NULL;
	size_t len, i, step, ok = 0, tried = 0;
	int fd = -1, ret = 1;

	if (pd_reader_open(&r, path, NULL)) {
		fprintf(stderr, "scr-trace: %s: %s\n", path, pd_reader_errmsg(r));
		goto out;
	}
	m = pd_reader_meta(r);
	len = (size_t)m->tracing_data_size;
	if (!m->tracing_data_offset || !len || len > (64U << 20)) {
		fprintf(stderr, "scr-trace: %s: no tracing data section\n", path);
		goto out;
	}
	blob = malloc(len);
	fd = open(path, O_RDONLY);
	if (!blob || fd < 0 ||
	    pread(fd, blob, len, (off_t)m->tracing_data_offset) != (ssize_t)len) {
		fprintf(stderr, "scr-trace: %s: cannot read the tracing data\n", path);
		goto out;
	}
	step = len / 3000 + 1;
	for (i = 0; i < len; i += i < 512 ? 1 : step) {
		tried++;
		if (!scr_trace_parse(blob, i, &t)) {
			ok++;
			scr_trace_free(t);
		}
	}
	for (i = 0; i < len; i += i < 512 ? 1 : step) {
		static const unsigned char masks[] = { 0xa5, 0x01, 0x10 };
		unsigned char was = blob[i];
		size_t k;

		for (k = 0; k < sizeof(masks); k++) {
			blob[i] = (unsigned char)(was ^ masks[k]);
			tried++;
			if (!scr_trace_parse(blob, len, &t)) {
				ok++;
				scr_trace_free(t);
			}
		}
		blob[i] = was;
	}
	printf("%zu of %zu damaged blobs parsed\n", ok, tried);
	ret = 0;
out:
	if (fd >= 0)
		close(fd);
	free(blob);
	pd_reader_close(r);
	return ret;
}

int
main(int argc, char **argv)
{
	struct strbuf sb = STRBUF_INIT;
	struct ksyms ks = { NULL, 0, 0 };
	struct pd_reader *r = NULL;
	struct scr_trace *t = NULL;
	struct pd_record rec;
	const char *path;
	int err, ret = 1;
	size_t i;

	if (argc == 3 && !strcmp(argv[1], "-T"))
		return torture(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "-k")) {
		if (ksyms_load(&ks, argv[2])) {
			fprintf(stderr, "scr-trace: %s: %s\n", argv[2], strerror(errno));
			return 1;
		}
		path = argv[3];
	} else if (argc == 2) {
		path = argv[1];
	} else {
		fprintf(stderr, "usage: scr-trace [-k KALLSYMS] FILE | -T FILE\n");
		return 2;
	}
	err = pd_reader_open(&r, path, NULL);
	if (err) {
		fprintf(stderr, "scr-trace: %s: %s\n", path, pd_reader_errmsg(r));
		goto out;
	}
	while ((err = pd_reader_next(r, &rec)) > 0) {
		const struct pd_evsel *ev;
		struct pd_sample s;

		if (rec.header.type == PD_RECORD_HEADER_TRACING_DATA && !t &&
		    rec.payload) {
			err = scr_trace_parse(rec.payload, (size_t)rec.payload_size, &t);
			/* perf 6.1 resolves no symbol in pipe mode */
			if (err)
				break;
		}
		if (rec.header.type != PD_RECORD_SAMPLE || rec.evsel < 0)
			continue;
		ev = pd_reader_evsel(r, (size_t)rec.evsel);
		if (ev->attr.type != PD_TYPE_TRACEPOINT)
			continue;
		if (!t) {
			err = scr_trace_open(r, &t);
			if (err || !t) {
				fprintf(stderr, "scr-trace: %s: no tracing data (%s)\n",
					path, pd_strerror(err));
				goto out;
			}
			if (ks.nr)
				scr_trace_set_resolver(t, ksyms_resolve, &ks);
		}
		err = pd_sample_decode(&ev->attr, &rec, &s);
		if (err)
			break;
		sb_reset(&sb);
		err = scr_trace_format(t, &ev->attr, &s, &sb);
		if (err)
			break;
		printf("%s\n", sb_str(&sb));
	}
	if (err < 0)
		fprintf(stderr, "scr-trace: %s: %s\n", path, pd_strerror(err));
	else
		ret = 0;
out:
	scr_trace_free(t);
	pd_reader_close(r);
	sb_free(&sb);
	for (i = 0; i < ks.nr; i++)
		free(ks.v[i].name);
	free(ks.v);
	return ret;
}
