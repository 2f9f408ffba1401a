/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * tests/tools/synth-records.h - records for the tools that write small
 * perf.data files from nothing (pd-mkorder, pd-mkexec32): one record at a
 * time in host byte order, as pd_writer_write() takes them, each with
 * the sample_id trailer of sample_type TID|TIME.
 */
#ifndef PDATA_TESTS_SYNTH_RECORDS_H
#define PDATA_TESTS_SYNTH_RECORDS_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pdata/abi.h"
#include "pdata/meta.h"
#include "pdata/records.h"
#include "pdata/writer.h"
#include "tests/unit/buf.h"

static inline void
synth_begin(struct tbuf *r, uint32_t type, uint16_t misc)
{
	tb_init(r, HOST_BE);
	tb_begin_record(r, type, misc);
}

static inline void
synth_trailer(struct tbuf *r, uint32_t pid, uint32_t tid, uint64_t time)
{
	tb_u32(r, pid);
	tb_u32(r, tid);
	tb_u64(r, time);
}

/* Write the record and free it; the writer's error. */
static inline int
synth_end(struct pd_writer *w, struct tbuf *r)
{
	int err;

	tb_end_record(r, 0);
	err = pd_writer_write(w, r->p, r->len);
	tb_free(r);
	return err;
}

static inline int
synth_comm(struct pd_writer *w, uint16_t misc, uint32_t pid, uint32_t tid,
	   const char *name, uint64_t time)
{
	struct tbuf r;

	synth_begin(&r, PD_RECORD_COMM, misc);
	tb_u32(&r, pid);
	tb_u32(&r, tid);
	tb_str_padded(&r, name, 8);
	synth_trailer(&r, pid, tid, time);
	return synth_end(w, &r);
}

/* A SAMPLE's first fields: IP, TID, TIME, PERIOD. */
static inline void
synth_sample_begin(struct tbuf *r, uint16_t misc, uint64_t ip, uint32_t pid,
		   uint32_t tid, uint64_t time, uint64_t period)
{
	synth_begin(r, PD_RECORD_SAMPLE, misc);
	tb_u64(r, ip);
	tb_u32(r, pid);
	tb_u32(r, tid);
	tb_u64(r, time);
	tb_u64(r, period);
}

/* An executable private map of the file name, by the thread pid. */
static inline int
synth_mmap2(struct pd_writer *w, uint32_t pid, uint64_t start, uint64_t len,
	    uint64_t pgoff, const char *name, uint64_t time)
{
	struct tbuf r;

	synth_begin(&r, PD_RECORD_MMAP2, PD_MISC_USER);
	tb_u32(&r, pid);
	tb_u32(&r, pid);
	tb_u64(&r, start);
	tb_u64(&r, len);
	tb_u64(&r, pgoff);
	tb_u32(&r, 8);		/* maj */
	tb_u32(&r, 1);		/* min */
	tb_u64(&r, 1234);	/* ino */
	tb_u64(&r, 0);
	tb_u32(&r, 5);		/* PROT_READ | PROT_EXEC */
	tb_u32(&r, 2);		/* MAP_PRIVATE */
	tb_str_padded(&r, name, 8);
	synth_trailer(&r, pid, pid, time);
	return synth_end(w, &r);
}

/* A number of the command line (strtoull base 0); exits 2 if s is none. */
static inline uint64_t
synth_number(const char *s)
{
	char *e;
	unsigned long long v = strtoull(s, &e, 0);

	if (!*s || *e) {
		fprintf(stderr, "not a number: %s\n", s);
		exit(2);
	}
	return v;
}

/* A cpu-clock event of sample_type, with COMM, MMAP, TASK and ids on all. */
static inline void
synth_attr(struct pd_attr *attr, uint64_t sample_type, uint64_t period)
{
	memset(attr, 0, sizeof(*attr));
	attr->type = 1;			/* software */
	attr->config = 0;		/* cpu-clock */
	attr->sample_period = period;
	attr->sample_type = sample_type;
	attr->flags = (1ULL << PD_ATTR_SAMPLE_ID_ALL) |
		      (1ULL << PD_ATTR_MMAP) | (1ULL << PD_ATTR_COMM) |
		      (1ULL << PD_ATTR_TASK);
}

/*
 * Write a file of the one event attr, with the records records() writes
 * (non-zero when one failed) and the features of meta (NULL: none);
 * errors said on stderr after prog's name.  Closes fd.
 */
static inline int
synth_write(int fd, const struct pd_attr *attr, const struct pd_meta *meta,
	    int (*records)(struct pd_writer *w, void *arg), void *arg,
	    const char *prog)
{
	static const struct pd_meta none;
	struct pd_writer *w = NULL;
	int err;

	err = pd_writer_open(&w, fd, NULL);
	if (!err)
		err = pd_writer_add_evsel(w, attr, NULL, 0);
	if (!err)
		err = pd_writer_begin_data(w, NULL);
	if (!err)
		err = records(w, arg) ? -1 : 0;
	if (!err)
		err = pd_writer_finish(w, meta ? meta : &none);
	if (err)
		fprintf(stderr, "%s: %s\n", prog,
			w ? pd_writer_errmsg(w) : "out of memory");
	pd_writer_close(w);
	if (close(fd) && !err) {
		perror(prog);
		err = -1;
	}
	return err;
}

#endif
