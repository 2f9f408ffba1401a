/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * record/session.c - one recording, in perf 6.1's order (builtin-record.c
 * __cmd_record): fork the workload, open the events, map the rings,
 * write the header and the synthesised records (ID_INDEX, kernel and
 * module maps, THREAD_MAP, CPU_MAP, tasks, FINISHED_INIT), start, drain
 * until done (FINISHED_ROUND after each pass that wrote), then the
 * build-ids (and the build-id cache), the feature sections and the final
 * header; last, with --archive or --perf-archive, the archives of the
 * file (record/archive.c).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/diag.h"
#include "lib/xalloc.h"
#include "pdata/abi.h"
#include "pdata/meta.h"
#include "pdata/reader.h"
#include "pdata/writer.h"
#include "record/record.h"
#include "record/session.h"
#include "record/sys.h"
#include "record/threads.h"

struct session {
	struct rec_opts *o;
	struct rec_evlist list;
	struct rec_target t;
	struct rec_rings rings;
	struct pd_writer *w;
	struct pd_meta meta;
	int fd;
	int argc;
	char **argv;
	unsigned long waking;
	int write_err;
	struct rec_bid_emit *bid_emit;	/* --buildid-mmap */
	size_t nr_cgroups;		/* -G names taken so far */
	struct timespec started;	/* -D ranges: when the command started */
	struct rec_control ctl;		/* --control, ctl -1 without */
	size_t next_toggle;		/* -D ranges: 2 x range + (0 on, 1 off) */
	struct rec_threads *th;		/* --threads, else NULL */
	struct rec_rotation rotation;	/* --switch-max-files */
};

/* What a finished file holds, from reading it back. */
struct counts {
	uint64_t samples;
	uint64_t lost;
	uint64_t lost_records;
	uint64_t lost_samples;
};

static volatile sig_atomic_t done;
static volatile sig_atomic_t child_finished;
static volatile sig_atomic_t signr = -1;
static volatile sig_atomic_t switch_hit;
/* the reader of -o - went away (EPIPE): end as perf does, by SIGPIPE */
static bool pipe_gone;

static void
on_signal(int sig)
{
	if (sig == SIGCHLD)
		child_finished = 1;
	else
		signr = sig;
	done = 1;
}

/* --switch-output: SIGUSR2 (=signal) or SIGALRM (=TIME) */
static void
on_switch_signal(int sig)
{
	(void)sig;
	switch_hit = 1;
}

static int
emit(void *ctx, const void *rec, size_t size)
{
	struct session *s = ctx;
	int err = pd_writer_write(s->w, rec, size);

	return err ? (err < 0 ? err : -err) : 0;
}

/* The maps and tasks synthesised: with build-ids for --buildid-mmap. */
static int
synth_emit(void *ctx, const void *rec, size_t size)
{
	struct session *s = ctx;

	if (s->bid_emit)
		return rec_bid_emit(s->bid_emit, rec, size);
	return emit(ctx, rec, size);
}

/* The rings' records: compressed with -z, as perf compresses only them. */
static int
write_span(void *ctx, const void *buf, size_t len)
{
	struct session *s = ctx;
	int err;

	if (!s->o->comp_level)
		return emit(ctx, buf, len);
	err = pd_writer_write_compressed(s->w, buf, len);
	return err ? (err < 0 ? err : -err) : 0;
}

static void
meta_set(struct pd_meta *m, unsigned int feat)
{
	m->features[feat / 64] |= 1ULL << (feat % 64);
}

/*
 * The text of a writer's (pdata/errors.h) or a ring's (-errno) error: the
 * rings return only errno values beyond the library's -PD_E_* range.
 */
static const char *
err_text(int err)
{
	if (!err)
		return "failed";
	if (err <= -PD_ERRNO_BASE || (err < 0 && -err < PD_E_COUNT))
		return pd_strerror(err);
	return strerror(err < 0 ? -err : err);
}

static int
writer_fail(struct session *s, const char *what, int err)
{
	const char *why = s->w ? pd_writer_errmsg(s->w) : NULL;

	if (s->o->pipe && (err == PD_ERR_ERRNO(EPIPE) || err == -EPIPE)) {
		/* stop the workload at once, and say nothing */
		pipe_gone = true;
		if (s->t.child && !child_finished)
			kill(s->t.child, SIGTERM);
		return -1;
	}
	if (rec_threads_errmsg(s->th))
		why = rec_threads_errmsg(s->th);
	/* the writer has no message of its own for a ring's error */
	if (!why || !*why || !strcmp(why, "no error"))
		why = err_text(err);
	error_msg("cannot write %s to '%s': %s", what, s->o->output, why);
	return -1;
}

/* What fits in one ID_INDEX record: its size is a u16. */
#define ID_INDEX_MAX	((0xffff - 16) / 32)

static int
id_index_flush(struct session *s, uint64_t *rec, size_t nr)
{
	size_t size = 16 + nr * 32;

	rec[0] = (uint64_t)PD_RECORD_ID_INDEX | (uint64_t)size << 48;
	rec[1] = nr;
	return emit(s, rec, size);
}

/*
 * ID_INDEX (perf_event__synthesize_id_index): every id with its ring,
 * cpu and tid, in records of at most ID_INDEX_MAX entries.
 */
static int
write_id_index(struct session *s)
{
	size_t k = 0, per_ev = s->t.nr_cpus * s->t.nr_threads;
	uint64_t *rec = xcalloc(2 + 4 * ID_INDEX_MAX, sizeof(*rec));
	int err = 0;

	for (size_t e = 0; e < s->list.nr && !err; e++) {
		for (size_t i = 0; i < per_ev && !err; i++) {
			size_t c = i / s->t.nr_threads;
			size_t th = i % s->t.nr_threads;
			uint64_t *ent = rec + 2 + 4 * k++;

			ent[0] = s->list.ev[e].ids[i];
			ent[1] = rec_ring_index(&s->t, c, th);
			ent[2] = (uint64_t)(int64_t)s->t.cpus[c];
			ent[3] = (uint64_t)(int64_t)s->t.threads[th];
			if (k == ID_INDEX_MAX) {
				err = id_index_flush(s, rec, k);
				k = 0;
			}
		}
	}
	if (!err && k)
		err = id_index_flush(s, rec, k);
	free(rec);
	return err;
}

