/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * tests/tools/pd-writetest.c - drive the writer end to end.
 *
 * Usage:
 *   pd-writetest [--pipe] [--unfinished] IN OUT
 *	Copy IN: read it with pd_reader, write its events, its records and
 *	its metadata with pd_writer (file mode, or pipe mode with --pipe;
 *	OUT "-" is standard output).  The features are re-encoded from the
 *	parsed pd_meta by pd_feature_encode(), so real perf reading the copy
 *	checks the writer and the encoders.  Records are copied as they are,
 *	COMPRESSED ones included; TRACING_DATA is copied as its raw blob.
 *	--unfinished closes the writer without pd_writer_finish(), as a
 *	recorder that was killed leaves its file (data size 0, no features).
 *   pd-writetest --lbr DEPTH IN OUT
 *	Copy a --call-graph fp recording IN as if it had been recorded with
 *	--call-graph lbr on a CPU whose LBR holds DEPTH calls: each event
 *	with a callchain samples a branch stack too (branch_sample_type
 *	USER|CALL_STACK|HW_INDEX|NO_FLAGS|NO_CYCLES), and each sample gets
 *	the calls its user chain implies, newest first: the call into the
 *	sampled function (from the caller's return address less one, to
 *	the sampled ip), then each older one, at most DEPTH (a sample
 *	without a caller gets one call from and to its ip), with the
 *	hardware index of a ring of DEPTH slots where call n of a thread's
 *	stack sits in slot n % DEPTH; CPU_PMU_CAPS says branches=DEPTH.
 *	The samples must have no READ, RAW or field after the callchain.
 *   pd-writetest --branches DEPTH [--no-chain] IN OUT
 *	Copy a -g recording IN as if it had been recorded with -b too
 *	(branch_sample_type ANY, HEADER_BRANCH_STACK): each sample gets DEPTH
 *	branches, newest first, made from its chain: a loop in the sampled
 *	function (one or two branches, repeated), then calls and returns
 *	between the chain's frames, with cycles, prediction, abort and
 *	branch kinds (conditional forward and backward, jumps, indirect,
 *	calls, returns, faults, unknown) that vary with the sample.
 *	--no-chain drops the callchains (a -b recording without -g).  The
 *	samples must have no READ, RAW or field after the callchain.
 *   pd-writetest --features [--exact] IN
 *	For every feature section of the file IN: parse it, encode the
 *	values again, and with --exact require the very bytes of the file
 *	(for files written by perf 6.1); without it require that parsing
 *	the encoding and encoding once more gives the same bytes, that is,
 *	the same values (for files of other perf versions, which lay some
 *	sections out differently).  Prints one line per feature.
 *
 * Exit status: 0 done, 1 a mismatch or an error (said on stderr).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pdata/reader.h"
#include "pdata/writer.h"

static const char *prog = "pd-writetest";

static void __attribute__((format(printf, 1, 2), noreturn))
die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void *
xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		die("out of memory");
	return p;
}

static struct pd_reader *
open_input(const char *path)
{
	struct pd_reader *r = NULL;
	int err = pd_reader_open(&r, path, NULL);

	if (err)
		die("%s: %s", path, r ? pd_reader_errmsg(r) : pd_strerror(err));
	if (pd_reader_info(r)->swap)
		die("%s: the other byte order is not copied (the writer writes host order)",
		    path);
	if (pd_reader_info(r)->mode == PD_MODE_DIR)
		die("%s: directories are not copied", path);
	return r;
}

/* Bytes of the input file at offset, for TRACING_DATA's blob. */
static void *
read_at(const char *path, uint64_t offset, uint64_t size)
{
	unsigned char *p = xmalloc((size_t)size);
	size_t done = 0;
	ssize_t got;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		die("%s: %s", path, strerror(errno));
	while (done < size) {
		got = pread(fd, p + done, (size_t)size - done,
			    (off_t)(offset + done));
		if (got <= 0)
			die("%s: reading %llu bytes at %#llx: %s", path,
			    (unsigned long long)size,
			    (unsigned long long)offset,
			    got < 0 ? strerror(errno) : "end of file");
		done += (size_t)got;
	}
	close(fd);
	return p;
}

struct data {
	unsigned char *p;
	size_t len, cap;
	void *tracing;		/* the pipe input's tracing blob */
	size_t tracing_len;
};

