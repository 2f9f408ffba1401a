/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * report/dump.c - preport -D: every record with its offset, its bytes and
 * every decoded field.
 *
 * The layout is perf 6.1's `perf report -D` (util/session.c dump_event,
 * dump_sample, and the tools' own lines in util/event.c and friends):
 * a line with the file offset, size and type, a hex dump, then the line
 * "<cpu> <time> <offset> [<size>]: PERF_RECORD_<NAME>..." and the details
 * beneath it.  Where perf prints a fact, the same text is printed here;
 * what perf leaves out (sample fields it does not dump, sample_id
 * trailers, the fields of records it calls "unhandled") follows on lines
 * of our own, "... <what>: <value>".
 *
 * Differences on purpose: records come in file order, as with perf's
 * --disable-order, not sorted by time; offsets are those of the input,
 * where perf counts a pipe-mode stream from the end of its 16-byte header
 * and leaves "@<file>" after them; COMPRESSED records are shown too, and
 * each record decompressed from one says so; the hex dump shows the bytes
 * as stored, where perf shows them after byte-swapping a cross-endian
 * file; the symbol lines perf adds to samples (" ... thread:",
 * " ...... dso:") need the session and are left to the report.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include "pdata/events.h"
#include "pdata/reader.h"
#include "pdata/sample.h"
#include "pdata/text.h"
#include "report/report.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* MMAP2 prot and flags bits: <sys/mman.h> values, alike on every Linux arch */
#define DUMP_PROT_READ		0x1
#define DUMP_PROT_WRITE		0x2
#define DUMP_PROT_EXEC		0x4
#define DUMP_MAP_SHARED		0x1

struct dump {
	FILE *out;
	struct pd_reader *r;
	char host_arch[65];	/* uname -m: perf's arch without HEADER_ARCH */
};

static const struct pd_evsel *
record_evsel(const struct dump *d, const struct pd_record *rec)
{
	if (rec->evsel < 0)
		return NULL;
	return pd_reader_evsel(d->r, (size_t)rec->evsel);
}

/* The arch perf names registers by: HEADER_ARCH, else the host's. */
static const char *
dump_arch(const struct dump *d)
{
	const struct pd_meta *m = pd_reader_meta(d->r);

	if (m && m->arch)
		return pd_arch_normalize(m->arch);
	return pd_arch_normalize(d->host_arch);
}

/*
 * How many events perf knew of when it printed rec: the reader applies a
 * pipe-mode HEADER_ATTR before handing it out, perf only after.
 */
static size_t
nr_evsels_before(const struct dump *d, const struct pd_record *rec)
{
	size_t n = pd_reader_nr_evsels(d->r);

	if (rec->header.type == PD_RECORD_HEADER_ATTR && n)
		n--;
	return n;
}

/* The OR of the sample_types of those events (perf's combined type). */
static uint64_t
combined_sample_type(const struct dump *d, const struct pd_record *rec)
{
	size_t i, n = nr_evsels_before(d, rec);
	uint64_t type = 0;

	for (i = 0; i < n; i++)
		type |= pd_reader_evsel(d->r, i)->attr.sample_type;
	return type;
}

/* perf takes sample_id_all from the first event. */
static bool
sample_id_all(const struct dump *d, const struct pd_record *rec)
{
	if (!nr_evsels_before(d, rec))
		return false;
	return pd_attr_has(&pd_reader_evsel(d->r, 0)->attr,
			   PD_ATTR_SAMPLE_ID_ALL);
}

static void
print_str(FILE *out, struct pd_str s)
{
	if (s.len)
		fwrite(s.s, 1, s.len, out);
}

/* perf's raw event dump (util/debug.c, trace_event; print_binary.c). */
static void
dump_raw(FILE *out, const unsigned char *p, size_t len)
{
	size_t i, j;

	fprintf(out, ".\n. ... raw event: size %zu bytes\n", len);
	for (i = 0; i < len; i++) {
		if ((i & 15) == 0)
			fprintf(out, ".  %04zx: ", i);
		fprintf(out, " %02x", p[i]);
		if ((i & 15) != 15 && i != len - 1)
			continue;
		for (j = 0; j < 15 - (i & 15); j++)
			fputs("   ", out);
		fputs("  ", out);
		for (j = i & ~(size_t)15; j <= i; j++)
			fputc(p[j] >= 0x20 && p[j] < 0x7f ? p[j] : '.', out);
		for (j = 0; j < 15 - (i & 15); j++)
			fputc(' ', out);
		fputc('\n', out);
	}
	fputc('\n', out);
}

/*
 * The "<cpu> <time> " prefix of perf's headline (evlist__print_tstamp):
 * which of the two is printed depends on the sample types of all events,
 * the values come from this record's sample or sample_id.
 */
static void
print_tstamp(const struct dump *d, const struct pd_record *rec,
	     uint32_t cpu, uint64_t time)
{
	uint64_t type = combined_sample_type(d, rec);

	if (rec->header.type != PD_RECORD_SAMPLE && !sample_id_all(d, rec)) {
		fputs("-1 -1 ", d->out);
		return;
	}
	if (type & PD_SAMPLE_CPU)
		fprintf(d->out, "%" PRIu32 " ", cpu);
	if (type & PD_SAMPLE_TIME)
		fprintf(d->out, "%" PRIu64 " ", time);
}

static void
print_headline(const struct dump *d, const struct pd_record *rec,
	       uint32_t cpu, uint64_t time)
{
	const char *name = pd_record_type_name(rec->header.type);

	print_tstamp(d, rec, cpu, time);
	fprintf(d->out, "%#" PRIx64 " [%#" PRIx32 "]: PERF_RECORD_",
		rec->offset, rec->size);
	if (name)
		fputs(name, d->out);
	else
		fprintf(d->out, "UNKNOWN_%" PRIu32, rec->header.type);
}