/* EVENT_UPDATE NAME records, which pipe mode carries instead of EVENT_DESC */
static int
write_event_names(struct session *s)
{
	for (size_t e = 0; e < s->list.nr; e++) {
		const struct rec_event *ev = &s->list.ev[e];
		size_t len = strlen(ev->name) + 1;
		size_t size = (len + 40 + 7) & ~(size_t)7;
		unsigned char *rec;
		uint64_t hdr;
		uint64_t type = 2;	/* PERF_EVENT_UPDATE__NAME */
		int err;

		if (size > 0xffff)
			continue;
		rec = xcalloc(1, size);
		hdr = (uint64_t)78 | (uint64_t)size << 48;
		memcpy(rec, &hdr, 8);
		memcpy(rec + 8, &type, 8);
		memcpy(rec + 16, &ev->ids[0], 8);
		memcpy(rec + 24, ev->name, len);
		err = emit(s, rec, size);
		free(rec);
		if (err)
			return err;
	}
	return 0;
}

static bool
all_exclude_kernel(const struct rec_evlist *l)
{
	for (size_t i = 0; i < l->nr; i++)
		if (!pd_attr_has(&l->ev[i].attr, PD_ATTR_EXCLUDE_KERNEL))
			return false;
	return true;
}

/* The tasks of the target; the workload's are synth_workload()'s. */
static int
synth_tasks(struct session *s, const struct rec_synth_opts *so)
{
	if (s->t.has_cpu)
		return rec_synth_all_tasks(so, synth_emit, s);
	if (s->t.workload)
		return 0;
	if (s->o->pids) {
		for (size_t i = 0; i < s->t.nr_pids; i++) {
			int err = rec_synth_task(s->t.pids[i], s->t.pids[i],
						 true, so, synth_emit, s);

			if (err)
				return err;
		}
		return 0;
	}
	return rec_synth_threads(s->t.threads, s->t.nr_threads, so,
				 synth_emit, s);
}

static void
synth_opts(const struct session *s, struct rec_synth_opts *so)
{
	*so = (struct rec_synth_opts){
		.attr = &s->list.ev[0].attr,
		.id = s->list.ev[0].ids[0],
		.mmap_data = s->o->sample_addr,
		.no_inherit = s->o->no_inherit,
		.namespaces = s->o->namespaces,
		.proc_map_timeout_ms = 500,
	};
}

/*
 * The workload: before it runs, its COMM (perf's "perf-exec"); in a file
 * that starts later (--switch-output) or at the end (--overwrite), its
 * threads with their maps, as perf's record__synthesize_workload().
 */
static int
synth_workload(struct session *s, bool started)
{
	struct rec_synth_opts so;
	int err;

	if (!s->t.workload || !s->t.child)
		return 0;
	synth_opts(s, &so);
	if (!started)
		return rec_synth_comm(s->t.child, &so, synth_emit, s);
	err = rec_synth_threads(&s->t.child, 1, &so, synth_emit, s);
	if (err && s->o->verbose)
		warn_msg("cannot synthesise the workload: %s", strerror(-err));
	return 0;
}

static int
finished_init(struct session *s)
{
	uint64_t rec = PD_RECORD_FINISHED_INIT | (uint64_t)8 << 48;

	return emit(s, &rec, 8);
}

/*
 * What a reader needs before the rings' records: the clock, the ids,
 * the kernel, the maps of threads and cpus, the cgroups and the tasks
 * (perf's record__synthesize()).
 */
static int
synthesize(struct session *s)
{
	struct rec_synth_opts so;
	uint64_t time_conv[7];
	int err;

	synth_opts(s, &so);
	if (s->rings.nr && !rec_ring_time_conv(&s->rings.r[0], time_conv) &&
	    (err = emit(s, time_conv, sizeof(time_conv))))
		return err;
	if ((err = write_id_index(s)))
		return err;
	if (!all_exclude_kernel(&s->list) &&
	    (err = rec_synth_kernel(&so, synth_emit, s)) && s->o->verbose)
		warn_msg("cannot synthesise the kernel maps: %s",
			 strerror(-err));
	if (s->o->pipe && (err = write_event_names(s)))
		return err;
	err = rec_synth_thread_map(s->t.has_cpu ? NULL : s->t.threads,
				   s->t.has_cpu ? 0 : s->t.nr_threads, emit, s);
	if (err)
		return err;
	if ((err = rec_synth_cpu_map(s->t.cpus, s->t.nr_cpus, emit, s)))
		return err;
	if (s->o->all_cgroups && (err = rec_synth_cgroups(&so, emit, s)) &&
	    !s->o->quiet)
		warn_msg("cannot synthesise the cgroups: %s", strerror(-err));
	err = synth_tasks(s, &so);
	if (err && s->o->verbose)
		warn_msg("cannot synthesise the existing tasks: %s",
			 strerror(-err));
	return 0;
}

/*
 * A file's first records.  With --overwrite (perf's tail synthesis)
 * only the workload's COMM: the rest comes at the end of each file.
 */
static int
synthesize_head(struct session *s, bool first)
{
	int err;

	if (s->o->buildid_mmap && !s->bid_emit)
		s->bid_emit = rec_bid_emit_new(emit, s);
	if (s->o->overwrite)
		return first ? synth_workload(s, false) : 0;
	if ((err = synthesize(s)) || (err = synth_workload(s, !first)))
		return err;
	return finished_init(s);
}

/*
 * What was written survives a kill from here on: in the file (its
 * header's data size covering it, doc/perf-data-format.md §2.7) or in
 * the pipe.
 */
static int
sync_output(struct session *s)
{
	return pd_writer_sync(s->w);
}

static int
open_control(struct session *s)
{
	char why[512];

	s->ctl.ctl = s->ctl.ack = -1;
	if (!s->o->control)
		return 0;
	if (rec_control_open(&s->ctl, s->o->control, why, sizeof(why))) {
		error_msg("--control: %s", why);
		return -1;
	}
	return 0;
}

/* --max-size: perf stops taking records once the data reach it */
static bool
size_limit_reached(const struct session *s)
{
	uint64_t written = pd_writer_data_size(s->w) +
			   rec_threads_bytes(s->th);

	if (!s->o->max_size || written < s->o->max_size)
		return false;
	if (!s->o->quiet)
		fprintf(stderr, "[ precord: perf size limit reached (%llu KB), "
			"stopping session ]\n",
			(unsigned long long)(written >> 10));
	return true;
}

