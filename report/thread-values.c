/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * report/thread-values.c - -T/--threads: the counts the READ records of
 * a recording made with inherit_stat (perf record -s) give each thread
 * as it ended, per event, printed after the report as perf's
 * perf_read_values_display() prints them (util/values.c).
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"
#include "report/report.h"

/* The index of (pid, tid), added in the order threads first come. */
static size_t
thread_index(struct rep_thread_values *tv, uint32_t pid, uint32_t tid)
{
	size_t i;

	for (i = 0; i < tv->nr_threads; i++)
		if (tv->pid[i] == pid && tv->tid[i] == tid)
			return i;
	tv->pid = xreallocarray(tv->pid, i + 1, sizeof(*tv->pid));
	tv->tid = xreallocarray(tv->tid, i + 1, sizeof(*tv->tid));
	tv->value = xreallocarray(tv->value, i + 1, sizeof(*tv->value));
	tv->pid[i] = pid;
	tv->tid[i] = tid;
	tv->value[i] = xcalloc(tv->nr_counters ? tv->nr_counters : 1,
			       sizeof(**tv->value));
	tv->nr_threads++;
	return i;
}

/* The index of the counter of an event, added in the order they come. */
static size_t
counter_index(struct rep_thread_values *tv, uint64_t rawid, const char *name)
{
	size_t i, t;

	for (i = 0; i < tv->nr_counters; i++)
		if (tv->rawid[i] == rawid)
			return i;
	tv->rawid = xreallocarray(tv->rawid, i + 1, sizeof(*tv->rawid));
	tv->name = xreallocarray(tv->name, i + 1, sizeof(*tv->name));
	tv->rawid[i] = rawid;
	tv->name[i] = name;
	tv->nr_counters++;
	for (t = 0; t < tv->nr_threads; t++) {
		tv->value[t] = xreallocarray(tv->value[t], tv->nr_counters,
					     sizeof(**tv->value));
		tv->value[t][i] = 0;
	}
	return i;
}

void
rep_thread_values_add(struct rep_thread_values *tv, uint32_t pid,
		      uint32_t tid, uint64_t rawid, const char *name,
		      uint64_t value)
{
	size_t t = thread_index(tv, pid, tid);
	size_t c = counter_index(tv, rawid, name);

	tv->value[t][c] += value;
}

static int
width_u64(uint64_t v, bool hex)
{
	return snprintf(NULL, 0, hex ? "%" PRIx64 : "%" PRIu64, v);
}

static int
width_int(uint32_t v)
{
	return snprintf(NULL, 0, "%d", (int)v);
}

static void
widen(int *w, int v)
{
	if (v > *w)
		*w = v;
}

/* perf_read_values__display_pretty(): a column per event */
static void
print_pretty(FILE *out, const struct rep_thread_values *tv)
{
	int pidw = 3, tidw = 3, *cw = xcalloc(tv->nr_counters + 1, sizeof(int));
	size_t i, j;

	for (j = 0; j < tv->nr_counters; j++)
		cw[j] = (int)strlen(tv->name[j]);
	for (i = 0; i < tv->nr_threads; i++) {
		widen(&pidw, width_int(tv->pid[i]));
		widen(&tidw, width_int(tv->tid[i]));
		for (j = 0; j < tv->nr_counters; j++)
			widen(&cw[j], width_u64(tv->value[i][j], false));
	}
	fprintf(out, "# %*s  %*s", pidw, "PID", tidw, "TID");
	for (j = 0; j < tv->nr_counters; j++)
		fprintf(out, "  %*s", cw[j], tv->name[j]);
	fputc('\n', out);
	for (i = 0; i < tv->nr_threads; i++) {
		fprintf(out, "  %*d  %*d", pidw, (int)tv->pid[i], tidw,
			(int)tv->tid[i]);
		for (j = 0; j < tv->nr_counters; j++)
			fprintf(out, "  %*" PRIu64, cw[j], tv->value[i][j]);
		fputc('\n', out);
	}
	free(cw);
}

/* perf_read_values__display_raw(): a row per thread and event, and
 * perf ends none of them with a newline */
static void
print_raw(FILE *out, const struct rep_thread_values *tv)
{
	int pidw = 3, tidw = 3, namew = 4, raww = 3, countw = 5;
	size_t i, j;

	for (i = 0; i < tv->nr_threads; i++) {
		widen(&pidw, width_int(tv->pid[i]));
		widen(&tidw, width_int(tv->tid[i]));
	}
	for (j = 0; j < tv->nr_counters; j++) {
		widen(&namew, (int)strlen(tv->name[j]));
		widen(&raww, width_u64(tv->rawid[j], true));
	}
	for (i = 0; i < tv->nr_threads; i++)
		for (j = 0; j < tv->nr_counters; j++)
			widen(&countw, width_u64(tv->value[i][j], false));
	fprintf(out, "# %*s  %*s  %*s  %*s  %*s\n", pidw, "PID", tidw, "TID",
		namew, "Name", raww, "Raw", countw, "Count");
	for (i = 0; i < tv->nr_threads; i++)
		for (j = 0; j < tv->nr_counters; j++)
			fprintf(out, "  %*d  %*d  %*s  %*" PRIx64 "  %*" PRIu64,
				pidw, (int)tv->pid[i], tidw, (int)tv->tid[i],
				namew, tv->name[j], raww, tv->rawid[j],
				countw, tv->value[i][j]);
}

void
rep_thread_values_print(FILE *out, const struct rep_thread_values *tv,
			bool raw)
{
	if (raw)
		print_raw(out, tv);
	else
		print_pretty(out, tv);
}

void
rep_thread_values_free(struct rep_thread_values *tv)
{
	size_t i;

	for (i = 0; i < tv->nr_threads; i++)
		free(tv->value[i]);
	free(tv->value);
	free(tv->pid);
	free(tv->tid);
	free(tv->rawid);
	free(tv->name);
	memset(tv, 0, sizeof(*tv));
}