static void
data_add(struct data *d, const void *p, size_t n)
{
	if (d->len + n > d->cap) {
		d->cap = d->cap ? d->cap * 2 : 1 << 16;
		while (d->cap < d->len + n)
			d->cap *= 2;
		d->p = realloc(d->p, d->cap);
		if (!d->p)
			die("out of memory");
	}
	memcpy(d->p + d->len, p, n);
	d->len += n;
}

/* --lbr: the LBR depth, 0 for a plain copy */
static unsigned int lbr_depth;

#define CONTEXT_USER	((uint64_t)-512)
#define CONTEXT_MAX	((uint64_t)-4095)
#define SAMPLE_BRANCH_STACK	(1ULL << 11)
#define LBR_BRANCH_TYPE	((1ULL << 0) | (1ULL << 11) | (1ULL << 14) | \
			 (1ULL << 15) | (1ULL << 17))
/* the sample_type bits that may come before and with the callchain */
#define LBR_SAMPLE_OK	((0x1ffULL & ~(1ULL << 4)) | (1ULL << 9) | (1ULL << 16))

static void
put_u64(struct data *d, uint64_t v)
{
	data_add(d, &v, sizeof(v));
}

/* The u64 words of a sample before its callchain's nr. */
static size_t
words_before_callchain(uint64_t type)
{
	static const uint64_t bits[] = { 1ULL << 16, 1, 2, 4, 8, 64, 512, 128, 256 };
	size_t n = 0;

	for (size_t i = 0; i < sizeof(bits) / sizeof(bits[0]); i++)
		n += (type & bits[i]) != 0;
	return n;
}

/* A SAMPLE with the branch stack its user chain implies, after the chain. */
static void
add_lbr_sample(struct data *d, const struct pd_record *rec, uint64_t type)
{
	const unsigned char *p = rec->data;
	size_t at = 8 + 8 * words_before_callchain(type), user = 0, nr_user;
	uint64_t nr, v, calls, keep, size;
	uint16_t size16;

	memcpy(&nr, p + at, 8);
	if (at + 8 + nr * 8 > rec->size)
		die("a sample at %#llx is cut short", (unsigned long long)rec->offset);
	for (uint64_t i = 0; i < nr; i++) {
		memcpy(&v, p + at + 8 + i * 8, 8);
		if (v == CONTEXT_USER)
			user = (size_t)i + 1;
	}
	nr_user = user ? (size_t)nr - user : 0;
	calls = nr_user ? nr_user - 1 : 0;
	/* perf reads a first entry even from an empty stack: never write one */
	keep = !calls ? 1 : calls < lbr_depth ? calls : lbr_depth;
	size = rec->size + 16 + keep * 24;
	if (size > 0xffff)
		die("a sample at %#llx grows too big", (unsigned long long)rec->offset);
	size16 = (uint16_t)size;
	data_add(d, p, 6);		/* type and misc */
	data_add(d, &size16, 2);
	data_add(d, p + 8, at + 8 + nr * 8 - 8);
	put_u64(d, keep);
	put_u64(d, calls % lbr_depth);
	for (uint64_t i = 0; i < keep; i++) {
		uint64_t from, to;

		memcpy(&to, p + at + 8 + (user + i) * 8, 8);
		if (calls) {
			memcpy(&from, p + at + 8 + (user + i + 1) * 8, 8);
			from--;
		} else {
			/* no caller known: a call from the sampled ip itself */
			from = user ? to : 0;
		}
		put_u64(d, from);
		put_u64(d, i ? to - 1 : to);
		put_u64(d, 0);
	}
	data_add(d, p + at + 8 + nr * 8, rec->size - (at + 8 + nr * 8));
}

static bool
lbr_event(const struct pd_attr *a)
{
	return lbr_depth && (a->sample_type & (1ULL << 5));
}

/* --branches: the depth of the branch stacks made, 0 for none */
static unsigned int br_depth;
static bool br_no_chain;
static uint64_t br_samples;

#define SAMPLE_CALLCHAIN	(1ULL << 5)
/* PERF_SAMPLE_BRANCH_USER | KERNEL | ANY */
#define ANY_BRANCH_TYPE		((1ULL << 0) | (1ULL << 1) | (1ULL << 3))
enum { BR_UNKNOWN, BR_COND, BR_UNCOND, BR_IND, BR_CALL, BR_IND_CALL,
       BR_RET, BR_EXTEND_ABI = 15 };

static bool
br_event(const struct pd_attr *a)
{
	return br_depth && (a->sample_type & SAMPLE_CALLCHAIN);
}

