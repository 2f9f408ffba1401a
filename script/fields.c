/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * script/fields.c - perf 6.1's output fields: the defaults of each
 * event type, -F with its type: prefix and +/- forms, and the check of
 * the fields against each type's first event (builtin-script.c,
 * parse_output_fields() and evsel__check_attr()), messages included.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/diag.h"
#include "lib/xalloc.h"
#include "script/scr.h"

/* The names -F takes, in perf 6.1's order ("flags" is apart). */
static const char *const field_names[SCR_F_COUNT] = {
	[SCR_F_COMM] = "comm",
	[SCR_F_TID] = "tid",
	[SCR_F_PID] = "pid",
	[SCR_F_TIME] = "time",
	[SCR_F_CPU] = "cpu",
	[SCR_F_EVNAME] = "event",
	[SCR_F_TRACE] = "trace",
	[SCR_F_IP] = "ip",
	[SCR_F_SYM] = "sym",
	[SCR_F_DSO] = "dso",
	[SCR_F_ADDR] = "addr",
	[SCR_F_SYMOFFSET] = "symoff",
	[SCR_F_SRCLINE] = "srcline",
	[SCR_F_PERIOD] = "period",
	[SCR_F_IREGS] = "iregs",
	[SCR_F_UREGS] = "uregs",
	[SCR_F_BRSTACK] = "brstack",
	[SCR_F_BRSTACKSYM] = "brstacksym",
	[SCR_F_DATA_SRC] = "data_src",
	[SCR_F_WEIGHT] = "weight",
	[SCR_F_BPF_OUTPUT] = "bpf-output",
	[SCR_F_CALLINDENT] = "callindent",
	[SCR_F_INSN] = "insn",
	[SCR_F_INSNLEN] = "insnlen",
	[SCR_F_SYNTH] = "synth",
	[SCR_F_BRSTACKINSN] = "brstackinsn",
	[SCR_F_BRSTACKOFF] = "brstackoff",
	[SCR_F_PHYS_ADDR] = "phys_addr",
	[SCR_F_METRIC] = "metric",
	[SCR_F_MISC] = "misc",
	[SCR_F_SRCCODE] = "srccode",
	[SCR_F_IPC] = "ipc",
	[SCR_F_TOD] = "tod",
	[SCR_F_DATA_PAGE_SIZE] = "data_page_size",
	[SCR_F_CODE_PAGE_SIZE] = "code_page_size",
	[SCR_F_INS_LAT] = "ins_lat",
	[SCR_F_BRSTACKINSNLEN] = "brstackinsnlen",
	[SCR_F_MACHINE_PID] = "machine_pid",
	[SCR_F_VCPU] = "vcpu",
};

#define DEF_FIELDS	(SCR_BIT(COMM) | SCR_BIT(TID) | SCR_BIT(CPU) | \
			 SCR_BIT(TIME) | SCR_BIT(EVNAME) | SCR_BIT(IP) | \
			 SCR_BIT(SYM) | SCR_BIT(SYMOFFSET) | SCR_BIT(DSO) | \
			 SCR_BIT(PERIOD))

