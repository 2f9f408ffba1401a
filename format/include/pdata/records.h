/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * pdata/records.h - the event attribute, the event (evsel) and the raw
 * record that the reader hands out.
 *
 * Everything here is in host byte order except the bytes behind
 * pd_record.data, which stay in the file's byte order; decode them with
 * pd_sample_decode() (pdata/sample.h) or pd_event_decode() (pdata/events.h).
 */
#ifndef PDATA_RECORDS_H
#define PDATA_RECORDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pdata/abi.h"

struct pd_event_header {
	uint32_t type;
	uint16_t misc;
	uint16_t size;
};

/*
 * struct perf_event_attr as of PD_ATTR_SIZE_VER9, in host byte order.
 * Fields past the size the file carried are zero.  flags holds the flag
 * bitfield with the little-endian bit numbering of enum pd_attr_flag,
 * whatever the file's byte order (doc/perf-data-format.md §14.4).
 */
struct pd_attr {
	uint32_t type;
	uint32_t size;			/* as stored in the file (0 in very old files) */
	uint64_t config;
	uint64_t sample_period;		/* sample_freq when PD_ATTR_FREQ is set */
	uint64_t sample_type;
	uint64_t read_format;
	uint64_t flags;
	uint32_t wakeup_events;		/* or wakeup_watermark */
	uint32_t bp_type;
	uint64_t config1;		/* or bp_addr, kprobe_func, uprobe_path */
	uint64_t config2;		/* or bp_len, kprobe_addr, probe_offset */
	uint64_t branch_sample_type;
	uint64_t sample_regs_user;
	uint32_t sample_stack_user;
	int32_t clockid;
	uint64_t sample_regs_intr;
	uint32_t aux_watermark;
	uint16_t sample_max_stack;
	uint16_t reserved_2;
	uint32_t aux_sample_size;
	uint32_t aux_action;		/* PD_AUX_* bits, LE numbering */
	uint64_t sig_data;
	uint64_t config3;
	uint64_t config4;
};

static inline bool
pd_attr_has(const struct pd_attr *attr, enum pd_attr_flag flag)
{
	return (attr->flags >> flag) & 1;
}

static inline unsigned int
pd_attr_precise_ip(const struct pd_attr *attr)
{
	return (attr->flags >> PD_ATTR_PRECISE_IP) & 3;
}

/*
 * Decode one attr from its on-disk bytes.  len is how many bytes the file
 * holds for it; the attr's own size field says how many are meaningful
 * (0 means PD_ATTR_SIZE_VER0).  Larger attrs keep the known prefix;
 * smaller ones are zero-filled.  Returns 0 or -PD_E_BAD_ATTR.
 */
int pd_attr_decode(const void *buf, size_t len, bool swap, struct pd_attr *out);

/*
 * Encode attr into buf (size bytes, a PD_ATTR_SIZE_VER* value, host byte
 * order), with attr->size replaced by size.
 */
void pd_attr_encode(const struct pd_attr *attr, uint32_t size, void *buf);

/* An event of the file: its attr, its ids and what the file says of it. */
struct pd_evsel {
	struct pd_attr attr;
	uint64_t *ids;
	size_t nr_ids;
	char *name;		/* EVENT_DESC or EVENT_UPDATE NAME; NULL if absent */
	char *auto_name;	/* the name perf derives from the attr ("cycles:HG") */
	char *unit;		/* EVENT_UPDATE UNIT; NULL if absent */
	double scale;		/* EVENT_UPDATE SCALE; 0 if absent */
	unsigned int idx;	/* position in the attr section / HEADER_ATTR order */
	/* where attr.sample_type puts the event id (doc/perf-data-format.md §11.1) */
	int id_pos;		/* u64 index of the id in a SAMPLE, -1 if none */
	int is_pos;		/* u64 index from the end of a trailer, -1 if none */
};

/*
 * The name perf derives from an attr when the file names no event
 * ("cycles:HG", "raw 0x1cd", "L1-dcache-load-misses"), written into buf.
 * Returns its length.
 */
size_t pd_attr_default_name(const struct pd_attr *attr, char *buf, size_t len);

/* The event's name: from the file, else the derived one.  Never NULL. */
static inline const char *
pd_evsel_name(const struct pd_evsel *ev)
{
	return ev->name ? ev->name : ev->auto_name ? ev->auto_name : "unknown";
}

/* Where a record came from. */
enum pd_record_origin {
	PD_ORIGIN_FILE = 0,	/* read from the file (or stream) as is */
	PD_ORIGIN_COMPRESSED,	/* decompressed from a COMPRESSED/COMPRESSED2 payload */
};

/*
 * One record as the reader yields it.  data points at the whole record
 * (header included, file byte order, possibly unaligned) and stays valid
 * only until the next pd_reader_next() call.
 */
struct pd_record {
	struct pd_event_header header;	/* host order */
	uint32_t size;		/* bytes at data: header.size, or simpleperf's 32-bit size */
	const unsigned char *data;
	uint64_t offset;	/* file offset; for decompressed records, that of the COMPRESSED record */
	uint64_t stream_offset;	/* decompressed records: offset in the decompressed stream */
	unsigned int source;	/* 0: the file; k >= 1: a directory's k-th data.N (pd_reader_source_name) */
	enum pd_record_origin origin;
	bool swap;		/* data is in the other byte order */
	int evsel;		/* index of the owning event, -1 if none or unknown */
	/*
	 * AUXTRACE data and pipe-mode TRACING_DATA blobs follow their record
	 * outside header.size.  payload points at them in a mapped file and
	 * is NULL in a stream, where the reader has skipped them.
	 */
	const unsigned char *payload;
	uint64_t payload_size;
};

#endif /* PDATA_RECORDS_H */
