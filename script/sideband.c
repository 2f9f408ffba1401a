/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * script/sideband.c - the records --show-task-events, --show-mmap-events
 * and their kin print: the line start of the record's event, then
 * "PERF_RECORD_<NAME>" and the text of perf 6.1's perf_event__fprintf()
 * (util/event.c); builtin-script.c's print_event_with_time() says which
 * thread and time the line start shows.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "pdata/events.h"
#include "pdata/text.h"
#include "script/scr.h"

/* the text perf script and -D print alike, into the output buffer */
static void
print_shared(struct scr *s, uint32_t type, uint16_t misc,
	     const union pd_event *e)
{
	size_t n = pd_event_text(NULL, 0, type, misc, e);

	pd_event_text(scr_out_room(&s->out, n + 1), n + 1, type, misc, e);
	s->out.len += n;
}

/* perf's text_poke bytes: 16 a line */
static void
print_poke_bytes(struct scr *s, const char *what, struct pd_bytes b)
{
	size_t i;

	for (i = 0; i < b.len; i++) {
		if (i % 16 == 0)
			scr_out_printf(&s->out, "            %s bytes:", what);
		scr_out_printf(&s->out, " %02x", b.p[i]);
		if (i % 16 == 15 || i == b.len - 1)
			scr_out_c(&s->out, '\n');
	}
}

/* the patched address, with its kernel symbol when there is one */
static void
print_text_poke(struct scr *s, const struct pd_ev_text_poke *e)
{
	struct ses_loc l;

	scr_out_printf(&s->out, " %" PRIx64 " ", e->addr);
	ses_resolve(s->ses, NULL, PD_MISC_KERNEL, e->addr, &l);
	if (l.map && l.sym)
		scr_print_sym(s, &l, true);
	scr_out_printf(&s->out, " old len %" PRIu16 " new len %" PRIu16 "\n",
		       e->old_len, e->new_len);
	print_poke_bytes(s, "Old", e->old_bytes);
	print_poke_bytes(s, "New", e->new_bytes);
}

/* "PERF_RECORD_<NAME>" and the record's text */
static void
print_event_text(struct scr *s, uint32_t type, uint16_t misc,
		 const union pd_event *e)
{
	struct scr_out *o = &s->out;
	const char *name = pd_record_type_name(type);

	scr_out_str(o, "PERF_RECORD_");
	scr_out_str(o, name ? name : "(unknown)");
	switch (type) {
	case PD_RECORD_COMM:
	case PD_RECORD_MMAP:
	case PD_RECORD_MMAP2:
	case PD_RECORD_NAMESPACES:
	case PD_RECORD_CGROUP:
	case PD_RECORD_SWITCH:
	case PD_RECORD_SWITCH_CPU_WIDE:
	case PD_RECORD_KSYMBOL:
		print_shared(s, type, misc, e);
		break;
	case PD_RECORD_FORK:
	case PD_RECORD_EXIT:
		scr_out_printf(o, "(%d:%d):(%d:%d)\n", (int)e->fork.pid,
			       (int)e->fork.tid, (int)e->fork.ppid,
			       (int)e->fork.ptid);
		break;
	case PD_RECORD_LOST:
		scr_out_printf(o, " lost %" PRIu64 "\n", e->lost.lost);
		break;
	case PD_RECORD_TEXT_POKE:
		print_text_poke(s, &e->text_poke);
		break;
	case PD_RECORD_BPF_EVENT:
		scr_out_printf(o, " type %" PRIu16 ", flags %" PRIu16 ", id %"
			       PRIu32 "\n", e->bpf.type, e->bpf.flags,
			       e->bpf.id);
		break;
	default:
		scr_out_c(o, '\n');
		break;
	}
}

/* Whether an option asks for records of this type. */
static bool
shown(const struct scr *s, uint32_t type)
{
	switch (type) {
	case PD_RECORD_COMM:
	case PD_RECORD_FORK:
	case PD_RECORD_EXIT:
		return s->show_task;
	case PD_RECORD_MMAP:
	case PD_RECORD_MMAP2:
		return s->show_mmap;
	case PD_RECORD_SWITCH:
	case PD_RECORD_SWITCH_CPU_WIDE:
		return s->show_switch;
	case PD_RECORD_LOST:
		return s->show_lost;
	case PD_RECORD_NAMESPACES:
		return s->show_ns;
	case PD_RECORD_CGROUP:
		return s->show_cgroup;
	case PD_RECORD_KSYMBOL:
	case PD_RECORD_BPF_EVENT:
		return s->show_bpf;
	case PD_RECORD_FINISHED_ROUND:
		return s->show_round;
	case PD_RECORD_TEXT_POKE:
		return s->show_poke;
	default:
		return false;
	}
}

