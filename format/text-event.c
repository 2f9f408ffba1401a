/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * format/text-event.c - the text perf 6.1's perf_event__fprintf() prints
 * after "PERF_RECORD_<NAME>" for the side-band records that perf script
 * and perf report -D print alike (doc/perf-records.md §5.4).
 */
#include "config.h"

#include <inttypes.h>

#include "pdata/events.h"
#include "pdata/text.h"

/* MMAP2 prot and flags bits: <sys/mman.h> values, alike on every arch */
#define TEXT_PROT_READ	0x1
#define TEXT_PROT_WRITE	0x2
#define TEXT_PROT_EXEC	0x4
#define TEXT_MAP_SHARED	0x1

static size_t
text_mmap2(char *buf, size_t size, const struct pd_ev_mmap2 *e)
{
	size_t len, i;

	len = pd_text_appendf(buf, size, 0, " %d/%d: [%#" PRIx64 "(%#" PRIx64
			      ") @ %#" PRIx64, (int)e->pid, (int)e->tid,
			      e->start, e->len, e->pgoff);
	if (e->has_build_id) {
		len = pd_text_appendf(buf, size, len, " <");
		for (i = 0; i < e->build_id_size; i++)
			len = pd_text_appendf(buf, size, len, "%02x",
					      e->build_id[i]);
		len = pd_text_appendf(buf, size, len, ">");
	} else {
		len = pd_text_appendf(buf, size, len, " %02x:%02x %" PRIu64
				      " %" PRIu64, e->maj, e->min, e->ino,
				      e->ino_generation);
	}
	return pd_text_appendf(buf, size, len, "]: %c%c%c%c %.*s\n",
			       e->prot & TEXT_PROT_READ ? 'r' : '-',
			       e->prot & TEXT_PROT_WRITE ? 'w' : '-',
			       e->prot & TEXT_PROT_EXEC ? 'x' : '-',
			       e->flags & TEXT_MAP_SHARED ? 's' : 'p',
			       (int)e->filename.len, e->filename.s);
}

static size_t
text_namespaces(char *buf, size_t size, const struct pd_ev_namespaces *e)
{
	static const char *const names[PD_NR_NAMESPACES] = {
		"net", "uts", "ipc", "pid", "user", "mnt", "cgroup",
	};
	size_t len;
	uint64_t i;

	len = pd_text_appendf(buf, size, 0, " %d/%d - nr_namespaces: %" PRIu32
			      "\n\t\t[", (int)e->pid, (int)e->tid,
			      (uint32_t)e->nr_namespaces);
	for (i = 0; i < e->nr_namespaces; i++) {
		if (i && i % 4 == 0)
			len = pd_text_appendf(buf, size, len, "\n\t\t ");
		len = pd_text_appendf(buf, size, len, "%" PRIu64 "/%s: %" PRIu64
				      "/%#" PRIx64 "%s", i,
				      i < PD_NR_NAMESPACES ? names[i] :
				      "UNKNOWN",
				      pd_u64_array_get(&e->link_info, 2 * i),
				      pd_u64_array_get(&e->link_info,
						       2 * i + 1),
				      i + 1 != e->nr_namespaces ? ", " : "]\n");
	}
	if (!e->nr_namespaces)
		len = pd_text_appendf(buf, size, len, "]\n");
	return len;
}

static size_t
text_switch(char *buf, size_t size, uint32_t type, const struct pd_ev_switch *sw)
{
	const char *in_out = !sw->out ? "IN         " :
			     !sw->preempt ? "OUT        " : "OUT preempt";

	if (type == PD_RECORD_SWITCH)
		return pd_text_appendf(buf, size, 0, " %s\n", in_out);
	return pd_text_appendf(buf, size, 0, " %s  %s pid/tid: %5d/%-5d\n",
			       in_out, sw->out ? "next" : "prev",
			       (int)sw->next_prev_pid, (int)sw->next_prev_tid);
}

size_t
pd_event_text(char *buf, size_t size, uint32_t type, uint16_t misc,
	      const union pd_event *e)
{
	if (size)
		buf[0] = '\0';
	switch (type) {
	case PD_RECORD_COMM:
		return pd_text_appendf(buf, size, 0, "%s: %.*s:%d/%d\n",
				       misc & PD_MISC_COMM_EXEC ? " exec" : "",
				       (int)e->comm.comm.len, e->comm.comm.s,
				       (int)e->comm.pid, (int)e->comm.tid);
	case PD_RECORD_MMAP:
		return pd_text_appendf(buf, size, 0, " %d/%d: [%#" PRIx64 "(%#"
				       PRIx64 ") @ %#" PRIx64 "]: %c %.*s\n",
				       (int)e->mmap.pid, (int)e->mmap.tid,
				       e->mmap.start, e->mmap.len,
				       e->mmap.pgoff,
				       misc & PD_MISC_MMAP_DATA ? 'r' : 'x',
				       (int)e->mmap.filename.len,
				       e->mmap.filename.s);
	case PD_RECORD_MMAP2:
		return text_mmap2(buf, size, &e->mmap2);
	case PD_RECORD_SWITCH:
	case PD_RECORD_SWITCH_CPU_WIDE:
		return text_switch(buf, size, type, &e->context_switch);
	case PD_RECORD_NAMESPACES:
		return text_namespaces(buf, size, &e->namespaces);
	case PD_RECORD_KSYMBOL:
		return pd_text_appendf(buf, size, 0, " addr %" PRIx64 " len %"
				       PRIu32 " type %" PRIu16 " flags 0x%"
				       PRIx16 " name %.*s\n", e->ksymbol.addr,
				       e->ksymbol.len, e->ksymbol.ksym_type,
				       e->ksymbol.flags,
				       (int)e->ksymbol.name.len,
				       e->ksymbol.name.s);
	case PD_RECORD_CGROUP:
		return pd_text_appendf(buf, size, 0, " cgroup: %" PRIu64
				       " %.*s\n", e->cgroup.id,
				       (int)e->cgroup.path.len,
				       e->cgroup.path.s);
	default:
		return 0;
	}
}