static uint64_t
mix64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	return x ^ (x >> 33);
}

struct br_maker {
	struct data *d;
	uint64_t seed;
	unsigned int nr;
};

/* One branch entry, its flags varied by the sample and its place. */
static void
br_put(struct br_maker *m, uint64_t from, uint64_t to, unsigned int type)
{
	uint64_t h = mix64(m->seed + m->nr * 0x9e3779b97f4a7c15ULL);
	uint64_t cycles = h % 9 == 0 ? 0 : (h >> 8) % 400;
	uint64_t predicted = (h >> 20) % 5 != 0;
	uint64_t flags = (predicted ? 2 : 1) | cycles << 4;

	if ((h >> 28) % 61 == 0)
		flags |= 1ULL << 3;			/* abort */
	if (type == BR_COND && (h >> 36) % 17 == 0)
		type = BR_EXTEND_ABI, flags |= (uint64_t)((h >> 40) % 3) << 26;
	if ((h >> 44) % 23 == 0)
		type = BR_UNKNOWN;
	flags |= (uint64_t)type << 20;
	if (m->nr >= br_depth)
		return;
	put_u64(m->d, (h >> 50) % 29 == 0 ? 0 : from);
	put_u64(m->d, to);
	put_u64(m->d, flags);
	m->nr++;
}

/* A loop in the function of ip: body of one or two branches, repeated. */
static void
br_loop(struct br_maker *m, uint64_t ip, uint64_t salt)
{
	uint64_t h = mix64(m->seed ^ salt);
	unsigned int body = 1 + (unsigned int)(h & 1);
	unsigned int reps = 1 + (unsigned int)((h >> 1) % 4);
	static const unsigned int kinds[] = { BR_COND, BR_COND, BR_UNCOND, BR_IND };

	/* below ip: inside its function or the one before, never a gap */
	for (unsigned int r = 0; r < reps; r++) {
		br_put(m, ip - 2 - salt, ip - 0x18 - salt, kinds[(h >> 4) % 4]);
		if (body == 2)
			br_put(m, ip - 6 - salt, ip - 1 - salt, BR_COND);
	}
}

/* The branch stack of a sample whose chain's addresses are ips[0..n). */
static void
br_stack(struct data *d, const uint64_t *ips, size_t n)
{
	struct br_maker m = { .d = d };
	size_t j, at = d->len;
	uint64_t salt = 0;

	m.seed = mix64((n ? ips[0] : 0) ^ (br_samples++ % 3));
	put_u64(d, 0);			/* nr, set below */
	while (n && m.nr < br_depth) {
		br_loop(&m, ips[0], salt);
		for (j = 0; j + 1 < n && m.nr < br_depth; j++) {
			uint64_t entry = ips[j] & ~0x3fULL;

			br_put(&m, ips[j + 1] - 5, entry,
			       j % 3 == 2 ? BR_IND_CALL : BR_CALL);
			br_put(&m, entry + (ips[j] - entry) / 2, ips[j + 1],
			       BR_RET);
		}
		salt += 8;
	}
	memcpy(d->p + at, &(uint64_t){ m.nr }, 8);
}

/* A SAMPLE with a branch stack after its chain (or in its place). */
static void
add_br_sample(struct data *d, const struct pd_record *rec, uint64_t type)
{
	const unsigned char *p = rec->data;
	size_t at = 8 + 8 * words_before_callchain(type), n = 0, len0;
	uint64_t nr, v, *ips;
	uint16_t size16;

	memcpy(&nr, p + at, 8);
	if (at + 8 + nr * 8 > rec->size)
		die("a sample at %#llx is cut short", (unsigned long long)rec->offset);
	ips = xmalloc((size_t)(nr + 1) * 8);
	for (uint64_t i = 0; i < nr; i++) {
		memcpy(&v, p + at + 8 + i * 8, 8);
		if (v < CONTEXT_MAX)
			ips[n++] = v;
	}
	len0 = d->len;
	data_add(d, p, 8);
	data_add(d, p + 8, br_no_chain ? at - 8 : at + 8 + nr * 8 - 8);
	br_stack(d, ips, n);
	data_add(d, p + at + 8 + nr * 8, rec->size - (at + 8 + nr * 8));
	free(ips);
	if (d->len - len0 > 0xffff)
		die("a sample at %#llx grows too big", (unsigned long long)rec->offset);
	size16 = (uint16_t)(d->len - len0);
	memcpy(d->p + len0 + 6, &size16, 2);
}

