/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * tests/fuzz/fuzz-session.c - libFuzzer target for the analysis engine
 * over whole files in memory: session/ (time order, threads, maps,
 * address resolution, callchains, LBR) and report/ (the histogram, sort
 * keys, callchain trees and their printing, filters, branch mode, the
 * header printer, --stats and -D).
 *
 * An input is a perf.data file (or pipe-mode stream) in an in-memory file
 * (memfd_create()).  Its last byte picks what preport would do with it:
 * -D, --stats, --header-only -I, --unwind-stats, or a report with one of
 * several option sets (default; -g caller,flat --children with comm and
 * CPU filters; branch mode with --stitch-lbr; -g folded --no-children with
 * --max-stack, --percent-limit and DSO and symbol filters; --header, more
 * keys, pid and --time filters).
 * Output goes to /dev/null.  Symbols are looked up under --symfs
 * /dev/null, with /dev/null as kallsyms and build-id cache, so no file
 * of this machine is read for a DSO the input names, and none is written.
 */
#include "config.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pdata/reader.h"
#include "report/inspect/inspect.h"
#include "report/report.h"
#include "tests/fuzz/fuzz.h"

static FILE *devnull;

static void
ignore_warning(void *ctx, uint64_t offset, const char *msg)
{
	(void)ctx;
	sink += offset + strlen(msg);
}

static const struct pd_reader_opts ropts = { .warn = ignore_warning };

/* The report options of variant v (0..4), as preport's parser sets them. */
static int
report_opts(struct rep_report_opts *o, unsigned int v)
{
	struct rep_filters *f = &o->hist.filt;
	char err[256];
	const char *bad = NULL;

	memset(o, 0, sizeof(*o));
	o->cc.children = -1;
	o->cc.use_callchain = -1;
	o->group = true;
	o->quiet = true;
	o->symfs = "/dev/null";
	o->kallsyms = "/dev/null";
	rep_cc_param_init(&o->cc.param);
	switch (v) {
	case 1:
		if (rep_cc_param_parse(&o->cc.param, "flat,0.5,caller", &bad))
			abort();
		o->cc.use_callchain = 1;
		o->cc.children = 1;
		o->hist.sort_str = "pid,dso,sym";
		o->hist.show_nr = true;
		if (rep_filter_parse_list(&f->comms, &f->nr_comms,
					  "hot,perf") ||
		    rep_filter_parse_cpus(f, "0-3", err, sizeof(err)))
			abort();
		break;
	case 2:
		o->hist.branch_stack = true;
		o->hist.show_period = true;
		o->stitch_lbr = true;
		break;
	case 3:
		if (rep_cc_param_parse(&o->cc.param, "folded,0,callee,address",
				       &bad))
			abort();
		o->cc.use_callchain = 1;
		o->cc.children = 0;
		o->hist.sort_str = "comm,dso";
		o->max_stack = 3;
		o->out.percent_limit = 0.5;
		if (rep_filter_parse_list(&f->dsos, &f->nr_dsos,
					  "[kernel.kallsyms],libc.so.6") ||
		    rep_filter_parse_list(&f->syms, &f->nr_syms,
					  "main,0x400000"))
			abort();
		break;
	case 4:
		o->hist.sort_str = "cpu,socket,parent,sym";
		o->group = false;
		o->group_set = true;
		if (rep_filter_parse_ints(&f->pids, &f->nr_pids, "1,2,100", "pid",
					  err, sizeof(err)) ||
		    rep_filter_parse_time(f, "10%/2", err, sizeof(err)))
			abort();
		break;
	default:
		break;
	}
	return rep_report_setup_dims(o, false, err, sizeof(err));
}

static void
report(struct pd_reader *r, unsigned int v)
{
	struct rep_report_opts o;

	if (v == 5) {
		if (report_opts(&o, 0) == 0)
			sink += (uint64_t)rep_unwind_stats_run(devnull, r, &o,
							       NULL);
		rep_filters_free(&o.hist.filt);
		return;
	}
	if (report_opts(&o, v) == 0) {
		if (v == 4)
			o.hdr = rep_header_begin(devnull, r, false);
		sink += (uint64_t)rep_report_run(devnull, r, &o, NULL);
		if (o.hdr)
			rep_header_end(o.hdr);
	}
	rep_filters_free(&o.hist.filt);
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	devnull = fopen("/dev/null", "w");
	if (!devnull)
		abort();
	unsetenv("DEBUGINFOD_URLS");
	setenv("PERF_BUILDID_DIR", "/dev/null", 1);
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pd_reader *r = NULL;
	unsigned int sel = size ? data[size - 1] % 9 : 0;
	int fd = fuzz_memfd("fuzz-session", data, size);

	if (pd_reader_open_fd(&r, fd, "fuzz", &ropts) == 0) {
		switch (sel) {
		case 0:
			sink += (uint64_t)rep_dump(devnull, r, false, false);
			break;
		case 1:
			sink += (uint64_t)rep_stats_print(devnull, r, false);
			break;
		case 2:
			sink += (uint64_t)rep_header_print(devnull, r, true);
			break;
		default:
			report(r, sel - 3);
			break;
		}
	}
	pd_reader_close(r);
	close(fd);
	return 0;
}
