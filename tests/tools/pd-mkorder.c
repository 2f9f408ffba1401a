/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * tests/tools/pd-mkorder.c - write a small perf.data file whose records
 * are out of time order in every way perf's ordered-events queue treats
 * specially, for tests/session-order.test to compare the session with
 * `perf script` on it: records out of order inside a round and across
 * rounds, a record older than the last flush, records with time 0
 * (delivered at once), COMM and MMAP records that must apply between
 * samples, a new map that splits an older one, FORK and EXIT, samples
 * of a thread never named, callchains with every context marker, a BPF
 * program's KSYMBOL registered then unregistered, a hypervisor sample.
 *
 * Usage: pd-mkorder [--stop] OUT
 * --stop ends the data with a record of size 0 after the third round:
 * perf then stops without its final flush.
 */
#include "config.h"

#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "pdata/abi.h"
#include "pdata/meta.h"
#include "pdata/records.h"
#include "pdata/writer.h"

#define TYPE (PD_SAMPLE_IP | PD_SAMPLE_TID | PD_SAMPLE_TIME | \
	      PD_SAMPLE_PERIOD | PD_SAMPLE_CALLCHAIN)

struct rec {
	unsigned char b[512];
	size_t n;
};

static void
put(struct rec *r, const void *p, size_t len)
{
	memcpy(r->b + r->n, p, len);
	r->n += len;
}

static void
put64(struct rec *r, uint64_t v)
{
	put(r, &v, 8);
}

static void
put32(struct rec *r, uint32_t v)
{
	put(r, &v, 4);
}

static void
begin(struct rec *r, uint32_t type, uint16_t misc)
{
	r->n = 0;
	put32(r, type);
	put(r, &misc, 2);
	put(r, "\0\0", 2);	/* size, set by end() */
}

static void
put_str(struct rec *r, const char *s)
{
	size_t len = strlen(s) + 1, pad = (8 - len % 8) % 8;

	put(r, s, len);
	while (pad--)
		put(r, "", 1);
}

/* the sample_id trailer for TID|TIME */
static void
trailer(struct rec *r, uint32_t pid, uint32_t tid, uint64_t time)
{
	put32(r, pid);
	put32(r, tid);
	put64(r, time);
}

static int
end(struct pd_writer *w, struct rec *r)
{
	uint16_t size = (uint16_t)r->n;

	memcpy(r->b + 6, &size, 2);
	return pd_writer_write(w, r->b, r->n);
}

static int
comm(struct pd_writer *w, uint32_t pid, uint32_t tid, const char *name,
     uint64_t time)
{
	struct rec r;

	begin(&r, PD_RECORD_COMM, PD_MISC_USER);
	put32(&r, pid);
	put32(&r, tid);
	put_str(&r, name);
	trailer(&r, pid, tid, time);
	return end(w, &r);
}

static int
mmap2(struct pd_writer *w, uint32_t pid, uint64_t start, uint64_t len,
      uint64_t pgoff, const char *name, uint64_t time)
{
	struct rec r;

	begin(&r, PD_RECORD_MMAP2, PD_MISC_USER);
	put32(&r, pid);
	put32(&r, pid);
	put64(&r, start);
	put64(&r, len);
	put64(&r, pgoff);
	put32(&r, 8);		/* maj */
	put32(&r, 1);		/* min */
	put64(&r, 1234);	/* ino */
	put64(&r, 0);
	put32(&r, 5);		/* PROT_READ | PROT_EXEC */
	put32(&r, 2);		/* MAP_PRIVATE */
	put_str(&r, name);
	trailer(&r, pid, pid, time);
	return end(w, &r);
}

static int
task(struct pd_writer *w, uint32_t type, uint32_t pid, uint32_t ppid,
     uint64_t time)
{
	struct rec r;

	begin(&r, type, 0);
	put32(&r, pid);
	put32(&r, ppid);
	put32(&r, pid);
	put32(&r, ppid);
	put64(&r, time);
	trailer(&r, pid, pid, time);
	return end(w, &r);
}