/*
 * One pass over every ring, taking from each at least min bytes or
 * nothing; a FINISHED_ROUND when it wrote something.
 */
static int
drain_all(struct session *s, uint64_t min, uint64_t *total)
{
	static const uint64_t round = PD_RECORD_FINISHED_ROUND |
				      (uint64_t)8 << 48;
	uint64_t sum = 0;

	for (size_t i = 0; i < s->rings.nr; i++) {
		uint64_t n;
		int err = rec_ring_drain(&s->rings.r[i], min, write_span, s,
					 &n);

		if (err)
			return err;
		sum += n;
	}
	*total = sum;
	return sum ? emit(s, &round, 8) : 0;
}

/*
 * The rings are drained when the kernel wakes precord up, and at least
 * this often: at a low rate a ring fills its wakeup watermark in minutes,
 * and what it holds is lost if precord is killed.
 */
static const struct timespec drain_every = { .tv_sec = 1 };

/* ms since the command started (-D ranges) */
static uint64_t
ms_since_start(const struct session *s)
{
	struct timespec now;
	int64_t ms;

	clock_gettime(CLOCK_MONOTONIC, &now);
	ms = (int64_t)(now.tv_sec - s->started.tv_sec) * 1000 +
	     (int64_t)(now.tv_nsec - s->started.tv_nsec) / 1000000;
	return ms > 0 ? (uint64_t)ms : 0;
}

/*
 * -D ranges: the events on and off at each range's ends, as perf's
 * event_enable_timer does; after the last, the session ends.  The time
 * until the next one bounds the wait (*wait, already the drain period).
 */
static void
ranges_step(struct session *s, struct timespec *wait)
{
	const struct rec_opts *o = s->o;

	while (s->next_toggle < 2 * o->nr_ranges) {
		const struct rec_range *r = &o->ranges[s->next_toggle / 2];
		uint64_t at = s->next_toggle % 2 ? r->off : r->on;
		uint64_t now = ms_since_start(s);

		if (now < at) {
			if (at - now < 1000) {
				wait->tv_sec = 0;
				wait->tv_nsec = (long)(at - now) * 1000000L;
			}
			return;
		}
		if (s->next_toggle % 2)
			rec_events_disable_samplers(&s->list, &s->t);
		else
			rec_events_enable(&s->list, &s->t, false);
		if (!o->quiet)
			fprintf(stderr, "Events %s\n",
				s->next_toggle % 2 ? "disabled" : "enabled");
		s->next_toggle++;
	}
	done = 1;
}

/* A ring's mmap, data and control page: perf's mmap_len (§10.4). */
static uint32_t
comp_mmap_len(const struct rec_opts *o)
{
	return (uint32_t)(((size_t)o->mmap_pages + 1) *
			  (size_t)sysconf(_SC_PAGESIZE));
}

/*
 * An existing FILE (or directory) becomes FILE.old, as with perf, which
 * refuses to replace a FILE.old directory holding other files than a
 * recording's; its symbol archive FILE.pdsym goes with it, so that it
 * stays beside its recording.
 */
static int
keep_old(const char *path, const char *suffix)
{
	char *from = xmalloc(strlen(path) + strlen(suffix) + 1);
	char *to = xmalloc(strlen(path) + strlen(suffix) + 5);
	char why[128];
	int err;

	sprintf(from, "%s%s", path, suffix);
	sprintf(to, "%s.old%s", path, suffix);
	err = rec_old_remove(to, why, sizeof(why));
	if (err) {
		error_msg("Can't remove old data: %s (%s)", why, to);
	} else if (rename(from, to) && errno != ENOENT) {
		/* the old recording stays whole where it is */
		error_msg("cannot rename '%s' to '%s': %s", from, to,
			  strerror(errno));
		err = -1;
	}
	free(from);
	free(to);
	return err;
}

/*
 * A new file at path: an empty one there (not renamed to .old) goes
 * first, so that O_EXCL can make sure that nothing else is written
 * through, whatever appears at path meanwhile (doc/security.md).
 */
static int
create_output(const char *path)
{
	struct stat st;

	if (!lstat(path, &st) && S_ISREG(st.st_mode) && !st.st_size &&
	    unlink(path))
		return -1;
	return open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW,
		    0600);
}

/* The output's fd and writer: each file of --switch-output has its own. */
static int
open_file(struct session *s)
{
	struct pd_writer_opts wo = {
		.pipe = s->o->pipe,
		.zstd_level = s->o->comp_level,
		.zstd_mmap_len = comp_mmap_len(s->o),
		.dir = s->th != NULL,
	};
	int err;

	if (s->o->pipe) {
		s->fd = STDOUT_FILENO;
	} else {
		if (s->th) {
			s->fd = rec_threads_open(s->th, s->rings.nr);
			if (s->fd < 0)
				return -1;
		} else {
			s->fd = create_output(s->o->output);
		}
		if (s->fd < 0) {
			error_msg("cannot create '%s': %s", s->o->output,
				  errno == ELOOP ? "a symbolic link" :
				  strerror(errno));
			return -1;
		}
	}
	err = pd_writer_open(&s->w, s->fd, &wo);
	if (err)
		return writer_fail(s, "the header", err);
	return 0;
}

static int
open_output(struct session *s)
{
	struct stat st;

	if (s->o->threads && rec_threads_new(&s->th, s->o, &s->t))
		return -1;
	/* a FIFO, a device or a symlink there is not ours to replace */
	if (!s->o->pipe && !lstat(s->o->output, &st) &&
	    !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
		error_msg("cannot create '%s': %s", s->o->output,
			  S_ISLNK(st.st_mode) ? "a symbolic link" :
			  "not a regular file");
		return -1;
	}
	if (!s->o->pipe && !stat(s->o->output, &st) && st.st_size &&
	    (keep_old(s->o->output, "") || keep_old(s->o->output, ".pdsym")))
		return -1;
	return open_file(s);
}

