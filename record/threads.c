/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * record/threads.c - perf 6.1's parallel streaming (--threads): SPEC made
 * into masks as builtin-record.c's record__init_thread_*_masks() make
 * them, the directory with one data.N writer per ring, and one thread
 * per mask that drains its rings into their files, each pass written at
 * once in whole records, so that a killed recording leaves files that
 * perf and libpdata read (doc/perf-data-format.md §12.1).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "format/compiler.h"
#include "lib/cpulist.h"
#include "lib/diag.h"
#include "lib/xalloc.h"
#include "pdata/errors.h"
#include "pdata/writer.h"
#include "record/threads.h"

/* The rings a thread drains (maps) and the cpus it runs on (affinity). */
struct mask {
	cpu_set_t maps, affinity;
};

struct masks {
	struct mask *m;
	size_t nr;
	cpu_set_t all_maps, all_affinity;	/* taken so far */
};

/* One ring and its data.N. */
struct tfile {
	struct rec_ring *ring;
	struct pd_writer *w;
	int fd;
	bool z;			/* -z: the file is a zstd stream */
	unsigned char *wrap;	/* a span's first piece, up to the ring's end */
	size_t wrap_len;
	uint64_t counted;	/* of its bytes, those in the total */
};

struct thr {
	struct rec_threads *all;
	size_t *files;
	size_t nr_files;
	cpu_set_t affinity;
	pthread_t id;
	bool running;
	int stop[2];		/* main to thread: closing [1] ends it */
	unsigned long waking;
	bool hup;		/* every ring of it hung up (atomic) */
	int err;		/* -errno of its failed write (atomic) */
	char msg[320];
};

struct rec_threads {
	const struct rec_opts *o;
	struct masks masks;
	struct thr *thr;
	struct tfile *files;
	size_t nr_files;
	struct rec_rings rings;
	char *dir;
	int notify[2];		/* threads to main */
	uint64_t bytes;		/* atomic */
};

enum spec_kind { SPEC_CPU, SPEC_CORE, SPEC_PACKAGE, SPEC_NUMA, SPEC_USER };

/* perf's thread_spec_tags, matched on their length whatever the case */
static const char *const spec_tags[] = {
	[SPEC_CPU] = "cpu",
	[SPEC_CORE] = "core",
	[SPEC_PACKAGE] = "package",
	[SPEC_NUMA] = "numa",
};

static enum spec_kind
spec_kind(const char *spec)
{
	if (!spec || !*spec)
		return SPEC_CPU;
	for (size_t i = 0; i < sizeof(spec_tags) / sizeof(*spec_tags); i++)
		if (!strncasecmp(spec, spec_tags[i], strlen(spec_tags[i])))
			return (enum spec_kind)i;
	return SPEC_USER;
}

/* A cpu list into set; false when it is not one. */
static bool
set_of_list(const char *list, cpu_set_t *set)
{
	int *cpus;
	size_t nr;

	CPU_ZERO(set);
	if (cpulist_parse(list, CPU_SETSIZE - 1, &cpus, &nr))
		return false;
	for (size_t i = 0; i < nr; i++)
		CPU_SET((size_t)cpus[i], set);
	free(cpus);
	return true;
}

static bool
sets_intersect(const cpu_set_t *a, const cpu_set_t *b)
{
	cpu_set_t both;

	CPU_AND(&both, a, b);
	return CPU_COUNT(&both) > 0;
}

static int PD_PRINTF(1, 2)
spec_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verror_msg("--threads: ", fmt, ap);
	va_end(ap);
	return -1;
}

/*
 * One thread's mask, as record__init_thread_masks_spec() checks it: cpus
 * not recorded are dropped, an empty mask or one that meets an earlier
 * thread's is an error.
 */
