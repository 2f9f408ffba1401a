/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * session/trace.h - the `trace` field of perf script and the `trace`
 * sort key of perf report: a tracepoint sample's raw data printed
 * through its event's print fmt, with libtraceevent fed from the file's
 * tracing data.
 *
 * The tracing data is perf's blob (perf-data-file-format.md, the
 * TRACING_DATA feature): the "\027\010Dtracing" magic, a version string,
 * the writer's byte order, long size and page size, the header_page and
 * header_event files, the ftrace formats, the event formats of each
 * system, the kallsyms text, the printk formats and, from version 0.6,
 * the saved cmdlines.  Every size in it is checked against the blob.
 *
 * perf 6.1 loads no libtraceevent plugin unless $TRACEEVENT_PLUGIN_DIR or
 * ~/.local/lib/traceevent/plugins holds some; this module never loads
 * one, so it prints what perf prints without them.
 */
#ifndef PD_SES_TRACE_H
#define PD_SES_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/strbuf.h"
#include "pdata/reader.h"
#include "pdata/sample.h"

struct ses_trace;

/*
 * The kernel symbol at *addr, for the %pS-like arguments of a print fmt:
 * its name, with *addr set to the symbol's start and *mod to its module
 * (NULL for the kernel itself); NULL when no symbol holds the address.
 * The name and module must stay valid until the next call.  perf script
 * resolves these with its own kernel map (machine__resolve_kernel_addr),
 * but only for a file: in pipe mode the tracing data arrives after perf
 * script would have installed the resolver, so perf 6.1 prints these
 * arguments as hex addresses there; pscript must not set one then.
 */
typedef const char *(*ses_trace_resolver)(void *ctx, uint64_t *addr,
					  const char **mod);

/*
 * The file's tracing data (the TRACING_DATA feature in file mode, the
 * HEADER_TRACING_DATA record's blob in pipe mode, once read).
 * A stream's blob is the copy the reader keeps (pd_meta's
 * tracing_data_blob).  Returns 0 with *out NULL when the file has none,
 * 0 with *out set, or -PD_E_*: -PD_E_UNSUPPORTED for a stream not yet
 * read past its blob, another value when the blob is malformed or cannot
 * be read.
 */
int ses_trace_open(struct pd_reader *r, struct ses_trace **out);

/* ses_trace_open(), NULL on any failure or when the file has none. */
struct ses_trace *ses_trace_new(struct pd_reader *r);

/* The same from the blob itself; 0 and *out, or -PD_E_*. */
int ses_trace_parse(const unsigned char *blob, size_t len,
		    struct ses_trace **out);

void ses_trace_free(struct ses_trace *t);

/* How %pS-like arguments find kernel symbols; none by default (hex). */
void ses_trace_set_resolver(struct ses_trace *t, ses_trace_resolver fn,
			    void *ctx);
/* ses_trace_set_resolver() with the kernel maps of session s, as perf's. */
struct ses_session;
void ses_trace_resolve_kernel(struct ses_trace *t, struct ses_session *s);

/*
 * The name of the tracepoint whose id is id (a TRACEPOINT attr's
 * config), and its system in *sys; NULL when the tracing data has no
 * such event (perf then says "broken or missing trace data").
 */
const char *ses_trace_event_name(struct ses_trace *t, uint64_t id,
				 const char **sys);

/*
 * Append the sample's `trace` field (its raw data formatted by the
 * event's print fmt) exactly as perf 6.1's perf script prints it.
 * attr is the sample's event, a TRACEPOINT one (-PD_E_INVAL otherwise).
 * Appends nothing for a sample without raw data.  Returns 0, or a
 * negative -PD_E_* value.
 */
int ses_trace_format(struct ses_trace *t, const struct pd_attr *attr,
		     const struct pd_sample *ps, struct strbuf *out);

/*
 * ses_trace_format() without the print fmt: each field of the event as
 * " name=value", in the forms perf 6.1's bundled libtraceevent prints
 * (perf's --raw-trace); appends nothing when the tracing data has no such
 * event.
 */
int ses_trace_format_fields(struct ses_trace *t, const struct pd_attr *attr,
			    const struct pd_sample *ps, struct strbuf *out);

/* One field of a tracepoint's format, for perf report's field keys. */
#define SES_TRACE_FIELD_STRING		1u	/* a char array */
#define SES_TRACE_FIELD_DYNAMIC		2u	/* __data_loc: a 32-bit offset/length */
#define SES_TRACE_FIELD_RELATIVE	4u	/* __rel_loc: the offset after the word */

struct ses_trace_field {
	const char *name;	/* valid while t is */
	uint32_t offset, size;	/* in the raw data */
	unsigned int flags;	/* SES_TRACE_FIELD_* */
	bool big_endian;	/* the raw data's byte order */
	void *handle;		/* for ses_trace_format_field() */
};

/*
 * The fields of tracepoint id, the common ones left out (perf's
 * format.fields), at most max into out: how many the event has, or -1
 * when the tracing data has no such event.
 */
long ses_trace_event_fields(struct ses_trace *t, uint64_t id,
			    struct ses_trace_field *out, size_t max);

/*
 * The field of tracepoint id named name, a common one first
 * (libtraceevent's tep_find_any_field()): 0 and *out, or -1 when the
 * event or the field does not exist.
 */
int ses_trace_find_field(struct ses_trace *t, uint64_t id, const char *name,
			 struct ses_trace_field *out);

/*
 * Append one field of a sample's raw data (raw, len bytes) as perf 6.1's
 * bundled libtraceevent prints it alone (tep_print_field()), parts past
 * the data's end read as nothing.
 */
void ses_trace_format_field(const struct ses_trace_field *f,
			    const unsigned char *raw, size_t len,
			    struct strbuf *out);

#endif /* PD_SES_TRACE_H */
