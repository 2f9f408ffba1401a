/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * script/scr.h - what the parts of pscript share: the output buffer,
 * the field selection of each event type, and the printers of samples,
 * callchains and side-band records.
 *
 * The text is perf 6.1's `perf script` (tools/perf/builtin-script.c and
 * util/evsel_fprintf.c of that release), checked against it byte for
 * byte; doc/perf-records.md §5 describes it.
 */
#ifndef PD_SCRIPT_SCR_H
#define PD_SCRIPT_SCR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "lib/strbuf.h"
#include "pdata/events.h"
#include "pdata/reader.h"
#include "report/hist/hist.h"
#include "session/trace.h"
#include "session/session.h"

/*
 * out.c: one large buffer written with writev(2), and text kept
 * elsewhere (a stack's) written from where it is, not copied
 */

struct scr_out_piece {
	const char *ref;	/* kept text, or NULL: buf from off */
	size_t off, len;
};

struct scr_out {
	int fd;
	char *buf;
	size_t len;
	size_t cap;
	size_t mark;		/* buf before it is in pieces */
	struct scr_out_piece *pieces;	/* in order; then buf from mark */
	size_t nr_pieces;
	size_t ref_bytes;	/* what the pieces refer to outside buf */
	uint64_t flushes;	/* how often buf was written out */
	bool broken;		/* the reader went away (EPIPE): drop the rest */
	int err;		/* errno of a failed write, 0 */
};

