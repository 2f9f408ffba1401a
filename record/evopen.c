/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * record/evopen.c - perf_event_open() of every event on every cpu x
 * thread, with perf 6.1's fallbacks (evsel__fallback(): cycles becomes
 * cpu-clock; the :P and default precise level is lowered until the
 * kernel takes it), and one clear message naming what was refused.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/perf_event.h>

#include "lib/diag.h"
#include "lib/xalloc.h"
#include "pdata/abi.h"
#include "record/record.h"

static int
sys_perf_event_open(const struct pd_attr *a, pid_t pid, int cpu, int group,
		    unsigned long flags)
{
	/*
	 * pd_attr_encode() lays it out as struct perf_event_attr, host order;
	 * the buffer has room for every field it knows, as it may touch them.
	 */
	unsigned char buf[PD_ATTR_SIZE_MAX];

	pd_attr_encode(a, PD_ATTR_SIZE_VER7, buf);
	return (int)syscall(__NR_perf_event_open, buf, pid, cpu, group,
			    PERF_FLAG_FD_CLOEXEC | flags);
}

static int
read_paranoid(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	int v = 2;

	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = 2;
		fclose(f);
	}
	return v;
}

static void
event_rename(struct rec_event *ev)
{
	char buf[256];

	pd_attr_default_name(&ev->attr, buf, sizeof(buf));
	free(ev->name);
	ev->name = xstrdup(buf);
}

/* perf's evsel__fallback(): true when the attr was changed to retry. */
static bool
event_fallback(struct rec_event *ev, int err, const struct rec_opts *o)
{
	struct pd_attr *a = &ev->attr;

	if (ev->precise_max && pd_attr_precise_ip(a) > 0) {
		unsigned int p = pd_attr_precise_ip(a) - 1;

		a->flags &= ~(3ULL << PD_ATTR_PRECISE_IP);
		a->flags |= (uint64_t)p << PD_ATTR_PRECISE_IP;
		return true;
	}
	/* every level failed: back to the highest for the next fallback */
	if (ev->precise_max) {
		a->flags &= ~(3ULL << PD_ATTR_PRECISE_IP);
		a->flags |= 3ULL << PD_ATTR_PRECISE_IP;
	}
	if ((err == ENOENT || err == ENXIO || err == ENODEV ||
	     err == EOPNOTSUPP) &&
	    a->type == PD_TYPE_HARDWARE && a->config == PD_HW_CPU_CYCLES) {
		/* perf says so with -v only */
		if (o->verbose && !o->quiet)
			warn_msg("The cycles event is not supported, trying to "
				 "fall back to cpu-clock-ticks");
		a->type = PD_TYPE_SOFTWARE;
		a->config = PD_SW_CPU_CLOCK;
		event_rename(ev);
		return true;
	}
	if (err == EACCES && !pd_attr_has(a, PD_ATTR_EXCLUDE_KERNEL) &&
	    !pd_attr_has(a, PD_ATTR_EXCLUDE_USER) && read_paranoid() > 1) {
		char *name = xmalloc(strlen(ev->name) + 3);

		sprintf(name, "%s%su", ev->name,
			strchr(ev->name, ':') || strchr(ev->name, '/') ? "" :
									  ":");
		free(ev->name);
		ev->name = name;
		if (!o->quiet)
			warn_msg("kernel.perf_event_paranoid=%d, trying to "
				 "fall back to excluding kernel and "
				 "hypervisor samples", read_paranoid());
		a->flags |= 1ULL << PD_ATTR_EXCLUDE_KERNEL;
		a->flags |= 1ULL << PD_ATTR_EXCLUDE_HV;
		return true;
	}
	return false;
}

