/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * script/insn.c - the insn and insnlen fields: the instruction at a
 * sample's ip, read from the file of the DSO that maps it and its length
 * decoded with Zydis, as perf 6.1 fetches it on an x86 host with the
 * kernel's decoder (doc/perf-records.md §5.5).  Zydis, not Capstone 4:
 * Capstone 4.0.2 fails on AVX-512 mask moves and compares (c5 fb 93 c0,
 * 62 b2 75 20 26 d1) found in glibc's string functions, whose lengths
 * Zydis gives as the kernel's decoder does.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include <Zydis/Decoder.h>

#include "lib/xalloc.h"
#include "script/scr.h"
#include "symbol/symbol.h"

/* perf's sample->insn: the most bytes it reads at an ip */
#define INSN_READ	16

struct scr_insn {
	bool native;		/* perf's native_arch: fetch at all */
	ZydisDecoder dec[2];	/* 32-bit, 64-bit code */
	bool dec_ok[2];
};

/*
 * perf 6.1 fetches instructions only when the file was recorded on this
 * machine's architecture (an i386 file on x86_64 too) or comes from a
 * pipe, whose architecture it takes for this one's; and only on x86,
 * where its arch_fetch_insn() is not the empty default.
 */
static bool
native_arch(const struct scr *s)
{
	const struct pd_meta *m = pd_reader_meta(s->r);
	struct utsname u;

#if !defined(__x86_64__) && !defined(__i386__)
	return false;
#endif
	if (s->pipe)
		return true;
	if (!m || !m->arch || uname(&u))
		return false;
	return !strcmp(u.machine, m->arch) ||
	       (!strcmp(u.machine, "x86_64") && !strcmp(m->arch, "i386"));
}

static struct scr_insn *
insn_state(struct scr *s)
{
	struct scr_insn *d = s->insn;

	if (d)
		return d;
	d = xcalloc(1, sizeof(*d));
	d->native = native_arch(s);
	d->dec_ok[0] = ZYAN_SUCCESS(ZydisDecoderInit(&d->dec[0],
		ZYDIS_MACHINE_MODE_LEGACY_32, ZYDIS_STACK_WIDTH_32));
	d->dec_ok[1] = ZYAN_SUCCESS(ZydisDecoderInit(&d->dec[1],
		ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64));
	s->insn = d;
	return d;
}

/*
 * perf's thread__memcpy(): the map of ip in the user or the kernel maps
 * (by the address, not the sample's cpumode), and up to INSN_READ bytes
 * of its DSO's file at the map-relative offset.  The kernel and modules
 * give none: perf 6.1 has no file to read them from without vmlinux.
 */
static ssize_t
insn_read(struct scr *s, const struct ses_sample *ss, uint64_t ip,
	  uint8_t *buf, bool *is64)
{
	struct ses_loc l;

	if ((int64_t)ip < 0 || !ss->thread)
		return -1;
	ses_resolve(s->ses, ss->thread, PD_MISC_USER, ip, &l);
	if (!l.map || !l.dso)
		return -1;
	*is64 = sym_dso_is_64_bit(l.dso);
	return sym_dso_read(l.dso, l.al_addr, buf, INSN_READ);
}

/*
 * One instruction decoded from what was read (perf's insn_decode()): its
 * length when complete within those bytes, else 0.
 */
static unsigned int
insn_length(const struct scr_insn *d, bool is64, const uint8_t *buf,
	    size_t n)
{
	ZydisDecodedInstruction in;

	if (!d->dec_ok[is64])
		return 0;
	if (!ZYAN_SUCCESS(ZydisDecoderDecodeInstruction(&d->dec[is64],
							ZYAN_NULL, buf, n,
							&in)) ||
	    in.length > n)
		return 0;
	return in.length;
}

void
scr_print_insn(struct scr *s, const struct ses_sample *ss, uint64_t fields)
{
	static const char hex[] = "0123456789abcdef";
	const struct scr_insn *d = insn_state(s);
	uint8_t buf[INSN_READ];
	unsigned int len = 0, i;
	bool is64 = true;
	ssize_t n;

	if (d->native && ss->raw->ip) {
		n = insn_read(s, ss, ss->raw->ip, buf, &is64);
		if (n > 0)
			len = insn_length(d, is64, buf, (size_t)n);
	}
	if (fields & SCR_BIT(INSNLEN)) {
		scr_out_add(&s->out, " ilen: ", 7);
		scr_out_u64(&s->out, len, 0, false);
	}
	if (!(fields & SCR_BIT(INSN)) || !len)
		return;
	scr_out_add(&s->out, " insn:", 6);
	for (i = 0; i < len; i++) {
		char b[3] = { ' ', hex[buf[i] >> 4], hex[buf[i] & 15] };

		scr_out_add(&s->out, b, sizeof(b));
	}
}

void
scr_insn_free(struct scr *s)
{
	free(s->insn);
	s->insn = NULL;
}
