/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * record/synth.c - the records perf 6.1 synthesises from /proc for tasks
 * that exist before recording starts (tools/perf/util/synthetic-events.c
 * is the reference for the facts): COMM, FORK, NAMESPACES and MMAP2 per
 * task, the kernel and module maps, THREAD_MAP and CPU_MAP.
 *
 * Layouts: doc/perf-records.md §2 and doc/perf-data-format.md §7.
 * perf leaves the sample_id trailer of synthesised records all zero
 * (it sizes it from the first event's attr and memsets it), so the
 * records here end with that many zero bytes.
 */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lib/xalloc.h"
#include "record/sys.h"
#include "record/sys-int.h"
#include "record/synth-int.h"

/* perf's struct perf_record_comm.comm */
#define COMM_LEN	16
/* perf's PERF_RECORD_MISC_FORK_EXEC, set on synthesised FORKs */
#define MISC_FORK_EXEC	PD_MISC_FORK_EXEC

/* The namespaces in perf's order (enum of NET_NS_INDEX..CGROUP_NS_INDEX). */
static const char *const ns_names[PD_NR_NAMESPACES] = {
	"net", "uts", "ipc", "pid", "user", "mnt", "cgroup",
};

size_t
rec_synth_id_hdr_size(const struct pd_attr *attr)
{
	static const uint64_t bits[] = {
		PD_SAMPLE_TID, PD_SAMPLE_TIME, PD_SAMPLE_ID,
		PD_SAMPLE_STREAM_ID, PD_SAMPLE_CPU, PD_SAMPLE_IDENTIFIER,
	};
	size_t size = 0, i;

	if (!attr || !pd_attr_has(attr, PD_ATTR_SAMPLE_ID_ALL))
		return 0;
	for (i = 0; i < sizeof(bits) / sizeof(bits[0]); i++)
		if (attr->sample_type & bits[i])
			size += 8;
	return size;
}

/* One synthesis: where records go, and what every record needs. */
struct synth {
	struct pd_wbuf b;
	const struct rec_synth_opts *o;
	rec_emit_fn emit;
	void *ctx;
	char *huge;		/* the hugetlbfs mount point, or NULL */
};

static char *hugetlbfs_mountpoint(void);

static void
synth_init(struct synth *s, const struct rec_synth_opts *o, rec_emit_fn emit,
	   void *ctx)
{
	memset(s, 0, sizeof(*s));
	s->o = o;
	s->emit = emit;
	s->ctx = ctx;
	s->huge = hugetlbfs_mountpoint();
}

static void
synth_fini(struct synth *s)
{
	free(s->b.p);
	free(s->huge);
}

static int
synth_emit(struct synth *s)
{
	return rec_buf_emit(&s->b, s->o, s->emit, s->ctx);
}

/* What /proc/.../status says of a thread (perf_event__get_comm_ids). */
struct task_ids {
	char comm[COMM_LEN];
	pid_t tgid, ppid;
	bool kernel;
};

static char *
status_field(char *from, const char *key)
{
	return from ? strstr(from, key) : NULL;
}

static int
task_ids_read(pid_t pid, pid_t tid, struct task_ids *t)
{
	char path[64], *text, *name, *tgids, *ppids, *vmpeak, *threads;
	size_t len;

	memset(t, 0, sizeof(*t));
	t->tgid = t->ppid = -1;
	if (pid)
		snprintf(path, sizeof(path), "/proc/%d/task/%d/status", pid,
			 tid);
	else
		snprintf(path, sizeof(path), "/proc/%d/status", tid);
	if (rec_sys_read_file(path, &text, &len) || !len) {
		if (text)
			free(text);
		return -1;
	}
	/* perf reads one 4 KiB buffer */
	if (len > 4095)
		text[4095] = '\0';
	name = status_field(text, "Name:");
	tgids = status_field(name ? name : text, "Tgid:");
	ppids = status_field(tgids ? tgids : text, "PPid:");
	vmpeak = status_field(ppids ? ppids : text, "VmPeak:");
	threads = vmpeak ? NULL :
			   status_field(ppids ? ppids : text, "Threads:");
	if (name) {
		char *s = name + 5, *nl;
		size_t n;

		while (isspace((unsigned char)*s))
			s++;
		nl = strchr(s, '\n');
		n = nl ? (size_t)(nl - s) : strlen(s);
		if (n >= COMM_LEN)
			n = COMM_LEN - 1;
		memcpy(t->comm, s, n);
		t->comm[n] = '\0';
	}
	if (tgids)
		t->tgid = atoi(tgids + 5);
	if (ppids)
		t->ppid = atoi(ppids + 5);
	t->kernel = !vmpeak && threads;
	free(text);
	return t->tgid < 0 ? -1 : 0;
}

static int
emit_comm(struct synth *s, const struct task_ids *t, pid_t tid)
{
	rec_buf_start(&s->b, PD_RECORD_COMM, 0);
	pd_wbuf_u32(&s->b, (uint32_t)t->tgid);
	pd_wbuf_u32(&s->b, (uint32_t)tid);
	rec_buf_str(&s->b, t->comm, strlen(t->comm));
	return synth_emit(s);
}

/*
 * The main thread's parent is the status file's PPid; perf takes every
 * other thread to be spawned by the main thread.
 */
static int
emit_fork(struct synth *s, const struct task_ids *t, pid_t tid)
{
	pid_t parent = t->tgid == tid ? t->ppid : t->tgid;

	rec_buf_start(&s->b, PD_RECORD_FORK, MISC_FORK_EXEC);
	pd_wbuf_u32(&s->b, (uint32_t)t->tgid);
	pd_wbuf_u32(&s->b, (uint32_t)parent);
	pd_wbuf_u32(&s->b, (uint32_t)tid);
	pd_wbuf_u32(&s->b, (uint32_t)parent);
	pd_wbuf_u64(&s->b, 0);
	return synth_emit(s);
}

static int
emit_namespaces(struct synth *s, pid_t tgid, pid_t tid)
{
	unsigned int i;

	if (!s->o->namespaces)
		return 0;
	rec_buf_start(&s->b, PD_RECORD_NAMESPACES, 0);
	pd_wbuf_u32(&s->b, (uint32_t)tgid);
	pd_wbuf_u32(&s->b, (uint32_t)tid);
	pd_wbuf_u64(&s->b, PD_NR_NAMESPACES);
	for (i = 0; i < PD_NR_NAMESPACES; i++) {
		char path[64];
		struct stat st;
		uint64_t dev = 0, ino = 0;

		snprintf(path, sizeof(path), "/proc/%u/ns/%s",
			 (unsigned int)tid, ns_names[i]);
		if (stat(path, &st) == 0) {
			dev = (uint64_t)st.st_dev;
			ino = (uint64_t)st.st_ino;
		}
		pd_wbuf_u64(&s->b, dev);
		pd_wbuf_u64(&s->b, ino);
	}
	return synth_emit(s);
}

/* One parsed line of /proc/PID/maps. */
struct maps_line {
	uint64_t start, end, pgoff, ino;
	uint32_t prot, flags, maj, min;
	const char *path;
	size_t path_len;
};

static const char *
parse_hex(const char *s, uint64_t *v, char want)
{
	char *end;

	if (!isxdigit((unsigned char)*s))
		return NULL;
	*v = strtoull(s, &end, 16);
	return *end == want ? end + 1 : NULL;
}

/* perf's read_proc_maps_line(), on one line without its newline. */
static bool
maps_line_parse(const char *s, struct maps_line *l)
{
	uint64_t v;
	char *end;

	memset(l, 0, sizeof(*l));
	if (!(s = parse_hex(s, &l->start, '-')) ||
	    !(s = parse_hex(s, &l->end, ' ')))
		return false;
	if (strlen(s) < 5)
		return false;
	if (s[0] == 'r')
		l->prot |= PROT_READ;
	else if (s[0] != '-')
		return false;
	if (s[1] == 'w')
		l->prot |= PROT_WRITE;
	else if (s[1] != '-')
		return false;
	if (s[2] == 'x')
		l->prot |= PROT_EXEC;
	else if (s[2] != '-')
		return false;
	if (s[3] == 's')
		l->flags = MAP_SHARED;
	else if (s[3] == 'p')
		l->flags = MAP_PRIVATE;
	else
		return false;
	if (s[4] != ' ')
		return false;
	s += 5;
	if (!(s = parse_hex(s, &l->pgoff, ' ')) || !(s = parse_hex(s, &v, ':')))
		return false;
	l->maj = (uint32_t)v;
	if (!(s = parse_hex(s, &v, ' ')))
		return false;
	l->min = (uint32_t)v;
	if (!isdigit((unsigned char)*s))
		return false;
	l->ino = strtoull(s, &end, 10);
	s = end;
	if (*s != ' ')
		return *s == '\0';
	while (*s == ' ')
		s++;
	l->path = s;
	l->path_len = strlen(s);
	if (l->path_len > PATH_MAX - 1)
		l->path_len = PATH_MAX - 1;
	return true;
}

static uint64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* The first hugetlbfs mount point, as perf's hugetlbfs__mountpoint(). */
static char *
hugetlbfs_mountpoint(void)
{
	char *text, *line, *res = NULL;

	if (rec_sys_read_file("/proc/mounts", &text, NULL))
		return NULL;
	for (line = strtok(text, "\n"); line && !res;
	     line = strtok(NULL, "\n")) {
		char dev[256], dir[PATH_MAX], type[64];

		if (sscanf(line, "%255s %4095s %63s", dev, dir, type) == 3 &&
		    !strcmp(type, "hugetlbfs"))
			res = xstrdup(dir);
	}
	free(text);
	return res;
}

static int
emit_mmap2(struct synth *s, const struct maps_line *l, uint16_t misc,
	   pid_t tgid, pid_t tid)
{
	const char *path = l->path_len ? l->path : "//anon";
	size_t path_len = l->path_len ? l->path_len : 6;
	uint32_t flags = l->flags;
	size_t hl = s->huge ? strlen(s->huge) : 0;

	if (hl && path_len >= hl && !strncmp(path, s->huge, hl)) {
		path = "//anon";
		path_len = 6;
		flags |= MAP_HUGETLB;
	}
	rec_buf_start(&s->b, PD_RECORD_MMAP2, misc);
	pd_wbuf_u32(&s->b, (uint32_t)tgid);
	pd_wbuf_u32(&s->b, (uint32_t)tid);
	pd_wbuf_u64(&s->b, l->start);
	pd_wbuf_u64(&s->b, l->end - l->start);
	pd_wbuf_u64(&s->b, l->pgoff);
	pd_wbuf_u32(&s->b, l->maj);
	pd_wbuf_u32(&s->b, l->min);
	pd_wbuf_u64(&s->b, l->ino);
	pd_wbuf_u64(&s->b, 0);
	pd_wbuf_u32(&s->b, l->prot);
	pd_wbuf_u32(&s->b, flags);
	rec_buf_str(&s->b, path, path_len);
	return synth_emit(s);
}

/*
 * MMAP2 for the executable mappings of a process (and its readable data
 * mappings with -d), from /proc/PID/task/PID/maps.  When reading takes
 * longer than proc_map_timeout_ms, the record being built is flagged
 * PROC_MAP_PARSE_TIMEOUT and the rest is dropped, as perf does.
 */
static int
synth_mmaps(struct synth *s, pid_t pid, pid_t tgid)
{
	uint64_t t0 = now_ns(), timeout;
	uint16_t misc = PD_MISC_USER;
	const struct rec_synth_opts *o = s->o;
	char path[64], *text, *line, *next;
	int err = 0;

	timeout = o->proc_map_timeout_ms ? o->proc_map_timeout_ms : 500;
	timeout *= 1000000ULL;
	snprintf(path, sizeof(path), "/proc/%d/task/%d/maps", pid, pid);
	if (rec_sys_read_file(path, &text, NULL))
		return -ENOENT;
	for (line = text; *line && !err; line = next) {
		struct maps_line l;
		bool timed_out;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		else
			next = line + strlen(line);
		if (!maps_line_parse(line, &l))
			continue;
		timed_out = now_ns() - t0 > timeout;
		if (!timed_out) {
			misc = PD_MISC_USER;
			if (!(l.prot & PROT_EXEC)) {
				if (!o->mmap_data || !(l.prot & PROT_READ))
					continue;
				misc |= PD_MISC_MMAP_DATA;
			}
		} else {
			misc |= PD_MISC_PROC_MAP_PARSE_TIMEOUT;
		}
		err = emit_mmap2(s, &l, misc, tgid, pid);
		if (timed_out)
			break;
	}
	free(text);
	return err;
}

/*
 * One thread as perf synthesises a thread of a thread map: COMM,
 * NAMESPACES, and the maps when it leads its process.  *tgid gets the
 * thread's process.
 */
static int
synth_thread(struct synth *s, pid_t tid, pid_t *tgid)
{
	struct task_ids t;
	int err;

	if (task_ids_read(0, tid, &t))
		return -ESRCH;
	*tgid = t.tgid;
	err = emit_comm(s, &t, tid);
	if (!err)
		err = emit_namespaces(s, t.tgid, tid);
	if (!err && tid == t.tgid)
		err = synth_mmaps(s, tid, t.tgid);
	return err;
}

int
rec_synth_comm(pid_t pid, const struct rec_synth_opts *o, rec_emit_fn emit,
	       void *ctx)
{
	struct task_ids t;
	struct synth s;
	int err;

	if (task_ids_read(0, pid, &t))
		return -ESRCH;
	synth_init(&s, o, emit, ctx);
	err = emit_comm(&s, &t, pid);
	if (!err)
		err = emit_namespaces(&s, t.tgid, pid);
	synth_fini(&s);
	return err;
}

static int
task_filter(const struct dirent *d)
{
	return isdigit((unsigned char)d->d_name[0]);
}

/* The threads of pid, in directory order; free() *out. */
static int
task_list(pid_t pid, pid_t **out, size_t *nr)
{
	struct dirent **ents;
	char path[64];
	int n, i;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	n = scandir(path, &ents, task_filter, NULL);
	if (n < 0)
		return -errno;
	*out = xcalloc(n ? (size_t)n : 1, sizeof(**out));
	*nr = 0;
	for (i = 0; i < n; i++) {
		char *end;
		long v = strtol(ents[i]->d_name, &end, 10);

		if (!*end && v > 0 && v <= INT_MAX)
			(*out)[(*nr)++] = (pid_t)v;
		free(ents[i]);
	}
	free(ents);
	return 0;
}

static int
synth_thread_map(const pid_t *tids, size_t nr, bool skip_gone,
		 const struct rec_synth_opts *o, rec_emit_fn emit, void *ctx)
{
	pid_t tgid = -1;
	struct synth s;
	size_t i, j;
	int err = 0;

	synth_init(&s, o, emit, ctx);
	for (i = 0; i < nr && !err; i++) {
		bool leader_listed = false;

		err = synth_thread(&s, tids[i], &tgid);
		/* a thread that exited since the map was made */
		if (skip_gone && (err == -ESRCH || err == -ENOENT)) {
			err = 0;
			continue;
		}
		if (err || tgid == tids[i])
			continue;
		for (j = 0; j < nr; j++)
			leader_listed |= tids[j] == tgid;
		if (!leader_listed)
			err = synth_thread(&s, tgid, &tgid);
	}
	synth_fini(&s);
	return err;
}

int
rec_synth_threads(const pid_t *tids, size_t nr,
		  const struct rec_synth_opts *o, rec_emit_fn emit, void *ctx)
{
	return synth_thread_map(tids, nr, true, o, emit, ctx);
}

int
rec_synth_task(pid_t pid, pid_t tid, bool all_threads,
	       const struct rec_synth_opts *o, rec_emit_fn emit, void *ctx)
{
	pid_t *tids;
	size_t nr;
	int err;

	if (!all_threads)
		return synth_thread_map(&tid, 1, false, o, emit, ctx);
	err = task_list(pid, &tids, &nr);
	if (err)
		return err;
	err = synth_thread_map(tids, nr, true, o, emit, ctx);
	free(tids);
	return err;
}

/*
 * Every thread of one process, the system-wide way: FORK, NAMESPACES,
 * COMM per thread, then the maps after the main thread's COMM.  Threads
 * that exit meanwhile are skipped.
 */
static int
synth_process_full(struct synth *s, pid_t pid)
{
	pid_t *tids;
	size_t nr, i;
	int err;

	/* a process that exited or hides its tasks is skipped, as by perf */
	if (task_list(pid, &tids, &nr))
		return -ESRCH;
	err = 0;
	for (i = 0; i < nr && !err; i++) {
		struct task_ids t;

		if (task_ids_read(pid, tids[i], &t))
			continue;
		err = emit_fork(s, &t, tids[i]);
		if (!err)
			err = emit_namespaces(s, t.tgid, tids[i]);
		if (!err)
			err = emit_comm(s, &t, tids[i]);
		if (!err && tids[i] == pid && !t.kernel)
			err = synth_mmaps(s, pid, t.tgid);
	}
	free(tids);
	return err;
}

int
rec_synth_all_tasks(const struct rec_synth_opts *o, rec_emit_fn emit,
		    void *ctx)
{
	struct dirent **ents;
	struct synth s;
	int n, i, err = 0;

	n = scandir("/proc", &ents, task_filter, NULL);
	if (n < 0)
		return -errno;
	synth_init(&s, o, emit, ctx);
	for (i = 0; i < n; i++) {
		char *end;
		long pid = strtol(ents[i]->d_name, &end, 10);

		/* a process that exits while we look is not an error */
		if (!err && !*end && pid > 0 && pid <= INT_MAX) {
			int e = synth_process_full(&s, (pid_t)pid);

			if (e && e != -ESRCH && e != -ENOENT)
				err = e;
		}
		free(ents[i]);
	}
	free(ents);
	synth_fini(&s);
	return err;
}