static void
print_error(const struct dump *d, const char *what, int err)
{
	fprintf(d->out, "... cannot decode %s: %s\n", what, pd_strerror(err));
}

/* Samples */

/* Byte offset in the record of the STACK_USER size word (perf's "offset"). */
static size_t
ustack_offset(const struct pd_sample *s)
{
	const struct pd_read *rd = &s->read;
	size_t off = PD_EVENT_HEADER_SIZE + pd_sample_fixed_size(s->type);

	if (s->type & PD_SAMPLE_READ) {
		off += 8 * (1 + !!(rd->format & PD_FORMAT_TOTAL_TIME_ENABLED) +
			    !!(rd->format & PD_FORMAT_TOTAL_TIME_RUNNING));
		if (rd->format & PD_FORMAT_GROUP)
			off += (size_t)rd->stride * rd->nr;
		else
			off += 8 * (!!(rd->format & PD_FORMAT_ID) +
				    !!(rd->format & PD_FORMAT_LOST));
	}
	if (s->type & PD_SAMPLE_CALLCHAIN)
		off += 8 + 8 * s->callchain.nr;
	if (s->type & PD_SAMPLE_RAW)
		off += 4 + s->raw.len;
	if (s->type & PD_SAMPLE_BRANCH_STACK)
		off += 8 + 8 * s->branch.has_hw_idx + 24 * s->branch.nr +
		       (s->branch.counters ? 8 * s->branch.nr : 0);
	if (s->type & PD_SAMPLE_REGS_USER)
		off += 8 + 8 * s->user_regs.regs.nr;
	return off;
}

static void
dump_read_values(const struct dump *d, const struct pd_read *rd)
{
	struct pd_read_value v;
	size_t i;

	fputs("... sample_read:\n", d->out);
	if (rd->format & PD_FORMAT_TOTAL_TIME_ENABLED)
		fprintf(d->out, "...... time enabled %016" PRIx64 "\n",
			rd->time_enabled);
	if (rd->format & PD_FORMAT_TOTAL_TIME_RUNNING)
		fprintf(d->out, "...... time running %016" PRIx64 "\n",
			rd->time_running);
	if (rd->format & PD_FORMAT_GROUP)
		fprintf(d->out, ".... group nr %zu\n", rd->nr);
	for (i = 0; i < rd->nr && pd_read_value_get(rd, i, &v) == 0; i++) {
		fprintf(d->out, "..... id %016" PRIx64 ", value %016" PRIx64,
			v.id, v.value);
		if (rd->format & PD_FORMAT_LOST)
			fprintf(d->out, ", lost %" PRIu64, v.lost);
		fputc('\n', d->out);
	}
}

static void
print_chain_entry(const struct dump *d, size_t i, uint64_t ip)
{
	const char *marker = pd_callchain_context_name(ip);

	/* the marker names are newer perf's; 6.1 prints the bare value */
	fprintf(d->out, "..... %2zu: %016" PRIx64 "%s%s%s\n", i, ip,
		marker ? " (" : "", marker ? marker : "", marker ? ")" : "");
}

/* perf's LBR call chain: the kernel part, then the stack the LBR holds. */
static void
dump_lbr_callstack(const struct dump *d, const struct pd_sample *s)
{
	const struct pd_u64_array *cc = &s->callchain;
	struct pd_branch_entry e;
	size_t i, k;

	for (k = 0; k < cc->nr; k++)
		if (pd_u64_array_get(cc, k) == PD_CONTEXT_USER)
			break;
	if (k == cc->nr || !s->branch.nr)
		return;
	fprintf(d->out, "... LBR call chain: nr:%zu\n",
		k + 1 + s->branch.nr + 1);
	for (i = 0; i <= k; i++)
		fprintf(d->out, "..... %2zu: %016" PRIx64 "\n", i,
			pd_u64_array_get(cc, i));
	pd_branch_entry_get(&s->branch, 0, &e);
	fprintf(d->out, "..... %2zu: %016" PRIx64 "\n", k + 1, e.to);
	for (i = 0; i < s->branch.nr; i++) {
		pd_branch_entry_get(&s->branch, i, &e);
		fprintf(d->out, "..... %2zu: %016" PRIx64 "\n", i + k + 2,
			e.from);
	}
}

static void
dump_callchain(const struct dump *d, const struct pd_evsel *ev,
	       const struct pd_sample *s)
{
	size_t i;

	if (ev->attr.branch_sample_type & PD_BRANCH_CALL_STACK)
		dump_lbr_callstack(d, s);
	fprintf(d->out, "... FP chain: nr:%zu\n", s->callchain.nr);
	for (i = 0; i < s->callchain.nr; i++)
		print_chain_entry(d, i, pd_u64_array_get(&s->callchain, i));
}

static void
dump_branch_entry(const struct dump *d, size_t i,
		  const struct pd_branch_entry *e)
{
	const char *type = pd_branch_entry_type(e->flags, false);

	fprintf(d->out, "..... %2zu: %016" PRIx64 " -> %016" PRIx64
		" %hu cycles %s%s%s%s %x %s", i, e->from, e->to, e->cycles,
		e->mispred ? "M" : " ", e->predicted ? "P" : " ",
		e->abort ? "A" : " ", e->in_tx ? "T" : " ",
		(unsigned int)(e->flags >> PD_BRFL_INFO_BITS),
		type ? type : "(null)");
	/* what 6.1 does not print */
	if (e->spec || e->priv)
		fprintf(d->out, " spec:%s priv:%s",
			pd_branch_spec_name(e->spec),
			pd_branch_priv_name(e->priv) ?
			pd_branch_priv_name(e->priv) : "?");
	fputc('\n', d->out);
}