static int
mask_add(struct masks *ms, const cpu_set_t *recorded, const char *maps,
	 const char *affinity)
{
	struct mask m;

	if (!set_of_list(maps, &m.maps))
		return spec_error("Failed to initialize maps thread mask: "
				  "'%s'", maps);
	if (!set_of_list(affinity, &m.affinity))
		return spec_error("Failed to initialize affinity thread mask: "
				  "'%s'", affinity);
	CPU_AND(&m.maps, &m.maps, recorded);
	CPU_AND(&m.affinity, &m.affinity, recorded);
	if (!CPU_COUNT(&m.maps))
		return spec_error("Empty maps mask: %s", maps);
	if (!CPU_COUNT(&m.affinity))
		return spec_error("Empty affinity mask: %s", affinity);
	if (sets_intersect(&m.maps, &ms->all_maps))
		return spec_error("Intersecting maps mask: %s", maps);
	if (sets_intersect(&m.affinity, &ms->all_affinity))
		return spec_error("Intersecting affinity mask: %s", affinity);
	CPU_OR(&ms->all_maps, &ms->all_maps, &m.maps);
	CPU_OR(&ms->all_affinity, &ms->all_affinity, &m.affinity);
	ms->m = xreallocarray(ms->m, ms->nr + 1, sizeof(*ms->m));
	ms->m[ms->nr++] = m;
	return 0;
}

/* The first line of a sysfs file, without its newline; NULL if none. */
static char *
sysfs_line(const char *path)
{
	char buf[4096];
	FILE *f = fopen(path, "r");
	char *got;

	if (!f)
		return NULL;
	got = fgets(buf, sizeof(buf), f);
	fclose(f);
	if (!got)
		return NULL;
	buf[strcspn(buf, "\n")] = '\0';
	return xstrdup(buf);
}

struct lists {
	char **s;
	size_t nr;
};

static void
lists_add_new(struct lists *l, char *s)
{
	for (size_t i = 0; i < l->nr; i++) {
		if (!strcmp(l->s[i], s)) {
			free(s);
			return;
		}
	}
	l->s = xreallocarray(l->s, l->nr + 1, sizeof(*l->s));
	l->s[l->nr++] = s;
}

static void
lists_free(struct lists *l)
{
	for (size_t i = 0; i < l->nr; i++)
		free(l->s[i]);
	free(l->s);
}

/*
 * perf's cpu_topology__new(): each online cpu's core (or package) list,
 * once each, in the order of their first cpu; the older sysfs names
 * (thread_siblings_list, core_siblings_list) when the newer are absent.
 */
static int
topology_lists(enum spec_kind kind, struct lists *l)
{
	const char *name = kind == SPEC_CORE ? "core_cpus_list" :
					       "package_cpus_list";
	const char *old = kind == SPEC_CORE ? "thread_siblings_list" :
					      "core_siblings_list";
	int *cpus;
	size_t nr;

	if (rec_online_cpus(&cpus, &nr))
		return -1;
	for (size_t i = 0; i < nr; i++) {
		char path[128];
		char *s;

		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/topology/%s", cpus[i],
			 name);
		s = sysfs_line(path);
		if (!s) {
			snprintf(path, sizeof(path), "/sys/devices/system/cpu/"
				 "cpu%d/topology/%s", cpus[i], old);
			s = sysfs_line(path);
		}
		if (s)
			lists_add_new(l, s);
	}
	free(cpus);
	return 0;
}

/* perf's numa_topology__new(): each online node's cpu list. */
static int
numa_lists(struct lists *l)
{
	char *online = sysfs_line("/sys/devices/system/node/online");
	int *nodes;
	size_t nr;

	if (!online || cpulist_parse(online, 1 << 16, &nodes, &nr)) {
		free(online);
		return -1;
	}
	free(online);
	for (size_t i = 0; i < nr; i++) {
		char path[96];
		char *s;

		snprintf(path, sizeof(path),
			 "/sys/devices/system/node/node%d/cpulist", nodes[i]);
		s = sysfs_line(path);
		l->s = xreallocarray(l->s, l->nr + 1, sizeof(*l->s));
		l->s[l->nr++] = s ? s : xstrdup("");
	}
	free(nodes);
	return 0;
}

/*
 * MAPS/AFFINITY[:MAPS/AFFINITY...], split as perf splits it (strtok_r:
 * empty fields vanish, a spec without its second half is an error).
 */
