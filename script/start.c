/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * script/start.c - the start of a sample's or a record's line, as perf
 * 6.1's perf_sample__fprintf_start() prints it: comm, pid/tid, CPU,
 * misc, wall-clock time and time.  What a sample's line has before the
 * time is the same for every sample of a thread on a CPU: it is kept, by
 * thread and CPU, and copied rather than formatted again.
 */
#include "config.h"

#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pdata/text.h"
#include "lib/xalloc.h"
#include "script/scr.h"

#define NSEC_PER_SEC	UINT64_C(1000000000)
#define NSEC_PER_USEC	UINT64_C(1000)

/* the fields that shape the kept text, and whether comm is padded */
#define START_FIELDS	(SCR_BIT(COMM) | SCR_BIT(PID) | SCR_BIT(TID) | \
			 SCR_BIT(CPU))
#define START_UNPADDED	(UINT64_C(1) << 63)

struct scr_start {
	const char *comm;	/* interned by the session: one text a name */
	int32_t pid, tid;
	uint32_t cpu;
	uint64_t shape;		/* START_FIELDS of the fields, START_UNPADDED */
	uint8_t len;		/* 0: nothing kept */
	char text[SCR_START_TEXT];
};

/* perf's tod_scnprintf(): the wall-clock time from the CLOCK_DATA feature */
static void
print_tod(struct scr *s, uint64_t time)
{
	const struct pd_meta *m = pd_reader_meta(s->r);
	uint64_t tod = m->clock_tod_ns;
	char date[64];
	struct tm tm;
	time_t sec;
	uint64_t nsec;

	if (time > m->clock_clockid_ns)
		tod += time - m->clock_clockid_ns;
	else
		tod -= m->clock_clockid_ns - time;
	sec = (time_t)(tod / NSEC_PER_SEC);
	nsec = tod % NSEC_PER_SEC;
	if (!localtime_r(&sec, &tm)) {
		scr_out_str(&s->out, "failed ");
		return;
	}
	strftime(date, sizeof(date), "%Y-%m-%d %H:%M:%S", &tm);
	if (s->ns)
		scr_out_printf(&s->out, "%s.%09" PRIu64 " ", date, nsec);
	else
		scr_out_printf(&s->out, "%s.%06" PRIu64 " ", date,
			       nsec / NSEC_PER_USEC);
}

/* the n last decimal digits of v, ending at end, two at a time */
static void
put_digits(char *end, uint64_t v, unsigned int n)
{
	static const char pairs[] =
		"00010203040506070809101112131415161718192021222324"
		"25262728293031323334353637383940414243444546474849"
		"50515253545556575859606162636465666768697071727374"
		"75767778798081828384858687888990919293949596979899";

	for (; n >= 2; n -= 2) {
		memcpy(end -= 2, pairs + 2 * (v % 100), 2);
		v /= 100;
	}
	if (n)
		end[-1] = (char)('0' + v % 10);
}

/* "%12s" of "sec.usec", or "%5lu.%09lu" with --ns; then ": " */
static void
print_time(struct scr *s, uint64_t t)
{
	uint64_t sec = t / NSEC_PER_SEC, ns = t % NSEC_PER_SEC;
	uint64_t frac = s->ns ? ns : ns / NSEC_PER_USEC;
	unsigned int digits = s->ns ? 9 : 6, width = s->ns ? 15 : 12;
	unsigned int sec_digits = 1, len, pad;
	uint64_t w;
	char *p;

	for (w = sec; w >= 10; w /= 10)
		sec_digits++;
	len = sec_digits + 1 + digits;
	pad = len < width ? width - len : 0;
	p = scr_out_room(&s->out, pad + len + 2);
	s->out.len += pad + len + 2;
	memset(p, ' ', pad);
	p += pad;
	put_digits(p + sec_digits, sec, sec_digits);
	p[sec_digits] = '.';
	put_digits(p + len, frac, digits);
	p[len] = ':';
	p[len + 1] = ' ';
}

