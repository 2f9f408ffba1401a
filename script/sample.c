/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * script/sample.c - one sample as perf 6.1's perf script prints it: the
 * line start (perf_sample__fprintf_start()), then the fields in perf's
 * fixed order (process_event()), whatever the order of -F.
 */
#include "config.h"

#include <inttypes.h>
#include <string.h>

#include "pdata/text.h"
#include "script/dsoname.h"
#include "script/scr.h"
#include "symbol/symbol.h"

/* perf's data_src__fprintf(): padded to the longest printed so far */
static void
print_data_src(struct scr *s, uint64_t data_src)
{
	static size_t maxlen;
	char buf[PD_DATASRC_SCRIPT_MAX];
	size_t n = pd_datasrc_script(buf, sizeof(buf), data_src);

	if (n > maxlen)
		maxlen = n;
	scr_out_str(&s->out, buf);
	if (n < maxlen)
		scr_out_pad(&s->out, "", (unsigned int)(maxlen - n));
}

/* perf's sample_addr_correlates_sym(): page faults' data addresses */
static bool
addr_has_sym(const struct pd_attr *attr)
{
	return attr->type == PD_TYPE_SOFTWARE &&
	       (attr->config == PD_SW_PAGE_FAULTS ||
		attr->config == PD_SW_PAGE_FAULTS_MIN ||
		attr->config == PD_SW_PAGE_FAULTS_MAJ);
}

/* the DSO of an address looked up with resolve_fb() */
static const char *
map_dso_name(const struct scr *s, const struct ses_loc *l)
{
	return l->map ? scr_dso_name(pd_reader_meta(s->r), l) : "[unknown]";
}

/* perf's thread__find_map_fb(): the sample's cpumode, else the address's */
static void
resolve_fb(struct scr *s, const struct ses_sample *ss, uint64_t addr,
	   struct ses_loc *l)
{
	uint8_t mode = ss->raw->cpumode;
	uint8_t amode = (int64_t)addr < 0 ? PD_MISC_KERNEL : PD_MISC_USER;

	ses_resolve(s->ses, ss->thread, mode, addr, l);
	if (!l->map && amode != mode)
		ses_resolve(s->ses, ss->thread, amode, addr, l);
}

static void
print_addr(struct scr *s, const struct ses_sample *ss,
	   const struct pd_attr *attr, uint64_t fields)
{
	struct ses_loc l;

	scr_out_hex(&s->out, ss->raw->addr, 16);
	if (!addr_has_sym(attr))
		return;
	resolve_fb(s, ss, ss->raw->addr, &l);
	if (fields & SCR_BIT(SYM)) {
		scr_out_c(&s->out, ' ');
		scr_print_sym(s, &l, fields & SCR_BIT(SYMOFFSET));
	}
	if (fields & SCR_BIT(DSO)) {
		scr_out_add(&s->out, " (", 2);
		scr_out_str(&s->out, map_dso_name(s, &l));
		scr_out_c(&s->out, ')');
	}
}

static void
print_br_dso(struct scr *s, const struct ses_loc *l)
{
	scr_out_c(&s->out, '(');
	scr_out_str(&s->out, map_dso_name(s, l));
	scr_out_c(&s->out, ')');
}

/* "/P/-/-/12/CALL ": perf 6.1's print_bstack_flags() */
static void
print_br_flags(struct scr *s, const struct pd_branch_entry *e)
{
	const char *type = pd_branch_entry_type(e->flags, false);

	scr_out_c(&s->out, '/');
	scr_out_c(&s->out, !(e->mispred || e->predicted) ? '-' :
		  e->predicted ? 'P' : 'M');
	scr_out_c(&s->out, '/');
	scr_out_c(&s->out, e->in_tx ? 'X' : '-');
	scr_out_c(&s->out, '/');
	scr_out_c(&s->out, e->abort ? 'A' : '-');
	scr_out_c(&s->out, '/');
	scr_out_u64(&s->out, e->cycles, 0, false);
	scr_out_c(&s->out, '/');
	scr_out_str(&s->out, type ? type : "(null)");
	scr_out_c(&s->out, ' ');
}

/*
 * brstackoff's address: perf maps it (map_ip) unless the DSO's symbols
 * are at their link addresses (adjust_symbols: a kernel whose symbols
 * were found, an ET_EXEC); perf's kernel and module maps have pgoff 0.
 * A kernel address that found no symbol is taken for a kernel without
 * (an empty kallsyms loads, with none); perf reads a vDSO it found as
 * linked at its runtime address.
 */
static uint64_t
br_offset(const struct ses_loc *l, uint64_t ip)
{
	enum sym_dso_kind k;

	if (!l->map)
		return ip;
	k = sym_dso_kind(l->dso);
	if (k == SYM_DSO_VDSO)
		return sym_dso_origin(l->dso) != '!' ? ip : l->al_addr;
	if (k != SYM_DSO_KERNEL && k != SYM_DSO_MODULE)
		return l->al_addr;
	return l->sym ? ip : ip - l->map->start;
}

