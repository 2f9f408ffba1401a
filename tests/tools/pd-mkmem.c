/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * tests/tools/pd-mkmem.c - write a perf.data file of memory-access samples
 * for tests/report-mem.test, which compares preport --mem-mode with perf
 * report on it: samples with addresses, data_src values that set every
 * field in many combinations, transaction flags and abort codes, weight
 * structs (or plain weights with
 * --weight, some wider than 32 bits), physical addresses and data and
 * code page sizes; user samples in a shared library's code touching its
 * data objects, a shared file map, private anonymous maps of two
 * processes at the same address, and no map; kernel samples touching
 * kernel and user addresses.
 *
 * Usage: pd-mkmem [--weight] OUT LIB CODEOFF DATAOFF...
 * LIB is mapped twice in process 100 and once in process 200: its code
 * (from file offset 0, executable) and its data (read-write); the
 * samples' ips are at CODEOFF in the code map, their data addresses at
 * each DATAOFF (and 8 and 40 bytes on) in the data map, all file offsets.
 */
#include "config.h"

#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "pdata/abi.h"
#include "tests/tools/synth-records.h"

#define CODE_MAP 0x7f1000000000ULL
#define DATA_MAP 0x7f2000000000ULL
#define SHM_MAP 0x7f3000000000ULL
#define ANON_MAP 0x7f4000000000ULL
#define MAP_LEN 0x4000000ULL
#define KERNEL_IP 0xffffffff81001000ULL
#define KERNEL_DATA 0xffff888000001000ULL
#define NR_SAMPLES 400
#define MAX_DATA 8

#define TYPE_BASE (PD_SAMPLE_IP | PD_SAMPLE_TID | PD_SAMPLE_TIME | \
		   PD_SAMPLE_ADDR | PD_SAMPLE_PERIOD | PD_SAMPLE_DATA_SRC | \
		   PD_SAMPLE_TRANSACTION | PD_SAMPLE_PHYS_ADDR | \
		   PD_SAMPLE_DATA_PAGE_SIZE | PD_SAMPLE_CODE_PAGE_SIZE)

struct params {
	bool plain_weight;
	const char *lib;
	uint64_t code_off;
	uint64_t data_off[MAX_DATA];
	size_t nr_data;
	uint64_t rng;
};

static uint32_t
next_rand(struct params *p)
{
	p->rng = p->rng * 6364136223846793005ULL + 1442695040888963407ULL;
	return (uint32_t)(p->rng >> 33);
}

static uint64_t
pick(struct params *p, const uint64_t *v, size_t n)
{
	return v[next_rand(p) % n];
}

/* A map of name with its dso id (device, inode), protection and flags. */
static int
map2(struct pd_writer *w, uint32_t pid, uint64_t start, const char *name,
     uint32_t maj, uint32_t min, uint64_t ino, uint32_t prot, uint32_t flags)
{
	struct tbuf r;

	synth_begin(&r, PD_RECORD_MMAP2, PD_MISC_USER |
		    (prot & 4 ? 0 : PD_MISC_MMAP_DATA));
	tb_u32(&r, pid);
	tb_u32(&r, pid);
	tb_u64(&r, start);
	tb_u64(&r, MAP_LEN);
	tb_u64(&r, 0);
	tb_u32(&r, maj);
	tb_u32(&r, min);
	tb_u64(&r, ino);
	tb_u64(&r, 0);
	tb_u32(&r, prot);
	tb_u32(&r, flags);
	tb_str_padded(&r, name, 8);
	synth_trailer(&r, pid, pid, 1);
	return synth_end(w, &r);
}

/* The field values, each with its bits set in many ways. */
static uint64_t
data_src(struct params *p)
{
	static const uint64_t ops[] = { 0x1, 0x2, 0x4, 0x8, 0x10, 0x2 };
	static const uint64_t lvlnums[] = {
		0x1, 0x2, 0x3, 0x4, 0x9, 0xa, 0xb, 0xc, 0xd, 0xe, 0xf, 0x0,
	};
	uint32_t r = next_rand(p);
	uint64_t v;

	if (r % 17 == 0)
		return PD_MEM_DATA_SRC_NONE;
	if (r % 19 == 0)
		return 0;
	v = pick(p, ops, 6) << PD_MEM_OP_SHIFT;
	/*
	 * one level with hit or miss, or N/A: perf 6.1 overruns its 64-byte
	 * buffer on the " or " of several levels (doc/errata.md)
	 */
	if (next_rand(p) % 4)
		v |= (uint64_t)((1u << (2 + next_rand(p) % 12)) |
				(next_rand(p) % 3 ? 0x2 : 0x4)) << PD_MEM_LVL_SHIFT;
	else
		v |= (uint64_t)0x1 << PD_MEM_LVL_SHIFT;
	v |= (uint64_t)(next_rand(p) & 0x1f) << PD_MEM_SNOOP_SHIFT;
	v |= (uint64_t)(next_rand(p) & 0x3) << PD_MEM_LOCK_SHIFT;
	v |= (uint64_t)(next_rand(p) & 0x7f) << PD_MEM_TLB_SHIFT;
	v |= pick(p, lvlnums, 12) << PD_MEM_LVLNUM_SHIFT;
	v |= (uint64_t)(next_rand(p) % 4 == 0) << PD_MEM_REMOTE_SHIFT;
	v |= (uint64_t)(next_rand(p) & 0x3) << PD_MEM_SNOOPX_SHIFT;
	v |= (uint64_t)(next_rand(p) & 0x7) << PD_MEM_BLK_SHIFT;
	v |= (uint64_t)(next_rand(p) & 0x3) << PD_MEM_HOPS_SHIFT;
	return v;
}

