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
#include "script/scr.h"

/* MMAP2 prot and flags bits: <sys/mman.h> values, alike on every arch */
#define SCR_PROT_READ	0x1
#define SCR_PROT_WRITE	0x2
#define SCR_PROT_EXEC	0x4
#define SCR_MAP_SHARED	0x1

static void
out_pstr(struct scr *s, struct pd_str str)
{
	scr_out_add(&s->out, str.s, str.len);
}

static void
print_mmap2(struct scr *s, const struct pd_ev_mmap2 *e)
{
	struct scr_out *o = &s->out;
	size_t i;

	scr_out_printf(o, " %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64,
		       (int)e->pid, (int)e->tid, e->start, e->len, e->pgoff);
	if (e->has_build_id) {
		scr_out_add(o, " <", 2);
		for (i = 0; i < e->build_id_size; i++)
			scr_out_printf(o, "%02x", e->build_id[i]);
		scr_out_c(o, '>');
	} else {
		scr_out_printf(o, " %02x:%02x %" PRIu64 " %" PRIu64, e->maj,
			       e->min, e->ino, e->ino_generation);
	}
	scr_out_printf(o, "]: %c%c%c%c ", e->prot & SCR_PROT_READ ? 'r' : '-',
		       e->prot & SCR_PROT_WRITE ? 'w' : '-',
		       e->prot & SCR_PROT_EXEC ? 'x' : '-',
		       e->flags & SCR_MAP_SHARED ? 's' : 'p');
	out_pstr(s, e->filename);
	scr_out_c(o, '\n');
}

static void
print_namespaces(struct scr *s, const struct pd_ev_namespaces *e)
{
	static const char *const names[PD_NR_NAMESPACES] = {
		"net", "uts", "ipc", "pid", "user", "mnt", "cgroup",
	};
	struct scr_out *o = &s->out;
	uint64_t i;

	scr_out_printf(o, " %d/%d - nr_namespaces: %" PRIu32 "\n\t\t[",
		       (int)e->pid, (int)e->tid, (uint32_t)e->nr_namespaces);
	for (i = 0; i < e->nr_namespaces; i++) {
		if (i && i % 4 == 0)
			scr_out_str(o, "\n\t\t ");
		scr_out_printf(o, "%" PRIu64 "/%s: %" PRIu64 "/%#" PRIx64 "%s",
			       i, i < PD_NR_NAMESPACES ? names[i] : "UNKNOWN",
			       pd_u64_array_get(&e->link_info, 2 * i),
			       pd_u64_array_get(&e->link_info, 2 * i + 1),
			       i + 1 != e->nr_namespaces ? ", " : "]\n");
	}
	if (!e->nr_namespaces)
		scr_out_str(o, "]\n");
}

static void
print_switch(struct scr *s, uint32_t type, const struct pd_ev_switch *sw)
{
	const char *in_out = !sw->out ? "IN         " :
			     !sw->preempt ? "OUT        " : "OUT preempt";

	if (type == PD_RECORD_SWITCH)
		scr_out_printf(&s->out, " %s\n", in_out);
	else
		scr_out_printf(&s->out, " %s  %s pid/tid: %5d/%-5d\n", in_out,
			       sw->out ? "next" : "prev",
			       (int)sw->next_prev_pid, (int)sw->next_prev_tid);
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
		scr_out_printf(o, "%s: ", misc & PD_MISC_COMM_EXEC ? " exec" :
			       "");
		out_pstr(s, e->comm.comm);
		scr_out_printf(o, ":%d/%d\n", (int)e->comm.pid,
			       (int)e->comm.tid);
		break;
	case PD_RECORD_FORK:
	case PD_RECORD_EXIT:
		scr_out_printf(o, "(%d:%d):(%d:%d)\n", (int)e->fork.pid,
			       (int)e->fork.tid, (int)e->fork.ppid,
			       (int)e->fork.ptid);
		break;
	case PD_RECORD_MMAP:
		scr_out_printf(o, " %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#"
			       PRIx64 "]: %c ", (int)e->mmap.pid,
			       (int)e->mmap.tid, e->mmap.start, e->mmap.len,
			       e->mmap.pgoff,
			       misc & PD_MISC_MMAP_DATA ? 'r' : 'x');
		out_pstr(s, e->mmap.filename);
		scr_out_c(o, '\n');
		break;
	case PD_RECORD_MMAP2:
		print_mmap2(s, &e->mmap2);
		break;
	case PD_RECORD_NAMESPACES:
		print_namespaces(s, &e->namespaces);
		break;
	case PD_RECORD_CGROUP:
		scr_out_printf(o, " cgroup: %" PRIu64 " ", e->cgroup.id);
		out_pstr(s, e->cgroup.path);
		scr_out_c(o, '\n');
		break;
	case PD_RECORD_SWITCH:
	case PD_RECORD_SWITCH_CPU_WIDE:
		print_switch(s, type, &e->context_switch);
		break;
	case PD_RECORD_LOST:
		scr_out_printf(o, " lost %" PRIu64 "\n", e->lost.lost);
		break;
	case PD_RECORD_KSYMBOL:
		scr_out_printf(o, " addr %" PRIx64 " len %" PRIu32 " type %"
			       PRIu16 " flags 0x%" PRIx16 " name ",
			       e->ksymbol.addr, e->ksymbol.len,
			       e->ksymbol.ksym_type, e->ksymbol.flags);
		out_pstr(s, e->ksymbol.name);
		scr_out_c(o, '\n');
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