/* perf 6.1's output[] table: the default and the refused fields */
static const struct {
	uint64_t fields;
	uint64_t invalid;
} type_defaults[SCR_T_COUNT] = {
	[SCR_T_HW] = { DEF_FIELDS, SCR_BIT(TRACE) | SCR_BIT(BPF_OUTPUT) },
	[SCR_T_SW] = { DEF_FIELDS | SCR_BIT(BPF_OUTPUT), SCR_BIT(TRACE) },
	[SCR_T_TRACE] = {
		SCR_BIT(COMM) | SCR_BIT(TID) | SCR_BIT(CPU) | SCR_BIT(TIME) |
		SCR_BIT(EVNAME) | SCR_BIT(TRACE), 0 },
	[SCR_T_HW_CACHE] = { DEF_FIELDS,
			     SCR_BIT(TRACE) | SCR_BIT(BPF_OUTPUT) },
	[SCR_T_RAW] = {
		DEF_FIELDS | SCR_BIT(ADDR) | SCR_BIT(DATA_SRC) |
		SCR_BIT(WEIGHT) | SCR_BIT(PHYS_ADDR) |
		SCR_BIT(DATA_PAGE_SIZE) | SCR_BIT(CODE_PAGE_SIZE) |
		SCR_BIT(INS_LAT), SCR_BIT(TRACE) | SCR_BIT(BPF_OUTPUT) },
	[SCR_T_BREAK] = { DEF_FIELDS, SCR_BIT(TRACE) | SCR_BIT(BPF_OUTPUT) },
	[SCR_T_SYNTH] = {
		SCR_BIT(COMM) | SCR_BIT(TID) | SCR_BIT(CPU) | SCR_BIT(TIME) |
		SCR_BIT(EVNAME) | SCR_BIT(IP) | SCR_BIT(SYM) | SCR_BIT(DSO) |
		SCR_BIT(SYNTH), SCR_BIT(TRACE) | SCR_BIT(BPF_OUTPUT) },
	[SCR_T_OTHER] = { DEF_FIELDS, SCR_BIT(TRACE) | SCR_BIT(BPF_OUTPUT) },
};

/*
 * Fields that need what pscript cannot do: disassemble a branch stack's
 * runs of code, print source code
 */
#define REFUSED	(SCR_BIT(BRSTACKINSN) | SCR_BIT(BRSTACKINSNLEN) | \
		 SCR_BIT(SRCCODE))

/*
 * The checks' messages are perf's own, word for word and without our
 * program name, so that a script comparing the two tools sees the same.
 */
static void __attribute__((format(printf, 1, 2)))
perf_msg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/*
 * What perf 6.1 prints after a message about -F: its usage lines and the
 * option's help, so that the two tools' errors read the same.
 */
static const char perf_f_usage[] =
	"\n"
	" Usage: perf script [<options>]\n"
	"    or: perf script [<options>] record <script> [<record-options>] "
	"<command>\n"
	"    or: perf script [<options>] report <script> [script-args]\n"
	"    or: perf script [<options>] <script> [<record-options>] "
	"<command>\n"
	"    or: perf script [<options>] <top-script> [script-args]\n"
	"\n"
	"    -F, --fields <str>    comma separated output fields prepend with "
	"'type:'. +field to add and -field to remove.Valid types: hw,sw,trace,"
	"raw,synth. Fields: comm,tid,pid,time,cpu,event,trace,ip,sym,dso,addr,"
	"symoff,srcline,period,iregs,uregs,brstack,brstacksym,flags,data_src,"
	"weight,bpf-output,brstackinsn,brstackinsnlen,brstackoff,callindent,"
	"insn,insnlen,synth,phys_addr,metric,misc,srccode,ipc,tod,"
	"data_page_size,code_page_size,ins_lat\n";

/* perf 6.1's event_type(): the names of its messages */
static const char *
type_name(enum scr_otype t)
{
	switch (t) {
	case SCR_T_HW:
		return "hardware";
	case SCR_T_SW:
		return "software";
	case SCR_T_TRACE:
		return "tracepoint";
	case SCR_T_HW_CACHE:
		return "hardware-cache";
	default:
		return "unknown";
	}
}

enum scr_otype
scr_otype(uint32_t attr_type)
{
	if (attr_type == SCR_TYPE_SYNTH)
		return SCR_T_SYNTH;
	if (attr_type < PD_TYPE_MAX)
		return (enum scr_otype)attr_type;
	return SCR_T_OTHER;
}

void
scr_fields_init(struct scr_fields *f)
{
	unsigned int t;

	memset(f, 0, sizeof(*f));
	for (t = 0; t < SCR_T_COUNT; t++)
		f->t[t].fields = type_defaults[t].fields;
}

