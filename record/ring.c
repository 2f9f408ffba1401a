/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * record/ring.c - the per-cpu ring buffers: one mmap per cpu, every other
 * fd of that cpu routed into it with PERF_EVENT_IOC_SET_OUTPUT (perf's
 * perf_evlist__mmap_per_cpu), and the drain of the four-step protocol of
 * perf_event_open(2), "data_head": acquire the head, copy the whole span
 * (two writes when it wraps), release the tail only after the write.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/perf_event.h>

#include "lib/diag.h"
#include "lib/xalloc.h"
#include "pdata/abi.h"
#include "record/record.h"

size_t
rec_ring_index(const struct rec_target *t, size_t cpu_idx, size_t thread_idx)
{
	return t->per_cpu_rings ? cpu_idx : thread_idx;
}

/* A ring mapped read-only is one the kernel overwrites (--overwrite). */
static int
ring_map(struct rec_ring *r, int fd, unsigned int pages, bool overwrite)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	int prot = overwrite ? PROT_READ : PROT_READ | PROT_WRITE;

	r->len = ((size_t)pages + 1) * page;
	r->backward = overwrite;
	r->base = mmap(NULL, r->len, prot, MAP_SHARED, fd, 0);
	if (r->base == MAP_FAILED) {
		r->base = NULL;
		return -errno;
	}
	r->data = (unsigned char *)r->base + page;
	r->mask = (uint64_t)pages * page - 1;
	r->fd = fd;
	return 0;
}

static int
route_fd(struct rec_rings *rings, size_t ring, int fd, unsigned int pages,
	 bool overwrite, const struct rec_target *t, size_t c, size_t th)
{
	struct rec_ring *r = &rings->r[ring];
	int err;

	if (r->base)
		return ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, r->fd) ? -errno : 0;
	err = ring_map(r, fd, pages, overwrite);
	if (err)
		return err;
	r->cpu = t->per_cpu_rings ? t->cpus[c] : -1;
	r->tid = t->per_cpu_rings ? -1 : t->threads[th];
	return 0;
}

int
rec_rings_mmap(struct rec_rings *rings, struct rec_evlist *list,
	       const struct rec_target *t, unsigned int pages, bool overwrite)
{
	rings->nr = t->per_cpu_rings ? t->nr_cpus : t->nr_threads;
	rings->r = xcalloc(rings->nr, sizeof(*rings->r));
	for (size_t c = 0; c < t->nr_cpus; c++) {
		for (size_t th = 0; th < t->nr_threads; th++) {
			for (size_t e = 0; e < list->nr; e++) {
				size_t i = c * t->nr_threads + th;
				size_t ring = rec_ring_index(t, c, th);
				int err = route_fd(rings, ring,
						   list->ev[e].fds[i], pages,
						   overwrite, t, c, th);

				if (!err)
					continue;
				error_msg("cannot map the ring buffer of '%s' "
					  "(%u pages): %s", list->ev[e].name,
					  pages, strerror(-err));
				if (err == -EPERM || err == -ENOMEM)
					hint_msg("lower -m, or raise kernel."
						 "perf_event_mlock_kb");
				return -1;
			}
		}
	}
	return 0;
}

void
rec_rings_unmap(struct rec_rings *rings)
{
	for (size_t i = 0; i < rings->nr; i++)
		if (rings->r[i].base)
			munmap(rings->r[i].base, rings->r[i].len);
	free(rings->r);
	rings->r = NULL;
	rings->nr = 0;
}

/* size bytes from position at: one write, or two where the ring wraps */
static int
write_ring_span(const struct rec_ring *ring, uint64_t at, uint64_t size,
		rec_write_fn write, void *ctx)
{
	uint64_t start = at & ring->mask, first = size;
	int err;

	if (start + size > ring->mask + 1)
		first = ring->mask + 1 - start;
	err = write(ctx, ring->data + start, (size_t)first);
	if (!err && first < size)
		err = write(ctx, ring->data, (size_t)(size - first));
	return err;
}

int
rec_ring_drain(struct rec_ring *ring, uint64_t min, rec_write_fn write,
	       void *ctx, uint64_t *bytes)
{
	struct perf_event_mmap_page *pc = ring->base;
	uint64_t head = __atomic_load_n(&pc->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = pc->data_tail;
	uint64_t size = head - tail;
	int err;

	*bytes = 0;
	/* the kernel writes a backward ring over itself: no tail to follow */
	if (ring->backward || !size || size < min)
		return 0;
	if (size > ring->mask + 1)
		return -EOVERFLOW;
	if ((err = write_ring_span(ring, tail, size, write, ctx)))
		return err;
	__atomic_store_n(&pc->data_tail, head, __ATOMIC_RELEASE);
	*bytes = size;
	return 0;
}

void
rec_ring_pause(struct rec_ring *ring, bool paused)
{
	ioctl(ring->fd, PERF_EVENT_IOC_PAUSE_OUTPUT, paused ? 1 : 0);
}

/*
 * A full backward ring: from the newest record (start), the whole
 * records that fit in the ring; a zero size ends them early (the part
 * never written).
 */
static uint64_t
backward_end(const struct rec_ring *ring, uint64_t start)
{
	uint64_t at = start, ring_size = ring->mask + 1;

	for (;;) {
		uint16_t size;

		memcpy(&size, ring->data + (at & ring->mask) + 6, 2);
		if (size < 8 || (size & 7) || at - start + size > ring_size)
			return at;
		at += size;
	}
}

int
rec_ring_read_backward(struct rec_ring *ring, rec_write_fn write, void *ctx,
		       uint64_t *bytes)
{
	struct perf_event_mmap_page *pc = ring->base;
	uint64_t head = __atomic_load_n(&pc->data_head, __ATOMIC_ACQUIRE);
	uint64_t end = ring->prev, size;
	int err;

	*bytes = 0;
	/* the head goes down: what is new lies from head up to prev */
	if (end - head > ring->mask + 1)
		end = backward_end(ring, head);
	size = end - head;
	if (!size)
		return 0;
	if ((err = write_ring_span(ring, head, size, write, ctx)))
		return err;
	ring->prev = head;
	*bytes = size;
	return 0;
}

int
rec_ring_time_conv(const struct rec_ring *ring, uint64_t rec[7])
{
	const volatile struct perf_event_mmap_page *pc = ring->base;
	unsigned char caps[8] = { 0 };

	/* perf's perf_read_tsc_conversion(): a seqlock-consistent copy */
	for (int tries = 0;; tries++) {
		uint32_t seq = pc->lock;

		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		rec[1] = pc->time_shift;
		rec[2] = pc->time_mult;
		rec[3] = pc->time_zero;
		rec[4] = pc->time_cycles;
		rec[5] = pc->time_mask;
		caps[0] = pc->cap_user_time_zero;
		caps[1] = pc->cap_user_time_short;
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (pc->lock == seq && !(seq & 1))
			break;
		if (tries > 10000)
			return -EINVAL;
	}
	if (!caps[0])
		return -EOPNOTSUPP;
	memcpy(&rec[6], caps, sizeof(caps));
	rec[0] = (uint64_t)PD_RECORD_TIME_CONV | (uint64_t)56 << 48;
	return 0;
}