static void
dump_branch_stack(const struct dump *d, const struct pd_evsel *ev,
		  const struct pd_sample *s)
{
	const struct pd_branch_stack *b = &s->branch;
	struct pd_branch_entry e;
	size_t i;

	if (b->has_hw_idx)
		fprintf(d->out, "... branch stack hw_idx: %#" PRIx64 "\n",
			b->hw_idx);
	if (ev->attr.branch_sample_type & PD_BRANCH_CALL_STACK) {
		/* nr + 1 frames: the first target, then every source */
		fprintf(d->out, "... branch callstack: nr:%zu\n", b->nr + 1);
		for (i = 0; i < b->nr; i++) {
			pd_branch_entry_get(b, i, &e);
			if (i == 0)
				fprintf(d->out, "..... %2zu: %016" PRIx64 "\n",
					i, e.to);
			fprintf(d->out, "..... %2zu: %016" PRIx64 "\n", i + 1,
				e.from);
		}
	} else {
		fprintf(d->out, "... branch stack: nr:%zu\n", b->nr);
		for (i = 0; i < b->nr; i++) {
			pd_branch_entry_get(b, i, &e);
			dump_branch_entry(d, i, &e);
		}
	}
	if (b->counters) {
		fprintf(d->out, "... branch stack counters: nr:%zu\n", b->nr);
		for (i = 0; i < b->nr; i++)
			fprintf(d->out, "..... %2zu: %016" PRIx64 "\n", i,
				pd_branch_counter_get(b, i));
	}
}

static void
dump_regs(const struct dump *d, const char *kind, const struct pd_regs *regs)
{
	const char *arch = dump_arch(d);
	unsigned int bit;
	size_t i = 0;

	/* ABI none: the task had no user context; perf prints nothing then */
	if (regs->abi == PD_REGS_ABI_NONE)
		return;
	fprintf(d->out, "... %s regs: mask %#" PRIx64 " ABI %s\n", kind,
		regs->mask, pd_regs_abi_name(regs->abi));
	for (bit = 0; bit < 64 && i < regs->regs.nr; bit++) {
		if (!(regs->mask & (1ULL << bit)))
			continue;
		fprintf(d->out, ".... %-5s 0x%016" PRIx64 "\n",
			pd_reg_name(arch, bit),
			pd_u64_array_get(&regs->regs, i++));
	}
}

static void
dump_weight(const struct dump *d, const struct pd_sample *s)
{
	struct pd_weight w;

	/* the split the reference perf (an x86 build) makes */
	pd_weight_split(s->weight, s->type, PD_WEIGHT_RULE_X86, &w);
	fprintf(d->out, "... weight: %" PRIu64, w.weight);
	if (s->type & PD_SAMPLE_WEIGHT_STRUCT)
		fprintf(d->out, ",0x%" PRIx16 ",0x%" PRIx16, w.ins_lat,
			w.p_stage_cyc);
	fputc('\n', d->out);
	if (s->type & PD_SAMPLE_WEIGHT_STRUCT)
		fprintf(d->out, "... weight struct: var1_dw %" PRIu32
			", var2_w %" PRIu16 ", var3_w %" PRIu16 "\n",
			w.var1, w.var2, w.var3);
}

static void
dump_page_size(const struct dump *d, const char *what, uint64_t bytes)
{
	char buf[PD_PAGE_SIZE_TEXT_MAX];

	pd_page_size_text(buf, sizeof(buf), bytes);
	fprintf(d->out, " .. %s page size: %s\n", what, buf);
}

static void
dump_sample_fields(const struct dump *d, const struct pd_evsel *ev,
		   const struct pd_sample *s, const struct pd_record *rec)
{
	char buf[PD_DATASRC_TEXT_MAX];

	if (s->type & (PD_SAMPLE_IDENTIFIER | PD_SAMPLE_ID))
		fprintf(d->out, "... id: %" PRIu64 "\n", s->id);
	if (s->type & PD_SAMPLE_STREAM_ID)
		fprintf(d->out, "... stream_id: %" PRIu64 "\n", s->stream_id);
	if (s->type & PD_SAMPLE_CALLCHAIN)
		dump_callchain(d, ev, s);
	if (s->type & PD_SAMPLE_RAW)
		fprintf(d->out, "... raw: size %zu\n", s->raw.len);
	if (s->type & PD_SAMPLE_BRANCH_STACK)
		dump_branch_stack(d, ev, s);
	if (s->type & PD_SAMPLE_REGS_USER)
		dump_regs(d, "user", &s->user_regs);
	if (s->type & PD_SAMPLE_REGS_INTR)
		dump_regs(d, "intr", &s->intr_regs);
	if (s->type & PD_SAMPLE_STACK_USER) {
		/* perf's "size" is dyn_size, its offset the size word's */
		fprintf(d->out, "... ustack: size %" PRIu64 ", offset %#zx\n",
			s->user_stack.dyn_size, ustack_offset(s));
		fprintf(d->out, "... user stack: size %" PRIu64
			", dyn_size %" PRIu64 "\n", s->user_stack.size,
			s->user_stack.dyn_size);
	}
	if (s->type & PD_SAMPLE_WEIGHT_TYPE)
		dump_weight(d, s);
	if (s->type & PD_SAMPLE_DATA_SRC) {
		fprintf(d->out, " . data_src: 0x%" PRIx64 "\n", s->data_src);
		pd_datasrc_decode(buf, sizeof(buf), s->data_src);
		fprintf(d->out, "... data_src decode: %s\n", buf);
	}
	if (s->type & PD_SAMPLE_PHYS_ADDR)
		fprintf(d->out, " .. phys_addr: 0x%" PRIx64 "\n", s->phys_addr);
	if (s->type & PD_SAMPLE_DATA_PAGE_SIZE)
		dump_page_size(d, "data", s->data_page_size);
	if (s->type & PD_SAMPLE_CODE_PAGE_SIZE)
		dump_page_size(d, "code", s->code_page_size);
	if (s->type & PD_SAMPLE_TRANSACTION) {
		size_t n;

		fprintf(d->out, "... transaction: %" PRIx64 "\n",
			s->transaction);
		n = pd_transaction_text(buf, sizeof(buf), s->transaction);
		while (n > 0 && buf[n - 1] == ' ')
			buf[--n] = '\0';
		if (n)
			fprintf(d->out, "... transaction decode: %s\n", buf);
	}
	if (s->type & PD_SAMPLE_READ)
		dump_read_values(d, &s->read);
	if (s->type & PD_SAMPLE_CGROUP)
		fprintf(d->out, "... cgroup: %" PRIu64 "\n", s->cgroup);
	if (s->type & PD_SAMPLE_AUX)
		fprintf(d->out, "... aux: size %zu\n", s->aux.len);
}