static int
ksymbol(struct pd_writer *w, uint64_t addr, uint32_t len, uint16_t flags,
	const char *name, uint64_t time)
{
	struct rec r;
	uint16_t type = PD_KSYMBOL_TYPE_BPF;

	begin(&r, PD_RECORD_KSYMBOL, PD_MISC_KERNEL);
	put64(&r, addr);
	put32(&r, len);
	put(&r, &type, 2);
	put(&r, &flags, 2);
	put_str(&r, name);
	trailer(&r, (uint32_t)-1, (uint32_t)-1, time);
	return end(w, &r);
}

static int
sample_mode(struct pd_writer *w, uint16_t misc, uint32_t pid, uint32_t tid,
	    uint64_t ip, uint64_t time, const uint64_t *chain, size_t nr)
{
	struct rec r;
	size_t i;

	begin(&r, PD_RECORD_SAMPLE, misc);
	put64(&r, ip);
	put32(&r, pid);
	put32(&r, tid);
	put64(&r, time);
	put64(&r, 1000);
	put64(&r, nr);
	for (i = 0; i < nr; i++)
		put64(&r, chain[i]);
	return end(w, &r);
}

static int
sample(struct pd_writer *w, uint32_t pid, uint32_t tid, uint64_t ip,
       uint64_t time, const uint64_t *chain, size_t nr)
{
	return sample_mode(w, PD_MISC_USER, pid, tid, ip, time, chain, nr);
}

static int
round_end(struct pd_writer *w)
{
	struct rec r;

	begin(&r, PD_RECORD_FINISHED_ROUND, 0);
	return end(w, &r);
}

#define A 0x400000u
#define BPF 0xffffffffc0001000ull
#define BPF_NAME "bpf_prog_0123456789abcdef_pdtest"
#define LEAF(ip) (const uint64_t[]){ PD_CONTEXT_USER, (ip), A + 0x200 }, 3

/* a SAMPLE header with size 0: readers must stop there */
static int
bad_record(struct pd_writer *w)
{
	struct rec r;

	begin(&r, PD_RECORD_SAMPLE, PD_MISC_USER);
	return pd_writer_write(w, r.b, r.n);
}