/*
 * brstack, brstacksym and brstackoff (the first of them that is set):
 * each end looked up as perf's thread__find_map_fb() does, with the
 * sample's cpumode first.
 */
static void
print_brstack(struct scr *s, const struct ses_sample *ss, uint64_t fields)
{
	const struct pd_branch_stack *br = &ss->raw->branch;
	bool dso = fields & SCR_BIT(DSO);
	bool sym = fields & SCR_BIT(BRSTACKSYM);
	bool off = !sym && !(fields & SCR_BIT(BRSTACK));
	struct pd_branch_entry e;
	struct ses_loc from, to;
	size_t i;

	for (i = 0; i < br->nr && !pd_branch_entry_get(br, i, &e); i++) {
		if (dso || sym || off) {
			resolve_fb(s, ss, e.from, &from);
			resolve_fb(s, ss, e.to, &to);
		}
		if (sym) {
			scr_print_sym(s, &from, true);
			if (dso)
				print_br_dso(s, &from);
			scr_out_c(&s->out, '/');
			scr_print_sym(s, &to, true);
			if (dso)
				print_br_dso(s, &to);
		} else {
			scr_out_add(&s->out, " 0x", 3);
			scr_out_hex(&s->out, off ? br_offset(&from, e.from) :
				    e.from, 0);
			if (dso)
				print_br_dso(s, &from);
			scr_out_add(&s->out, "/0x", 3);
			scr_out_hex(&s->out, off ? br_offset(&to, e.to) : e.to,
				    0);
			if (dso)
				print_br_dso(s, &to);
		}
		print_br_flags(s, &e);
	}
}

static void
print_regs(struct scr *s, const struct pd_regs *regs)
{
	char buf[8192];
	size_t n = pd_regs_script(buf, sizeof(buf), s->arch, regs);

	if (n >= sizeof(buf))
		n = sizeof(buf) - 1;
	scr_out_add(&s->out, buf, n);
}

static void
print_page_size(struct scr *s, uint64_t size)
{
	char buf[PD_PAGE_SIZE_TEXT_MAX];

	pd_page_size_text(buf, sizeof(buf), size);
	scr_out_c(&s->out, ' ');
	scr_out_str(&s->out, buf);
}

/*
 * A real pipe's tracing data: the reader keeps a copy once it has read
 * past it, long before the first tracepoint sample (perf 6.1 leaves a
 * stream's %ps arguments in hex: no resolver).
 */
static void
stream_trace(struct scr *s)
{
	const struct pd_meta *m = pd_reader_meta(s->r);
	struct ses_trace *t = NULL;

	if (s->trace_tried || !s->pipe || !m->tracing_data_blob)
		return;
	s->trace_tried = true;
	if (!ses_trace_parse(m->tracing_data_blob,
			     (size_t)m->tracing_data_size, &t))
		s->trace = t;
}

/*
 * The ip, or the callchain one frame a line: the text kept for the
 * sample's stack id, else resolved, formatted and kept.
 */
static int
print_stack(struct scr *s, const struct ses_sample *ss,
	    const struct scr_ev *ev, uint64_t fields)
{
	uint64_t flushes = s->out.flushes;
	const char *text;
	size_t start, len;
	int err;

	text = scr_stack_text_get(&s->stacks, ss->stack_id, &len);
	if (text) {
		scr_out_ref(&s->out, text, len);
		return 0;
	}
	/* the sample is decoded already: resolving it cannot fail */
	if (!ss->resolved) {
		err = ses_resolve_sample(s->ses, s->cur);
		if (err)
			return err;
	}
	start = s->out.len;
	if (s->use_callchain && ev->has_callchain) {
		scr_out_c(&s->out, '\n');
		scr_print_chain(s, ss, fields);
	} else {
		scr_out_c(&s->out, ' ');
		scr_print_ip(s, ss, fields);
	}
	/* a text cut by a write of the buffer is not kept */
	if (ss->stack_id && s->out.flushes == flushes)
		scr_stack_text_put(&s->stacks, ss->stack_id,
				   s->out.buf + start, s->out.len - start);
	return 0;
}

/* period and event name, as printed for the event's last period */
static void
print_period_name(struct scr *s, struct scr_ev *ev, const struct pd_evsel *pev,
		  uint64_t fields, uint64_t period)
{
	size_t at = s->out.len;
	uint64_t flushes = s->out.flushes;

	if (ev->mid_len && ev->mid_period == period) {
		scr_out_kept(&s->out, ev->mid, sizeof(ev->mid), ev->mid_len);
		return;
	}
	if (fields & SCR_BIT(PERIOD)) {
		scr_out_u64(&s->out, period, 10, false);
		scr_out_c(&s->out, ' ');
	}
	if (fields & SCR_BIT(EVNAME)) {
		scr_out_pad(&s->out, pd_evsel_name(pev), s->name_width);
		scr_out_add(&s->out, ": ", 2);
	}
	ev->mid_len = 0;
	if (s->out.flushes != flushes || s->out.len - at > sizeof(ev->mid))
		return;
	ev->mid_len = (uint8_t)(s->out.len - at);
	ev->mid_period = period;
	memcpy(ev->mid, s->out.buf + at, ev->mid_len);
}