static void
fill_event_desc(struct session *s)
{
	size_t n = s->t.nr_cpus * s->t.nr_threads;
	struct pd_meta *m = &s->meta;

	m->event_desc = xcalloc(s->list.nr, sizeof(*m->event_desc));
	m->nr_event_desc = s->list.nr;
	for (size_t e = 0; e < s->list.nr; e++) {
		struct pd_event_desc *d = &m->event_desc[e];

		d->attr = s->list.ev[e].attr;
		d->name = xstrdup(s->list.ev[e].name);
		d->ids = xcalloc(n, sizeof(*d->ids));
		memcpy(d->ids, s->list.ev[e].ids, n * sizeof(*d->ids));
		d->nr_ids = n;
	}
	meta_set(m, PD_FEAT_EVENT_DESC);
	if (s->list.nr_groups) {
		size_t k = 0;

		m->groups = xcalloc(s->list.nr_groups, sizeof(*m->groups));
		for (size_t e = 0; e < s->list.nr; e++) {
			const struct rec_event *ev = &s->list.ev[e];

			if (ev->leader != e || ev->nr_members < 2)
				continue;
			m->groups[k].name = xstrdup(ev->group_name ?
						    ev->group_name :
						    "{anon_group}");
			m->groups[k].leader_idx = (uint32_t)e;
			m->groups[k].nr_members = (uint32_t)ev->nr_members;
			k++;
		}
		m->nr_groups = k;
		meta_set(m, PD_FEAT_GROUP_DESC);
	}
	for (size_t e = 0; e < s->list.nr; e++)
		if (s->list.ev[e].attr.sample_type & PD_SAMPLE_BRANCH_STACK)
			meta_set(m, PD_FEAT_BRANCH_STACK);
}

static int
add_tracing_data(struct session *s)
{
	const char **tps = xcalloc(s->list.nr, sizeof(*tps));
	size_t nr = 0;
	void *buf = NULL;
	size_t len = 0;
	int err = 0;

	for (size_t e = 0; e < s->list.nr; e++)
		if (s->list.ev[e].tracepoint)
			tps[nr++] = s->list.ev[e].tracepoint;
	if (nr) {
		err = rec_tracing_data(tps, nr, &buf, &len);
		if (!err)
			err = pd_writer_set_feature_raw(s->w,
							PD_FEAT_TRACING_DATA,
							buf, len);
		if (err)
			warn_msg("cannot write the tracing data: %s",
				 strerror(err < 0 ? -err : err));
		free(buf);
	}
	free(tps);
	return 0;
}

/*
 * HEADER_COMPRESSED as perf 6.1 fills it: version 0, the ratio 0 until
 * the end (so always 0 in pipe mode, where it goes first), and mmap_len.
 */
static void
set_compressed(struct session *s)
{
	s->meta.comp_version = 0;
	s->meta.comp_type = PD_COMP_ZSTD;
	s->meta.comp_level = s->o->comp_level;
	s->meta.comp_ratio = 0;
	s->meta.comp_mmap_len = comp_mmap_len(s->o);
	meta_set(&s->meta, PD_FEAT_COMPRESSED);
}

/* What zstd took and gave: in the file, or in the data.N files. */
static void
compressed_totals(const struct session *s, uint64_t *in, uint64_t *out)
{
	if (s->th)
		rec_threads_totals(s->th, in, out);
	else
		pd_writer_compressed_totals(s->w, in, out);
}

/* perf's ratio: what the rings gave over the COMPRESSED bytes written */
static double
comp_ratio(const struct session *s)
{
	uint64_t in, out;

	compressed_totals(s, &in, &out);
	return in && out ? (double)(float)in / (float)out : 0;
}

static int
begin_file(struct session *s, bool first)
{
	size_t n = s->t.nr_cpus * s->t.nr_threads;
	int err;

	for (size_t e = 0; e < s->list.nr; e++) {
		err = pd_writer_add_evsel(s->w, &s->list.ev[e].attr,
					  s->list.ev[e].ids, n);
		if (err)
			return writer_fail(s, "the attrs", err);
	}
	pd_meta_init(&s->meta);
	if (s->o->comp_level)
		set_compressed(s);
	if (s->th) {
		s->meta.dir_format_version = 1;
		meta_set(&s->meta, PD_FEAT_DIR_FORMAT);
	}
	if (s->o->pipe) {
		rec_sys_collect(&s->meta, s->argc, s->argv, s->o->clockid,
				s->o->use_clockid);
		fill_event_desc(s);
		add_tracing_data(s);
	}
	err = pd_writer_begin_data(s->w, &s->meta);
	if (err)
		return writer_fail(s, "the header", err);
	err = synthesize_head(s, first);
	if (!err)
		err = sync_output(s);
	if (err)
		return writer_fail(s, "the synthesised records", err);
	return 0;
}

/* PERF_RECORD_LOST_SAMPLES from read_format LOST, as perf writes at exit */
static int
write_lost_samples(struct session *s)
{
	size_t n = s->t.nr_cpus * s->t.nr_threads;

	for (size_t e = 0; e < s->list.nr; e++) {
		const struct rec_event *ev = &s->list.ev[e];

		for (size_t i = 0; i < n && ev->fds; i++) {
			uint64_t v[3];
			uint64_t rec[8] = { 0 };
			size_t k = 2;
			uint64_t st = ev->attr.sample_type;
			int err;

			if (ev->fds[i] < 0 ||
			    read(ev->fds[i], v, sizeof(v)) !=
			    (ssize_t)sizeof(v) ||
			    !v[2])
				continue;
			rec[1] = v[2];
			/* sample_id trailer: tid, time, id, cpu, identifier */
			if (st & PD_SAMPLE_TID)
				rec[k++] = (uint64_t)(uint32_t)-1 |
					   (uint64_t)(uint32_t)-1 << 32;
			if (st & PD_SAMPLE_TIME)
				rec[k++] = 0;
			if (st & PD_SAMPLE_ID)
				rec[k++] = ev->ids[i];
			if (st & PD_SAMPLE_CPU)
				rec[k++] = (uint64_t)(uint32_t)
					   s->t.cpus[i / s->t.nr_threads];
			if (st & PD_SAMPLE_IDENTIFIER)
				rec[k++] = ev->ids[i];
			rec[0] = PD_RECORD_LOST_SAMPLES |
				 (uint64_t)(k * 8) << 48;
			if ((err = emit(s, rec, k * 8)))
				return err;
		}
	}
	return 0;
}

