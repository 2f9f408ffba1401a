/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * tests/tools/pd-mkexec32.c - write the --call-graph dwarf recording of
 * a 64-bit process that exec's a 32-bit program, as the kernel would
 * record it, for tests/report-dwarf-exec32.test: the unwinding of the
 * 32-bit samples is then checked on machines whose kernel runs no 32-bit
 * code.  Records: COMM of the 64-bit process, MMAP2 of its program's
 * text, one sample there with x86_64 registers, COMM with COMM_EXEC,
 * MMAP2 of the 32-bit program's text, then three samples with i386
 * registers (ABI 32, the upper registers 0) whose user stack copy holds
 * the given 32-bit words from sp up.
 *
 * Usage: pd-mkexec32 OUT PROG64 START LEN PGOFF IP \
 *		      PROG32 START LEN PGOFF IP SP WORD...
 * Numbers are hexadecimal or decimal (strtoull base 0).
 */
#include "config.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pdata/abi.h"
#include "tests/tools/synth-records.h"

#define TYPE (PD_SAMPLE_IP | PD_SAMPLE_TID | PD_SAMPLE_TIME | \
	      PD_SAMPLE_PERIOD | PD_SAMPLE_CALLCHAIN | \
	      PD_SAMPLE_REGS_USER | PD_SAMPLE_STACK_USER)

/* perf 6.1's x86_64 mask: every register but DS, ES, FS and GS */
#define REGS_MASK 0xff0fffULL
#define NR_REGS 20
enum { REG_SP = 7, REG_IP = 8 };	/* their places among the 20 */

#define PID 4242
#define MAX_WORDS 64

struct image {
	const char *path;
	uint64_t start, len, pgoff, ip;
};

static int
map_image(struct pd_writer *w, const struct image *im, uint64_t time)
{
	return synth_mmap2(w, PID, im->start, im->len, im->pgoff, im->path,
			   time);
}

/* A user-mode sample at ip with sp, abi and a stack copy of words. */
static int
sample(struct pd_writer *w, uint64_t abi, uint64_t ip, uint64_t sp,
       const uint32_t *words, size_t nr_words, uint64_t time)
{
	size_t size = (nr_words * 4 + 7) & ~(size_t)7, i;
	struct tbuf r;

	synth_sample_begin(&r, PD_MISC_USER, ip, PID, PID, time, 1000000);
	tb_u64(&r, 0);		/* no kernel part: sampled in user mode */
	tb_u64(&r, abi);
	for (i = 0; i < NR_REGS; i++)
		tb_u64(&r, i == REG_IP ? ip : i == REG_SP ? sp : 0);
	tb_u64(&r, size);
	for (i = 0; i < nr_words; i++)
		tb_u32(&r, words[i]);
	tb_zeros(&r, size - nr_words * 4);
	tb_u64(&r, size);	/* dyn_size */
	return synth_end(w, &r);
}

struct recording {
	struct image im64, im32;
	uint64_t sp32;
	uint32_t words[MAX_WORDS];
	size_t nr_words;
};

static int
records(struct pd_writer *w, void *arg)
{
	static const uint32_t zeros[4];
	const struct recording *rec = arg;
	const struct image *im64 = &rec->im64, *im32 = &rec->im32;
	int err = 0, i;

	err |= synth_comm(w, PD_MISC_USER, PID, PID, "parent", 10);
	err |= map_image(w, im64, 10);
	err |= sample(w, PD_REGS_ABI_64, im64->ip, 0x7ffc0000, zeros, 4, 20);
	err |= synth_comm(w, PD_MISC_USER | PD_MISC_COMM_EXEC, PID, PID,
			  "prog32", 30);
	err |= map_image(w, im32, 30);
	for (i = 0; i < 3; i++)
		err |= sample(w, PD_REGS_ABI_32, im32->ip, rec->sp32,
			      rec->words, rec->nr_words, 40 + (uint64_t)i);
	return err;
}

/* PATH START LEN PGOFF IP from argv */
static void
image_of(char **argv, struct image *im)
{
	im->path = argv[0];
	im->start = synth_number(argv[1]);
	im->len = synth_number(argv[2]);
	im->pgoff = synth_number(argv[3]);
	im->ip = synth_number(argv[4]);
}

int
main(int argc, char **argv)
{
	static struct recording rec;
	struct pd_attr attr;
	int fd;

	if (argc < 14 || argc - 13 > MAX_WORDS) {
		fputs("usage: pd-mkexec32 OUT PROG64 START LEN PGOFF IP "
		      "PROG32 START LEN PGOFF IP SP WORD...\n", stderr);
		return 2;
	}
	image_of(argv + 2, &rec.im64);
	image_of(argv + 7, &rec.im32);
	rec.sp32 = synth_number(argv[12]);
	for (int i = 13; i < argc; i++)
		rec.words[rec.nr_words++] = (uint32_t)synth_number(argv[i]);
	fd = open(argv[1], O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	synth_attr(&attr, TYPE, 1000000);
	attr.sample_regs_user = REGS_MASK;
	attr.sample_stack_user = MAX_WORDS * 4;
	attr.flags |= (1ULL << PD_ATTR_COMM_EXEC) |
		      (1ULL << PD_ATTR_EXCLUDE_CALLCHAIN_USER);
	return synth_write(fd, &attr, NULL, records, &rec,
			   "pd-mkexec32") ? 1 : 0;
}