/*
 * what is printed from a repeat's own fields, without decoding it
 * (bpf-output, a software default, is refused where it would print)
 */
#define REPEAT_FIELDS	(SCR_BIT(COMM) | SCR_BIT(TID) | SCR_BIT(PID) | \
			 SCR_BIT(TIME) | SCR_BIT(CPU) | SCR_BIT(EVNAME) | \
			 SCR_BIT(IP) | SCR_BIT(SYM) | SCR_BIT(DSO) | \
			 SCR_BIT(SYMOFFSET) | SCR_BIT(SRCLINE) | \
			 SCR_BIT(PERIOD) | SCR_BIT(TOD) | SCR_BIT(BPF_OUTPUT))

bool
scr_sample_needs_raw(struct scr *s, const struct ses_sample *ss)
{
	size_t len;
	uint64_t fields;

	if (ss->raw)
		return false;
	if (scr_ev_setup(s, ss->evsel))
		return true;	/* scr_print_sample() says why */
	fields = s->f.t[s->evs[ss->evsel].type].fields;
	if (fields & ~REPEAT_FIELDS)
		return true;
	/* a stack whose text is not kept is resolved, from the record */
	return (fields & SCR_BIT(IP)) &&
	       !scr_stack_text_get(&s->stacks, ss->stack_id, &len);
}

int
scr_print_sample(struct scr *s, const struct ses_sample *ss)
{
	const struct pd_evsel *pev;
	const struct pd_sample *raw = ss->raw;
	const struct pd_attr *attr;
	struct scr_ev *ev;
	uint64_t fields;

	if (scr_ev_setup(s, ss->evsel))
		return -1;
	ev = &s->evs[ss->evsel];
	fields = s->f.t[ev->type].fields;
	if (!fields)
		return 0;
	pev = pd_reader_evsel(s->r, ss->evsel);
	attr = &pev->attr;
	scr_print_start(s, ev, fields, ss->comm, ss->pid, ss->tid, ss->cpu,
			ss->time, PD_RECORD_SAMPLE, raw ? raw->misc : 0);
	print_period_name(s, ev, pev, fields, ss->period);
	if (s->f.print_flags)
		scr_out_pad(&s->out, " ", 24);
	if ((fields & SCR_BIT(TRACE)) && raw->raw.len && !s->trace)
		stream_trace(s);
	if ((fields & SCR_BIT(TRACE)) && raw->raw.len && s->trace) {
		const char *text;
		size_t len;

		if (ses_trace_text(s, attr, raw, &text, &len) == 0)
			scr_out_add(&s->out, text, len);
	}
	if (fields & SCR_BIT(ADDR))
		print_addr(s, ss, attr, fields);
	if (fields & SCR_BIT(DATA_SRC))
		print_data_src(s, raw->data_src);
	if (fields & (SCR_BIT(WEIGHT) | SCR_BIT(INS_LAT))) {
		struct pd_weight w;

		pd_weight_split(raw->weight, raw->type, PD_WEIGHT_RULE_X86,
				&w);
		if (fields & SCR_BIT(WEIGHT))
			scr_out_u64(&s->out, w.weight, 16, false);
		if (fields & SCR_BIT(INS_LAT))
			scr_out_u64(&s->out, w.ins_lat, 16, false);
	}
	if ((fields & SCR_BIT(IP)) && print_stack(s, ss, ev, fields))
		return -1;
	if (fields & SCR_BIT(IREGS))
		print_regs(s, &raw->intr_regs);
	if (fields & SCR_BIT(UREGS))
		print_regs(s, &raw->user_regs);
	if (fields & (SCR_BIT(BRSTACK) | SCR_BIT(BRSTACKSYM) |
		      SCR_BIT(BRSTACKOFF)))
		print_brstack(s, ss, fields);
	if (fields & (SCR_BIT(INSN) | SCR_BIT(INSNLEN)))
		scr_print_insn(s, ss, fields);
	if (fields & SCR_BIT(PHYS_ADDR))
		scr_out_hex(&s->out, raw->phys_addr, 16);
	if (fields & SCR_BIT(DATA_PAGE_SIZE))
		print_page_size(s, raw->data_page_size);
	if (fields & SCR_BIT(CODE_PAGE_SIZE))
		print_page_size(s, raw->code_page_size);
	scr_out_c(&s->out, '\n');
	return 0;
}