void scr_out_init(struct scr_out *o, int fd);
void scr_out_free(struct scr_out *o);
/* Write what is buffered; false when the output is gone or failed. */
bool scr_out_flush(struct scr_out *o);
void scr_out_printf(struct scr_out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void scr_out_grow(struct scr_out *o, size_t need);

/* Room for need more bytes at o->buf + o->len. */
static inline char *
scr_out_room(struct scr_out *o, size_t need)
{
	if (o->cap - o->len < need)
		scr_out_grow(o, need);
	return o->buf + o->len;
}

static inline void
scr_out_add(struct scr_out *o, const char *s, size_t n)
{
	memcpy(scr_out_room(o, n), s, n);
	o->len += n;
}

/*
 * n bytes from a kept text of size bytes (n <= size, size a multiple of
 * 16): the whole 16-byte blocks are copied, and only n are kept; the
 * compiler's inline copy of a short variable length is slow here.
 */
static inline void
scr_out_kept(struct scr_out *o, const char *text, size_t size, size_t n)
{
	char *d = scr_out_room(o, size);
	size_t i;

	for (i = 0; i < n; i += 16)
		memcpy(d + i, text + i, 16);
	o->len += n;
}

static inline void
scr_out_str(struct scr_out *o, const char *s)
{
	scr_out_add(o, s, strlen(s));
}

static inline void
scr_out_c(struct scr_out *o, char c)
{
	*scr_out_room(o, 1) = c;
	o->len++;
}

/*
 * n bytes at text, which stay where they are, unchanged, until
 * scr_out_free(): long ones are written from there, not copied.
 */
void scr_out_ref(struct scr_out *o, const char *text, size_t n);

/* s right-justified in width columns (printf's "%*s"). */
void scr_out_pad(struct scr_out *o, const char *s, unsigned int width);
/* v in hex, right-justified in width columns ("%*llx"). */
void scr_out_hex(struct scr_out *o, uint64_t v, unsigned int width);
/* v in decimal, right-justified ("%*llu"); left-justified with left. */
void scr_out_u64(struct scr_out *o, uint64_t v, unsigned int width,
		 bool left);
void scr_out_s64(struct scr_out *o, int64_t v, unsigned int width,
		 bool left);

/* fields.c: perf 6.1's output fields and their selection (-F) */

enum scr_field {
	SCR_F_COMM,
	SCR_F_TID,
	SCR_F_PID,
	SCR_F_TIME,
	SCR_F_CPU,
	SCR_F_EVNAME,
	SCR_F_TRACE,
	SCR_F_IP,
	SCR_F_SYM,
	SCR_F_DSO,
	SCR_F_ADDR,
	SCR_F_SYMOFFSET,
	SCR_F_SRCLINE,
	SCR_F_PERIOD,
	SCR_F_IREGS,
	SCR_F_BRSTACK,
	SCR_F_BRSTACKSYM,
	SCR_F_DATA_SRC,
	SCR_F_WEIGHT,
	SCR_F_BPF_OUTPUT,
	SCR_F_CALLINDENT,
	SCR_F_INSN,
	SCR_F_INSNLEN,
	SCR_F_BRSTACKINSN,
	SCR_F_BRSTACKOFF,
	SCR_F_SYNTH,
	SCR_F_PHYS_ADDR,
	SCR_F_UREGS,
	SCR_F_METRIC,
	SCR_F_MISC,
	SCR_F_SRCCODE,
	SCR_F_IPC,
	SCR_F_TOD,
	SCR_F_DATA_PAGE_SIZE,
	SCR_F_CODE_PAGE_SIZE,
	SCR_F_INS_LAT,
	SCR_F_BRSTACKINSNLEN,
	SCR_F_MACHINE_PID,
	SCR_F_VCPU,
	SCR_F_COUNT
};

#define SCR_BIT(f)	(1ULL << SCR_F_##f)

/* perf's output types: the attr types below 6, synthesized, the rest */
enum scr_otype {
	SCR_T_HW,
	SCR_T_SW,
	SCR_T_TRACE,
	SCR_T_HW_CACHE,
	SCR_T_RAW,
	SCR_T_BREAK,
	SCR_T_SYNTH,
	SCR_T_OTHER,
	SCR_T_COUNT
};

/* perf's PERF_TYPE_SYNTH: the attr type of synthesized events */
#define SCR_TYPE_SYNTH	PD_TYPE_SYNTH

struct scr_fmt {
	uint64_t fields;
	uint64_t user_fields;	/* fields named without a type: prefix */
	bool user_set;
	bool wildcard_set;
};

struct scr_fields {
	struct scr_fmt t[SCR_T_COUNT];
	bool print_flags;	/* -F flags */
	bool any_user_set;
};

enum scr_otype scr_otype(uint32_t attr_type);
void scr_fields_init(struct scr_fields *f);
/* One -F argument; 0, or -1 with the message printed. */
int scr_fields_parse(struct scr_fields *f, const char *arg);

/* pscript.c: the tool's state, shared by the printers */

struct rep_hdr;
struct scr_insn;
struct scr_start;
struct ses_trace_memo;

/* start.c keeps SCR_STARTS line starts of SCR_START_TEXT bytes at most */
#define SCR_STARTS	256
#define SCR_START_TEXT	64

struct scr_ev {
	bool ready;		/* checked and set up */
	bool has_callchain;
	enum scr_otype type;
	/* a sample's period and event name, printed for mid_period */
	uint8_t mid_len;	/* 0: none kept */
	uint64_t mid_period;
	char mid[64];
};

/*
 * stacktext.c: the printed text of each stack id, in blocks that are
 * never moved nor freed before scr_stacks_free()
 */
struct scr_stacks {
	struct {
		const char *text;
		uint32_t len;		/* 0: none kept */
	} *ent;
	size_t nr;			/* entries, by stack id */
	char **blocks;
	size_t nr_blocks;
	char *next;			/* free in the last block */
	size_t room;			/* bytes free there */
	size_t total;			/* bytes in all blocks */
};

const char *scr_stack_text_get(const struct scr_stacks *c, uint64_t id,
			       size_t *len);
void scr_stack_text_put(struct scr_stacks *c, uint64_t id, const char *text,
			size_t len);
void scr_stacks_free(struct scr_stacks *c);

struct scr {
	struct scr_out out;
	struct scr_stacks stacks;	/* the text of each stack id */
	struct ses_event *cur;		/* the event being printed */
	struct pd_reader *r;
	struct ses_session *ses;
	struct scr_fields f;
	struct scr_ev *evs;
	size_t nr_evs;
	unsigned int name_width;	/* the longest event name */
	bool use_callchain;		/* not -G, and some event has chains */
	bool no_frames;			/* --max-stack 0: chains without frames */
	bool ns;			/* --ns */
	bool pipe;
	const char *arch;		/* perf's arch name, for registers */
	/* --show-*-events */
	bool show_task, show_mmap, show_switch, show_lost, show_ns;
	bool show_cgroup, show_bpf, show_round, show_poke;
	struct rep_filters filt;
	struct ses_trace *trace;	/* the tracing data, NULL if none */
	bool trace_tried;		/* a stream's kept blob was parsed */
	struct strbuf tbuf;		/* one trace field */
	struct rep_hdr *hdr;		/* --header on a stream, or NULL */
	struct scr_insn *insn;		/* insn.c's decoders, or NULL */
	struct scr_start *starts;	/* start.c's kept line starts */
	struct ses_trace_memo *trace_memo;	/* tracememo.c's texts */
};

/* fields.c: check the fields of ev's type against its attr, as perf does */
int scr_ev_setup_new(struct scr *s, unsigned int evsel);

/* 0 once the event is set up; else scr_ev_setup_new() */
static inline int
scr_ev_setup(struct scr *s, unsigned int evsel)
{
	if (evsel < s->nr_evs && s->evs[evsel].ready)
		return 0;
	return scr_ev_setup_new(s, evsel);
}
/* the checks made before the first record: every event, tod */
int scr_fields_check_file(struct scr *s);

/* callchain.c: addresses, symbols, DSOs and callchains */
void scr_print_sym(struct scr *s, const struct ses_loc *l, bool symoff);
void scr_print_ip(struct scr *s, const struct ses_sample *ss, uint64_t fields);
void scr_print_chain(struct scr *s, const struct ses_sample *ss,
		     uint64_t fields);

/* start.c: comm, pid/tid, CPU, misc, time: a line's start */
void scr_print_start(struct scr *s, const struct scr_ev *ev, uint64_t fields,
		     const char *comm, int32_t pid, int32_t tid, uint32_t cpu,
		     uint64_t time, uint32_t type, uint16_t misc);
void scr_starts_free(struct scr *s);

/* sample.c */
/* Whether ss, a repeat not decoded, must be for what is printed of it. */
bool scr_sample_needs_raw(struct scr *s, const struct ses_sample *ss);
int scr_print_sample(struct scr *s, const struct ses_sample *ss);

/*
 * insn.c: " ilen: N" (insnlen) and " insn: xx xx..." (insn, when the
 * instruction was read and decoded) for the sample's ip
 */
void scr_print_insn(struct scr *s, const struct ses_sample *ss,
		    uint64_t fields);
void scr_insn_free(struct scr *s);

/*
 * tracememo.c: the sample's `trace` text (ses_trace_format()), kept by
 * its event and raw bytes; *text lasts until the next call.
 */
int ses_trace_text(struct scr *s, const struct pd_attr *attr,
		   const struct pd_sample *ps, const char **text, size_t *len);
void ses_trace_memo_free(struct scr *s);

/* sideband.c: the records --show-*-events asks for */
int scr_print_record(struct scr *s, const struct ses_event *ev);

/*
 * pscript.c: the whole tool, argv as main() has it (script/main.c); the
 * exit status.  Called more than once (the fuzz target), reset optind.
 */
int pscript_main(int argc, char **argv);

#endif /* PD_SCRIPT_SCR_H */