static int
user_masks(struct masks *ms, const cpu_set_t *recorded, const char *spec)
{
	char *copy = xstrdup(spec);
	char *save = NULL, *one;
	int err = 0;

	for (char *p = copy; !err && (one = strtok_r(p, ":", &save));
	     p = NULL) {
		char *half = NULL;
		char *maps = strtok_r(one, "/", &half);
		char *affinity = maps ? strtok_r(NULL, "/", &half) : NULL;

		if (!affinity) {
			err = spec_error("Invalid thread maps or affinity "
					 "specs: '%s'", spec);
			break;
		}
		err = mask_add(ms, recorded, maps, affinity);
	}
	free(copy);
	if (!err && !ms->nr)
		err = spec_error("no thread mask in '%s'", spec);
	return err;
}

static int
lists_masks(struct masks *ms, const cpu_set_t *recorded,
	    enum spec_kind kind)
{
	struct lists l = { 0 };
	int err = kind == SPEC_NUMA ? numa_lists(&l) :
				      topology_lists(kind, &l);

	if (err)
		error_msg("--threads=%s: cannot read the %s topology",
			  spec_tags[kind], spec_tags[kind]);
	for (size_t i = 0; !err && i < l.nr; i++)
		err = mask_add(ms, recorded, l.s[i], l.s[i]);
	lists_free(&l);
	return err;
}

static int
masks_build(struct masks *ms, const char *spec, const struct rec_target *t)
{
	enum spec_kind kind = spec_kind(spec);
	cpu_set_t recorded;
	char one[16];

	CPU_ZERO(&recorded);
	for (size_t i = 0; i < t->nr_cpus; i++) {
		if (t->cpus[i] < 0 || t->cpus[i] >= CPU_SETSIZE)
			return spec_error("cpu %d is beyond the %d cpus it "
					  "handles", t->cpus[i], CPU_SETSIZE);
		CPU_SET((size_t)t->cpus[i], &recorded);
	}
	if (kind == SPEC_USER)
		return user_masks(ms, &recorded, spec);
	if (kind != SPEC_CPU)
		return lists_masks(ms, &recorded, kind);
	for (size_t i = 0; i < t->nr_cpus; i++) {
		snprintf(one, sizeof(one), "%d", t->cpus[i]);
		if (mask_add(ms, &recorded, one, one))
			return -1;
	}
	return 0;
}

/* perf drains a ring of no mask never: say so, as it does not. */
static void
warn_undrained(const struct masks *ms, const struct rec_target *t,
	       const struct rec_opts *o)
{
	for (size_t i = 0; i < t->nr_cpus && !o->quiet; i++)
		if (!CPU_ISSET((size_t)t->cpus[i], &ms->all_maps))
			warn_msg("--threads: no mask holds cpu %d: its ring "
				 "is not drained (data.%zu stays empty)",
				 t->cpus[i], i);
}

/* DIR/NAME, or DIR/NAME.N when n is not SIZE_MAX; free() it. */
static char *
path_in(const char *dir, const char *name, size_t n)
{
	size_t len = strlen(dir) + strlen(name) + 24;
	char *p = xmalloc(len);

	if (n == SIZE_MAX)
		snprintf(p, len, "%s/%s", dir, name);
	else
		snprintf(p, len, "%s/%s.%zu", dir, name, n);
	return p;
}

/* A writer's error as -errno, for the session's messages. */
static int
errno_of(int err)
{
	if (err <= -PD_ERRNO_BASE)
		return -(-err - PD_ERRNO_BASE);
	return err ? -EIO : 0;
}

static int
file_open(struct rec_threads *th, struct tfile *f, size_t i)
{
	/* a bare file writes no mark: the data file's has the mmap_len */
	struct pd_writer_opts wo = {
		.bare = true,
		.zstd_level = th->o->comp_level,
	};
	char *path = path_in(th->dir, "data", i);
	int err;

	f->fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (f->fd < 0) {
		error_msg("cannot create '%s': %s", path, strerror(errno));
		free(path);
		return -1;
	}
	f->z = th->o->comp_level != 0;
	err = pd_writer_open(&f->w, f->fd, &wo);
	if (!err)
		err = pd_writer_begin_data(f->w, NULL);
	if (err)
		error_msg("cannot start '%s': %s", path,
			  f->w ? pd_writer_errmsg(f->w) : pd_strerror(err));
	free(path);
	return err ? -1 : 0;
}