/*
 * The thread perf names in the line start: the record's own pid/tid for
 * COMM, FORK, EXIT, MMAP, MMAP2 and NAMESPACES, its sample_id's else.
 */
static void
record_task(const union pd_event *e, uint32_t type, int32_t *pid,
	    int32_t *tid, uint64_t *time)
{
	const struct pd_sample_id *sid = &e->base.sample_id;

	*pid = (int32_t)sid->pid;
	*tid = (int32_t)sid->tid;
	*time = 0;
	switch (type) {
	case PD_RECORD_COMM:
		*pid = (int32_t)e->comm.pid;
		*tid = (int32_t)e->comm.tid;
		break;
	case PD_RECORD_FORK:
	case PD_RECORD_EXIT:
		*pid = (int32_t)e->fork.pid;
		*tid = (int32_t)e->fork.tid;
		*time = e->fork.time;
		break;
	case PD_RECORD_MMAP:
		*pid = (int32_t)e->mmap.pid;
		*tid = (int32_t)e->mmap.tid;
		break;
	case PD_RECORD_MMAP2:
		*pid = (int32_t)e->mmap2.pid;
		*tid = (int32_t)e->mmap2.tid;
		break;
	case PD_RECORD_NAMESPACES:
		*pid = (int32_t)e->namespaces.pid;
		*tid = (int32_t)e->namespaces.tid;
		break;
	default:
		break;
	}
}

static bool
cpu_kept(const struct scr *s, uint32_t cpu)
{
	if (!s->filt.cpus || cpu == (uint32_t)-1)
		return true;
	return cpu < s->filt.nr_cpus && s->filt.cpus[cpu];
}

/* Print ev if an option asks for it; 0, or -1 when a check failed. */
int
scr_print_record(struct scr *s, const struct ses_event *ev)
{
	uint32_t type = ev->rec->header.type;
	const union pd_event *e = ev->event;
	const struct pd_sample_id *sid;
	const struct ses_thread *t = NULL;
	const struct pd_evsel *pev;
	int32_t pid, tid, spid, stid;
	uint64_t time, stime;
	uint32_t cpu;
	char tmp[24];
	const char *comm;

	if (!shown(s, type))
		return 0;
	if (type == PD_RECORD_FINISHED_ROUND) {
		scr_out_str(&s->out, "PERF_RECORD_FINISHED_ROUND\n");
		return 0;
	}
	if (!e)
		return 0;
	sid = &e->base.sample_id;
	record_task(e, type, &pid, &tid, &time);
	spid = (int32_t)sid->pid;
	stid = (int32_t)sid->tid;
	stime = sid->time;
	cpu = sid->cpu;
	pev = ev->rec->evsel >= 0 ?
	      pd_reader_evsel(s->r, (size_t)ev->rec->evsel) : NULL;
	if (pev && !pd_attr_has(&pev->attr, PD_ATTR_SAMPLE_ID_ALL)) {
		cpu = 0;
		stime = time;
		spid = pid;
		stid = tid;
	}
	if (!cpu_kept(s, cpu))
		return 0;
	if (pev) {
		if (scr_ev_setup(s, (unsigned int)ev->rec->evsel))
			return -1;
		if (tid != -1)
			t = ses_thread_find(s->ses, pid, tid);
		if (t) {
			comm = t->comm;
		} else if (tid == -1) {
			comm = ":-1";
		} else if (tid == 0) {
			comm = "swapper";
		} else {
			snprintf(tmp, sizeof(tmp), ":%d", (int)tid);
			comm = tmp;
		}
		scr_print_start(s, &s->evs[ev->rec->evsel],
				s->f.t[s->evs[ev->rec->evsel].type].fields,
				comm, spid, stid, cpu, stime, type,
				ev->rec->header.misc);
	}
	print_event_text(s, type, ev->rec->header.misc, e);
	return 0;
}
