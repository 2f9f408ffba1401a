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

#include "pdata/abi.h"
#include "tests/tools/synth-records.h"

#define TYPE (PD_SAMPLE_IP | PD_SAMPLE_TID | PD_SAMPLE_TIME | \
	      PD_SAMPLE_PERIOD | PD_SAMPLE_CALLCHAIN)

static int
task(struct pd_writer *w, uint32_t type, uint32_t pid, uint32_t ppid,
     uint64_t time)
{
	struct tbuf r;

	synth_begin(&r, type, 0);
	tb_u32(&r, pid);
	tb_u32(&r, ppid);
	tb_u32(&r, pid);
	tb_u32(&r, ppid);
	tb_u64(&r, time);
	synth_trailer(&r, pid, pid, time);
	return synth_end(w, &r);
}

static int
ksymbol(struct pd_writer *w, uint64_t addr, uint32_t len, uint16_t flags,
	const char *name, uint64_t time)
{
	struct tbuf r;
	uint16_t type = PD_KSYMBOL_TYPE_BPF;

	synth_begin(&r, PD_RECORD_KSYMBOL, PD_MISC_KERNEL);
	tb_u64(&r, addr);
	tb_u32(&r, len);
	tb_u16(&r, type);
	tb_u16(&r, flags);
	tb_str_padded(&r, name, 8);
	synth_trailer(&r, (uint32_t)-1, (uint32_t)-1, time);
	return synth_end(w, &r);
}

static int
sample_mode(struct pd_writer *w, uint16_t misc, uint32_t pid, uint32_t tid,
	    uint64_t ip, uint64_t time, const uint64_t *chain, size_t nr)
{
	struct tbuf r;
	size_t i;

	synth_sample_begin(&r, misc, ip, pid, tid, time, 1000);
	tb_u64(&r, nr);
	for (i = 0; i < nr; i++)
		tb_u64(&r, chain[i]);
	return synth_end(w, &r);
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
	struct tbuf r;

	synth_begin(&r, PD_RECORD_FINISHED_ROUND, 0);
	return synth_end(w, &r);
}

#define A 0x400000u
#define BPF 0xffffffffc0001000ull
#define BPF_NAME "bpf_prog_0123456789abcdef_pdtest"
#define LEAF(ip) (const uint64_t[]){ PD_CONTEXT_USER, (ip), A + 0x200 }, 3

/* a SAMPLE header with size 0: readers must stop there */
static int
bad_record(struct pd_writer *w)
{
	struct tbuf r;

	int err;

	synth_begin(&r, PD_RECORD_SAMPLE, PD_MISC_USER);
	err = pd_writer_write(w, r.p, r.len);
	tb_free(&r);
	return err;
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

	err |= synth_comm(w, PD_MISC_USER, 100, 100, "first", 10);
	err |= synth_mmap2(w, 100, A, 0x1000, 0, "/nonexistent/a", 10);
	err |= sample(w, 100, 100, A + 0x100, 50, LEAF(A + 0x100));
	err |= sample(w, 100, 100, A + 0x110, 30, LEAF(A + 0x110));
	err |= synth_comm(w, PD_MISC_USER, 100, 100, "second", 40);
	err |= round_end(w);		/* first round: nothing flushed */
	err |= sample(w, 100, 100, A + 0x120, 20, LEAF(A + 0x120));
	err |= sample(w, 100, 101, A + 0x130, 60, LEAF(A + 0x130));
	err |= synth_mmap2(w, 100, A, 0x800, 0x3000, "/nonexistent/b", 55);
	err |= sample(w, 100, 100, A + 0x900, 60, LEAF(A + 0x900));
	err |= sample(w, 100, 100, A + 0x140, 58, guest, 4);
	err |= round_end(w);		/* flushes up to 50 */
	err |= sample(w, 100, 100, A + 0x150, 45, LEAF(A + 0x150));
	/* time 0: applied at once */
	err |= synth_comm(w, PD_MISC_USER, 100, 100, "zero", 0);
	err |= task(w, PD_RECORD_FORK, 200, 100, 70);
	err |= sample(w, 200, 200, A + 0x160, 75, LEAF(A + 0x160));
	err |= sample(w, 200, 200, A + 0x170, 61, mixed, 6);
	err |= round_end(w);		/* flushes up to 60 */
	if (stop)
		return err | bad_record(w);
	err |= synth_comm(w, PD_MISC_USER, 200, 200, "child", 80);
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

static int
records_cb(struct pd_writer *w, void *arg)
{
	return records(w, *(bool *)arg);
}

int
main(int argc, char **argv)
{
	struct pd_attr attr;
	bool stop = argc == 3 && !strcmp(argv[1], "--stop");
	int fd;

	if (argc != 2 && !stop) {
		fputs("usage: pd-mkorder [--stop] OUT\n", stderr);
		return 2;
	}
	fd = open(argv[argc - 1], O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		perror(argv[argc - 1]);
		return 1;
	}
	synth_attr(&attr, TYPE, 1000);
	return synth_write(fd, &attr, NULL, records_cb, &stop,
			   "pd-mkorder") ? 1 : 0;
}
