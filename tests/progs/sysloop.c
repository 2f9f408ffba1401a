/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * tests/progs/sysloop.c - a workload that spends most of its time in the
 * kernel, for kernel samples.
 *
 *   sysloop [MSEC]
 *
 * main -> read_block, which reads 64 KiB blocks of /dev/zero (the kernel
 * clears the buffer), and main -> user_sum, which sums them in user
 * space.  Runs for MSEC milliseconds of wall time (default 300).
 */
#include <fcntl.h>

#include "progs.h"

#define BLOCK 65536

HOT_FN ssize_t read_block(int fd, unsigned char *buf);
HOT_FN uint64_t user_sum(const unsigned char *buf, uint64_t x);

static unsigned char block[BLOCK];

HOT_FN ssize_t
read_block(int fd, unsigned char *buf)
{
	ssize_t n;

	n = read(fd, buf, BLOCK);
	progs_sink = (uint64_t)n;
	return n;
}

HOT_FN uint64_t
user_sum(const unsigned char *buf, uint64_t x)
{
	size_t i;

	PROGS_LEAF();
	for (i = 0; i < BLOCK; i += 512)
		x = x * 31 + buf[i];
	PROGS_SPIN(x, 400);
	return x;
}

int
main(int argc, char **argv)
{
	unsigned long msec = 300;
	uint64_t x = 1, end;
	int fd;

	if (argc > 2) {
		fprintf(stderr, "usage: sysloop [MSEC]\n");
		return 2;
	}
	if (argc == 2)
		msec = progs_arg("sysloop", "MSEC", argv[1]);
	fd = open("/dev/zero", O_RDONLY);
	if (fd < 0) {
		fprintf(stderr, "sysloop: /dev/zero: %s\n", strerror(errno));
		return 1;
	}
	end = progs_now_ns() + (uint64_t)msec * 1000000;
	do {
		if (read_block(fd, block) != BLOCK) {
			fprintf(stderr, "sysloop: short read from /dev/zero\n");
			return 1;
		}
		x = user_sum(block, x);
	} while (progs_now_ns() < end);
	progs_sink = x;
	close(fd);
	return 0;
}