/* The data address of a user sample of pid: one of the maps, or none. */
static uint64_t
user_addr(struct params *p)
{
	static const uint64_t within[] = { 0, 8, 40 };
	uint32_t r = next_rand(p) % 8;

	switch (r) {
	case 0:
		return SHM_MAP + 0x40 * (next_rand(p) % 4);
	case 1:
	case 2:
		return ANON_MAP + 0x1000 + 0x20 * (next_rand(p) % 4);
	case 3:
		return r * 0x10 + 0x100;	/* no map */
	default:
		return DATA_MAP + p->data_off[next_rand(p) % p->nr_data] +
		       pick(p, within, 3);
	}
}

static uint64_t
weight(struct params *p)
{
	uint64_t var1 = next_rand(p) % 5 ? next_rand(p) % 400 : 0;

	if (p->plain_weight)
		return next_rand(p) % 7 ? var1 :
		       ((uint64_t)(next_rand(p) % 3 + 1) << 32) | var1;
	return var1 | (uint64_t)(next_rand(p) % 60) << 32 |
	       (uint64_t)(next_rand(p) % 90) << 48;
}

/* Transaction flags: none mostly, any of the eight, an abort code. */
static uint64_t
transaction(struct params *p)
{
	if (next_rand(p) % 3)
		return 0;
	return (next_rand(p) & 0xff) |
	       (next_rand(p) % 2 ? (uint64_t)(next_rand(p) % 300) << 32 : 0);
}

static int
sample(struct pd_writer *w, struct params *p, uint64_t time)
{
	static const uint64_t data_pages[] = {
		0, 4096, 2048, 1024, 2 << 20, 1 << 30, 4096,
	};
	static const uint64_t code_pages[] = { 0, 4096, 2 << 20, 4096 };
	static const uint32_t tids[] = { 100, 101, 200 };
	uint32_t tid = tids[next_rand(p) % 3];
	uint32_t pid = tid == 200 ? 200 : 100;
	bool kernel = next_rand(p) % 5 == 0;
	uint64_t ip, addr;
	struct tbuf r;

	if (kernel) {
		ip = KERNEL_IP + 0x10 * (next_rand(p) % 3);
		addr = next_rand(p) % 2 ? KERNEL_DATA + 0x80 * (next_rand(p) % 3) :
		       user_addr(p);
	} else {
		ip = CODE_MAP + p->code_off + 4 * (next_rand(p) % 3);
		addr = user_addr(p);
	}
	synth_begin(&r, PD_RECORD_SAMPLE,
		    kernel ? PD_MISC_KERNEL : PD_MISC_USER);
	tb_u64(&r, ip);
	tb_u32(&r, pid);
	tb_u32(&r, tid);
	tb_u64(&r, time);
	tb_u64(&r, addr);
	tb_u64(&r, 1000);		/* period */
	tb_u64(&r, weight(p));
	tb_u64(&r, data_src(p));
	tb_u64(&r, transaction(p));
	tb_u64(&r, next_rand(p) % 3 ? 0x100000000ULL + (addr & 0xfffff) : 0);
	tb_u64(&r, pick(p, data_pages, 7));
	tb_u64(&r, pick(p, code_pages, 4));
	return synth_end(w, &r);
}

static int
records_cb(struct pd_writer *w, void *arg)
{
	struct params *p = arg;
	uint64_t t;

	if (synth_comm(w, 0, 100, 100, "memtest", 1) ||
	    synth_comm(w, 0, 100, 101, "memtest", 1) ||
	    synth_comm(w, 0, 200, 200, "other", 1) ||
	    map2(w, 100, CODE_MAP, p->lib, 8, 1, 1234, 5, 2) ||
	    map2(w, 100, DATA_MAP, p->lib, 8, 1, 1234, 3, 2) ||
	    map2(w, 100, SHM_MAP, "/dev/shm/pdata-mem", 0, 0x1a, 77, 3, 1) ||
	    map2(w, 100, ANON_MAP, "//anon", 0, 0, 0, 3, 0x22) ||
	    map2(w, 200, CODE_MAP, p->lib, 8, 1, 1234, 5, 2) ||
	    map2(w, 200, ANON_MAP, "//anon", 0, 0, 0, 3, 0x22))
		return -1;
	for (t = 0; t < NR_SAMPLES; t++)
		if (sample(w, p, 1000 + t * 1000))
			return -1;
	return 0;
}

int
main(int argc, char **argv)
{
	struct params p = { .rng = 42 };
	struct pd_attr attr;
	int i = 1, fd;
	const char *out;

	if (i < argc && !strcmp(argv[i], "--weight")) {
		p.plain_weight = true;
		i++;
	}
	if (argc - i < 4 || argc - i > 3 + MAX_DATA) {
		fputs("usage: pd-mkmem [--weight] OUT LIB CODEOFF DATAOFF...\n",
		      stderr);
		return 2;
	}
	out = argv[i++];
	p.lib = argv[i++];
	p.code_off = synth_number(argv[i++]);
	while (i < argc)
		p.data_off[p.nr_data++] = synth_number(argv[i++]);
	fd = open(out, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		perror(out);
		return 1;
	}
	synth_attr(&attr, TYPE_BASE | (p.plain_weight ? PD_SAMPLE_WEIGHT :
				       PD_SAMPLE_WEIGHT_STRUCT), 1000);
	return synth_write(fd, &attr, NULL, records_cb, &p, "pd-mkmem") ? 1 : 0;
}