static int
dir_make(struct rec_threads *th)
{
	char *data;
	int fd;

	if (mkdir(th->o->output, 0700)) {
		error_msg("cannot create the directory '%s': %s",
			  th->o->output, strerror(errno));
		return -1;
	}
	th->dir = xstrdup(th->o->output);
	data = path_in(th->dir, "data", SIZE_MAX);
	fd = open(data, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		error_msg("cannot create '%s': %s", data, strerror(errno));
	free(data);
	return fd;
}

int
rec_threads_new(struct rec_threads **out, const struct rec_opts *o,
		const struct rec_target *t)
{
	struct rec_threads *th = xcalloc(1, sizeof(*th));

	*out = th;
	th->o = o;
	th->notify[0] = th->notify[1] = -1;
	if (!t->per_cpu_rings) {
		error_msg("--per-thread option is mutually exclusive to "
			  "parallel streaming mode.");
		return -1;
	}
	if (masks_build(&th->masks, o->threads_spec, t))
		return -1;
	warn_undrained(&th->masks, t, o);
	return 0;
}

int
rec_threads_open(struct rec_threads *th, size_t nr_rings)
{
	int fd = dir_make(th);

	if (fd < 0) {
		rec_threads_remove(th);
		return -1;
	}
	th->files = xcalloc(nr_rings, sizeof(*th->files));
	for (size_t i = 0; i < nr_rings; i++)
		th->files[i].fd = -1;
	th->nr_files = nr_rings;
	for (size_t i = 0; i < nr_rings; i++)
		if (file_open(th, &th->files[i], i))
			goto fail;
	if (pipe2(th->notify, O_CLOEXEC | O_NONBLOCK)) {
		error_msg("cannot make a pipe: %s", strerror(errno));
		goto fail;
	}
	return fd;
fail:
	/* as perf, nothing is left of a directory that could not be made */
	close(fd);
	rec_threads_remove(th);
	return -1;
}

static void
notify_main(struct rec_threads *th)
{
	ssize_t got = write(th->notify[1], "", 1);

	/* a full pipe already wakes the main loop */
	(void)got;
}

static int
span_out(struct tfile *f, const void *buf, size_t len)
{
	int err = f->z ? pd_writer_write_compressed(f->w, buf, len) :
			 pd_writer_write(f->w, buf, len);

	return errno_of(err);
}

/*
 * rec_ring_drain() gives a span that wraps in two pieces, the first
 * ending at the ring's end, maybe inside a record: they are joined, so
 * that each write to data.N holds whole records.
 */
static int
span_write(void *ctx, const void *buf, size_t len)
{
	struct tfile *f = ctx;
	const unsigned char *p = buf;
	size_t size = (size_t)f->ring->mask + 1;
	int err;

	if (p + len == f->ring->data + size && p != f->ring->data) {
		if (!f->wrap)
			f->wrap = xmalloc(size);
		memcpy(f->wrap, p, len);
		f->wrap_len = len;
		return 0;
	}
	if (!f->wrap_len)
		return span_out(f, p, len);
	memcpy(f->wrap + f->wrap_len, p, len);
	err = span_out(f, f->wrap, f->wrap_len + len);
	f->wrap_len = 0;
	return err;
}

/* One ring's pass, written out at once. */
static int
file_drain(struct tfile *f, uint64_t min, uint64_t *n)
{
	int err = rec_ring_drain(f->ring, min, span_write, f, n);

	/* a first piece that no second one followed ends on a record */
	if (!err && f->wrap_len)
		err = span_out(f, f->wrap, f->wrap_len);
	f->wrap_len = 0;
	if (!err && *n)
		err = errno_of(pd_writer_sync(f->w));
	return err;
}

static void
thr_fail(struct thr *t, struct tfile *f, int err)
{
	const char *why = pd_writer_errmsg(f->w);
	uint64_t kept;

	/* a ring's error (not the writer's) has no message of the writer */
	if (!strcmp(why, "no error"))
		why = strerror(-err);
	snprintf(t->msg, sizeof(t->msg), "%s/data.%zu: %s", t->all->dir,
		 (size_t)(f - t->all->files), why);
	/* keep the whole records that reached the file */
	if (!pd_writer_salvage(f->w, &kept) && kept > f->counted) {
		__atomic_add_fetch(&t->all->bytes, kept - f->counted,
				   __ATOMIC_RELAXED);
		f->counted = kept;
	}
	__atomic_store_n(&t->err, err ? err : -EIO, __ATOMIC_RELEASE);
	notify_main(t->all);
}

/* A pass over the thread's rings; *total gets the bytes taken. */
static int
thr_pass(struct thr *t, uint64_t min, uint64_t *total)
{
	struct rec_threads *th = t->all;

	*total = 0;
	for (size_t i = 0; i < t->nr_files; i++) {
		struct tfile *f = &th->files[t->files[i]];
		uint64_t n, size;
		int err = file_drain(f, min, &n);

		if (err) {
			thr_fail(t, f, err);
			return err;
		}
		size = pd_writer_data_size(f->w);
		__atomic_add_fetch(&th->bytes, size - f->counted,
				   __ATOMIC_RELAXED);
		f->counted = size;
		*total += n;
	}
	/* --max-size is the main loop's to check, over every file */
	if (*total && th->o->max_size)
		notify_main(th);
	return 0;
}

/* Rings that hung up leave the poll (their target is gone). */
static void
thr_hangups(struct thr *t, struct pollfd *pfd, size_t *live)
{
	for (size_t i = 0; i < t->nr_files; i++) {
		if (pfd[i].fd < 0 || !(pfd[i].revents & (POLLHUP | POLLERR)))
			continue;
		pfd[i].fd = -1;
		--*live;
	}
	if (!*live && !__atomic_load_n(&t->hup, __ATOMIC_ACQUIRE)) {
		__atomic_store_n(&t->hup, true, __ATOMIC_RELEASE);
		notify_main(t->all);
	}
}

/*
 * A thread drains its rings as the main loop did: when the kernel wakes
 * it, at least every second, and a last time whatever they hold once
 * it is told to stop.
 */
static void *
thr_main(void *arg)
{
	struct thr *t = arg;
	struct pollfd *pfd = xcalloc(t->nr_files + 1, sizeof(*pfd));
	size_t live = t->nr_files;
	bool stopping = false;

	for (size_t i = 0; i < t->nr_files; i++) {
		pfd[i].fd = t->all->files[t->files[i]].ring->fd;
		pfd[i].events = POLLIN;
	}
	pfd[t->nr_files].fd = t->stop[0];
	pfd[t->nr_files].events = POLLIN;
	for (;;) {
		uint64_t n;

		if (thr_pass(t, stopping ? 1 : t->all->o->mmap_flush, &n) ||
		    stopping)
			break;
		if (n)
			continue;
		if (poll(pfd, t->nr_files + 1, 1000) <= 0)
			continue;
		__atomic_add_fetch(&t->waking, 1, __ATOMIC_RELAXED);
		if (pfd[t->nr_files].revents)
			stopping = true;
		thr_hangups(t, pfd, &live);
	}
	free(pfd);
	return NULL;
}

/* The rings of mask m become thread t's. */
static void
thr_init(struct rec_threads *th, struct thr *t, const struct mask *m)
{
	t->all = th;
	t->affinity = m->affinity;
	t->stop[0] = t->stop[1] = -1;
	t->files = xcalloc(th->nr_files, sizeof(*t->files));
	for (size_t i = 0; i < th->nr_files; i++)
		if (CPU_ISSET((size_t)th->files[i].ring->cpu, &m->maps))
			t->files[t->nr_files++] = i;
}

static int
thr_start(struct thr *t)
{
	pthread_attr_t attr;
	int err;

	if (pipe2(t->stop, O_CLOEXEC))
		return errno;
	pthread_attr_init(&attr);
	err = pthread_attr_setaffinity_np(&attr, sizeof(t->affinity),
					  &t->affinity);
	if (!err)
		err = pthread_create(&t->id, &attr, thr_main, t);
	pthread_attr_destroy(&attr);
	t->running = !err;
	return err;
}

int
rec_threads_start(struct rec_threads *th, struct rec_rings *rings)
{
	sigset_t all, old;
	int err = 0;

	th->rings = *rings;
	*rings = (struct rec_rings){ 0 };
	for (size_t i = 0; i < th->nr_files && i < th->rings.nr; i++)
		th->files[i].ring = &th->rings.r[i];
	th->thr = xcalloc(th->masks.nr, sizeof(*th->thr));
	for (size_t k = 0; k < th->masks.nr; k++)
		thr_init(th, &th->thr[k], &th->masks.m[k]);
	/* the signals are the main thread's */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	for (size_t k = 0; k < th->masks.nr && !err; k++)
		err = thr_start(&th->thr[k]);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err)
		error_msg("cannot start the streaming threads: %s",
			  strerror(err));
	return err ? -1 : 0;
}