static void
dump_sample(const struct dump *d, const struct pd_record *rec)
{
	const struct pd_evsel *ev = record_evsel(d, rec);
	struct pd_sample s;
	int err;

	if (!ev) {
		print_headline(d, rec, (uint32_t)-1, (uint64_t)-1);
		fprintf(d->out, "(IP, 0x%" PRIx16 "): unknown event\n",
			rec->header.misc);
		return;
	}
	err = pd_sample_decode(&ev->attr, rec, &s);
	if (err) {
		print_headline(d, rec, (uint32_t)-1, (uint64_t)-1);
		fputc('\n', d->out);
		print_error(d, "the sample", err);
		return;
	}
	print_headline(d, rec, s.cpu, s.time);
	fprintf(d->out, "(IP, 0x%" PRIx16 "): %d/%d: %#" PRIx64 " period: %"
		PRIu64 " addr: %#" PRIx64 "\n", rec->header.misc, (int)s.pid,
		(int)s.tid, s.ip, s.period, s.addr);
	dump_sample_fields(d, ev, &s, rec);
}

/* Kernel records other than SAMPLE */

static void
print_build_id(FILE *out, const uint8_t *id, size_t size)
{
	size_t i;

	for (i = 0; i < size; i++)
		fprintf(out, "%02x", id[i]);
}

static void
dump_mmap2(const struct dump *d, const struct pd_ev_mmap2 *e)
{
	fprintf(d->out, " %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64,
		(int)e->pid, (int)e->tid, e->start, e->len, e->pgoff);
	if (e->has_build_id) {
		fputs(" <", d->out);
		print_build_id(d->out, e->build_id, e->build_id_size);
		fputc('>', d->out);
	} else {
		fprintf(d->out, " %02x:%02x %" PRIu64 " %" PRIu64, e->maj,
			e->min, e->ino, e->ino_generation);
	}
	fprintf(d->out, "]: %c%c%c%c ",
		e->prot & DUMP_PROT_READ ? 'r' : '-',
		e->prot & DUMP_PROT_WRITE ? 'w' : '-',
		e->prot & DUMP_PROT_EXEC ? 'x' : '-',
		e->flags & DUMP_MAP_SHARED ? 's' : 'p');
	print_str(d->out, e->filename);
	fprintf(d->out, "\n... prot: %#" PRIx32 ", flags: %#" PRIx32 "\n",
		e->prot, e->flags);
}

static void
dump_namespaces(const struct dump *d, const struct pd_ev_namespaces *e)
{
	static const char *const names[PD_NR_NAMESPACES] = {
		"net", "uts", "ipc", "pid", "user", "mnt", "cgroup",
	};
	uint64_t i;

	fprintf(d->out, " %d/%d - nr_namespaces: %" PRIu32 "\n\t\t[",
		(int)e->pid, (int)e->tid, (uint32_t)e->nr_namespaces);
	for (i = 0; i < e->nr_namespaces; i++) {
		if (i && i % 4 == 0)
			fputs("\n\t\t ", d->out);
		fprintf(d->out, "%" PRIu64 "/%s: %" PRIu64 "/%#" PRIx64 "%s", i,
			i < PD_NR_NAMESPACES ? names[i] : "UNKNOWN",
			pd_u64_array_get(&e->link_info, 2 * i),
			pd_u64_array_get(&e->link_info, 2 * i + 1),
			i + 1 != e->nr_namespaces ? ", " : "]\n");
	}
	if (!e->nr_namespaces)
		fputs("]\n", d->out);
}

/* perf's text_poke byte lines: 16 per line, no ASCII column. */
static void
dump_poke_bytes(const struct dump *d, const char *what, struct pd_bytes b)
{
	size_t i;

	for (i = 0; i < b.len; i++) {
		if (i % 16 == 0)
			fprintf(d->out, "            %s bytes:", what);
		fprintf(d->out, " %02x", b.p[i]);
		if (i % 16 == 15 || i == b.len - 1)
			fputc('\n', d->out);
	}
}

