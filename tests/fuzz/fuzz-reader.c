/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * tests/fuzz/fuzz-reader.c - libFuzzer target for the perf.data reader.
 *
 * Each input is read twice: as a file (an in-memory file from
 * memfd_create(), which the reader maps like any regular file) and as a
 * stream through a real pipe (filled first, or fed by a writer thread
 * when the input is larger than a pipe may hold), so both the mapped
 * and the buffered record framing see it.  Every record that comes out is
 * decoded with pd_sample_decode() or pd_event_decode(), and every view
 * those return is read to its last byte, so that AddressSanitizer catches
 * a view that claims more than the record holds.
 *
 * Build: the Makefile does, with clang, when configure finds libFuzzer
 * (tests/local.mk).  Run: tests/fuzz/README.md.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "pdata/events.h"
#include "pdata/reader.h"
#include "pdata/sample.h"
#include "tests/fuzz/fuzz.h"

static void
decode_record(struct pd_reader *r, const struct pd_record *rec)
{
	const struct pd_evsel *ev = rec->evsel >= 0 ?
				    pd_reader_evsel(r, (size_t)rec->evsel) : NULL;
	const struct pd_attr *attr = ev ? &ev->attr : NULL;

	touch(rec->data, rec->size);
	if (rec->payload)
		touch(rec->payload, rec->payload_size);
	sink += (uint64_t)pd_reader_find_evsel(r, rec);
	if (rec->header.type == PD_RECORD_SAMPLE) {
		struct pd_sample s;

		char why[256];

		if (attr && pd_sample_decode(attr, rec, &s) == 0)
			touch_sample(&s);
		else if (attr)
			sink += pd_sample_explain(attr, rec, why, sizeof(why));
	} else {
		union pd_event e;
		struct pd_sample_id id;
		char why[256];

		if (pd_event_decode(attr, rec, &e) == 0)
			touch_event(&e);
		else
			sink += pd_event_explain(attr, rec, why, sizeof(why));
		if (attr)
			sink += (uint64_t)pd_sample_id_decode(attr, rec, &id);
	}
}

static void
walk(struct pd_reader *r)
{
	const struct pd_meta *m;
	struct pd_record rec;
	size_t i;

	while (pd_reader_next(r, &rec) == 1)
		decode_record(r, &rec);
	sink += pd_reader_stats(r)->records;
	for (i = 0; i < pd_reader_nr_evsels(r); i++) {
		const struct pd_evsel *ev = pd_reader_evsel(r, i);

		touch(pd_evsel_name(ev), strlen(pd_evsel_name(ev)));
		touch(ev->ids, ev->nr_ids * sizeof(*ev->ids));
	}
	m = pd_reader_meta(r);
	for (i = 0; i < m->nr_build_ids; i++)
		if (m->build_ids[i].filename)
			touch(m->build_ids[i].filename, strlen(m->build_ids[i].filename));
}

static void
ignore_warning(void *ctx, uint64_t offset, const char *msg)
{
	(void)ctx;
	sink += offset + strlen(msg);
}

static const struct pd_reader_opts opts = { .warn = ignore_warning };

static void
read_as_file(const uint8_t *data, size_t size)
{
	struct pd_reader *r;
	int fd = fuzz_memfd("fuzz-reader", data, size);

	if (pd_reader_open_fd(&r, fd, "fuzz", &opts) == 0)
		walk(r);
	else
		sink += strlen(pd_reader_errmsg(r));
	pd_reader_close(r);
	close(fd);
}

struct feed {
	int fd;
	const uint8_t *data;
	size_t size;
};

static void *
feeder(void *arg)
{
	struct feed *f = arg;
	size_t off = 0;

	while (off < f->size) {
		ssize_t n = write(f->fd, f->data + off, f->size - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;		/* the reader stopped early: EPIPE */
		off += (size_t)n;
	}
	close(f->fd);
	return NULL;
}

static void
read_as_stream(const uint8_t *data, size_t size)
{
	struct pd_reader *r;
	struct feed f;
	pthread_t t;
	bool threaded;
	int fds[2];

	if (pipe2(fds, O_CLOEXEC) < 0)
		abort();
	f.fd = fds[1];
	f.data = data;
	f.size = size;
	/* A pipe that holds the whole input is filled before reading; a
	 * thread creation per input would cost more than the reading. */
	threaded = size > INT_MAX ||
		   (size > 0 && fcntl(fds[1], F_SETPIPE_SZ, (int)size) < 0);
	if (threaded ? pthread_create(&t, NULL, feeder, &f) != 0 :
	    (feeder(&f), false))
		abort();
	if (pd_reader_open_fd(&r, fds[0], "fuzz-pipe", &opts) == 0)
		walk(r);
	else
		sink += strlen(pd_reader_errmsg(r));
	pd_reader_close(r);
	close(fds[0]);
	if (threaded)
		pthread_join(t, NULL);
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	/* the feeder sees EPIPE, not a signal, when the reader stops early */
	signal(SIGPIPE, SIG_IGN);
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	read_as_file(data, size);
	read_as_stream(data, size);
	return 0;
}