static int
records(struct pd_writer *w, bool stop)
{
	static const uint64_t guest[] = {
		PD_CONTEXT_USER, A + 0x10, PD_CONTEXT_GUEST, A + 0x20,
	};
	static const uint64_t mixed[] = {
		PD_CONTEXT_KERNEL, 0xffffffff81000010ull, PD_CONTEXT_USER,
		A + 0x30, PD_CONTEXT_HV, 0x1234,
	};
	static const uint64_t bpf[] = {
		PD_CONTEXT_KERNEL, BPF + 0x10, BPF + 0x300, PD_CONTEXT_USER,
		A + 0x40,
	};
	int err = 0;

	err |= comm(w, 100, 100, "first", 10);
	err |= mmap2(w, 100, A, 0x1000, 0, "/nonexistent/a", 10);
	err |= sample(w, 100, 100, A + 0x100, 50, LEAF(A + 0x100));
	err |= sample(w, 100, 100, A + 0x110, 30, LEAF(A + 0x110));
	err |= comm(w, 100, 100, "second", 40);
	err |= round_end(w);		/* first round: nothing flushed */
	err |= sample(w, 100, 100, A + 0x120, 20, LEAF(A + 0x120));
	err |= sample(w, 100, 101, A + 0x130, 60, LEAF(A + 0x130));
	err |= mmap2(w, 100, A, 0x800, 0x3000, "/nonexistent/b", 55);
	err |= sample(w, 100, 100, A + 0x900, 60, LEAF(A + 0x900));
	err |= sample(w, 100, 100, A + 0x140, 58, guest, 4);
	err |= round_end(w);		/* flushes up to 50 */
	err |= sample(w, 100, 100, A + 0x150, 45, LEAF(A + 0x150));
	err |= comm(w, 100, 100, "zero", 0);	/* time 0: applied at once */
	err |= task(w, PD_RECORD_FORK, 200, 100, 70);
	err |= sample(w, 200, 200, A + 0x160, 75, LEAF(A + 0x160));
	err |= sample(w, 200, 200, A + 0x170, 61, mixed, 6);
	err |= round_end(w);		/* flushes up to 60 */
	if (stop)
		return err | bad_record(w);
	err |= comm(w, 200, 200, "child", 80);
	err |= task(w, PD_RECORD_EXIT, 200, 100, 90);
	err |= sample(w, 200, 200, A + 0x180, 85, LEAF(A + 0x180));
	err |= sample(w, 300, 300, A + 0x190, 86, LEAF(A + 0x190));
	err |= sample(w, 100, 100, A + 0x1a0, 86, LEAF(A + 0x1a0));
	/* a BPF program: a kernel map with one symbol, until unregistered */
	err |= ksymbol(w, BPF, 0x100, 0, BPF_NAME, 87);
	err |= sample_mode(w, PD_MISC_KERNEL, 100, 100, BPF + 0x10, 88, bpf, 5);
	err |= ksymbol(w, BPF, 0x100, PD_KSYMBOL_FLAGS_UNREGISTER, BPF_NAME, 89);
	err |= sample_mode(w, PD_MISC_KERNEL, 100, 100, BPF + 0x10, 95, bpf, 5);
	/* hypervisor and guest samples: no map; guest ones perf filters out */
	err |= sample_mode(w, PD_MISC_HYPERVISOR, 100, 100, 0x5000, 96,
			   LEAF(A + 0x10));
	err |= sample_mode(w, PD_MISC_GUEST_USER, 100, 100, A + 0x10, 97,
			   LEAF(A + 0x10));
	err |= sample_mode(w, PD_MISC_GUEST_KERNEL, 100, 100, BPF, 98,
			   LEAF(A + 0x10));
	err |= sample(w, 100, 100, A + 0x1b0, 99, LEAF(A + 0x1b0));
	return err;
}

int
main(int argc, char **argv)
{
	struct pd_attr attr;
	struct pd_meta meta;
	struct pd_writer *w = NULL;
	int fd, err;

	bool stop = argc == 3 && !strcmp(argv[1], "--stop");

	if (argc != 2 && !stop) {
		fputs("usage: pd-mkorder [--stop] OUT\n", stderr);
		return 2;
	}
	fd = open(argv[argc - 1], O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		perror(argv[argc - 1]);
		return 1;
	}
	memset(&attr, 0, sizeof(attr));
	memset(&meta, 0, sizeof(meta));
	attr.type = 1;			/* software */
	attr.config = 0;		/* cpu-clock */
	attr.sample_period = 1000;
	attr.sample_type = TYPE;
	attr.flags = (1ULL << PD_ATTR_SAMPLE_ID_ALL) | (1ULL << PD_ATTR_MMAP) |
		     (1ULL << PD_ATTR_COMM) | (1ULL << PD_ATTR_TASK);
	err = pd_writer_open(&w, fd, NULL);
	if (!err)
		err = pd_writer_add_evsel(w, &attr, NULL, 0);
	if (!err)
		err = pd_writer_begin_data(w, NULL);
	if (!err)
		err = records(w, stop) ? -1 : 0;
	if (!err)
		err = pd_writer_finish(w, &meta);
	if (err)
		fprintf(stderr, "pd-mkorder: %s\n",
			w ? pd_writer_errmsg(w) : "out of memory");
	pd_writer_close(w);
	if (close(fd) && !err)
		err = -1;
	return err ? 1 : 0;
}