static void
dump_read_record(const struct dump *d, const struct pd_evsel *ev,
		 const struct pd_ev_read *e)
{
	const struct pd_read *rd = &e->values;
	struct pd_read_value v = { 0 };
	size_t i;

	pd_read_value_get(rd, 0, &v);
	fprintf(d->out, ": %d %d %s %" PRIu64 "\n", (int)e->pid, (int)e->tid,
		pd_evsel_name(ev), v.value);
	if (rd->format & PD_FORMAT_TOTAL_TIME_ENABLED)
		fprintf(d->out, "... time enabled : %" PRIu64 "\n",
			rd->time_enabled);
	if (rd->format & PD_FORMAT_TOTAL_TIME_RUNNING)
		fprintf(d->out, "... time running : %" PRIu64 "\n",
			rd->time_running);
	if (!(rd->format & PD_FORMAT_GROUP)) {
		if (rd->format & PD_FORMAT_ID)
			fprintf(d->out, "... id           : %" PRIu64 "\n",
				v.id);
		if (rd->format & PD_FORMAT_LOST)
			fprintf(d->out, "... lost         : %" PRIu64 "\n",
				v.lost);
		return;
	}
	fprintf(d->out, "... group nr: %zu\n", rd->nr);
	for (i = 0; i < rd->nr && pd_read_value_get(rd, i, &v) == 0; i++) {
		fprintf(d->out, "..... value %" PRIu64, v.value);
		if (rd->format & PD_FORMAT_ID)
			fprintf(d->out, ", id %" PRIu64, v.id);
		if (rd->format & PD_FORMAT_LOST)
			fprintf(d->out, ", lost %" PRIu64, v.lost);
		fputc('\n', d->out);
	}
}

static void
dump_kernel_event(const struct dump *d, const struct pd_record *rec,
		  const struct pd_evsel *ev, const union pd_event *e)
{
	FILE *out = d->out;
	size_t i;

	switch (rec->header.type) {
	case PD_RECORD_MMAP:
		fprintf(out, " %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64
			"]: %c ", (int)e->mmap.pid, (int)e->mmap.tid,
			e->mmap.start, e->mmap.len, e->mmap.pgoff,
			rec->header.misc & PD_MISC_MMAP_DATA ? 'r' : 'x');
		print_str(out, e->mmap.filename);
		fputc('\n', out);
		break;
	case PD_RECORD_MMAP2:
		dump_mmap2(d, &e->mmap2);
		break;
	case PD_RECORD_LOST:
		fprintf(out, ": id:%" PRIu64 ": lost:%" PRIu64 "\n", e->lost.id,
			e->lost.lost);
		break;
	case PD_RECORD_COMM:
		fprintf(out, "%s: ", rec->header.misc & PD_MISC_COMM_EXEC ?
			" exec" : "");
		print_str(out, e->comm.comm);
		fprintf(out, ":%d/%d\n", (int)e->comm.pid, (int)e->comm.tid);
		break;
	case PD_RECORD_EXIT:
	case PD_RECORD_FORK:
		fprintf(out, "(%d:%d):(%d:%d)\n... time: %" PRIu64 "\n",
			(int)e->fork.pid, (int)e->fork.tid, (int)e->fork.ppid,
			(int)e->fork.ptid, e->fork.time);
		break;
	case PD_RECORD_THROTTLE:
	case PD_RECORD_UNTHROTTLE:
		fprintf(out, "\n... time: %" PRIu64 ", id: %" PRIu64
			", stream_id: %" PRIu64 "\n", e->throttle.time,
			e->throttle.id, e->throttle.stream_id);
		break;
	case PD_RECORD_READ:
		dump_read_record(d, ev, &e->read);
		break;
	case PD_RECORD_AUX:
		fprintf(out, " offset: %#" PRIx64 " size: %#" PRIx64
			" flags: %#" PRIx64 " [%s%s%s]\n", e->aux.aux_offset,
			e->aux.aux_size, e->aux.flags,
			e->aux.flags & PD_AUX_FLAG_TRUNCATED ? "T" : "",
			e->aux.flags & PD_AUX_FLAG_OVERWRITE ? "O" : "",
			e->aux.flags & PD_AUX_FLAG_PARTIAL ? "P" : "");
		if (e->aux.flags & PD_AUX_FLAG_COLLISION)
			fputs("... collision\n", out);
		break;
	case PD_RECORD_ITRACE_START:
		fprintf(out, " pid: %" PRIu32 " tid: %" PRIu32 "\n",
			e->itrace_start.pid, e->itrace_start.tid);
		break;
	case PD_RECORD_LOST_SAMPLES:
		/* perf prints the sample_id's id, the record has none */
		fprintf(out, ": id:%" PRIu64 ": lost samples :%" PRIu64 "\n",
			e->base.sample_id.id, e->lost_samples.lost);
		if (rec->header.misc & PD_MISC_LOST_SAMPLES_BPF)
			fputs("... dropped by a BPF filter\n", out);
		break;
	case PD_RECORD_SWITCH:
	case PD_RECORD_SWITCH_CPU_WIDE: {
		const struct pd_ev_switch *sw = &e->context_switch;
		const char *in_out = !sw->out ? "IN         " :
				     !sw->preempt ? "OUT        " :
				     "OUT preempt";

		if (rec->header.type == PD_RECORD_SWITCH)
			fprintf(out, " %s\n", in_out);
		else
			fprintf(out, " %s  %s pid/tid: %5d/%-5d\n", in_out,
				sw->out ? "next" : "prev",
				(int)sw->next_prev_pid, (int)sw->next_prev_tid);
		break;
	}
	case PD_RECORD_NAMESPACES:
		dump_namespaces(d, &e->namespaces);
		break;
	case PD_RECORD_KSYMBOL:
		fprintf(out, " addr %" PRIx64 " len %" PRIu32 " type %" PRIu16
			" flags 0x%" PRIx16 " name ", e->ksymbol.addr,
			e->ksymbol.len, e->ksymbol.ksym_type, e->ksymbol.flags);
		print_str(out, e->ksymbol.name);
		fputc('\n', out);
		break;
	case PD_RECORD_BPF_EVENT:
		fprintf(out, " type %" PRIu16 ", flags %" PRIu16 ", id %" PRIu32
			"\n... tag: ", e->bpf.type, e->bpf.flags, e->bpf.id);
		print_build_id(out, e->bpf.tag, PD_BPF_TAG_SIZE);
		fputc('\n', out);
		break;
	case PD_RECORD_CGROUP:
		fprintf(out, " cgroup: %" PRIu64 " ", e->cgroup.id);
		print_str(out, e->cgroup.path);
		fputc('\n', out);
		break;
	case PD_RECORD_TEXT_POKE:
		fprintf(out, " %" PRIx64 "  old len %" PRIu16 " new len %"
			PRIu16 "\n", e->text_poke.addr, e->text_poke.old_len,
			e->text_poke.new_len);
		dump_poke_bytes(d, "Old", e->text_poke.old_bytes);
		dump_poke_bytes(d, "New", e->text_poke.new_bytes);
		break;
	case PD_RECORD_AUX_OUTPUT_HW_ID:
		fprintf(out, " hw_id: %#" PRIx64 "\n",
			e->aux_output_hw_id.hw_id);
		break;
	case PD_RECORD_CALLCHAIN_DEFERRED:
		fprintf(out, " cookie: %#" PRIx64 "\n... chain: nr:%zu\n",
			e->callchain_deferred.cookie,
			e->callchain_deferred.ips.nr);
		for (i = 0; i < e->callchain_deferred.ips.nr; i++)
			print_chain_entry(d, i, pd_u64_array_get(
					  &e->callchain_deferred.ips, i));
		break;
	default:
		fputc('\n', out);
		break;
	}
}