/* What the kernel refused, in the user's words. */
static void
open_error(const struct rec_event *ev, int err, int cpu, pid_t tid,
	   const struct rec_opts *o)
{
	const struct pd_attr *a = &ev->attr;

	error_msg("cannot open event '%s' (cpu %d, thread %d): %s", ev->name,
		  cpu, (int)tid, strerror(err));
	if (err == EACCES || err == EPERM) {
		hint_msg("kernel.perf_event_paranoid is %d; run as root or set "
			 "it to 1 or lower", read_paranoid());
	} else if (a->sample_type & PD_SAMPLE_BRANCH_STACK &&
		   (err == EOPNOTSUPP || err == ENOENT || err == EINVAL)) {
		hint_msg("%s needs branch stack sampling (LBR), which this "
			 "CPU or VM does not provide",
			 o->callgraph == REC_CG_LBR ? "--call-graph lbr" :
			 "-b/-j");
	} else if ((a->type == PD_TYPE_HARDWARE ||
		    a->type == PD_TYPE_HW_CACHE || a->type == PD_TYPE_RAW) &&
		   (err == ENOENT || err == EOPNOTSUPP || err == ENODEV)) {
		hint_msg("this CPU or VM has no hardware performance counters "
			 "for '%s'; software events such as cpu-clock work",
			 ev->name);
	} else if (pd_attr_precise_ip(a) && err == EOPNOTSUPP) {
		hint_msg("precise sampling (:p) is not supported for '%s'",
			 ev->name);
	} else if (err == EMFILE) {
		hint_msg("too many open files: raise the limit (ulimit -n)");
	} else if (err == ESRCH) {
		hint_msg("thread %d does not exist (any more)", (int)tid);
	} else if (a->sample_type & (PD_SAMPLE_REGS_INTR | PD_SAMPLE_PHYS_ADDR |
				     PD_SAMPLE_WEIGHT_STRUCT |
				     PD_SAMPLE_DATA_PAGE_SIZE |
				     PD_SAMPLE_CODE_PAGE_SIZE) &&
		   err == EINVAL) {
		hint_msg("the kernel refuses one of the requested sample "
			 "fields for '%s'", ev->name);
	}
}

/*
 * perf's evsel__ignore_missing_thread(): thread th of t is gone; close
 * its fds of the first upto events (opened on every cpu) and take it
 * out of them and of t.
 */
static void
drop_thread(struct rec_evlist *list, size_t upto, struct rec_target *t,
	    size_t th, const struct rec_opts *o)
{
	size_t nt = t->nr_threads;

	if (!o->quiet)
		warn_msg("Ignored open failure for pid %d",
			 (int)t->threads[th]);
	for (size_t e = 0; e < upto; e++) {
		struct rec_event *ev = &list->ev[e];
		size_t k = 0;

		for (size_t i = 0; i < t->nr_cpus * nt; i++) {
			if (i % nt == th) {
				if (ev->fds[i] >= 0)
					close(ev->fds[i]);
				continue;
			}
			ev->fds[k] = ev->fds[i];
			ev->ids[k++] = ev->ids[i];
		}
	}
	memmove(&t->threads[th], &t->threads[th + 1],
		(nt - th - 1) * sizeof(*t->threads));
	t->nr_threads--;
}

/* Close and forget the first n fds of ev. */
static void
close_fds(struct rec_event *ev, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (ev->fds[i] >= 0)
			close(ev->fds[i]);
	free(ev->fds);
	free(ev->ids);
	ev->fds = NULL;
	ev->ids = NULL;
}