int
rec_threads_fd(const struct rec_threads *th)
{
	return th->notify[0];
}

int
rec_threads_check(struct rec_threads *th, bool *ended)
{
	char buf[64];
	bool all = true;

	while (read(th->notify[0], buf, sizeof(buf)) > 0)
		;
	for (size_t k = 0; k < th->masks.nr; k++) {
		int err = __atomic_load_n(&th->thr[k].err, __ATOMIC_ACQUIRE);

		if (err)
			return err;
		all = all && __atomic_load_n(&th->thr[k].hup,
					     __ATOMIC_ACQUIRE);
	}
	*ended = all;
	return 0;
}

const char *
rec_threads_errmsg(const struct rec_threads *th)
{
	for (size_t k = 0; th && k < th->masks.nr; k++)
		if (__atomic_load_n(&th->thr[k].err, __ATOMIC_ACQUIRE))
			return th->thr[k].msg;
	return NULL;
}

static void
threads_join(struct rec_threads *th)
{
	for (size_t k = 0; th->thr && k < th->masks.nr; k++) {
		struct thr *t = &th->thr[k];

		if (t->stop[1] >= 0)
			close(t->stop[1]);
		t->stop[1] = -1;
	}
	for (size_t k = 0; th->thr && k < th->masks.nr; k++) {
		if (th->thr[k].running)
			pthread_join(th->thr[k].id, NULL);
		th->thr[k].running = false;
	}
}