static void
dump_sample_id(const struct dump *d, const struct pd_sample_id *sid)
{
	FILE *out = d->out;

	if (!sid->type)
		return;
	fputs("... sample_id:", out);
	if (sid->type & PD_SAMPLE_TID)
		fprintf(out, " pid %d tid %d", (int)sid->pid, (int)sid->tid);
	if (sid->type & PD_SAMPLE_TIME)
		fprintf(out, " time %" PRIu64, sid->time);
	if (sid->type & (PD_SAMPLE_ID | PD_SAMPLE_IDENTIFIER))
		fprintf(out, " id %" PRIu64, sid->id);
	if (sid->type & PD_SAMPLE_STREAM_ID)
		fprintf(out, " stream_id %" PRIu64, sid->stream_id);
	if (sid->type & PD_SAMPLE_CPU)
		fprintf(out, " cpu %" PRIu32, sid->cpu);
	fputc('\n', out);
}

/* User records (64 and up) */

static void
dump_attr(const struct dump *d, const struct pd_attr *a)
{
	fprintf(d->out, "... attr: type %" PRIu32 ", size %" PRIu32
		", config %#" PRIx64 ", config1 %#" PRIx64 ", config2 %#"
		PRIx64 ", config3 %#" PRIx64 "\n", a->type, a->size, a->config,
		a->config1, a->config2, a->config3);
	fprintf(d->out, "... attr: %s %" PRIu64 ", sample_type %#" PRIx64
		", read_format %#" PRIx64 ", flags %#" PRIx64 "\n",
		pd_attr_has(a, PD_ATTR_FREQ) ? "sample_freq" : "sample_period",
		a->sample_period, a->sample_type, a->read_format, a->flags);
	fprintf(d->out, "... attr: branch_sample_type %#" PRIx64
		", sample_regs_user %#" PRIx64 ", sample_stack_user %" PRIu32
		", sample_regs_intr %#" PRIx64 ", clockid %" PRId32 "\n",
		a->branch_sample_type, a->sample_regs_user,
		a->sample_stack_user, a->sample_regs_intr, a->clockid);
	fprintf(d->out, "... attr: wakeup %" PRIu32 ", bp_type %" PRIu32
		", aux_watermark %" PRIu32 ", sample_max_stack %" PRIu16
		", aux_sample_size %" PRIu32 ", aux_action %#" PRIx32
		", sig_data %#" PRIx64 "\n", a->wakeup_events, a->bp_type,
		a->aux_watermark, a->sample_max_stack, a->aux_sample_size,
		a->aux_action, a->sig_data);
}

/* perf's cpu list: runs of consecutive CPUs as "a-b" (cpu_map__snprint). */
static void
print_cpu_map(FILE *out, const struct pd_cpu_map *m)
{
	size_t pos = 0;
	int cpu, start = 0, prev = 0;
	bool have = false, first = true;

	for (;;) {
		bool more = pd_cpu_map_next(m, &pos, &cpu) == 1;

		if (have && (!more || cpu != prev + 1)) {
			fprintf(out, start == prev ? "%s%d" : "%s%d-%d",
				first ? "" : ",", start, prev);
			first = false;
			have = false;
		}
		if (!more)
			break;
		if (!have)
			start = cpu;
		prev = cpu;
		have = true;
	}
	fputc('\n', out);
}

static const char *
stat_config_tag_name(uint64_t tag)
{
	static const char *const names[] = {
		"aggr_mode", "interval", "scale", "aggr_level",
	};

	return tag < ARRAY_SIZE(names) ? names[tag] : NULL;
}