/* Walk the data written (not finalised yet): samples, lost, build-ids. */
static int
scan_output(struct session *s, struct counts *c)
{
	struct pd_reader *r = NULL;
	struct pd_record rec;
	int err;

	/* the header must cover every record: the reader stops at its size */
	err = pd_writer_sync(s->w);
	if (err)
		return writer_fail(s, "the data", err);
	err = pd_reader_open(&r, s->o->output, NULL);
	if (err) {
		error_msg("cannot read back '%s': %s", s->o->output,
			  r ? pd_reader_errmsg(r) : pd_strerror(err));
		pd_reader_close(r);
		return -1;
	}
	while ((err = pd_reader_next(r, &rec)) > 0) {
		if (rec.header.type == PD_RECORD_SAMPLE) {
			c->samples++;
		} else if (rec.header.type == PD_RECORD_LOST &&
			   rec.size >= 24 && !rec.swap) {
			uint64_t lost;

			memcpy(&lost, rec.data + 16, 8);
			c->lost += lost;
			c->lost_records++;
		} else if (rec.header.type == PD_RECORD_LOST_SAMPLES &&
			   rec.size >= 16 && !rec.swap) {
			uint64_t lost;

			memcpy(&lost, rec.data + 8, 8);
			c->lost_samples += lost;
		}
	}
	pd_reader_close(r);
	if (s->o->no_buildid) {
		/* perf skips its pass: SAMPLE_TIME is written as 0, 0 */
		meta_set(&s->meta, PD_FEAT_SAMPLE_TIME);
		return 0;
	}
	err = pd_reader_open(&r, s->o->output, NULL);
	if (!err)
		err = rec_buildids_collect(r, &s->meta);
	if (err && s->o->verbose)
		warn_msg("cannot collect build-ids: %s", pd_strerror(err));
	pd_reader_close(r);
	if (!s->o->no_buildid_cache)
		rec_cache_fill(&s->meta, s->o);
	return 0;
}

static int
finish_file(struct session *s, struct counts *c)
{
	int err;

	if (s->o->pipe)
		return 0;
	if (scan_output(s, c))
		return -1;
	rec_sys_collect(&s->meta, s->argc, s->argv, s->o->clockid,
				s->o->use_clockid);
	fill_event_desc(s);
	add_tracing_data(s);
	if (s->o->comp_level)
		s->meta.comp_ratio = (uint32_t)(comp_ratio(s) + 0.5);
	err = pd_writer_finish(s->w, &s->meta);
	if (err)
		return writer_fail(s, "the features", err);
	return 0;
}

/*
 * A write failed while recording (a full disk, a file size limit): the
 * workload is stopped as perf stops it, every whole record that reached
 * the file is kept, and the file is finalised as far as the room left
 * allows, so that perf reads it.  Returns -1: the recording failed.
 */
static int
salvage_output(struct session *s, int err)
{
	struct counts c = { 0 };
	bool features;
	uint64_t kept;

	writer_fail(s, "the data", err);
	if (s->t.child && !child_finished)
		kill(s->t.child, SIGTERM);
	rec_threads_stop(s->th);
	if (s->o->pipe)
		return -1;
	if (pd_writer_salvage(s->w, &kept)) {
		error_msg("cannot finalise '%s': %s", s->o->output,
			  pd_writer_errmsg(s->w));
		return -1;
	}
	features = !finish_file(s, &c);
	if (!features && pd_writer_salvage(s->w, &kept)) {
		error_msg("cannot finalise '%s': %s", s->o->output,
			  pd_writer_errmsg(s->w));
		return -1;
	}
	error_msg("'%s' keeps the %llu samples (%.3f MB of records) written "
		 "before the failure, and is finalised%s", s->o->output,
		 (unsigned long long)c.samples,
		 (double)(kept + rec_threads_bytes(s->th)) / 1024 / 1024,
		 features ? "" : " without its feature sections (no room "
		 "for them)");
	return -1;
}

static void
print_summary(struct session *s, const struct counts *c)
{
	char samples[160] = "";
	uint64_t in, out;
	double mb = 0;
	struct stat st;

	if (c->lost_records || c->lost_samples) {
		/* the kernel's LOST count includes the LOST records' */
		uint64_t lost = c->lost > c->lost_samples ? c->lost :
							    c->lost_samples;

		warn_msg("Processed %llu samples and lost %llu samples in %llu "
			 "chunks!", (unsigned long long)c->samples,
			 (unsigned long long)lost,
			 (unsigned long long)c->lost_records);
		hint_msg("the ring buffer overflowed: a larger -m or a lower "
			 "-F loses less");
	}
	if (s->o->quiet)
		return;
	if (!s->o->pipe && !fstat(s->fd, &st))
		mb = (double)(st.st_size + rec_threads_bytes(s->th)) /
		     1024.0 / 1024.0;
	/* perf counts them in its build-id pass, which -B skips */
	if (c->samples && !s->o->no_buildid)
		snprintf(samples, sizeof(samples), " (%llu samples)",
			 (unsigned long long)c->samples);
	compressed_totals(s, &in, &out);
	/* as perf, only when something was compressed */
	if (in && out)
		snprintf(samples + strlen(samples), sizeof(samples) -
			 strlen(samples), ", compressed (original %.3f MB, "
			 "ratio is %.3f)", (double)in / 1024 / 1024,
			 comp_ratio(s));
	fprintf(stderr, "[ precord: Captured and wrote %.3f MB %s%s%s ]\n", mb,
		s->o->output, s->o->timestamp_filename ? ".<timestamp>" : "",
		samples);
}

/*
 * --overwrite: the records the backward rings hold now, newest first,
 * read while the kernel is kept from writing them; it writes on again
 * with resume (perf's evlist__toggle_bkw_mmap).
 */
static int
read_backward_all(struct session *s, bool resume)
{
	static const uint64_t round = PD_RECORD_FINISHED_ROUND |
				      (uint64_t)8 << 48;
	uint64_t sum = 0, n;
	int err = 0;

	for (size_t i = 0; i < s->rings.nr; i++)
		rec_ring_pause(&s->rings.r[i], true);
	for (size_t i = 0; i < s->rings.nr && !err; i++) {
		err = rec_ring_read_backward(&s->rings.r[i], write_span, s, &n);
		sum += n;
	}
	for (size_t i = 0; i < s->rings.nr && resume; i++)
		rec_ring_pause(&s->rings.r[i], false);
	if (!err && sum)
		err = emit(s, &round, 8);
	return err;
}