int
rec_threads_stop(struct rec_threads *th)
{
	int err = 0;

	if (!th)
		return 0;
	threads_join(th);
	for (size_t k = 0; th->thr && k < th->masks.nr && !err; k++)
		err = th->thr[k].err;
	for (size_t i = 0; i < th->nr_files && !err; i++)
		if (th->files[i].w)
			err = errno_of(pd_writer_finish(th->files[i].w, NULL));
	return err;
}

uint64_t
rec_threads_bytes(const struct rec_threads *th)
{
	return th ? __atomic_load_n(&th->bytes, __ATOMIC_RELAXED) : 0;
}

unsigned long
rec_threads_waking(const struct rec_threads *th)
{
	unsigned long waking = 0;

	for (size_t k = 0; th && th->thr && k < th->masks.nr; k++)
		waking += __atomic_load_n(&th->thr[k].waking,
					  __ATOMIC_RELAXED);
	return waking;
}

void
rec_threads_totals(const struct rec_threads *th, uint64_t *in,
		   uint64_t *out)
{
	*in = *out = 0;
	for (size_t i = 0; th && i < th->nr_files; i++) {
		uint64_t a, b;

		if (!th->files[i].w)
			continue;
		pd_writer_compressed_totals(th->files[i].w, &a, &b);
		*in += a;
		*out += b;
	}
}

void
rec_threads_remove(struct rec_threads *th)
{
	threads_join(th);
	if (!th->dir)
		return;
	for (size_t i = 0; i <= th->nr_files; i++) {
		char *path = path_in(th->dir, "data",
				     i < th->nr_files ? i : SIZE_MAX);

		unlink(path);
		free(path);
	}
	rmdir(th->dir);
}

void
rec_threads_free(struct rec_threads *th)
{
	if (!th)
		return;
	threads_join(th);
	for (size_t k = 0; th->thr && k < th->masks.nr; k++) {
		if (th->thr[k].stop[0] >= 0)
			close(th->thr[k].stop[0]);
		free(th->thr[k].files);
	}
	for (size_t i = 0; i < th->nr_files; i++) {
		pd_writer_close(th->files[i].w);
		if (th->files[i].fd >= 0)
			close(th->files[i].fd);
		free(th->files[i].wrap);
	}
	rec_rings_unmap(&th->rings);
	for (int i = 0; i < 2; i++)
		if (th->notify[i] >= 0)
			close(th->notify[i]);
	free(th->thr);
	free(th->files);
	free(th->masks.m);
	free(th->dir);
	free(th);
}
