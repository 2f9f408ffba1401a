/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * tests/progs/demo.c - the demo workload that the README records.
 *
 *   demo [MSEC]
 *
 * A toy pipeline run for MSEC milliseconds of wall time (default 500):
 * main -> run_pipeline -> compress_block (about 50% of the time),
 * checksum_block (30%) and parse_records (20%).
 */
#include "progs.h"

#define BLOCK 4096

HOT_FN uint64_t parse_records(unsigned char *buf, uint64_t seed);
HOT_FN uint64_t compress_block(const unsigned char *buf, uint64_t x);
HOT_FN uint64_t checksum_block(const unsigned char *buf, uint64_t x);
HOT_FN uint64_t run_pipeline(unsigned char *buf, uint64_t x);

static unsigned char block[BLOCK];

HOT_FN uint64_t
parse_records(unsigned char *buf, uint64_t seed)
{
	size_t i;

	PROGS_LEAF();
	for (i = 0; i < BLOCK; i++) {
		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		buf[i] = (unsigned char)(seed >> 56);
	}
	return seed;
}

HOT_FN uint64_t
compress_block(const unsigned char *buf, uint64_t x)
{
	size_t i;

	PROGS_LEAF();
	for (i = 0; i < BLOCK; i++)
		x = (x ^ buf[i]) * 1099511628211ULL + (x >> 29);
	PROGS_SPIN(x, 4200);
	return x;
}

HOT_FN uint64_t
checksum_block(const unsigned char *buf, uint64_t x)
{
	size_t i;

	PROGS_LEAF();
	for (i = 0; i < BLOCK; i++)
		x = (x << 5) + x + buf[i];
	PROGS_SPIN(x, 2500);
	return x;
}

HOT_FN uint64_t
run_pipeline(unsigned char *buf, uint64_t x)
{
	x = parse_records(buf, x);
	x = compress_block(buf, x);
	x = checksum_block(buf, x);
	progs_sink = x;
	return x;
}

int
main(int argc, char **argv)
{
	unsigned long msec = 500;
	uint64_t x = 1, end;
	unsigned int n;

	if (argc > 2) {
		fprintf(stderr, "usage: demo [MSEC]\n");
		return 2;
	}
	if (argc == 2)
		msec = progs_arg("demo", "MSEC", argv[1]);
	end = progs_now_ns() + (uint64_t)msec * 1000000;
	do {
		for (n = 0; n < 8; n++)
			x = run_pipeline(block, x);
	} while (progs_now_ns() < end);
	return 0;
}
