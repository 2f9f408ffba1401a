/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * tests/tools/pd-mkarm64.c - write the --call-graph dwarf recording of an
 * arm64 (aarch64) program, as perf on such a machine writes it, for
 * tests/report-dwarf-arm64.test: the arm64 register set is unwound here,
 * from a cross-built program that never runs.  Records: HEADER_ARCH
 * "aarch64", COMM, MMAP2 of the program's text, then three samples at
 * ip with arm64 user registers (ABI 64; x30, the link register, and sp
 * given, the others 0) and a stack copy of the given 64-bit words.
 *
 * Usage: pd-mkarm64 OUT PROG START LEN PGOFF IP SP LR WORD...
 * Numbers are hexadecimal or decimal (strtoull base 0).
 */
#include "config.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/tools/synth-records.h"

#define TYPE (PD_SAMPLE_IP | PD_SAMPLE_TID | PD_SAMPLE_TIME | \
	      PD_SAMPLE_PERIOD | PD_SAMPLE_CALLCHAIN | \
	      PD_SAMPLE_REGS_USER | PD_SAMPLE_STACK_USER)

/* perf's arm64 mask: x0 to x30, sp and pc (perf_regs.h) */
#define NR_REGS 33
enum { REG_LR = 30, REG_SP = 31, REG_PC = 32 };

#define PID 4343
#define MAX_WORDS 64

struct recording {
	const char *path;
	uint64_t start, len, pgoff, ip, sp, lr;
	uint64_t words[MAX_WORDS];
	size_t nr_words;
};

static int
sample(struct pd_writer *w, const struct recording *rec, uint64_t time)
{
	size_t i;
	struct tbuf r;

	synth_sample_begin(&r, PD_MISC_USER, rec->ip, PID, PID, time, 1000000);
	tb_u64(&r, 0);		/* no kernel part: sampled in user mode */
	tb_u64(&r, PD_REGS_ABI_64);
	for (i = 0; i < NR_REGS; i++)
		tb_u64(&r, i == REG_PC ? rec->ip : i == REG_SP ? rec->sp :
			   i == REG_LR ? rec->lr : 0);
	tb_u64(&r, rec->nr_words * 8);
	for (i = 0; i < rec->nr_words; i++)
		tb_u64(&r, rec->words[i]);
	tb_u64(&r, rec->nr_words * 8);	/* dyn_size */
	return synth_end(w, &r);
}

static int
records(struct pd_writer *w, void *arg)
{
	const struct recording *rec = arg;
	int err = 0, i;

	err |= synth_comm(w, PD_MISC_USER, PID, PID, "prog64", 10);
	err |= synth_mmap2(w, PID, rec->start, rec->len, rec->pgoff,
			   rec->path, 10);
	for (i = 0; i < 3; i++)
		err |= sample(w, rec, 20 + (uint64_t)i);
	return err;
}

int
main(int argc, char **argv)
{
	static struct recording rec;
	static char arch[] = "aarch64";
	struct pd_attr attr;
	struct pd_meta meta;
	int fd;

	if (argc < 10 || argc - 9 > MAX_WORDS) {
		fputs("usage: pd-mkarm64 OUT PROG START LEN PGOFF IP SP LR "
		      "WORD...\n", stderr);
		return 2;
	}
	rec.path = argv[2];
	rec.start = synth_number(argv[3]);
	rec.len = synth_number(argv[4]);
	rec.pgoff = synth_number(argv[5]);
	rec.ip = synth_number(argv[6]);
	rec.sp = synth_number(argv[7]);
	rec.lr = synth_number(argv[8]);
	for (int i = 9; i < argc; i++)
		rec.words[rec.nr_words++] = synth_number(argv[i]);
	fd = open(argv[1], O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	synth_attr(&attr, TYPE, 1000000);
	attr.sample_regs_user = (1ULL << NR_REGS) - 1;
	attr.sample_stack_user = MAX_WORDS * 8;
	attr.flags |= 1ULL << PD_ATTR_EXCLUDE_CALLCHAIN_USER;
	memset(&meta, 0, sizeof(meta));
	meta.arch = arch;
	meta.features[PD_FEAT_ARCH / 64] |= 1ULL << (PD_FEAT_ARCH % 64);
	return synth_write(fd, &attr, &meta, records, &rec, "pd-mkarm64") ?
	       1 : 0;
}