/* comm, pid/tid and CPU, formatted */
static void
print_ids(struct scr_out *o, uint64_t fields, bool unpadded,
	  const char *comm, int32_t pid, int32_t tid, uint32_t cpu)
{
	if (fields & SCR_BIT(COMM)) {
		if (unpadded)
			scr_out_str(o, comm);
		else
			scr_out_pad(o, comm, 16);
		scr_out_c(o, ' ');
	}
	if ((fields & SCR_BIT(PID)) && (fields & SCR_BIT(TID))) {
		scr_out_s64(o, pid, 5, false);
		scr_out_c(o, '/');
		scr_out_s64(o, tid, 5, true);
		scr_out_c(o, ' ');
	} else if (fields & (SCR_BIT(PID) | SCR_BIT(TID))) {
		scr_out_s64(o, fields & SCR_BIT(PID) ? pid : tid, 5, false);
		scr_out_c(o, ' ');
	}
	if (fields & SCR_BIT(CPU)) {
		if (cpu < 1000) {
			char b[6] = { '[', (char)('0' + cpu / 100),
				      (char)('0' + cpu / 10 % 10),
				      (char)('0' + cpu % 10), ']', ' ' };

			scr_out_add(o, b, sizeof(b));
		} else {
			scr_out_printf(o, "[%03d] ", (int)cpu);
		}
	}
}

static struct scr_start *
start_slot(struct scr *s, int32_t tid, uint32_t cpu)
{
	uint32_t h = ((uint32_t)tid * 2654435761u) ^ (cpu * 40503u);

	if (!s->starts)
		s->starts = xcalloc(SCR_STARTS, sizeof(*s->starts));
	return &s->starts[(h >> 8) % SCR_STARTS];
}

/* print_ids(), from the text kept for the thread and CPU when it is */
static void
print_ids_kept(struct scr *s, uint64_t fields, bool unpadded,
	       const char *comm, int32_t pid, int32_t tid, uint32_t cpu)
{
	uint64_t shape = (fields & START_FIELDS) |
			 (unpadded ? START_UNPADDED : 0);
	struct scr_start *e = start_slot(s, tid, cpu);
	size_t at = s->out.len;
	uint64_t flushes = s->out.flushes;

	if (e->len && e->comm == comm && e->pid == pid && e->tid == tid &&
	    e->cpu == cpu && e->shape == shape) {
		scr_out_kept(&s->out, e->text, sizeof(e->text), e->len);
		return;
	}
	print_ids(&s->out, fields, unpadded, comm, pid, tid, cpu);
	e->len = 0;
	if (s->out.flushes != flushes || s->out.len - at > SCR_START_TEXT)
		return;
	*e = (struct scr_start){ .comm = comm, .pid = pid, .tid = tid,
				 .cpu = cpu, .shape = shape,
				 .len = (uint8_t)(s->out.len - at) };
	memcpy(e->text, s->out.buf + at, e->len);
}

void
scr_print_start(struct scr *s, const struct scr_ev *ev, uint64_t fields,
		const char *comm, int32_t pid, int32_t tid, uint32_t cpu,
		uint64_t time, uint32_t type, uint16_t misc)
{
	struct scr_out *o = &s->out;
	bool unpadded = (fields & SCR_BIT(IP)) && ev->has_callchain &&
			s->use_callchain;

	/* a sample's comm is the session's, interned: a record's may not be */
	if ((fields & START_FIELDS) && type == PD_RECORD_SAMPLE)
		print_ids_kept(s, fields, unpadded, comm, pid, tid, cpu);
	else
		print_ids(o, fields, unpadded, comm, pid, tid, cpu);
	if (fields & SCR_BIT(MISC)) {
		char buf[32];

		pd_misc_field(buf, sizeof(buf), type, misc);
		scr_out_str(o, buf);
	}
	if (fields & SCR_BIT(TOD))
		print_tod(s, time);
	if (fields & SCR_BIT(TIME))
		print_time(s, time);
}

void
scr_starts_free(struct scr *s)
{
	free(s->starts);
	s->starts = NULL;
}
