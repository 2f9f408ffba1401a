/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * tests/progs/threads.c - threads, each hot in a function of its own.
 *
 *   threads [NTHREADS] [MSEC]
 *
 * Starts NTHREADS threads (1 to 4, default 3), named worker-0, worker-1...;
 * thread i spends MSEC milliseconds of wall time (default 300) in
 * burn_<i>: burn_0, burn_1, burn_2, burn_3.  The main thread waits.
 */
#include <pthread.h>
#include <sys/prctl.h>

#include "progs.h"

#define MAX_THREADS 4

HOT_FN uint64_t burn_0(uint64_t end);
HOT_FN uint64_t burn_1(uint64_t end);
HOT_FN uint64_t burn_2(uint64_t end);
HOT_FN uint64_t burn_3(uint64_t end);

/* Each burn_N spins until the monotonic clock passes END. */
HOT_FN uint64_t
burn_0(uint64_t end)
{
	return progs_burn_until(1, end);
}

HOT_FN uint64_t
burn_1(uint64_t end)
{
	return progs_burn_until(2, end);
}

HOT_FN uint64_t
burn_2(uint64_t end)
{
	return progs_burn_until(3, end);
}

HOT_FN uint64_t
burn_3(uint64_t end)
{
	return progs_burn_until(4, end);
}

struct worker {
	pthread_t thread;
	unsigned int index;
	uint64_t end;
};

static void *
worker_main(void *arg)
{
	static uint64_t (*const burn[MAX_THREADS])(uint64_t) = {
		burn_0, burn_1, burn_2, burn_3,
	};
	struct worker *w = arg;
	char name[16];

	snprintf(name, sizeof(name), "worker-%u", w->index);
	prctl(PR_SET_NAME, name, 0, 0, 0);
	progs_sink = burn[w->index](w->end);
	return NULL;
}

int
main(int argc, char **argv)
{
	struct worker workers[MAX_THREADS];
	unsigned long nthreads = 3, msec = 300, i;
	uint64_t end;
	int err;

	if (argc > 3) {
		fprintf(stderr, "usage: threads [NTHREADS] [MSEC]\n");
		return 2;
	}
	if (argc > 1)
		nthreads = progs_arg("threads", "NTHREADS", argv[1]);
	if (argc > 2)
		msec = progs_arg("threads", "MSEC", argv[2]);
	if (nthreads < 1 || nthreads > MAX_THREADS) {
		fprintf(stderr, "threads: NTHREADS must be 1 to %d\n",
			MAX_THREADS);
		return 2;
	}
	end = progs_now_ns() + (uint64_t)msec * 1000000;
	for (i = 0; i < nthreads; i++) {
		workers[i].index = (unsigned int)i;
		workers[i].end = end;
		err = pthread_create(&workers[i].thread, NULL, worker_main,
				     &workers[i]);
		if (err) {
			fprintf(stderr, "threads: pthread_create: %s\n",
				strerror(err));
			return 1;
		}
	}
	for (i = 0; i < nthreads; i++)
		pthread_join(workers[i].thread, NULL);
	return 0;
}