static int
parse_type(const char *s, enum scr_otype *t)
{
	static const struct {
		const char *name;
		enum scr_otype type;
	} types[] = {
		{ "hw", SCR_T_HW },
		{ "sw", SCR_T_SW },
		{ "trace", SCR_T_TRACE },
		{ "raw", SCR_T_RAW },
		{ "break", SCR_T_BREAK },
		{ "synth", SCR_T_SYNTH },
	};
	size_t i;

	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		if (!strcmp(s, types[i].name)) {
			*t = types[i].type;
			return 0;
		}
	}
	return -1;
}

static int
field_index(const char *name)
{
	int i;

	for (i = 0; i < SCR_F_COUNT; i++)
		if (!strcmp(name, field_names[i]))
			return i;
	return -1;
}

enum change { CH_DEFAULT, CH_SET, CH_ADD, CH_REMOVE };

/* One word of the list: the change it makes, or -1 (message printed). */
static int
parse_word(struct scr_fields *f, char *tok, int type, enum change *change)
{
	enum change c = *tok == '+' ? CH_ADD : *tok == '-' ? CH_REMOVE : CH_SET;
	uint64_t bit;
	int i, j;

	if ((c == CH_SET && *change != CH_SET && *change != CH_DEFAULT) ||
	    (c != CH_SET && *change == CH_SET)) {
		perf_msg("Cannot mix +-field with overridden fields");
		return -1;
	}
	*change = c;
	if (c != CH_SET)
		tok++;
	i = field_index(tok);
	if (i < 0 && !strcmp(tok, "flags")) {
		f->print_flags = c != CH_REMOVE;
		return 0;
	}
	if (i < 0) {
		perf_msg("Invalid field requested.");
		return -1;
	}
	bit = 1ULL << i;
	if (type >= 0) {
		if (type_defaults[type].invalid & bit) {
			perf_msg("'%s' not valid for %s events.", tok,
				 type_name((enum scr_otype)type));
			return -1;
		}
		if (c == CH_REMOVE)
			f->t[type].fields &= ~bit;
		else
			f->t[type].fields |= bit;
		return 0;
	}
	for (j = 0; j < SCR_T_COUNT; j++) {
		struct scr_fmt *m = &f->t[j];

		if (type_defaults[j].invalid & bit) {
			perf_msg("'%s' not valid for %s events. Ignoring.", tok,
				 type_name((enum scr_otype)j));
			continue;
		}
		if (c == CH_REMOVE) {
			m->fields &= ~bit;
			m->user_fields &= ~bit;
		} else {
			m->fields |= bit;
			m->user_fields |= bit;
		}
		m->user_set = true;
		m->wildcard_set = true;
	}
	f->any_user_set = true;
	return 0;
}