/* 0 done, 1 to open again (a thread was dropped), -1 failed */
static int
open_one(struct rec_evlist *list, size_t e, struct rec_target *t,
	 const struct rec_opts *o)
{
	struct rec_event *ev = &list->ev[e];
	const struct rec_event *leader = &list->ev[ev->leader];
	size_t n = t->nr_cpus * t->nr_threads;

	ev->fds = xcalloc(n, sizeof(*ev->fds));
	ev->ids = xcalloc(n, sizeof(*ev->ids));
	for (size_t i = 0; i < n; i++)
		ev->fds[i] = -1;
	for (size_t c = 0; c < t->nr_cpus; c++) {
		for (size_t th = 0; th < t->nr_threads; th++) {
			size_t i = c * t->nr_threads + th;
			int group = ev->leader == e ? -1 : leader->fds[i];
			int fd;

			for (;;) {
				/* -G: the cgroup's directory stands for a pid */
				fd = ev->cgroup_fd >= 0 ?
				     sys_perf_event_open(&ev->attr,
							 ev->cgroup_fd,
							 t->cpus[c], group,
							 PERF_FLAG_PID_CGROUP) :
				     sys_perf_event_open(&ev->attr,
							 t->threads[th],
							 t->cpus[c], group, 0);
				if (fd >= 0)
					break;
				/* fallbacks only before the first fd */
				if (i == 0 && event_fallback(ev, errno, o))
					continue;
				if (errno == ESRCH && t->ignore_missing &&
				    ev->cgroup_fd < 0 && t->nr_threads > 1) {
					close_fds(ev, i);
					drop_thread(list, e, t, th, o);
					return 1;
				}
				open_error(ev, errno, t->cpus[c],
					   t->threads[th], o);
				return -1;
			}
			ev->fds[i] = fd;
			if (ioctl(fd, PERF_EVENT_IOC_ID, &ev->ids[i])) {
				error_msg("cannot read the id of '%s': %s",
					  ev->name, strerror(errno));
				return -1;
			}
			if (ev->filter &&
			    ioctl(fd, PERF_EVENT_IOC_SET_FILTER, ev->filter)) {
				error_msg("failed to set filter \"%s\" on event "
					  "%s with %d (%s)", ev->filter,
					  ev->name, errno, strerror(errno));
				return -1;
			}
		}
	}
	return 0;
}

int
rec_events_open(struct rec_evlist *list, struct rec_target *t,
		const struct rec_opts *o)
{
	for (size_t e = 0; e < list->nr; e++) {
		int ret;

		while ((ret = open_one(list, e, t, o)) == 1)
			;
		if (ret)
			return -1;
	}
	return 0;
}

void
rec_events_enable(struct rec_evlist *list, const struct rec_target *t,
		  bool all)
{
	size_t n = t->nr_cpus * t->nr_threads;

	for (size_t e = 0; e < list->nr; e++) {
		const struct rec_event *ev = &list->ev[e];

		if (!ev->fds || (!all && ev->immediate))
			continue;
		for (size_t i = 0; i < n; i++)
			if (ev->fds[i] >= 0)
				ioctl(ev->fds[i], PERF_EVENT_IOC_ENABLE, 0);
	}
}

void
rec_events_disable_samplers(struct rec_evlist *list,
			    const struct rec_target *t)
{
	size_t n = t->nr_cpus * t->nr_threads;

	for (size_t e = 0; e < list->nr; e++) {
		const struct rec_event *ev = &list->ev[e];

		if (!ev->fds || (ev->attr.type == PD_TYPE_SOFTWARE &&
				 ev->attr.config == PD_SW_DUMMY))
			continue;
		for (size_t i = 0; i < n; i++)
			if (ev->fds[i] >= 0)
				ioctl(ev->fds[i], PERF_EVENT_IOC_DISABLE, 0);
	}
}

void
rec_events_switch(struct rec_evlist *list, const struct rec_target *t,
		  struct rec_event *ev, bool on)
{
	size_t n = t->nr_cpus * t->nr_threads;

	if (!ev) {
		if (on)
			rec_events_enable(list, t, false);
		else
			rec_events_disable_samplers(list, t);
		return;
	}
	for (size_t i = 0; ev->fds && i < n; i++)
		if (ev->fds[i] >= 0)
			ioctl(ev->fds[i], on ? PERF_EVENT_IOC_ENABLE :
					       PERF_EVENT_IOC_DISABLE, 0);
}

void
rec_events_close(struct rec_evlist *list, const struct rec_target *t)
{
	size_t n = t->nr_cpus * t->nr_threads;

	for (size_t e = 0; e < list->nr; e++) {
		struct rec_event *ev = &list->ev[e];

		if (!ev->fds)
			continue;
		for (size_t i = 0; i < n; i++)
			if (ev->fds[i] >= 0)
				close(ev->fds[i]);
		free(ev->fds);
		ev->fds = NULL;
	}
}
