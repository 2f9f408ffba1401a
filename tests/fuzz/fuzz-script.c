/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * tests/fuzz/fuzz-script.c - libFuzzer target for pscript (script/):
 * perf script's text of every sample field and side-band record, over
 * whole perf.data files (or pipe-mode streams) in memory.
 *
 * The input is a file in an in-memory file (memfd_create()) given to
 * pscript_main() as /proc/self/fd/N; its last byte picks one of several
 * command lines: the default fields; many -F fields with --ns; every
 * --show-*-events; --header -I with --max-stack and --no-inline; branch
 * stacks and call indentation with --stitch-lbr; registers, data
 * addresses and weights; the comm, pid, tid, CPU and time filters;
 * instructions and source lines.  Output goes to /dev/null (standard
 * output is made /dev/null once); symbols are looked up under --symfs
 * /dev/null with /dev/null as kallsyms and build-id cache, so no file of
 * this machine is read for a DSO the input names, and none is written.
 */
#include "config.h"

#include <fcntl.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "script/scr.h"
#include "tests/fuzz/fuzz.h"

static const char *const variants[][12] = {
	{ NULL },
	{ "-F", "comm,tid,pid,time,cpu,event,ip,sym,dso,symoff,period,misc",
	  "--ns", NULL },
	{ "--show-task-events", "--show-mmap-events", "--show-switch-events",
	  "--show-lost-events", "--show-namespace-events",
	  "--show-cgroup-events", "--show-bpf-events", "--show-round-events",
	  "--show-text-poke-events", "--show-on-off-events", NULL },
	{ "--header", "-I", "--max-stack", "3", "--no-inline", NULL },
	{ "-F", "ip,sym,brstack,brstacksym,brstackoff,callindent",
	  "--stitch-lbr", NULL },
	{ "-F", "ip,addr,iregs,uregs,data_src,weight,phys_addr,"
	  "data_page_size,code_page_size,ins_lat", NULL },
	{ "--comms", "hot,perf", "--pid", "1,2,100", "--tid", "3",
	  "-C", "0-1", "--time", "10%/2", NULL },
	{ "-F", "ip,sym,insn,insnlen,srcline,brstackinsn", "-G", NULL },
};

#define NR_VARIANTS (sizeof(variants) / sizeof(variants[0]))

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	int null = open("/dev/null", O_WRONLY);

	(void)argc;
	(void)argv;
	if (null < 0 || dup2(null, STDOUT_FILENO) < 0)
		abort();
	close(null);
	unsetenv("DEBUGINFOD_URLS");
	setenv("PERF_BUILDID_DIR", "/dev/null", 1);
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *const *opts = variants[size ? data[size - 1] % NR_VARIANTS : 0];
	char *argv[32], path[64];
	int fd = fuzz_memfd("fuzz-script", data, size), argc = 0;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	argv[argc++] = (char *)"pscript";
	argv[argc++] = (char *)"-q";
	argv[argc++] = (char *)"-i";
	argv[argc++] = path;
	argv[argc++] = (char *)"--symfs=/dev/null";
	argv[argc++] = (char *)"--kallsyms=/dev/null";
	argv[argc++] = (char *)"--no-archive";
	for (size_t i = 0; opts[i]; i++)
		argv[argc++] = (char *)opts[i];
	argv[argc] = NULL;
	optind = 0;
	sink += (uint64_t)pscript_main(argc, argv);
	close(fd);
	return 0;
}
