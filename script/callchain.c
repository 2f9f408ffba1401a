/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * script/callchain.c - an address as perf script prints it: the ip, the
 * symbol with its offset, the DSO and the source line, for the sample's
 * ip or for each frame of its callchain (util/evsel_fprintf.c,
 * sample__fprintf_sym() and sample__fprintf_callchain()).
 */
#include "config.h"

#include <string.h>

#include "script/dsoname.h"
#include "script/scr.h"
#include "symbol/symbol.h"

static bool
kernel_mode(uint8_t cpumode)
{
	return cpumode == PD_MISC_KERNEL || cpumode == PD_MISC_GUEST_KERNEL;
}

/* "name", "name+0xoff" or "[unknown]" */
void
scr_print_sym(struct scr *s, const struct ses_loc *l, bool symoff)
{
	if (!l->sym) {
		scr_out_add(&s->out, "[unknown]", 9);
		return;
	}
	scr_out_str(&s->out, l->sym->name);
	if (symoff) {
		uint64_t off = l->al_addr - l->sym->start;

		if (l->al_addr >= l->sym->end && l->map)
			off = l->al_addr - l->map->start - l->sym->start;
		scr_out_add(&s->out, "+0x", 3);
		scr_out_hex(&s->out, off, 0);
	}
}

static void
print_dso(struct scr *s, const struct ses_loc *l)
{
	scr_out_add(&s->out, " (", 2);
	scr_out_str(&s->out, scr_dso_name(pd_reader_meta(s->r), l));
	scr_out_c(&s->out, ')');
}

static void
print_srcline(struct scr *s, const struct ses_loc *l)
{
	const char *line;

	if (!l->map || !l->dso)
		return;
	/*
	 * perf prints no srcline of a frame's own that reads "??:0"
	 * (map__fprintf_srcline), but an inline list's record as it is
	 */
	line = l->srcline;
	if (!line) {
		line = sym_dso_srcline(l->dso, l->al_addr);
		if (line ? !strcmp(line, "??:0") :
		    !l->map->identity &&
		    sym_addr2line_names_at(l->dso, l->sym, l->al_addr))
			return;
	}
	scr_out_add(&s->out, "\n  ", 3);
	if (line) {
		scr_out_str(&s->out, line);
		return;
	}
	/* perf's map__srcline() names no symbol: "dso[addr]" */
	scr_out_str(&s->out, sym_dso_short_name(l->dso));
	scr_out_c(&s->out, '[');
	scr_out_hex(&s->out, l->al_addr, 0);
	scr_out_c(&s->out, ']');
}

/*
 * sym, dso and srcline after an address; an inline frame (only in a
 * callchain) has no DSO, its own srcline and " (inlined)" at the end.
 */
static void
print_loc_tail(struct scr *s, const struct ses_loc *l, uint64_t fields)
{
	bool inlined = l->sym && l->sym->inlined;

	if (fields & SCR_BIT(SYM)) {
		scr_out_c(&s->out, ' ');
		scr_print_sym(s, l, fields & SCR_BIT(SYMOFFSET));
	}
	if ((fields & SCR_BIT(DSO)) && !inlined)
		print_dso(s, l);
	if (fields & SCR_BIT(SRCLINE))
		print_srcline(s, l);
	if (inlined)
		scr_out_add(&s->out, " (inlined)", 10);
}

/* the sample's own ip, when no callchain is printed */
void
scr_print_ip(struct scr *s, const struct ses_sample *ss, uint64_t fields)
{
	scr_out_hex(&s->out, ss->raw ? ss->raw->ip : ss->self.ip, 16);
	print_loc_tail(s, &ss->self, fields);
}

/*
 * One line per frame, leaf first.  perf 6.1 prints a user frame's
 * map-relative address and a kernel frame's ip.
 */
void
scr_print_chain(struct scr *s, const struct ses_sample *ss, uint64_t fields)
{
	size_t i;

	for (i = 0; i < ss->nr_chain && !s->no_frames; i++) {
		const struct ses_loc *l = &ss->chain[i];
		uint64_t addr = l->ip;

		if (l->map && !kernel_mode(l->cpumode))
			addr = l->al_addr;
		scr_out_c(&s->out, '\t');
		scr_out_hex(&s->out, addr, 16);
		print_loc_tail(s, l, fields);
		scr_out_c(&s->out, '\n');
	}
}
