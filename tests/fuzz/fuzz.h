/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * tests/fuzz/fuzz.h - what the libFuzzer targets share: reading every byte
 * of a decoded view into a sink (so AddressSanitizer sees a view that
 * claims more than its record holds) and an in-memory file of the input.
 */
#ifndef PD_TESTS_FUZZ_H
#define PD_TESTS_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pdata/events.h"
#include "pdata/sample.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Where touched bytes go, so the compiler cannot drop the reads. */
static volatile uint64_t sink __attribute__((unused));

static inline void
touch(const void *p, size_t len)
{
	const unsigned char *b = p;
	uint64_t acc = 0;
	size_t i;

	for (i = 0; i < len; i++)
		acc += b[i];
	sink += acc;
}

static inline void
touch_str(const struct pd_str *s)
{
	if (s->len)
		touch(s->s, s->len);
}

static inline void
touch_bytes(const struct pd_bytes *b)
{
	if (b->len)
		touch(b->p, b->len);
}

static inline void
touch_u64s(const struct pd_u64_array *a)
{
	size_t i;

	for (i = 0; i < a->nr; i++)
		sink += pd_u64_array_get(a, i);
}

static inline void
touch_regs(const struct pd_regs *r)
{
	uint64_t v;
	unsigned int reg;

	touch_u64s(&r->regs);
	for (reg = 0; reg < 64; reg++)
		if (pd_regs_get(r, reg, &v))
			sink += v;
}

static inline void
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

static inline void
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

/*
 * An in-memory file (memfd_create()) holding the size bytes at data, at
 * offset 0; aborts when the kernel refuses, as nothing can be tested then.
 * It is made 0600 (a memfd starts 0777), so that readers which trust only
 * files no one else may write take it as they take the user's own files.
 */
static inline int
fuzz_memfd(const char *name, const uint8_t *data, size_t size)
{
	int fd = memfd_create(name, MFD_CLOEXEC);
	size_t off = 0;

	if (fd < 0 || fchmod(fd, 0600) != 0)
		abort();
	while (off < size) {
		ssize_t n = write(fd, data + off, size - off);

		if (n <= 0)
			abort();
		off += (size_t)n;
	}
	if (lseek(fd, 0, SEEK_SET) != 0)
		abort();
	return fd;
}

#endif /* PD_TESTS_FUZZ_H */