static void
dump_user_event(const struct dump *d, const struct pd_record *rec,
		const union pd_event *e)
{
	FILE *out = d->out;
	size_t i;

	switch (rec->header.type) {
	case PD_RECORD_HEADER_ATTR:
		fputc('\n', out);
		dump_attr(d, &e->attr.attr);
		fprintf(out, "... ids: %zu", e->attr.ids.nr);
		for (i = 0; i < e->attr.ids.nr; i++)
			fprintf(out, "%s%" PRIu64, i ? ", " : " (",
				pd_u64_array_get(&e->attr.ids, i));
		fputs(e->attr.ids.nr ? ")\n" : "\n", out);
		break;
	case PD_RECORD_HEADER_EVENT_TYPE:
		fprintf(out, "\n... event_id: %" PRIu64 ", name: ",
			e->event_type.event_id);
		print_str(out, e->event_type.name);
		fputc('\n', out);
		break;
	case PD_RECORD_HEADER_TRACING_DATA:
		fprintf(out, "\n... size: %" PRIu32 "\n",
			e->tracing_data.size);
		break;
	case PD_RECORD_HEADER_BUILD_ID:
		fprintf(out, "\n... pid: %d, build_id: ", (int)e->build_id.pid);
		print_build_id(out, e->build_id.build_id, e->build_id.size);
		fputs(", filename: ", out);
		print_str(out, e->build_id.filename);
		fputc('\n', out);
		break;
	case PD_RECORD_ID_INDEX:
		fprintf(out, " nr: %zu\n", e->id_index.nr);
		for (i = 0; i < e->id_index.nr; i++) {
			struct pd_id_index_entry x;

			pd_id_index_get(&e->id_index, i, &x);
			fprintf(out, " ... id: %" PRIu64 "  idx: %" PRIu64
				"  cpu: %" PRId64 "  tid: %" PRId64, x.id,
				x.idx, (int64_t)x.cpu, (int64_t)x.tid);
			if (e->id_index.has_vm)
				fprintf(out, "  machine_pid: %" PRId64
					"  vcpu: %" PRIu64,
					(int64_t)x.machine_pid, x.vcpu);
			fputc('\n', out);
		}
		break;
	case PD_RECORD_AUXTRACE_INFO:
		fprintf(out, " type: %" PRIu32 "\n", e->auxtrace_info.type);
		for (i = 0; i < e->auxtrace_info.priv.nr; i++)
			fprintf(out, "... priv[%zu]: %#" PRIx64 "\n", i,
				pd_u64_array_get(&e->auxtrace_info.priv, i));
		break;
	case PD_RECORD_AUXTRACE:
		fprintf(out, " size: %#" PRIx64 "  offset: %#" PRIx64
			"  ref: %#" PRIx64 "  idx: %" PRIu32
			"  tid: %d  cpu: %d\n",
			e->auxtrace.size, e->auxtrace.offset,
			e->auxtrace.reference, e->auxtrace.idx,
			(int)e->auxtrace.tid, (int)e->auxtrace.cpu);
		break;
	case PD_RECORD_AUXTRACE_ERROR: {
		const struct pd_ev_auxtrace_error *x = &e->auxtrace_error;

		fprintf(out, " %s error type %" PRIu32,
			x->type == 1 ? "instruction trace" : "unknown",
			x->type);
		if (x->fmt && x->time)
			fprintf(out, " time %" PRIu64 ".%09" PRIu64,
				x->time / 1000000000, x->time % 1000000000);
		else
			fputs(" time 0", out);
		if (x->fmt >= 2 && x->machine_pid)
			fprintf(out, " machine_pid %d vcpu %d",
				(int)x->machine_pid, (int)x->vcpu);
		fprintf(out, " cpu %d pid %d tid %d ip %#" PRIx64 " code %"
			PRIu32 ": ", (int)x->cpu, (int)x->pid, (int)x->tid,
			x->ip, x->code);
		print_str(out, x->msg);
		fputc('\n', out);
		break;
	}
	case PD_RECORD_THREAD_MAP:
		fprintf(out, " nr: %zu thread%s: ", e->thread_map.nr,
			e->thread_map.nr > 1 ? "s" : "");
		for (i = 0; i < e->thread_map.nr; i++) {
			struct pd_thread_map_entry t;

			pd_thread_map_get(&e->thread_map, i, &t);
			fprintf(out, "%s%d", i ? ", " : "", (int)t.pid);
		}
		fputc('\n', out);
		for (i = 0; i < e->thread_map.nr; i++) {
			struct pd_thread_map_entry t;

			pd_thread_map_get(&e->thread_map, i, &t);
			fprintf(out, "... thread %d: ", (int)t.pid);
			print_str(out, t.comm);
			fputc('\n', out);
		}
		break;
	case PD_RECORD_CPU_MAP:
		fputs(": ", out);
		print_cpu_map(out, &e->cpu_map.map);
		break;
	case PD_RECORD_STAT_CONFIG:
		fputc('\n', out);
		for (i = 0; i < e->stat_config.nr; i++) {
			uint64_t tag = pd_u64_array_get(&e->stat_config.entries,
							 2 * i);
			uint64_t val = pd_u64_array_get(&e->stat_config.entries,
							 2 * i + 1);
			const char *name = stat_config_tag_name(tag);

			if (name)
				fprintf(out, "... %-9s %" PRIu64 "\n", name,
					val);
			else
				fprintf(out, "... tag %" PRIu64 " %" PRIu64
					"\n", tag, val);
		}
		break;
	case PD_RECORD_STAT:
		fprintf(out, "\n... id %" PRIu64 ", cpu %d, thread %d\n"
			"... value %" PRIu64 ", enabled %" PRIu64 ", running %"
			PRIu64 "\n", e->stat.id, (int)e->stat.cpu,
			(int)e->stat.thread, e->stat.val, e->stat.ena,
			e->stat.run);
		break;
	case PD_RECORD_STAT_ROUND:
		fprintf(out, "\n... time %" PRIu64 ", type %s\n",
			e->stat_round.time,
			e->stat_round.type == 1 ? "FINAL" : "INTERVAL");
		break;
	case PD_RECORD_EVENT_UPDATE: {
		const struct pd_ev_event_update *u = &e->event_update;

		fprintf(out, "\n... id:    %" PRIu64 "\n", u->id);
		switch (u->type) {
		case PD_EVENT_UPDATE_SCALE:
			fprintf(out, "... scale: %f\n", u->scale);
			break;
		case PD_EVENT_UPDATE_UNIT:
			fputs("... unit:  ", out);
			print_str(out, u->str);
			fputc('\n', out);
			break;
		case PD_EVENT_UPDATE_NAME:
			fputs("... name:  ", out);
			print_str(out, u->str);
			fputc('\n', out);
			break;
		case PD_EVENT_UPDATE_CPUS:
			fputs("... ", out);
			print_cpu_map(out, &u->cpus);
			break;
		default:
			fputs("... unknown type\n", out);
			break;
		}
		break;
	}
	case PD_RECORD_TIME_CONV: {
		const struct pd_ev_time_conv *t = &e->time_conv;

		/* "Muliplier" is perf's spelling */
		fprintf(out, "\n... Time Shift      %" PRIu64
			"\n... Time Muliplier  %" PRIu64
			"\n... Time Zero       %" PRIu64 "\n",
			t->time_shift, t->time_mult, t->time_zero);
		if (t->has_cycles)
			fprintf(out, "... Time Cycles     %" PRIu64
				"\n... Time Mask       %#" PRIx64
				"\n... Cap Time Zero   %d"
				"\n... Cap Time Short  %d\n", t->time_cycles,
				t->time_mask, t->cap_user_time_zero,
				t->cap_user_time_short);
		break;
	}
	case PD_RECORD_HEADER_FEATURE: {
		const char *name = pd_feature_name((unsigned int)
						   e->feature.feat_id);

		fprintf(out, "\n... feature: %" PRIu64 " (%s), %zu bytes\n",
			e->feature.feat_id, name ? name : "unknown",
			e->feature.payload.len);
		break;
	}
	case PD_RECORD_COMPRESSED:
	case PD_RECORD_COMPRESSED2:
		fprintf(out, "\n... data size: %" PRIu64 "\n",
			e->compressed.data_size);
		break;
	case PD_RECORD_BPF_METADATA:
		fputs("\n... prog_name: ", out);
		print_str(out, e->bpf_metadata.prog_name);
		fputc('\n', out);
		for (i = 0; i < e->bpf_metadata.nr_entries; i++) {
			struct pd_bpf_metadata_entry m;

			pd_bpf_metadata_get(&e->bpf_metadata, i, &m);
			fputs("... ", out);
			print_str(out, m.key);
			fputs(" = ", out);
			print_str(out, m.value);
			fputc('\n', out);
		}
		break;
	case PD_RECORD_SCHEDSTAT_CPU:
	case PD_RECORD_SCHEDSTAT_DOMAIN:
		fprintf(out, "\n... cpu %" PRIu32 ", domain %" PRIu16
			", version %" PRIu16 ", timestamp %" PRIu64
			", %zu bytes of counters\n", e->schedstat.cpu,
			e->schedstat.domain, e->schedstat.version,
			e->schedstat.timestamp, e->schedstat.counters.len);
		break;
	default:
		/* FINISHED_ROUND, FINISHED_INIT: nothing but the header */
		fputc('\n', out);
		break;
	}
}