/* Every record as the file has it, minus what the writer makes itself. */
static void
collect_records(struct pd_reader *r, const char *path, struct data *d)
{
	bool pipe = pd_reader_info(r)->mode == PD_MODE_PIPE;
	struct pd_record rec;
	int got;

	while ((got = pd_reader_next(r, &rec)) > 0) {
		if (rec.origin != PD_ORIGIN_FILE)
			continue;
		/* in a file's data section they are data (simpleperf's 66) */
		switch (pipe ? rec.header.type : 0) {
		case PD_RECORD_HEADER_ATTR:
		case PD_RECORD_HEADER_FEATURE:
			continue;
		case PD_RECORD_HEADER_TRACING_DATA:
			if (!rec.payload)
				die("%s: no tracing blob at %#llx", path,
				    (unsigned long long)rec.offset);
			free(d->tracing);
			d->tracing = xmalloc((size_t)rec.payload_size);
			memcpy(d->tracing, rec.payload,
			       (size_t)rec.payload_size);
			d->tracing_len = (size_t)rec.payload_size;
			continue;
		default:
			break;
		}
		if (rec.header.type == PD_RECORD_SAMPLE && rec.evsel >= 0 &&
		    lbr_event(&pd_reader_evsel(r, (size_t)rec.evsel)->attr)) {
			add_lbr_sample(d, &rec, pd_reader_evsel(r,
					(size_t)rec.evsel)->attr.sample_type);
			continue;
		}
		if (rec.header.type == PD_RECORD_SAMPLE && rec.evsel >= 0 &&
		    br_event(&pd_reader_evsel(r, (size_t)rec.evsel)->attr)) {
			add_br_sample(d, &rec, pd_reader_evsel(r,
					(size_t)rec.evsel)->attr.sample_type);
			continue;
		}
		data_add(d, rec.data, rec.size);
		if (rec.payload_size) {
			if (!rec.payload)
				die("%s: no payload after the record at %#llx",
				    path, (unsigned long long)rec.offset);
			data_add(d, rec.payload, (size_t)rec.payload_size);
		}
	}
	if (got < 0)
		die("%s: %s", path, pd_reader_errmsg(r));
}

static void
wcheck(struct pd_writer *w, int err, const char *what)
{
	if (err)
		die("%s: %s (%s)", what, pd_strerror(err),
		    pd_writer_errmsg(w));
}

/*
 * Records go to the writer one at a time, so that the buffering is what
 * is tested, with one large write at the end for the direct path.
 */
static void
write_records(struct pd_writer *w, const struct data *d)
{
	size_t at = 0, half = d->len / 2, size;

	/* the split points do not matter: bytes go out in order */
	while (at + 8 <= half) {
		uint16_t h16;

		memcpy(&h16, d->p + at + 6, sizeof(h16));
		size = h16;
		if (size < 8 || size > d->len - at)
			break;
		wcheck(w, pd_writer_write(w, d->p + at, size), "write");
		at += size;
	}
	wcheck(w, pd_writer_write(w, d->p + at, d->len - at), "write");
}

/*
 * Sections pdata cannot re-encode go over as their bytes: ids it does
 * not know (simpleperf's 128+) and sections that did not parse.
 */
static void
copy_raw_features(struct pd_writer *w, struct pd_reader *r, const char *in)
{
	const struct pd_meta *m = pd_reader_meta(r);
	unsigned int feat;
	void *sec;

	if (pd_reader_info(r)->mode != PD_MODE_FILE)
		return;
	for (feat = 1; feat < PD_FEAT_BITS; feat++) {
		if (!pd_meta_has(m, feat) || feat == PD_FEAT_TRACING_DATA ||
		    (feat < PD_FEAT_KNOWN &&
		     !((m->bad_features[feat / 64] >> (feat % 64)) & 1)))
			continue;
		sec = read_at(in, m->sections[feat].offset,
			      m->sections[feat].size);
		wcheck(w, pd_writer_set_feature_raw(w, feat, sec, (size_t)
				m->sections[feat].size), "raw");
		free(sec);
	}
}

