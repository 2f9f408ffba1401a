/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * scr-trace FILE: the `trace` field of every tracepoint sample of FILE,
 * one line each in file order, as session/trace.c formats it; what
 * `perf script -F trace` prints (in time order) for tests/script-trace.test.
 *
 * scr-trace -T FILE parses every prefix of FILE's tracing data (file
 * mode) and the whole blob with each of its bytes changed in turn, at a
 * stride, so that a bounds error shows under the sanitizers: it prints
 * how many of them parsed.
 *
 * With -k KALLSYMS, %pS-like arguments of a file (not of a pipe, as in
 * perf 6.1) are resolved through that file's symbols (the kernel's own,
 * not its modules).  A pipe's tracing data is read from its record's
 * payload, or from the reader's copy on a real pipe ("-").
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
#include "session/trace.h"

static void
msg(const char *path, const char *what)
{
	fprintf(stderr, "scr-trace: %s: %s\n", path, what);
}

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

#define TORTURE_SAMPLES 16

/* Some tracepoint samples of the file, their raw data copied. */
struct kept {
	struct pd_attr attr;
	struct pd_sample s[TORTURE_SAMPLES];
	unsigned char *raw[TORTURE_SAMPLES];
	size_t nr;
};

static void
keep_samples(struct pd_reader *r, struct kept *k)
{
	struct pd_record rec;

	while (k->nr < TORTURE_SAMPLES && pd_reader_next(r, &rec) > 0) {
		const struct pd_evsel *ev;
		struct pd_sample *s = &k->s[k->nr];

		if (rec.header.type != PD_RECORD_SAMPLE || rec.evsel < 0)
			continue;
		ev = pd_reader_evsel(r, (size_t)rec.evsel);
		if (ev->attr.type != PD_TYPE_TRACEPOINT ||
		    pd_sample_decode(&ev->attr, &rec, s) || !s->raw.len)
			continue;
		k->raw[k->nr] = malloc(s->raw.len);
		if (!k->raw[k->nr])
			break;
		memcpy(k->raw[k->nr], s->raw.p, s->raw.len);
		s->raw.p = k->raw[k->nr];
		k->attr = ev->attr;
		k->nr++;
	}
}

/* A damaged blob that parsed formats the kept samples, then goes. */
static void
format_kept(struct ses_trace *t, const struct kept *k)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	for (i = 0; i < k->nr; i++) {
		sb_reset(&sb);
		ses_trace_format(t, &k->attr, &k->s[i], &sb);
	}
	sb_free(&sb);
	ses_trace_free(t);
}

/*
 * Every prefix of the blob, then each byte changed, at a stride; the
 * blobs that parse format some of the file's samples.
 */
static int
torture(const char *path)
{
	struct kept k;
	const struct pd_meta *m;
	struct pd_reader *r = NULL;
	struct ses_trace *t;
	unsigned char *blob = NULL;
	size_t len, i, step, ok = 0, tried = 0;
	int fd = -1, ret = 1;

	memset(&k, 0, sizeof(k));
	if (pd_reader_open(&r, path, NULL)) {
		msg(path, pd_reader_errmsg(r));
		goto out;
	}
	m = pd_reader_meta(r);
	len = (size_t)m->tracing_data_size;
	if (!m->tracing_data_offset || !len || len > (64U << 20)) {
		msg(path, "no tracing data section");
		goto out;
	}
	blob = malloc(len);
	fd = open(path, O_RDONLY);
	if (!blob || fd < 0 ||
	    pread(fd, blob, len, (off_t)m->tracing_data_offset) !=
	    (ssize_t)len) {
		msg(path, "cannot read the tracing data");
		goto out;
	}
	keep_samples(r, &k);
	step = len / 3000 + 1;
	for (i = 0; i < len; i += i < 512 ? 1 : step) {
		tried++;
		if (!ses_trace_parse(blob, i, &t)) {
			ok++;
			format_kept(t, &k);
		}
	}
	for (i = 0; i < len; i += i < 512 ? 1 : step) {
		static const unsigned char masks[] = { 0xa5, 0x01, 0x10 };
		unsigned char was = blob[i];
		size_t b;

		for (b = 0; b < sizeof(masks); b++) {
			blob[i] = (unsigned char)(was ^ masks[b]);
			tried++;
			if (!ses_trace_parse(blob, len, &t)) {
				ok++;
				format_kept(t, &k);
			}
		}
		blob[i] = was;
	}
	printf("%zu of %zu damaged blobs parsed\n", ok, tried);
	ret = 0;
out:
	for (i = 0; i < k.nr; i++)
		free(k.raw[i]);
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
	struct ses_trace *t = NULL;
	struct pd_record rec;
	const char *path;
	int err, ret = 1;
	size_t i;

	if (argc == 3 && !strcmp(argv[1], "-T"))
		return torture(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "-k")) {
		if (ksyms_load(&ks, argv[2])) {
			msg(argv[2], strerror(errno));
			return 1;
		}
		path = argv[3];
	} else if (argc == 2) {
		path = argv[1];
	} else {
		fputs("usage: scr-trace [-k KALLSYMS] FILE | -T FILE\n",
		      stderr);
		return 2;
	}
	err = pd_reader_open(&r, path, NULL);
	if (err) {
		msg(path, pd_reader_errmsg(r));
		goto out;
	}
	while ((err = pd_reader_next(r, &rec)) > 0) {
		const struct pd_evsel *ev;
		struct pd_sample s;

		/* a pipe's, from its record (perf 6.1 resolves no symbol) */
		if (rec.header.type == PD_RECORD_HEADER_TRACING_DATA && !t &&
		    rec.payload) {
			err = ses_trace_parse(rec.payload,
					      (size_t)rec.payload_size, &t);
			if (err)
				break;
		}
		if (rec.header.type != PD_RECORD_SAMPLE || rec.evsel < 0)
			continue;
		ev = pd_reader_evsel(r, (size_t)rec.evsel);
		if (ev->attr.type != PD_TYPE_TRACEPOINT)
			continue;
		if (!t) {
			err = ses_trace_open(r, &t);
			if (err || !t) {
				msg(path, err ? pd_strerror(err) :
				    "no tracing data");
				goto out;
			}
			if (ks.nr && pd_reader_info(r)->mode != PD_MODE_PIPE)
				ses_trace_set_resolver(t, ksyms_resolve, &ks);
		}
		err = pd_sample_decode(&ev->attr, &rec, &s);
		if (err)
			break;
		sb_reset(&sb);
		err = ses_trace_format(t, &ev->attr, &s, &sb);
		if (err)
			break;
		printf("%s\n", sb_str(&sb));
	}
	if (err < 0)
		fprintf(stderr, "scr-trace: %s: %s\n", path, pd_strerror(err));
	else
		ret = 0;
out:
	ses_trace_free(t);
	pd_reader_close(r);
	sb_free(&sb);
	for (i = 0; i < ks.nr; i++)
		free(ks.v[i].name);
	free(ks.v);
	return ret;
}