/* One record */

static void
dump_event(const struct dump *d, const struct pd_record *rec)
{
	const struct pd_evsel *ev = record_evsel(d, rec);
	union pd_event e;
	bool kernel = rec->header.type < PD_RECORD_USER_TYPE_START;
	uint32_t cpu = 0;
	uint64_t time = 0;
	int err;

	err = pd_event_decode(ev ? &ev->attr : NULL, rec, &e);
	if (kernel) {
		cpu = err ? (uint32_t)-1 : e.base.sample_id.cpu;
		time = err ? (uint64_t)-1 : e.base.sample_id.time;
	}
	print_headline(d, rec, cpu, time);
	if (err) {
		fputc('\n', d->out);
		if (err != -PD_E_UNSUPPORTED)
			print_error(d, "the record", err);
		return;
	}
	if (kernel) {
		dump_kernel_event(d, rec, ev, &e);
		dump_sample_id(d, &e.base.sample_id);
	} else {
		dump_user_event(d, rec, &e);
	}
}

static void
dump_record(const struct dump *d, const struct pd_record *rec)
{
	fprintf(d->out, "\n%#" PRIx64, rec->offset);
	if (rec->source)
		fprintf(d->out, "@data.%u", rec->source - 1);
	fprintf(d->out, " [%#" PRIx32 "]: event: %" PRIu32, rec->size,
		rec->header.type);
	if (rec->origin == PD_ORIGIN_COMPRESSED)
		fprintf(d->out, " (decompressed, at %#" PRIx64
			" of the stream)", rec->stream_offset);
	fputc('\n', d->out);
	dump_raw(d->out, rec->data, rec->size);
	if (rec->header.type == PD_RECORD_SAMPLE)
		dump_sample(d, rec);
	else
		dump_event(d, rec);
	if (rec->payload_size)
		fprintf(d->out, "... payload: %" PRIu64
			" bytes after the record%s\n", rec->payload_size,
			rec->payload ? "" : " (skipped)");
}

int
rep_dump(FILE *out, struct pd_reader *r)
{
	struct dump d = { .out = out, .r = r };
	struct rep_stats *st = rep_stats_new(REP_STATS_DUMP);
	struct pd_record rec;
	struct utsname uts;
	int ret;

	if (uname(&uts) == 0)
		snprintf(d.host_arch, sizeof(d.host_arch), "%s", uts.machine);
	while ((ret = pd_reader_next(r, &rec)) > 0) {
		dump_record(&d, &rec);
		rep_stats_count(st, r, &rec);
	}
	rep_stats_print_counts(out, r, st);
	rep_stats_free(st);
	return ret < 0 ? ret : 0;
}