static int
copy(const char *in, const char *out, bool pipe, bool finish)
{
	struct pd_writer_opts opts = { .pipe = pipe };
	struct pd_reader *r = open_input(in);
	struct pd_writer *w = NULL;
	struct data d = { 0 };
	struct pd_meta m;
	size_t i;
	int fd, err;

	collect_records(r, in, &d);
	/* a shallow copy: only the feature bits change */
	m = *pd_reader_meta(r);
	if (strcmp(out, "-") == 0)
		fd = STDOUT_FILENO;
	else
		fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		die("%s: %s", out, strerror(errno));
	err = pd_writer_open(&w, fd, &opts);
	if (err)
		die("%s: %s", out, pd_strerror(err));
	for (i = 0; i < pd_reader_nr_evsels(r); i++) {
		const struct pd_evsel *ev = pd_reader_evsel(r, i);
		struct pd_attr attr = ev->attr;

		if (lbr_event(&attr)) {
			if (attr.sample_type & ~(LBR_SAMPLE_OK | (1ULL << 5)))
				die("%s: sample_type %#llx has fields the --lbr "
				    "copy does not move", in,
				    (unsigned long long)attr.sample_type);
			attr.sample_type |= SAMPLE_BRANCH_STACK;
			attr.branch_sample_type = LBR_BRANCH_TYPE;
		}
		if (br_event(&attr)) {
			if (attr.sample_type & ~(LBR_SAMPLE_OK | SAMPLE_CALLCHAIN))
				die("%s: sample_type %#llx has fields the "
				    "--branches copy does not move", in,
				    (unsigned long long)attr.sample_type);
			attr.sample_type |= SAMPLE_BRANCH_STACK;
			if (br_no_chain)
				attr.sample_type &= ~SAMPLE_CALLCHAIN;
			attr.branch_sample_type = ANY_BRANCH_TYPE;
		}
		wcheck(w, pd_writer_add_evsel(w, &attr, ev->ids,
					      ev->nr_ids), "add_evsel");
	}
	if (lbr_depth) {
		static struct pd_cap cap = { (char *)"branches", NULL };
		static char value[16];

		snprintf(value, sizeof(value), "%u", lbr_depth);
		cap.value = value;
		m.cpu_pmu_caps = &cap;
		m.nr_cpu_pmu_caps = 1;
		m.features[PD_FEAT_CPU_PMU_CAPS / 64] |=
			1ULL << (PD_FEAT_CPU_PMU_CAPS % 64);
	}
	if (br_depth)
		m.features[PD_FEAT_BRANCH_STACK / 64] |=
			1ULL << (PD_FEAT_BRANCH_STACK % 64);
	if (pd_meta_has(&m, PD_FEAT_TRACING_DATA)) {
		void *blob = d.tracing;
		size_t len = d.tracing_len;

		if (!blob && m.tracing_data_size) {
			len = (size_t)m.tracing_data_size;
			blob = read_at(in, m.tracing_data_offset, len);
		}
		if (blob)
			wcheck(w, pd_writer_set_feature_raw(w,
					PD_FEAT_TRACING_DATA, blob, len), "raw");
		if (blob != d.tracing)
			free(blob);
	}
	copy_raw_features(w, r, in);
	wcheck(w, pd_writer_begin_data(w, &m), "begin_data");
	write_records(w, &d);
	if (pd_writer_data_size(w) != d.len)
		die("data size %llu, %zu bytes written",
		    (unsigned long long)pd_writer_data_size(w), d.len);
	if (finish)
		wcheck(w, pd_writer_finish(w, &m), "finish");
	for (i = 0; i < PD_FEAT_BITS; i++)
		if (pd_writer_feature_dropped(w, (unsigned int)i))
			fprintf(stderr, "%s: feature %zu (%s) was left out\n",
				prog, i, pd_feature_name((unsigned int)i) ?
				pd_feature_name((unsigned int)i) : "?");
	pd_writer_close(w);
	if (fd != STDOUT_FILENO && close(fd) < 0)
		die("%s: %s", out, strerror(errno));
	free(d.p);
	free(d.tracing);
	pd_reader_close(r);
	return 0;
}

/* Parse one payload into m, failing loudly. */
static void
parse_into(struct pd_meta *m, unsigned int feat, const void *p, size_t len,
	   const char *what)
{
	char why[256] = "";

	if (pd_feature_parse(m, feat, p, len, false, why, sizeof(why)))
		die("%s: feature %s does not parse: %s", what,
		    pd_feature_name(feat), why);
}

static void
encode(const struct pd_meta *m, unsigned int feat, void **p, size_t *len)
{
	int err = pd_feature_encode(m, feat, p, len);

	if (err)
		die("feature %s does not encode: %s", pd_feature_name(feat),
		    pd_strerror(err));
}