/*
 * --overwrite (perf's tail synthesis): after the rings' records, what a
 * reader needs of the tasks, the kernel and the maps.
 */
static int
synthesize_tail(struct session *s)
{
	int err;

	if (!s->o->overwrite)
		return 0;
	if ((err = finished_init(s)) || (err = synth_workload(s, true)))
		return err;
	return synthesize(s);
}

/*
 * Finish the file and rename it FILE.TIMESTAMP (--timestamp-filename,
 * --switch-output); but at the end, start FILE anew with what a reader
 * needs first (perf's record__switch_output).
 */
static int
switch_output(struct session *s, struct counts *c, bool at_exit)
{
	char stamp[32], *name;
	int err;

	if (!at_exit && (err = synthesize_tail(s)))
		return writer_fail(s, "the synthesised records", err);
	if (finish_file(s, c))
		return -1;
	if (rec_timestamp(stamp, sizeof(stamp))) {
		error_msg("cannot read the time for the file name");
		return -1;
	}
	name = xmalloc(strlen(s->o->output) + strlen(stamp) + 2);
	sprintf(name, "%s.%s", s->o->output, stamp);
	/* as perf, a file that cannot be renamed is written on */
	if (rename(s->o->output, name))
		warn_msg("Failed to rename %s to %s: %s", s->o->output, name,
			 strerror(errno));
	if (!s->o->quiet)
		fprintf(stderr, "[ precord: Dump %s ]\n", name);
	rec_rotation_add(&s->rotation, s->o->switch_max_files, name);
	if (at_exit)
		return 0;
	pd_writer_close(s->w);
	s->w = NULL;
	close(s->fd);
	s->fd = -1;
	pd_meta_free(&s->meta);
	if (open_file(s) || begin_file(s, false))
		return -1;
	return 0;
}

/* Whether --switch-output's signal, time or size says to switch now. */
static bool
switch_due(struct session *s)
{
	const struct rec_switch *sw = &s->o->switch_output;

	if (!sw->on || done)
		return false;
	if (switch_hit)
		return true;
	return sw->size && pd_writer_data_size(s->w) >= sw->size;
}

static int
switch_now(struct session *s)
{
	struct counts c = { 0 };
	int err;

	switch_hit = 0;
	if (s->o->overwrite && (err = read_backward_all(s, true)))
		return writer_fail(s, "the data", err);
	if (!s->o->quiet)
		fprintf(stderr, "[ precord: dump data: Woken up %lu times ]\n",
			s->waking);
	s->waking = 0;
	if (switch_output(s, &c, false))
		return -1;
	if (s->o->switch_output.secs)
		alarm((unsigned int)s->o->switch_output.secs);
	return 0;
}

static int
setup_target(struct session *s)
{
	struct rec_opts *o = s->o;
	char why[256];
	int err;

	s->t.go_fd = s->t.err_fd = -1;
	s->t.per_cpu_rings = true;
	s->t.has_cpu = o->system_wide || o->cpu_list;
	if (o->cpu_list) {
		if (rec_parse_cpulist(o->cpu_list, &s->t.cpus, &s->t.nr_cpus)) {
			error_msg("bad cpu list '%s'", o->cpu_list);
			return -REC_EXIT_USAGE;
		}
	} else if (rec_online_cpus(&s->t.cpus, &s->t.nr_cpus)) {
		error_msg("cannot read the online cpus");
		return -1;
	}
	if (s->t.has_cpu) {
		s->t.threads = xcalloc(1, sizeof(*s->t.threads));
		s->t.threads[0] = -1;
		s->t.nr_threads = 1;
	} else if ((err = rec_target_threads(&s->t, o, why, sizeof(why)))) {
		error_msg("%s", why);
		return -1;
	}
	if (o->argv) {
		/* with -p, -t, -a or -C the command only sets the duration */
		s->t.workload = !s->t.has_cpu && !o->pids && !o->tids;
		s->t.pipe_output = o->pipe;
		err = rec_workload_prepare(&s->t, o->argv);
		if (err) {
			error_msg("cannot fork: %s", strerror(-err));
			return -1;
		}
		if (s->t.workload) {
			s->t.threads = xcalloc(1, sizeof(*s->t.threads));
			s->t.threads[0] = s->t.child;
			s->t.nr_threads = 1;
		}
	}
	return 0;
}

/* The -G lists given after the first `after` -e arguments. */
static int
apply_cgroups(struct session *s, size_t after)
{
	const struct rec_opts *o = s->o;
	char why[512];

	for (size_t i = 0; i < o->nr_cgroup_args; i++) {
		if (o->cgroups[i].after != after)
			continue;
		if (!after)
			snprintf(why, sizeof(why), "must define events before "
				 "cgroups");
		if (!after || rec_cgroups_apply(&s->list, o->cgroups[i].names,
						&s->nr_cgroups, why,
						sizeof(why))) {
			error_msg("-G %s: %s", o->cgroups[i].names, why);
			return -1;
		}
	}
	return 0;
}

/* A -e's filter on each of its events, which must be tracepoints. */
static int
set_filter(struct rec_evlist *list, size_t first, const char *filter)
{
	for (size_t e = first; e < list->nr; e++) {
		struct rec_event *ev = &list->ev[e];

		if (!ev->tracepoint) {
			error_msg("--filter option should follow a -e "
				  "tracepoint option: '%s' is not one",
				  ev->name);
			return -1;
		}
		free(ev->filter);
		ev->filter = xstrdup(filter);
	}
	return 0;
}

/*
 * The side-band dummy has no name of its own: perf names it by its attr
 * once configured ("dummy:HG", "dummy:uh" with --all-user).
 */
static void
name_dummy(struct rec_evlist *list)
{
	struct rec_event *d = &list->ev[list->nr - 1];
	char buf[256];

	if (d->name || d->attr.type != PD_TYPE_SOFTWARE ||
	    d->attr.config != PD_SW_DUMMY)
		return;
	pd_attr_default_name(&d->attr, buf, sizeof(buf));
	d->name = xstrdup(buf);
}

