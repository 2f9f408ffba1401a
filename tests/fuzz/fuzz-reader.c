/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * tests/fuzz/fuzz-reader.c - libFuzzer target for the perf.data reader.
 *
 * Each input is read twice: as a file (an in-memory file from
 * memfd_create(), which the reader maps like any regular file) and as a
 * stream through a real pipe fed by a writer thread, so both the mapped
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

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Where touched bytes go, so the compiler cannot drop the reads. */
static volatile uint64_t sink;

static void
touch(const void *p, size_t len)
{
	const unsigned char *b = p;
	uint64_t acc = 0;
	size_t i;

	for (i = 0; i < len; i++)
		acc += b[i];
	sink += acc;
}

static void
touch_str(const struct pd_str *s)
{
	if (s->len)
		touch(s->s, s->len);
}

static void
touch_bytes(const struct pd_bytes *b)
{
	if (b->len)
		touch(b->p, b->len);
}

static void
touch_u64s(const struct pd_u64_array *a)
{
	size_t i;

	for (i = 0; i < a->nr; i++)
		sink += pd_u64_array_get(a, i);
}

static void
touch_regs(const struct pd_regs *r)
{
	uint64_t v;
	unsigned int reg;

	touch_u64s(&r->regs);
	for (reg = 0; reg < 64; reg++)
		if (pd_regs_get(r, reg, &v))
			sink += v;
}

static void
touch_sample(const struct pd_sample *s)
{
	struct pd_branch_entry be;
	struct pd_read_value rv;
	size_t i;

	sink += s->ip + s->pid + s->time + s->period + s->weight;
	for (i = 0; i < s->read.nr; i++)
		if (!pd_read_value_get(&s->read, i, &rv))
			sink += rv.value + rv.id + rv.lost;
	touch_u64s(&s->callchain);
	touch_bytes(&s->raw);
	for (i = 0; i < s->branch.nr; i++) {
		if (!pd_branch_entry_get(&s->branch, i, &be))
			sink += be.from + be.to + be.cycles;
		sink += pd_branch_counter_get(&s->branch, i);
	}
	touch_regs(&s->user_regs);
	touch_regs(&s->intr_regs);
	touch_bytes(&s->user_stack.data);
	touch_bytes(&s->aux);
}

static void
touch_event(const union pd_event *ev)
{
	struct pd_id_index_entry ie;
	struct pd_thread_map_entry te;
	size_t i, pos = 0;
	int cpu;

	switch (ev->header.type) {
	case PD_RECORD_MMAP:
		touch_str(&ev->mmap.filename);
		break;
	case PD_RECORD_MMAP2:
		touch_str(&ev->mmap2.filename);
		touch(ev->mmap2.build_id, ev->mmap2.build_id_size);
		break;
	case PD_RECORD_COMM:
		touch_str(&ev->comm.comm);
		break;
	case PD_RECORD_NAMESPACES:
		touch_u64s(&ev->namespaces.link_info);
		break;
	case PD_RECORD_KSYMBOL:
		touch_str(&ev->ksymbol.name);
		break;
	case PD_RECORD_CGROUP:
		touch_str(&ev->cgroup.path);
		break;
	case PD_RECORD_TEXT_POKE:
		touch_bytes(&ev->text_poke.old_bytes);
		touch_bytes(&ev->text_poke.new_bytes);
		break;
	case PD_RECORD_CALLCHAIN_DEFERRED:
		touch_u64s(&ev->callchain_deferred.ips);
		break;
	case PD_RECORD_HEADER_ATTR:
		touch_u64s(&ev->attr.ids);
		break;
	case PD_RECORD_HEADER_EVENT_TYPE:
		touch_str(&ev->event_type.name);
		break;
	case PD_RECORD_HEADER_BUILD_ID:
		touch_str(&ev->build_id.filename);
		break;
	case PD_RECORD_ID_INDEX:
		for (i = 0; i < ev->id_index.nr; i++)
			if (!pd_id_index_get(&ev->id_index, i, &ie))
				sink += ie.id + ie.vcpu;
		break;
	case PD_RECORD_AUXTRACE_INFO:
		touch_u64s(&ev->auxtrace_info.priv);
		break;
	case PD_RECORD_AUXTRACE_ERROR:
		touch_str(&ev->auxtrace_error.msg);
		break;
	case PD_RECORD_THREAD_MAP:
		for (i = 0; i < ev->thread_map.nr; i++)
			if (!pd_thread_map_get(&ev->thread_map, i, &te))
				touch_str(&te.comm);
		break;
	case PD_RECORD_CPU_MAP:
		while (pd_cpu_map_next(&ev->cpu_map.map, &pos, &cpu) == 1)
			sink += (uint64_t)cpu;
		break;
	case PD_RECORD_STAT_CONFIG:
		touch_u64s(&ev->stat_config.entries);
		break;
	case PD_RECORD_EVENT_UPDATE:
		touch_str(&ev->event_update.str);
		touch_bytes(&ev->event_update.payload);
		while (ev->event_update.type == PD_EVENT_UPDATE_CPUS &&
		       pd_cpu_map_next(&ev->event_update.cpus, &pos, &cpu) == 1)
			sink += (uint64_t)cpu;
		break;
	case PD_RECORD_HEADER_FEATURE:
		touch_bytes(&ev->feature.payload);
		break;
	case PD_RECORD_COMPRESSED:
	case PD_RECORD_COMPRESSED2:
		touch_bytes(&ev->compressed.data);
		break;
	case PD_RECORD_BPF_METADATA: {
		struct pd_bpf_metadata_entry me;

		touch_str(&ev->bpf_metadata.prog_name);
		for (i = 0; i < ev->bpf_metadata.nr_entries; i++)
			if (!pd_bpf_metadata_get(&ev->bpf_metadata, i, &me)) {
				touch_str(&me.key);
				touch_str(&me.value);
			}
		break;
	}
	case PD_RECORD_SCHEDSTAT_CPU:
	case PD_RECORD_SCHEDSTAT_DOMAIN:
		touch_bytes(&ev->schedstat.counters);
		break;
	default:
		break;
	}
}

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
	int fd = memfd_create("fuzz-reader", MFD_CLOEXEC);
	size_t off = 0;

	if (fd < 0)
		abort();
	while (off < size) {
		ssize_t n = write(fd, data + off, size - off);

		if (n <= 0)
			abort();
		off += (size_t)n;
	}
	if (lseek(fd, 0, SEEK_SET) != 0)
		abort();
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
	int fds[2];

	if (pipe2(fds, O_CLOEXEC) < 0)
		abort();
	f.fd = fds[1];
	f.data = data;
	f.size = size;
	if (pthread_create(&t, NULL, feeder, &f) != 0)
		abort();
	if (pd_reader_open_fd(&r, fds[0], "fuzz-pipe", &opts) == 0)
		walk(r);
	else
		sink += strlen(pd_reader_errmsg(r));
	pd_reader_close(r);
	close(fds[0]);
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