static size_t
first_difference(const unsigned char *a, const unsigned char *b, size_t n)
{
	size_t i;

	for (i = 0; i < n && a[i] == b[i]; i++)
		;
	return i;
}

/*
 * Check one feature of the file: exact, against the file's bytes, or by
 * value, against the encoding of the encoding's parse.  later holds the
 * features parsed so far (CPU_TOPOLOGY reads NRCPUS from it).
 */
static int
check_feature(struct pd_meta *first, struct pd_meta *second, unsigned int feat,
	      const unsigned char *sec, size_t len, bool exact,
	      const char *path)
{
	void *enc, *enc2;
	size_t elen, elen2, at;
	int bad = 0;

	parse_into(first, feat, sec, len, path);
	encode(first, feat, &enc, &elen);
	if (exact) {
		if (elen != len || memcmp(enc, sec, len)) {
			at = first_difference(enc, sec,
					      elen < len ? elen : len);
			fprintf(stderr, "%s: %s: %zu bytes encoded, %zu in the file, first difference at byte %zu\n",
				path, pd_feature_name(feat), elen, len, at);
			bad = 1;
		}
	} else {
		parse_into(second, feat, enc, elen, "the encoding");
		encode(second, feat, &enc2, &elen2);
		if (elen != elen2 || memcmp(enc, enc2, elen)) {
			fprintf(stderr, "%s: %s: the values change when encoded and parsed again\n",
				path, pd_feature_name(feat));
			bad = 1;
		}
		free(enc2);
	}
	printf("%s %s %zu\n", pd_feature_name(feat), bad ? "DIFFERS" : "same",
	       len);
	free(enc);
	return bad;
}

static int
check_features(const char *path, bool exact)
{
	struct pd_reader *r = open_input(path);
	const struct pd_meta *rm = pd_reader_meta(r);
	struct pd_meta first, second;
	unsigned int feat;
	int bad = 0;

	if (pd_reader_info(r)->mode != PD_MODE_FILE)
		die("%s: --features needs a file-mode input", path);
	pd_meta_init(&first);
	pd_meta_init(&second);
	for (feat = 1; feat < PD_FEAT_KNOWN; feat++) {
		const struct pd_feat_section *s = &rm->sections[feat];
		unsigned char *sec;

		if (!pd_meta_has(rm, feat) || feat == PD_FEAT_TRACING_DATA)
			continue;
		if ((rm->bad_features[feat / 64] >> (feat % 64)) & 1) {
			printf("%s bad-in-file %llu\n", pd_feature_name(feat),
			       (unsigned long long)s->size);
			continue;
		}
		sec = read_at(path, s->offset, s->size);
		bad |= check_feature(&first, &second, feat, sec,
				     (size_t)s->size, exact, path);
		free(sec);
	}
	pd_meta_free(&first);
	pd_meta_free(&second);
	pd_reader_close(r);
	return bad;
}

int
main(int argc, char **argv)
{
	bool pipe = false, features = false, exact = false, finish = true;
	int i = 1;

	for (; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		if (strcmp(argv[i], "--pipe") == 0)
			pipe = true;
		else if (strcmp(argv[i], "--features") == 0)
			features = true;
		else if (strcmp(argv[i], "--exact") == 0)
			exact = true;
		else if (strcmp(argv[i], "--unfinished") == 0)
			finish = false;
		else if (strcmp(argv[i], "--lbr") == 0 && i + 1 < argc) {
			lbr_depth = (unsigned int)strtoul(argv[++i], NULL, 10);
			if (!lbr_depth || lbr_depth > 64)
				die("--lbr takes a depth from 1 to 64");
		} else if (strcmp(argv[i], "--branches") == 0 && i + 1 < argc) {
			br_depth = (unsigned int)strtoul(argv[++i], NULL, 10);
			if (!br_depth || br_depth > 255)
				die("--branches takes a depth from 1 to 255");
		} else if (strcmp(argv[i], "--no-chain") == 0) {
			br_no_chain = true;
		}
		else
			die("unknown option %s", argv[i]);
	}
	if (features && argc - i == 1)
		return check_features(argv[i], exact);
	if (!features && argc - i == 2)
		return copy(argv[i], argv[i + 1], pipe, finish);
	fprintf(stderr, "usage: %s [--pipe] [--unfinished] [--lbr DEPTH] "
		"[--branches DEPTH [--no-chain]] IN OUT\n"
		"       %s --features [--exact] IN\n", prog, prog);
	return 2;
}