static int
setup_events(struct session *s)
{
	struct rec_opts *o = s->o;
	char why[512];

	for (size_t i = 0; i < o->nr_events; i++) {
		size_t first = s->list.nr;

		if (rec_events_parse(&s->list, o->events[i], why,
				     sizeof(why))) {
			error_msg("invalid event '%s': %s", o->events[i], why);
			return -REC_EXIT_USAGE;
		}
		if (o->filters[i] &&
		    set_filter(&s->list, first, o->filters[i]))
			return -REC_EXIT_USAGE;
		if (apply_cgroups(s, i + 1))
			return -REC_EXIT_USAGE;
	}
	if (apply_cgroups(s, 0))
		return -REC_EXIT_USAGE;
	if (!s->list.nr)
		rec_events_add_default(&s->list);
	if (rec_opts_delayed(o) || s->t.has_cpu) {
		struct rec_event *d;

		rec_events_add_dummy(&s->list);
		d = &s->list.ev[s->list.nr - 1];
		d->tracking = true;
		/* enabled at exec for -D, at once when system-wide */
		if (rec_opts_delayed(o) && !s->t.has_cpu)
			d->attr.flags |= 1ULL << PD_ATTR_ENABLE_ON_EXEC;
		else
			d->immediate = true;
	} else {
		s->list.ev[0].tracking = true;
	}
	rec_evlist_config(&s->list, o, &s->t);
	name_dummy(&s->list);
	return 0;
}

/*
 * --switch-output's signals; as perf, SIGUSR2 is ignored without it
 * (the workload gets both back as they were).
 */
static void
install_switch_signals(struct session *s, sigset_t *block)
{
	const struct rec_switch *sw = &s->o->switch_output;
	struct sigaction sa = { .sa_handler = on_switch_signal };
	struct sigaction ign = { .sa_handler = SIG_IGN };

	sigemptyset(&sa.sa_mask);
	sigemptyset(&ign.sa_mask);
	sigaction(SIGUSR2, sw->signal ? &sa : &ign, &s->t.old_usr2);
	sigaction(SIGALRM, NULL, &s->t.old_alrm);
	if (sw->secs) {
		sigaction(SIGALRM, &sa, NULL);
		alarm((unsigned int)sw->secs);
	}
	sigaddset(block, SIGUSR2);
	sigaddset(block, SIGALRM);
}

static void
install_signals(struct session *s, sigset_t *waitmask)
{
	struct rec_target *t = &s->t;
	struct sigaction sa = { .sa_handler = on_signal };
	struct sigaction ign = { .sa_handler = SIG_IGN };
	sigset_t block;

	sigemptyset(&sa.sa_mask);
	sigemptyset(&ign.sa_mask);
	sigaction(SIGINT, &sa, &t->old_int);
	sigaction(SIGTERM, &sa, &t->old_term);
	/* a closed terminal ends the recording as Ctrl-C does */
	sigaction(SIGHUP, &sa, &t->old_hup);
	sigaction(SIGCHLD, &sa, &t->old_chld);
	/* past a file size limit a write fails (EFBIG) and the file is kept */
	sigaction(SIGXFSZ, &ign, &t->old_xfsz);
	/* a closed pipe fails a write (EPIPE): the workload is stopped first */
	sigaction(SIGPIPE, &ign, &t->old_pipe);
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigaddset(&block, SIGCHLD);
	install_switch_signals(s, &block);
	sigprocmask(SIG_BLOCK, &block, waitmask);
	t->old_mask = *waitmask;
	sigdelset(waitmask, SIGINT);
	sigdelset(waitmask, SIGTERM);
	sigdelset(waitmask, SIGHUP);
	sigdelset(waitmask, SIGCHLD);
	sigdelset(waitmask, SIGUSR2);
	sigdelset(waitmask, SIGALRM);
}

static void
delay_start(struct session *s, const sigset_t *waitmask)
{
	struct timespec ts = {
		.tv_sec = s->o->delay_ms / 1000,
		.tv_nsec = (long)(s->o->delay_ms % 1000) * 1000000L,
	};

	if (!s->o->quiet)
		fprintf(stderr, "Events disabled\n");
	/* -D -1 and -D ranges: the events wait (record_loop's schedule) */
	if (s->o->delay_forever || s->o->nr_ranges) {
		clock_gettime(CLOCK_MONOTONIC, &s->started);
		return;
	}
	/* ppoll with no fds: a sleep that a signal ends */
	ppoll(NULL, 0, &ts, waitmask);
	if (!done) {
		rec_events_enable(&s->list, &s->t, false);
		if (!s->o->quiet)
			fprintf(stderr, "Events enabled\n");
	}
}

/* Start: exec the workload, or enable the events of an existing target. */
static int
start(struct session *s, const sigset_t *waitmask)
{
	if (!s->t.workload && !rec_opts_delayed(s->o))
		rec_events_enable(&s->list, &s->t, false);
	if (s->t.child) {
		int err = rec_workload_start(&s->t);

		if (err) {
			error_msg("cannot run '%s': %s", s->o->argv[0],
				  strerror(err));
			return err == ENOENT ? 127 : 126;
		}
	}
	if (rec_opts_delayed(s->o))
		delay_start(s, waitmask);
	return 0;
}

static int
wait_child(struct session *s, int *status)
{
	int st = 0;

	if (!s->t.child)
		return 0;
	if (!child_finished)
		kill(s->t.child, SIGTERM);
	while (waitpid(s->t.child, &st, 0) < 0 && errno == EINTR)
		;
	s->t.child = 0;
	if (WIFEXITED(st))
		*status = WEXITSTATUS(st);
	else if (WIFSIGNALED(st))
		signr = WTERMSIG(st);
	return 0;
}

static void
session_free(struct session *s)
{
	rec_threads_free(s->th);
	rec_rings_unmap(&s->rings);
	rec_events_close(&s->list, &s->t);
	rec_evlist_free(&s->list);
	if (s->w)
		pd_writer_close(s->w);
	pd_meta_free(&s->meta);
	rec_bid_emit_free(s->bid_emit);
	rec_control_close(&s->ctl);
	rec_rotation_free(&s->rotation);
	free(s->t.cpus);
	free(s->t.threads);
	free(s->t.pids);
	if (s->fd > STDERR_FILENO)
		close(s->fd);
}

