/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * bench/limit.c - the single-pass limit of a report on a perf.data file
 * (bench/README.md, issue 16): one thread reads every record, decodes
 * every sample and hashes its callchain, and does nothing else, which is
 * the least any report of every sample must do.  report-speed.sh times
 * it beside preport and perf report on the same file.
 *
 *   limit FILE
 *
 * Prints "records R samples S undecoded U callchain-entries E hash H
 * seconds T": the hash, of every callchain, keeps the work from being
 * left out; T is the walk's own time, the file opened to closed.  Exit 1
 * when the file cannot be read to its end (the message on stderr).
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include <xxhash.h>

#include "pdata/reader.h"
#include "pdata/sample.h"

struct walk {
	uint64_t records, samples, undecoded, entries, hash;
};

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void
sample(struct walk *w, const struct pd_reader *r, const struct pd_record *rec,
       struct pd_sample *s)
{
	const struct pd_u64_array *cc = &s->callchain;

	if (rec->evsel < 0 ||
	    pd_sample_decode(&pd_reader_evsel(r, (size_t)rec->evsel)->attr,
			     rec, s)) {
		w->undecoded++;
		return;
	}
	w->samples++;
	w->entries += cc->nr;
	w->hash ^= XXH3_64bits_withSeed(cc->p, cc->nr * sizeof(uint64_t),
					w->samples);
}

int
main(int argc, char **argv)
{
	struct walk w = { 0 };
	struct pd_reader *r = NULL;
	struct pd_record rec;
	struct pd_sample s;
	double t0 = now();
	int ret;

	if (argc != 2) {
		fprintf(stderr, "usage: limit FILE\n");
		return 2;
	}
	ret = pd_reader_open(&r, argv[1], NULL);
	while (ret == 0 && (ret = pd_reader_next(r, &rec)) > 0) {
		w.records++;
		if (rec.header.type == PD_RECORD_SAMPLE)
			sample(&w, r, &rec, &s);
		/* the file's pages behind go, as a report lets them */
		if (!(w.records % 4096) && rec.origin == PD_ORIGIN_FILE &&
		    rec.source == 0)
			pd_reader_drop_before(r, rec.data);
		ret = 0;
	}
	if (ret < 0) {
		fprintf(stderr, "limit: %s: %s\n", argv[1],
			r ? pd_reader_errmsg(r) : "out of memory");
		pd_reader_close(r);
		return 1;
	}
	pd_reader_close(r);
	printf("records %llu samples %llu undecoded %llu callchain-entries %llu hash %016llx seconds %.3f\n",
	       (unsigned long long)w.records, (unsigned long long)w.samples,
	       (unsigned long long)w.undecoded, (unsigned long long)w.entries,
	       (unsigned long long)w.hash, now() - t0);
	return 0;
}