int
scr_fields_parse(struct scr_fields *f, const char *arg)
{
	enum change change = CH_DEFAULT;
	char *str = xstrdup(arg), *tok, *save = NULL;
	enum scr_otype t = SCR_T_HW;
	int type = -1, ret = 0, j;

	tok = strchr(str, ':');
	if (tok) {
		*tok++ = '\0';
		if (parse_type(str, &t)) {
			perf_msg("Invalid event type in field string.");
			ret = -1;
			goto out;
		}
		type = (int)t;
		if (f->t[t].user_set)
			perf_msg("Overriding previous field request for %s "
				 "events.", type_name(t));
		/* +field and -field change the defaults */
		if (!strpbrk(tok, "+-")) {
			f->t[t].fields = 0;
			f->t[t].user_set = true;
			f->t[t].wildcard_set = false;
			f->any_user_set = true;
		}
	} else {
		tok = str;
		if (!*str) {
			perf_msg("Cannot set fields to 'none' for all event "
				 "types.");
			ret = -1;
			goto out;
		}
		if (!strpbrk(str, "+-")) {
			if (f->any_user_set)
				perf_msg("Overriding previous field request "
					 "for all events.");
			for (j = 0; j < SCR_T_COUNT; j++) {
				f->t[j].fields = 0;
				f->t[j].user_set = true;
				f->t[j].wildcard_set = true;
			}
			f->any_user_set = true;
		}
	}
	for (tok = strtok_r(tok, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (parse_word(f, tok, type, &change)) {
			ret = -1;
			break;
		}
	}
out:
	free(str);
	if (ret)
		fputs(perf_f_usage, stderr);
	return ret;
}

/*
 * perf's evsel__do_check_stype(): a field the samples lack is an error
 * when -F named it without a type: prefix (unless allow), else it
 * silently leaves the list.
 */
static int
check_stype(const struct pd_evsel *ev, struct scr_fmt *m, uint64_t stype,
	    const char *msg, uint64_t bits, bool allow)
{
	int f;

	if (ev->attr.sample_type & stype)
		return 0;
	if (m->user_fields & bits) {
		if (allow)
			return 0;
		f = __builtin_ctzll(bits);
		perf_msg("Samples for '%s' event do not have %s attribute set. "
			 "Cannot print '%s' field.", pd_evsel_name(ev), msg,
			 field_names[f]);
		return -1;
	}
	m->fields &= ~bits;
	return 0;
}

#define HAS(x)	(m->fields & SCR_BIT(x))

/* perf's evlist__combined_branch_type() */
static uint64_t
branch_types(struct scr *s)
{
	size_t i, n = pd_reader_nr_evsels(s->r);
	uint64_t t = 0;

	for (i = 0; i < n; i++)
		t |= pd_reader_evsel(s->r, i)->attr.branch_sample_type;
	return t;
}

/* perf 6.1's evsel__check_attr(), for the first event of each type */
static int
check_attr(struct scr *s, const struct pd_evsel *ev, struct scr_fmt *m)
{
	const struct pd_meta *meta = pd_reader_meta(s->r);
	uint64_t st = ev->attr.sample_type;
	bool allow;
	static const struct {
		uint64_t stype;
		const char *msg;
		uint64_t bits;
		bool allow;	/* the AUXTRACE feature allows it */
	} checks[] = {
		{ PD_SAMPLE_IP, "IP", SCR_BIT(IP), false },
		{ PD_SAMPLE_ADDR, "ADDR", SCR_BIT(ADDR), true },
		{ PD_SAMPLE_DATA_SRC, "DATA_SRC", SCR_BIT(DATA_SRC), true },
		{ PD_SAMPLE_WEIGHT_TYPE, "WEIGHT", SCR_BIT(WEIGHT), true },
	}, checks2[] = {
		{ PD_SAMPLE_TID, "TID", SCR_BIT(TID) | SCR_BIT(PID), false },
		{ PD_SAMPLE_TIME, "TIME", SCR_BIT(TIME), false },
		{ PD_SAMPLE_CPU, "CPU", SCR_BIT(CPU), true },
		{ PD_SAMPLE_REGS_INTR, "IREGS", SCR_BIT(IREGS), true },
		{ PD_SAMPLE_REGS_USER, "UREGS", SCR_BIT(UREGS), false },
		{ PD_SAMPLE_PHYS_ADDR, "PHYS_ADDR", SCR_BIT(PHYS_ADDR), true },
		{ PD_SAMPLE_DATA_PAGE_SIZE, "DATA_PAGE_SIZE",
		  SCR_BIT(DATA_PAGE_SIZE), false },
		{ PD_SAMPLE_CODE_PAGE_SIZE, "CODE_PAGE_SIZE",
		  SCR_BIT(CODE_PAGE_SIZE), false },
		{ PD_SAMPLE_WEIGHT_STRUCT, "WEIGHT_STRUCT", SCR_BIT(INS_LAT),
		  false },
	};
	size_t i;

	if (ev->attr.type == PD_TYPE_SOFTWARE &&
	    ev->attr.config == PD_SW_DUMMY)
		return 0;
	if (meta && pd_meta_has(meta, PD_FEAT_STAT))
		return 0;
	allow = meta && pd_meta_has(meta, PD_FEAT_AUXTRACE);
	for (i = 0; i < sizeof(checks) / sizeof(checks[0]); i++)
		if ((m->fields & checks[i].bits) &&
		    check_stype(ev, m, checks[i].stype, checks[i].msg,
				checks[i].bits, checks[i].allow && allow))
			return -1;
	if (HAS(SYM) && !(st & (PD_SAMPLE_IP | PD_SAMPLE_ADDR))) {
		perf_msg("Display of symbols requested but neither sample IP "
			 "nor sample address\navailable. Hence, no addresses "
			 "to convert to symbols.");
		return -1;
	}
	if (HAS(SYMOFFSET) && !HAS(SYM)) {
		perf_msg("Display of offsets requested but symbol is "
			 "notselected.");
		return -1;
	}
	if (HAS(DSO) && !(st & (PD_SAMPLE_IP | PD_SAMPLE_ADDR))) {
		perf_msg("Display of DSO requested but no address to "
			 "convert.");
		return -1;
	}
	if ((HAS(SRCLINE) || HAS(SRCCODE)) && !HAS(IP)) {
		perf_msg("Display of source line number requested but sample "
			 "IP is not\nselected. Hence, no address to lookup "
			 "the source line number.");
		return -1;
	}
	if ((HAS(BRSTACKINSN) || HAS(BRSTACKINSNLEN)) && !allow &&
	    !(branch_types(s) & PD_BRANCH_ANY)) {
		perf_msg("Display of branch stack assembler requested, but non "
			 "all-branch filter set\nHint: run 'perf record -b "
			 "...'");
		return -1;
	}
	for (i = 0; i < sizeof(checks2) / sizeof(checks2[0]); i++)
		if ((m->fields & checks2[i].bits) &&
		    check_stype(ev, m, checks2[i].stype, checks2[i].msg,
				checks2[i].bits, checks2[i].allow && allow))
			return -1;
	return 0;
}

/*
 * Whether evsel is the event whose attr perf checks the fields of its
 * type against: the first of the type in the file's order.  For the
 * dynamic PMU types perf 6.1 looks for attr type 7 (its OUTPUT_TYPE_OTHER
 * taken as an attr type), and checks none in a pipe.
 */
static bool
checked_event(struct scr *s, enum scr_otype t, unsigned int evsel)
{
	uint32_t type = pd_reader_evsel(s->r, evsel)->attr.type;
	unsigned int i;

	if (t == SCR_T_OTHER && (s->pipe || type != SCR_T_OTHER))
		return false;
	for (i = 0; i < evsel; i++)
		if (scr_otype(pd_reader_evsel(s->r, i)->attr.type) == t &&
		    (t != SCR_T_OTHER ||
		     pd_reader_evsel(s->r, i)->attr.type == SCR_T_OTHER))
			return false;
	return true;
}

static bool
any_callchain(struct scr *s)
{
	size_t i, n = pd_reader_nr_evsels(s->r);

	for (i = 0; i < n; i++)
		if (pd_reader_evsel(s->r, i)->attr.sample_type &
		    PD_SAMPLE_CALLCHAIN)
			return true;
	return false;
}

static unsigned int
max_name_len(struct scr *s)
{
	size_t i, n = pd_reader_nr_evsels(s->r), w = 0, l;

	for (i = 0; i < n; i++) {
		l = strlen(pd_evsel_name(pd_reader_evsel(s->r, i)));
		if (l > w)
			w = l;
	}
	return (unsigned int)w;
}

/* Whether fields has one that pscript refuses to print (said why). */
static bool
refused(uint64_t fields)
{
	int i;

	if (!(fields & REFUSED))
		return false;
	i = __builtin_ctzll(fields & REFUSED);
	error_msg("the '%s' field needs code disassembled or source code "
		  "read, which pscript does not do (use perf script)",
		  field_names[i]);
	return true;
}

/*
 * Set up event evsel before its first record is printed: the fields of
 * its type are checked once, against the first event of that type.
 */
int
scr_ev_setup_new(struct scr *s, unsigned int evsel)
{
	size_t n = pd_reader_nr_evsels(s->r);
	const struct pd_evsel *ev;
	struct scr_ev *e;
	enum scr_otype t;
	bool tp_chain = false;
	size_t i;

	if (evsel >= n)
		return -1;
	if (n > s->nr_evs) {
		s->evs = xreallocarray(s->evs, n, sizeof(*s->evs));
		memset(s->evs + s->nr_evs, 0,
		       (n - s->nr_evs) * sizeof(*s->evs));
		s->nr_evs = n;
	}
	e = &s->evs[evsel];
	if (e->ready)
		return 0;
	ev = pd_reader_evsel(s->r, evsel);
	t = scr_otype(ev->attr.type);
	e->type = t;
	e->has_callchain = ev->attr.sample_type & PD_SAMPLE_CALLCHAIN;
	if ((s->f.t[t].fields & SCR_BIT(BPF_OUTPUT)) &&
	    ev->attr.type == PD_TYPE_SOFTWARE &&
	    ev->attr.config == PD_SW_BPF_OUTPUT) {
		error_msg("event '%s': pscript does not print bpf-output "
			  "data (use perf script, or -F -bpf-output)",
			  pd_evsel_name(ev));
		return -1;
	}
	if (checked_event(s, t, evsel) && s->f.t[t].fields &&
	    check_attr(s, ev, &s->f.t[t]))
		return -1;
	/* a regular file's are refused once perf's checks have all passed */
	if (s->pipe && refused(s->f.t[t].fields))
		return -1;
	if (!s->name_width)
		s->name_width = max_name_len(s);
	if (t == SCR_T_TRACE && s->use_callchain && !s->f.t[t].user_set) {
		for (i = 0; i < n; i++) {
			const struct pd_evsel *o = pd_reader_evsel(s->r, i);

			if (o->attr.type == PD_TYPE_TRACEPOINT &&
			    (o->attr.sample_type & PD_SAMPLE_CALLCHAIN))
				tp_chain = true;
		}
		if (tp_chain)
			s->f.t[t].fields |= SCR_BIT(IP) | SCR_BIT(SYM) |
					    SCR_BIT(SYMOFFSET) | SCR_BIT(DSO);
	}
	e->ready = true;
	return 0;
}

/*
 * The checks perf makes once the file is open, before any record: every
 * event of a regular file, the callchain default, and tod.
 */
int
scr_fields_check_file(struct scr *s)
{
	const struct pd_meta *meta = pd_reader_meta(s->r);
	size_t i, n = pd_reader_nr_evsels(s->r);
	bool tod = false;
	unsigned int t;

	if (s->use_callchain && !s->pipe && n && !any_callchain(s))
		s->use_callchain = false;
	/* perf checks the types in their order, then sets up the rest */
	for (t = 0; t < SCR_T_COUNT; t++)
		for (i = 0; i < n; i++)
			if (scr_otype(pd_reader_evsel(s->r, i)->attr.type) ==
			    t && scr_ev_setup(s, (unsigned int)i))
				return -1;
	for (i = 0; i < n; i++)
		if (refused(s->f.t[s->evs[i].type].fields))
			return -1;
	for (t = 0; t < SCR_T_COUNT; t++)
		tod |= (s->f.t[t].fields & SCR_BIT(TOD)) != 0;
	if (tod && !(meta && pd_meta_has(meta, PD_FEAT_CLOCK_DATA))) {
		perf_msg("Can't provide 'tod' time, missing clock data. "
			 "Please record with -k/--clockid option.");
		return -1;
	}
	return 0;
}
