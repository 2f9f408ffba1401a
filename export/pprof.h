/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * export/pprof.h - pexport --to pprof: the profile as pprof's
 * profile.proto describes it, gathered from one or more recordings
 * (pprof.c) and written as gzip'd protobuf (pprof-write.c).  Its tables
 * hold copies, never the session's pointers, so that each recording's
 * session is freed before the next is read.  Indexes into a table are
 * the proto's ids less one; 0 in an id field means none.
 */
#ifndef PD_EXPORT_PPROF_H
#define PD_EXPORT_PPROF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/u64map.h"

/* A table whose entries are interned: the map's values are 1 + index. */
struct pp_table {
	void *v;
	size_t nr, cap;
	struct u64map by_key;
};

struct pp_mapping {
	uint64_t start, limit, offset;
	uint32_t file, build_id;	/* string indexes */
	bool all_functions;		/* every location has a function */
	bool lines;			/* some location has a source line */
};

struct pp_function {
	uint32_t name;
	uint32_t file;			/* 0: unknown */
};

/*
 * A location's lines are its own (function, line), then, for a function
 * inlined into another, those of the location outer names: the frames
 * one unwound address was expanded into, innermost first, as pprof
 * lists inline frames.
 */
struct pp_location {
	uint64_t address;
	uint32_t mapping;		/* id; 0: none */
	uint32_t function;		/* id; 0: unknown code, no Line */
	int64_t line;			/* 0: unknown */
	uint64_t outer;			/* id; 0: none */
};

/* pid, tid and comm, cpu (when sampled) and event of samples */
struct pp_labels {
	int64_t pid, tid;
	uint32_t comm;
	uint32_t event;			/* the event's name */
	int64_t cpu;			/* -1: not sampled */
};

/* location ids stack_ids[start...start + len), leaf first */
struct pp_stack {
	size_t start, len;
};

struct pp_sample {
	uint32_t stack;			/* index into the stacks */
	uint32_t type;			/* its event's sample type (1...) */
	uint32_t labels;		/* index into labels */
	uint64_t samples, period;
};

/*
 * Sample type 0 is samples/count; type k >= 1 is an event's period,
 * one per event name over every recording.
 */
struct pp_type {
	uint32_t name, unit;
};

struct pp_profile {
	struct pp_table strings;	/* char *; 0 is "" */
	struct pp_table types;		/* struct pp_type */
	struct pp_table mappings;	/* struct pp_mapping */
	struct pp_table functions;	/* struct pp_function */
	struct pp_table locations;	/* struct pp_location */
	struct pp_table labels;		/* struct pp_labels */
	struct pp_table stacks;		/* struct pp_stack */
	uint64_t *stack_ids;		/* location ids, leaf first */
	size_t nr_stack_ids, cap_stack_ids;
	struct pp_sample *samples;
	size_t nr_samples, cap_samples;
	/* the first recording's first event: pprof's period_type */
	uint32_t period_type;		/* index into types; 0: none yet */
	int64_t period;
	int64_t time_nanos;		/* the earliest recording's start */
	int64_t duration_nanos;		/* summed */
	uint32_t key_pid, key_tid, key_comm, key_cpu, key_event;
	uint32_t num_unit;		/* of pid, tid and cpu: "id" */
};

static inline const struct pp_stack *
pp_stack(const struct pp_profile *pp, uint32_t stack)
{
	return (const struct pp_stack *)pp->stacks.v + stack;
}

/*
 * Write pp as a gzip'd profile.proto Profile to out.  Returns 0, or -1
 * after a message.
 */
int pp_write(struct pp_profile *pp, FILE *out, const char *name);

#endif /* PD_EXPORT_PPROF_H */