static void
abandon_child(struct session *s)
{
	if (s->t.go_fd >= 0)
		close(s->t.go_fd);	/* the child exits on EOF */
	if (s->t.err_fd >= 0)
		close(s->t.err_fd);
	if (s->t.child)
		while (waitpid(s->t.child, NULL, 0) < 0 && errno == EINTR)
			;
}

static int
record_loop(struct session *s, const sigset_t *waitmask)
{
	size_t nfds = s->rings.nr + (s->ctl.ctl >= 0) + (s->th != NULL);
	struct pollfd *pfd = xcalloc(nfds, sizeof(*pfd));
	bool draining = false;
	struct timespec wait;
	int err = 0, got;

	for (size_t i = 0; i < s->rings.nr; i++) {
		pfd[i].fd = s->rings.r[i].fd;
		pfd[i].events = POLLIN;
	}
	/* --control's commands wake the loop too */
	if (s->ctl.ctl >= 0) {
		pfd[s->rings.nr].fd = s->ctl.ctl;
		pfd[s->rings.nr].events = POLLIN;
	}
	/* and the streaming threads' news (--threads) */
	if (s->th) {
		pfd[nfds - 1].fd = rec_threads_fd(s->th);
		pfd[nfds - 1].events = POLLIN;
	}
	for (;;) {
		bool last = done || draining;
		uint64_t min = last ? 1 : s->o->mmap_flush, n;
		size_t hup = 0;

		/* each pass reaches the file, and its header, at once */
		if ((err = drain_all(s, min, &n)) ||
		    (n && (err = sync_output(s))))
			break;
		if (n && !done && size_limit_reached(s))
			done = 1;
		if (switch_due(s)) {
			if (switch_now(s)) {
				err = 1;	/* said already */
				break;
			}
			continue;
		}
		if (n)
			continue;
		if (last)
			break;
		if (done)
			continue;
		wait = drain_every;
		if (s->o->nr_ranges)
			ranges_step(s, &wait);
		if (done)
			continue;
		got = ppoll(pfd, nfds, &wait, waitmask);
		if (got < 0 && errno != EINTR) {
			err = -errno;
			break;
		}
		if (got <= 0)
			continue;
		s->waking++;
		if (s->ctl.ctl >= 0 && pfd[s->rings.nr].revents) {
			rec_control_process(&s->ctl, &s->list, &s->t,
					    s->o->quiet);
			if (s->ctl.stop)
				done = 1;
			if (!--got)
				continue;
		}
		if (s->th && pfd[nfds - 1].revents) {
			if ((err = rec_threads_check(s->th, &draining)))
				break;
			if (!done && size_limit_reached(s))
				done = 1;
			if (!--got)
				continue;
		}
		for (size_t i = 0; i < s->rings.nr; i++)
			if (pfd[i].revents & (POLLHUP | POLLERR))
				hup++;
		if (hup == s->rings.nr)
			draining = true;
	}
	free(pfd);
	return err;
}

/*
 * The last records: what the rings still hold (with --overwrite, all
 * they hold, then the tail synthesis around the end of the workload, in
 * perf's order) and the samples the kernel lost.
 */
static int
record_end(struct session *s, int *status)
{
	uint64_t n;
	int err;

	if (s->o->overwrite &&
	    ((err = read_backward_all(s, false)) || (err = finished_init(s)) ||
	     (err = synth_workload(s, true))))
		return err;
	wait_child(s, status);
	rec_events_enable(&s->list, &s->t, true);
	if ((err = drain_all(s, 1, &n)) || (err = rec_threads_stop(s->th)) ||
	    (err = write_lost_samples(s)))
		return err;
	return s->o->overwrite ? synthesize(s) : 0;
}

static int
record(struct session *s, sigset_t *waitmask, int *status)
{
	struct counts c = { 0 };
	int err;

	if (rec_events_open(&s->list, &s->t, s->o) ||
	    rec_rings_mmap(&s->rings, &s->list, &s->t, s->o->mmap_pages,
			   s->o->overwrite) ||
	    open_control(s) || open_output(s) || begin_file(s, true))
		return -1;
	if (s->th && rec_threads_start(s->th, &s->rings))
		return -1;
	err = start(s, waitmask);
	if (err) {
		*status = err;
		if (s->th)
			rec_threads_remove(s->th);
		else if (!s->o->pipe)
			unlink(s->o->output);
		return 1;
	}
	err = record_loop(s, waitmask);
	if (err > 0)
		return -1;
	if (err)
		return salvage_output(s, err);
	if (!s->o->quiet)
		fprintf(stderr,
			"[ precord: Woken up %lu times to write data ]\n",
			s->waking + rec_threads_waking(s->th));
	if ((err = record_end(s, status)))
		return salvage_output(s, err);
	rec_rings_unmap(&s->rings);
	rec_events_close(&s->list, &s->t);
	if (s->o->timestamp_filename ? switch_output(s, &c, true) :
				       finish_file(s, &c))
		return -1;
	print_summary(s, &c);
	return 0;
}

/* End by sig, as perf does when it was what stopped the recording. */
static void
die_of(int sig)
{
	sigset_t one;

	signal(sig, SIG_DFL);
	sigemptyset(&one);
	sigaddset(&one, sig);
	sigprocmask(SIG_UNBLOCK, &one, NULL);
	raise(sig);
}

int
rec_session_run(struct rec_opts *o, int argc, char **argv)
{
	struct session s = { .o = o, .fd = -1, .argc = argc, .argv = argv,
			     .ctl = { .ctl = -1, .ack = -1 } };
	sigset_t waitmask;
	int status = 0;
	int err;

	install_signals(&s, &waitmask);
	err = setup_target(&s);
	if (!err)
		err = setup_events(&s);
	if (err) {
		abandon_child(&s);
		session_free(&s);
		return err == -REC_EXIT_USAGE ? REC_EXIT_USAGE : REC_EXIT_FAIL;
	}
	err = record(&s, &waitmask, &status);
	if (err) {
		abandon_child(&s);
		session_free(&s);
		if (pipe_gone)
			die_of(SIGPIPE);
		return err < 0 ? REC_EXIT_FAIL : status;
	}
	session_free(&s);
	/* the recording is kept whatever becomes of its archive */
	if ((o->archive || o->perf_archive) &&
	    rec_archive_run(o) && !status)
		status = REC_EXIT_FAIL;
	if (signr > 0)
		die_of(signr);
	return status;
}
