/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * report/inspect/dump-int.h - what the parts of preport -D share.
 *
 * report/inspect/dump.c frames each record (its offset line, the hex dump
 * and the headline); the lines beneath the headline come from
 * dump-sample.c for samples, dump-kernel.c for the other kernel records
 * and dump-user.c for the records perf itself writes.
 */
#ifndef PD_REPORT_INSPECT_DUMP_INT_H
#define PD_REPORT_INSPECT_DUMP_INT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pdata/events.h"
#include "pdata/reader.h"

struct rep_dump {
	FILE *out;
	struct pd_reader *r;
	char host_arch[65];	/* uname -m: perf's arch without HEADER_ARCH */
	bool color;		/* the raw dump in colour */
};

/*
 * A row of a table indexed by record type: print writes the rest of the
 * headline of a record that decoded, and the lines beneath it.
 */
struct rep_dump_ops {
	void (*print)(const struct rep_dump *d, const struct pd_record *rec,
		      const union pd_event *e);
};

/* dump.c: the framing and the helpers every record type uses */
const struct pd_evsel *rep_dump_evsel(const struct rep_dump *d,
				      const struct pd_record *rec);
void rep_dump_headline(const struct rep_dump *d, const struct pd_record *rec,
		       uint32_t cpu, uint64_t time);
void rep_dump_error(const struct rep_dump *d, const char *what, int err);
void rep_dump_str(FILE *out, struct pd_str s);
void rep_dump_hex(FILE *out, const uint8_t *p, size_t size);

/* dump-sample.c: PERF_RECORD_SAMPLE, headline included */
void rep_dump_sample(const struct rep_dump *d, const struct pd_record *rec);
void rep_dump_chain_entry(const struct rep_dump *d, size_t i, uint64_t ip);

/* dump-kernel.c: the other kernel records, and their sample_id */
void rep_dump_kernel_event(const struct rep_dump *d,
			   const struct pd_record *rec,
			   const union pd_event *e);

/* dump-user.c: the records of type 64 and up */
void rep_dump_user_event(const struct rep_dump *d,
			 const struct pd_record *rec, const union pd_event *e);

#endif /* PD_REPORT_INSPECT_DUMP_INT_H */
