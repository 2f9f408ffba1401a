/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * tests/progs/sigframe.c - time spent in a signal handler, so that
 * unwinding goes through the kernel's signal frame (__restore_rt).
 *
 *   sigframe [MSEC]
 *
 * main spins in main_work; a timer raises SIGALRM every 2 ms, and the
 * handler (on_alarm) spins in handler_work for about 1 ms; for MSEC
 * milliseconds of wall time (default 300).  A sample in the handler has
 * the stack handler_work, on_alarm, the signal frame, then main_work
 * and main.
 */
#include <signal.h>
#include <sys/time.h>

#include "progs.h"

HOT_FN uint64_t handler_work(uint64_t x);
HOT_FN uint64_t main_work(uint64_t end);
HOT_FN void on_alarm(int sig);

HOT_FN uint64_t
handler_work(uint64_t x)
{
	return progs_burn_until(x, progs_now_ns() + 1000000);
}

HOT_FN void
on_alarm(int sig)
{
	progs_sink = handler_work(progs_sink + (uint64_t)sig);
}

HOT_FN uint64_t
main_work(uint64_t end)
{
	return progs_burn_until(7, end);
}

int
main(int argc, char **argv)
{
	struct itimerval every = { { 0, 2000 }, { 0, 2000 } };
	struct sigaction sa;
	unsigned long msec = 300;

	if (argc > 2) {
		fprintf(stderr, "usage: sigframe [MSEC]\n");
		return 2;
	}
	if (argc == 2)
		msec = progs_arg("sigframe", "MSEC", argv[1]);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sa.sa_flags = SA_RESTART;
	if (sigaction(SIGALRM, &sa, NULL) || setitimer(ITIMER_REAL, &every, NULL)) {
		perror("sigframe");
		return 1;
	}
	progs_sink = main_work(progs_now_ns() + (uint64_t)msec * 1000000);
	return 0;
}
