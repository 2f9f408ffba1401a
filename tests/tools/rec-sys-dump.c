/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * tests/tools/rec-sys-dump.c - print what record/sys.h produces, in forms
 * that tests compare with what Linux perf wrote on the same machine.
 *
 *   rec-sys-dump meta [CLOCKID]    system facts from rec_sys_collect(),
 *                                  with -k CLOCKID's clock features
 *   rec-sys-dump file FILE         the same facts as FILE's header holds
 *   rec-sys-dump synth FILE PID [TID]  the records precord synthesises
 *                                  for `-p PID` (or `-t TID`) with FILE's
 *                                  first attr
 *   rec-sys-dump perf-synth FILE   the records perf synthesised in FILE
 *                                  (those before FINISHED_INIT)
 *   rec-sys-dump synth-all FILE    system-wide synthesis
 *   rec-sys-dump maps TID... -- CPU...  THREAD_MAP and CPU_MAP records
 *   rec-sys-dump perf-maps FILE    the THREAD_MAP and CPU_MAP perf wrote
 *   rec-sys-dump synth-comm FILE PID  the COMM perf adds for its workload
 *   rec-sys-dump buildids FILE     BUILD_ID entries and sample times
 *                                  computed by rec_buildids_collect()
 *   rec-sys-dump file-buildids FILE  the same from FILE's header
 *   rec-sys-dump tracing EV...     the TRACING_DATA blob, to stdout
 *   rec-sys-dump file-tracing FILE FILE's TRACING_DATA blob, to stdout
 *   rec-sys-dump tracing-text BLOB the blob's parts, one per line; the
 *                                  saved_cmdlines, which change with
 *                                  every task started, as their size
 *   rec-sys-dump selftest          check the parsers on fixed inputs
 *   rec-sys-dump header IN OUT     write OUT with pd_writer: IN's attrs
 *                                  and data, rec_sys_collect()'s facts,
 *                                  IN's EVENT_DESC, SAMPLE_TIME, BUILD_ID,
 *                                  our TRACING_DATA for its tracepoints
 *
 * Facts that legitimately differ between two snapshots (the free memory
 * of a NUMA node, the command line, the version) are printed as "*".
 * Records are printed one per line in hex, so that a diff shows the
 * first differing byte.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/cpulist.h"
#include "pdata/errors.h"
#include "pdata/meta.h"
#include "pdata/reader.h"
#include "pdata/writer.h"
#include "record/buildid-int.h"
#include "record/synth-int.h"
#include "record/sys-int.h"
#include "record/sys.h"

static const unsigned int sys_feats[] = {
	PD_FEAT_HOSTNAME, PD_FEAT_OSRELEASE, PD_FEAT_VERSION, PD_FEAT_ARCH,
	PD_FEAT_NRCPUS, PD_FEAT_CPUDESC, PD_FEAT_CPUID, PD_FEAT_TOTAL_MEM,
	PD_FEAT_CMDLINE, PD_FEAT_CPU_TOPOLOGY, PD_FEAT_NUMA_TOPOLOGY,
	PD_FEAT_PMU_MAPPINGS, PD_FEAT_CACHE, PD_FEAT_MEM_TOPOLOGY,
	PD_FEAT_BPF_PROG_INFO, PD_FEAT_BPF_BTF, PD_FEAT_CPU_PMU_CAPS,
	PD_FEAT_HYBRID_TOPOLOGY, PD_FEAT_PMU_CAPS, PD_FEAT_CLOCKID,
	PD_FEAT_CLOCK_DATA,
};

static void
print_strlist(const char *tag, const struct pd_strlist *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++)
		printf("%s %s\n", tag, l->s[i]);
}

static void
print_topology(const struct pd_meta *m)
{
	size_t i;

	print_strlist("sibling-sockets", &m->package_cpus);
	print_strlist("sibling-dies", &m->die_cpus);
	print_strlist("sibling-threads", &m->thread_cpus);
	printf("topo has_ids %d has_die %d\n", m->topo_has_ids,
	       m->topo_has_die);
	for (i = 0; i < m->nr_topo_cpus; i++)
		printf("cpu %zu core %" PRIu32 " socket %" PRIu32
		       " die %" PRIu32 "\n", i, m->topo_cpus[i].core_id,
		       m->topo_cpus[i].socket_id, m->topo_cpus[i].die_id);
}

static void
print_caches_mem(const struct pd_meta *m)
{
	size_t i, j;

	for (i = 0; i < m->nr_caches; i++) {
		const struct pd_cache_level *c = &m->caches[i];

		printf("cache L%" PRIu32 " line %" PRIu32 " sets %" PRIu32
		       " ways %" PRIu32 " %s %s [%s]\n", c->level, c->line_size,
		       c->sets, c->ways, c->type, c->size, c->map);
	}
	if (pd_meta_has(m, PD_FEAT_MEM_TOPOLOGY))
		printf("mem version %" PRIu64 " block %#" PRIx64 "\n",
		       m->mem_version, m->mem_block_size);
	for (i = 0; i < m->nr_mem_nodes; i++) {
		const struct pd_mem_node *n = &m->mem_nodes[i];

		printf("mem node %" PRIu64 " size %" PRIu64 ":", n->node,
		       n->size);
		for (j = 0; n->bitmap && j < (n->size + 63) / 64; j++)
			printf(" %016" PRIx64, n->bitmap[j]);
		printf("\n");
	}
}

static void
print_caps(const char *tag, const struct pd_cap *c, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		printf("%s %s=%s\n", tag, c[i].name, c[i].value);
}

static void
print_meta(const struct pd_meta *m)
{
	size_t i;

	for (i = 0; i < sizeof(sys_feats) / sizeof(sys_feats[0]); i++)
		printf("feature %s %s\n", pd_feature_name(sys_feats[i]),
		       pd_meta_has(m, sys_feats[i]) ? "yes" : "no");
	printf("hostname %s\nosrelease %s\narch %s\n",
	       m->hostname ? m->hostname : "-",
	       m->os_release ? m->os_release : "-", m->arch ? m->arch : "-");
	printf("version %s\ncmdline *\n", m->version ? "*" : "-");
	printf("nrcpus avail %" PRIu32 " online %" PRIu32 "\n",
	       m->nr_cpus_avail, m->nr_cpus_online);
	printf("cpudesc %s\ncpuid %s\n", m->cpu_desc ? m->cpu_desc : "-",
	       m->cpuid ? m->cpuid : "-");
	printf("total_mem %" PRIu64 "\n", m->total_mem_kb);
	print_topology(m);
	for (i = 0; i < m->nr_numa_nodes; i++)
		printf("numa node %" PRIu32 " total %" PRIu64
		       " free * cpus %s\n",
		       m->numa_nodes[i].node, m->numa_nodes[i].mem_total_kb,
		       m->numa_nodes[i].cpus);
	for (i = 0; i < m->nr_pmu_mappings; i++)
		printf("pmu %s = %" PRIu32 "\n", m->pmu_mappings[i].name,
		       m->pmu_mappings[i].type);
	if (pd_meta_has(m, PD_FEAT_CACHE))
		printf("cache version %" PRIu32 "\n", m->cache_version);
	print_caches_mem(m);
	printf("bpf progs %zu btfs %zu\n", m->nr_bpf_progs, m->nr_bpf_btfs);
	print_caps("cpu-pmu-cap", m->cpu_pmu_caps, m->nr_cpu_pmu_caps);
	for (i = 0; i < m->nr_pmu_caps; i++)
		print_caps(m->pmu_caps[i].pmu_name, m->pmu_caps[i].caps,
			   m->pmu_caps[i].nr_caps);
	for (i = 0; i < m->nr_hybrid_nodes; i++)
		printf("hybrid %s %s\n", m->hybrid_nodes[i].pmu_name,
		       m->hybrid_nodes[i].cpus);
	/* the reference times differ between two readings */
	printf("clockid res %" PRIu64 " ns; clock data version %" PRIu32
	       " clockid %" PRIu32 " tod %s\n", m->clockid_res_ns,
	       m->clock_data_version, m->clock_data_clockid,
	       m->clock_tod_ns ? "*" : "0");
}

static int
open_file(const char *path, struct pd_reader **r)
{
	int err = pd_reader_open(r, path, NULL);

	if (err) {
		fprintf(stderr, "rec-sys-dump: %s: %s\n", path,
			*r ? pd_reader_errmsg(*r) : pd_strerror(err));
		if (*r)
			pd_reader_close(*r);
		return -1;
	}
	return 0;
}

/* 1 with a message when what failed with -err, else 0. */
static int
failed(const char *what, int err)
{
	if (!err)
		return 0;
	fprintf(stderr, "rec-sys-dump: %s: %s\n", what, strerror(-err));
	return 1;
}

static int
cmd_meta(const char *clockid)
{
	static char *const argv[] = { "precord", NULL };
	struct pd_meta m;
	int err;

	pd_meta_init(&m);
	err = rec_sys_collect(&m, 1, argv, clockid ? atoi(clockid) : 0,
			      clockid != NULL);
	if (failed("rec_sys_collect", err))
		return 1;
	print_meta(&m);
	pd_meta_free(&m);
	return 0;
}

static int
cmd_file(const char *path)
{
	struct pd_reader *r;

	if (open_file(path, &r))
		return 1;
	print_meta(pd_reader_meta(r));
	pd_reader_close(r);
	return 0;
}

static void
print_record(const void *rec, size_t size)
{
	const unsigned char *p = rec;
	size_t i;

	for (i = 0; i < size; i++)
		printf("%02x", p[i]);
	printf("\n");
}

static int
print_emit(void *ctx, const void *rec, size_t size)
{
	(void)ctx;
	print_record(rec, size);
	return 0;
}

/* A file's first attr and online CPUs, for synthesis as perf did it. */
static int
first_attr(const char *path, struct pd_attr *attr)
{
	struct pd_reader *r;

	if (open_file(path, &r))
		return -1;
	if (!pd_reader_nr_evsels(r)) {
		fprintf(stderr, "rec-sys-dump: %s: no event\n", path);
		pd_reader_close(r);
		return -1;
	}
	*attr = pd_reader_evsel(r, 0)->attr;
	pd_reader_close(r);
	return 0;
}

/* Synthesis options from path's first attr (kept in *attr), as precord's. */
static int
synth_opts(const char *path, struct pd_attr *attr, struct rec_synth_opts *o)
{
	if (first_attr(path, attr))
		return -1;
	memset(o, 0, sizeof(*o));
	o->proc_map_timeout_ms = 500;
	o->attr = attr;
	o->mmap_data = pd_attr_has(attr, PD_ATTR_MMAP_DATA);
	o->namespaces = pd_attr_has(attr, PD_ATTR_NAMESPACES);
	return 0;
}

static int
cmd_synth(const char *path, const char *pid_s, const char *tid_s)
{
	struct rec_synth_opts o;
	struct pd_attr attr;
	pid_t pid = (pid_t)atoi(pid_s);
	int err;

	if (synth_opts(path, &attr, &o))
		return 1;
	err = rec_synth_kernel(&o, print_emit, NULL);
	if (!err)
		err = rec_synth_task(pid, tid_s ? (pid_t)atoi(tid_s) : pid,
				     !tid_s, &o, print_emit, NULL);
	return failed("synthesis", err);
}

/*
 * The records perf synthesised: before FINISHED_INIT, without the
 * thread and cpu maps, or only those.
 */
static int
cmd_perf_synth(const char *path, bool maps)
{
	struct pd_reader *r;
	struct pd_record rec;
	int n;

	if (open_file(path, &r))
		return 1;
	while ((n = pd_reader_next(r, &rec)) > 0) {
		uint32_t t = rec.header.type;

		if (t == PD_RECORD_FINISHED_INIT)
			break;
		if (t == PD_RECORD_ID_INDEX || rec.swap)
			continue;
		if ((t == PD_RECORD_THREAD_MAP ||
		     t == PD_RECORD_CPU_MAP) != maps)
			continue;
		print_record(rec.data, rec.size);
	}
	pd_reader_close(r);
	return n < 0;
}

static int
count_emit(void *ctx, const void *rec, size_t size)
{
	struct pd_event_header h;
	unsigned long *counts = ctx;

	if (size < sizeof(h))
		return -EINVAL;
	memcpy(&h, rec, sizeof(h));
	if (h.size != size || size % 8)
		return -EINVAL;
	if (h.type < 32)
		counts[h.type]++;
	return 0;
}

static int
cmd_synth_all(const char *path)
{
	struct rec_synth_opts o;
	unsigned long counts[32] = { 0 };
	struct pd_attr attr;
	unsigned int t;
	int err;

	if (synth_opts(path, &attr, &o))
		return 1;
	err = rec_synth_all_tasks(&o, count_emit, counts);
	if (!err)
		err = rec_synth_all_tasks(&o, print_emit, NULL);
	if (failed("synthesis", err))
		return 1;
	for (t = 0; t < 32; t++)
		if (counts[t])
			fprintf(stderr, "%s %lu\n", pd_record_type_name(t),
				counts[t]);
	return 0;
}

static int
cmd_synth_comm(const char *path, const char *pid_s)
{
	struct rec_synth_opts o;
	struct pd_attr attr;

	if (synth_opts(path, &attr, &o))
		return 1;
	return failed("synthesis",
		      rec_synth_comm((pid_t)atoi(pid_s), &o, print_emit, NULL));
}

static int
cmd_maps(int argc, char **argv)
{
	pid_t tids[64];
	int cpus[64];
	size_t nt = 0, nc = 0;
	int i, err;
	bool in_cpus = false;

	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			in_cpus = true;
			continue;
		}
		if (in_cpus && nc < 64)
			cpus[nc++] = atoi(argv[i]);
		else if (!in_cpus && nt < 64)
			tids[nt++] = (pid_t)atoi(argv[i]);
	}
	err = rec_synth_thread_map(tids, nt, print_emit, NULL);
	if (!err)
		err = rec_synth_cpu_map(cpus, nc, print_emit, NULL);
	return failed("maps", err);
}

static void
meta_set(struct pd_meta *m, unsigned int feat)
{
	m->features[feat / 64] |= 1ULL << (feat % 64);
}

/* The features that the caller of rec_sys_collect() fills, from IN. */
static void
copy_caller_features(struct pd_meta *m, struct pd_reader *r)
{
	const struct pd_meta *in = pd_reader_meta(r);
	size_t i, n = pd_reader_nr_evsels(r);

	m->event_desc = calloc(n ? n : 1, sizeof(*m->event_desc));
	m->nr_event_desc = n;
	for (i = 0; i < n; i++) {
		const struct pd_evsel *ev = pd_reader_evsel(r, i);
		struct pd_event_desc *d = &m->event_desc[i];

		d->attr = ev->attr;
		d->name = strdup(pd_evsel_name(ev));
		d->nr_ids = ev->nr_ids;
		d->ids = calloc(ev->nr_ids ? ev->nr_ids : 1, sizeof(*d->ids));
		memcpy(d->ids, ev->ids, ev->nr_ids * sizeof(*d->ids));
	}
	meta_set(m, PD_FEAT_EVENT_DESC);
	if (pd_meta_has(in, PD_FEAT_SAMPLE_TIME)) {
		m->first_sample_time = in->first_sample_time;
		m->last_sample_time = in->last_sample_time;
		meta_set(m, PD_FEAT_SAMPLE_TIME);
	}
	if (in->nr_build_ids) {
		m->build_ids = calloc(in->nr_build_ids, sizeof(*m->build_ids));
		for (i = 0; i < in->nr_build_ids; i++) {
			m->build_ids[i] = in->build_ids[i];
			m->build_ids[i].filename =
				strdup(in->build_ids[i].filename);
		}
		m->nr_build_ids = in->nr_build_ids;
		meta_set(m, PD_FEAT_BUILD_ID);
	}
}

static int
write_copy(struct pd_reader *r, struct pd_writer *w, const struct pd_meta *m)
{
	struct pd_record rec;
	size_t i;
	int n, err = 0;

	for (i = 0; i < pd_reader_nr_evsels(r) && !err; i++) {
		const struct pd_evsel *ev = pd_reader_evsel(r, i);

		err = pd_writer_add_evsel(w, &ev->attr, ev->ids, ev->nr_ids);
	}
	if (!err)
		err = pd_writer_begin_data(w, m);
	while (!err && (n = pd_reader_next(r, &rec)) > 0)
		if (rec.origin == PD_ORIGIN_FILE)
			err = pd_writer_write(w, rec.data, rec.size);
	if (!err)
		err = pd_writer_finish(w, m);
	return err;
}

/* "sys:name" of IN's tracepoint events, for rec_tracing_data(). */
static size_t
tracepoint_names(struct pd_reader *r, const char **names, size_t max)
{
	size_t i, n = 0;

	for (i = 0; i < pd_reader_nr_evsels(r) && n < max; i++) {
		const struct pd_evsel *ev = pd_reader_evsel(r, i);

		if (ev->attr.type == PD_TYPE_TRACEPOINT)
			names[n++] = pd_evsel_name(ev);
	}
	return n;
}

static int
cmd_header(const char *in, const char *out)
{
	static char *const argv[] = { "precord", NULL };
	struct pd_writer_opts wo = { .pipe = false };
	struct pd_writer *w = NULL;
	struct pd_reader *r;
	struct pd_meta m;
	int fd, err;

	if (open_file(in, &r))
		return 1;
	const char *tps[64];
	size_t nr_tps = tracepoint_names(r, tps, 64);
	void *tdata = NULL;
	size_t tlen = 0;

	pd_meta_init(&m);
	rec_sys_collect(&m, 1, argv, 0, false);
	copy_caller_features(&m, r);
	fd = open(out, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	err = fd < 0 ? -errno : pd_writer_open(&w, fd, &wo);
	if (!err && nr_tps) {
		err = rec_tracing_data(tps, nr_tps, &tdata, &tlen);
		if (!err)
			err = pd_writer_set_feature_raw(w, PD_FEAT_TRACING_DATA,
							tdata, tlen);
		free(tdata);
	}
	if (!err)
		err = write_copy(r, w, &m);
	if (err)
		fprintf(stderr, "rec-sys-dump: %s: %s\n", out,
			w ? pd_writer_errmsg(w) : pd_strerror(err));
	if (w)
		pd_writer_close(w);
	if (fd >= 0)
		close(fd);
	pd_meta_free(&m);
	pd_reader_close(r);
	return err != 0;
}

static void
print_build_ids(const struct pd_meta *m)
{
	size_t i, j;

	printf("feature BUILD_ID %s\n",
	       pd_meta_has(m, PD_FEAT_BUILD_ID) ? "yes" : "no");
	for (i = 0; i < m->nr_build_ids; i++) {
		const struct pd_build_id *b = &m->build_ids[i];

		printf("pid %" PRId32 " misc %#x ", b->pid, b->misc);
		for (j = 0; j < b->size; j++)
			printf("%02x", b->id[j]);
		printf(" %s\n", b->filename);
	}
	printf("feature SAMPLE_TIME %s %" PRIu64 " %" PRIu64 "\n",
	       pd_meta_has(m, PD_FEAT_SAMPLE_TIME) ? "yes" : "no",
	       m->first_sample_time, m->last_sample_time);
}

static int
cmd_buildids(const char *path, bool from_header)
{
	struct pd_reader *r;
	struct pd_meta m;
	int err;

	if (open_file(path, &r))
		return 1;
	if (from_header) {
		print_build_ids(pd_reader_meta(r));
		pd_reader_close(r);
		return 0;
	}
	pd_meta_init(&m);
	err = rec_buildids_collect(r, &m);
	if (err)
		fprintf(stderr, "rec-sys-dump: %s: %s\n", path,
			pd_reader_errmsg(r));
	else
		print_build_ids(&m);
	pd_meta_free(&m);
	pd_reader_close(r);
	return err != 0;
}

static int
write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static int
cmd_tracing(int argc, char **argv)
{
	void *buf;
	size_t len;
	int err;

	err = rec_tracing_data((const char *const *)argv, (size_t)argc, &buf,
			       &len);
	if (failed("tracing data", err))
		return 1;
	err = write_all(1, buf, len);
	free(buf);
	return err != 0;
}

static int
cmd_file_tracing(const char *path)
{
	const struct pd_meta *m;
	struct pd_reader *r;
	char *buf;
	int fd, ret = 1;

	if (open_file(path, &r))
		return 1;
	m = pd_reader_meta(r);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0 && m->tracing_data_size &&
	    m->tracing_data_size < (1U << 30)) {
		buf = malloc(m->tracing_data_size);
		if (buf && pread(fd, buf, m->tracing_data_size,
				 (off_t)m->tracing_data_offset) ==
			   (ssize_t)m->tracing_data_size)
			ret = write_all(1, buf, m->tracing_data_size) != 0;
		free(buf);
	}
	if (fd >= 0)
		close(fd);
	if (ret)
		fprintf(stderr, "rec-sys-dump: %s: no TRACING_DATA\n", path);
	pd_reader_close(r);
	return ret;
}

/* A bounded reader of the blob, for tracing-text. */
struct blob {
	const unsigned char *p;
	size_t len, off;
	bool bad;
};

static uint64_t
blob_uint(struct blob *b, size_t n)
{
	uint64_t v = 0;

	if (b->bad || b->len - b->off < n) {
		b->bad = true;
		return 0;
	}
	memcpy(&v, b->p + b->off, n);	/* little-endian host assumed */
	b->off += n;
	return v;
}

static const char *
blob_str(struct blob *b)
{
	const char *s = (const char *)b->p + b->off;
	const void *nul;

	if (b->bad || !(nul = memchr(s, 0, b->len - b->off))) {
		b->bad = true;
		return "";
	}
	b->off += (size_t)((const char *)nul - s) + 1;
	return s;
}

/* size_len bytes of size, then the text: printed, or "*" when hidden */
static void
blob_file(struct blob *b, const char *tag, size_t size_len, bool hide)
{
	uint64_t n = blob_uint(b, size_len);

	if (b->bad || n > b->len - b->off) {
		b->bad = true;
		return;
	}
	printf("== %s size %s\n", tag, hide ? "*" : "");
	if (!hide) {
		fwrite(b->p + b->off, 1, (size_t)n, stdout);
		printf("\n");
	}
	b->off += (size_t)n;
}

static void
blob_formats(struct blob *b, const char *sys)
{
	uint64_t i, nr = blob_uint(b, 4);

	printf("== system %s events %" PRIu64 "\n", sys, nr);
	for (i = 0; i < nr && !b->bad; i++)
		blob_file(b, "format", 8, false);
}

static int
cmd_tracing_text(const char *path)
{
	struct blob b = { 0 };
	char *data;
	size_t len;
	uint64_t i, nr;
	FILE *f = fopen(path, "rb");

	if (!f)
		return 1;
	data = malloc(1U << 26);
	len = data ? fread(data, 1, 1U << 26, f) : 0;
	fclose(f);
	b.p = (const unsigned char *)data;
	b.len = len;
	if (len < 10 || memcmp(data, "\x17\x08\x44tracing", 10)) {
		free(data);
		return 1;
	}
	b.off = 10;
	printf("version %s\n", blob_str(&b));
	printf("big_endian %" PRIu64 "\n", blob_uint(&b, 1));
	printf("long_size %" PRIu64 "\n", blob_uint(&b, 1));
	printf("page_size %" PRIu64 "\n", blob_uint(&b, 4));
	printf("%s\n", blob_str(&b));
	blob_file(&b, "header_page", 8, false);
	printf("%s\n", blob_str(&b));
	blob_file(&b, "header_event", 8, false);
	blob_formats(&b, "ftrace");
	nr = blob_uint(&b, 4);
	printf("== systems %" PRIu64 "\n", nr);
	for (i = 0; i < nr && !b.bad; i++)
		blob_formats(&b, blob_str(&b));
	blob_file(&b, "kallsyms", 4, false);
	blob_file(&b, "printk_formats", 4, false);
	blob_file(&b, "saved_cmdlines", 8, true);
	printf("trailing %zu bad %d\n", b.bad ? 0 : len - b.off, b.bad);
	free(data);
	return b.bad;
}

static int selftest_failures;

static void
check(bool ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "rec-sys-dump: selftest: %s\n", what);
		selftest_failures++;
	}
}

static bool
cpulist_is(const char *text, const int *want, size_t nr_want)
{
	int *v;
	size_t nr;
	bool ok;

	if (cpulist_parse(text, INT_MAX, &v, &nr))
		return false;
	ok = nr == nr_want && (!nr || !memcmp(v, want, nr * sizeof(*v)));
	free(v);
	return ok;
}

static void
selftest_cpulist(void)
{
	static const int a[] = { 0, 1, 2, 3, 8, 10, 11 }, b[] = { 5 };
	static const int c[] = { 0, 1, 2 };
	int *v;
	size_t nr;

	check(cpulist_is("0-3,8,10-11\n", a, 7), "cpulist 0-3,8,10-11");
	check(cpulist_is("5", b, 1), "cpulist 5");
	check(cpulist_is("", NULL, 0), "cpulist empty");
	check(cpulist_is("2,0-1,1", c, 3), "cpulist unsorted, repeated");
	check(cpulist_parse("1-", INT_MAX, &v, &nr) == -EINVAL, "cpulist 1-");
	check(cpulist_parse("a", INT_MAX, &v, &nr) == -EINVAL, "cpulist a");
	check(cpulist_parse("3-1", INT_MAX, &v, &nr) == -EINVAL, "cpulist 3-1");
	check(cpulist_parse("0-99999999", INT_MAX, &v, &nr) == -EINVAL,
	      "cpulist too long a range");
}

static void
selftest_notes(void)
{
	unsigned char n[12 + 4 + 20 + 12 + 4 + 4];
	uint8_t id[PD_BUILD_ID_SIZE];
	uint32_t w[3];
	size_t i;

	/* an unrelated note first, then the build-id */
	w[0] = 4, w[1] = 4, w[2] = 1;
	memcpy(n, w, 12);
	memcpy(n + 12, "GNU", 4);
	memcpy(n + 16, "\1\2\3\4", 4);
	w[0] = 4, w[1] = 20, w[2] = 3;
	memcpy(n + 20, w, 12);
	memcpy(n + 32, "GNU", 4);
	for (i = 0; i < 20; i++)
		n[36 + i] = (unsigned char)(0xa0 + i);
	check(rec_notes_build_id(n, 56, id) == 20 && id[0] == 0xa0 &&
	      id[19] == 0xb3, "notes: the build-id after another note");
	check(rec_notes_build_id(n, 55, id) == 0, "notes: truncated desc");
	check(rec_notes_build_id(n, 11, id) == 0, "notes: truncated header");
	w[0] = 0xffffffffU, w[1] = 20, w[2] = 3;
	memcpy(n, w, 12);
	check(rec_notes_build_id(n, 56, id) == 0, "notes: huge namesz");
}

static void
selftest_names(void)
{
	char *s = rec_kmod_name("nf-conntrack.ko.xz");
	struct pd_attr attr;

	check(s && !strcmp(s, "[nf_conntrack]"), "module name of a .ko.xz");
	free(s);
	s = rec_kmod_name("ext4.ko");
	check(s && !strcmp(s, "[ext4]"), "module name of a .ko");
	free(s);
	check(!rec_kmod_name("modules.dep"), "modules.dep is no module");
	memset(&attr, 0, sizeof(attr));
	attr.sample_type = PD_SAMPLE_IP | PD_SAMPLE_TID | PD_SAMPLE_TIME |
			   PD_SAMPLE_PERIOD | PD_SAMPLE_ID | PD_SAMPLE_CPU;
	check(rec_synth_id_hdr_size(&attr) == 0,
	      "no sample_id_all: no trailer");
	attr.flags = 1ULL << PD_ATTR_SAMPLE_ID_ALL;
	check(rec_synth_id_hdr_size(&attr) == 32, "trailer TID TIME ID CPU");
	check(rec_synth_id_hdr_size(NULL) == 0, "no attr: no trailer");
}

static int
cmd_selftest(void)
{
	selftest_cpulist();
	selftest_notes();
	selftest_names();
	if (!selftest_failures)
		printf("selftest: ok\n");
	return selftest_failures != 0;
}

static void
usage(void)
{
	fprintf(stderr, "usage: rec-sys-dump meta | file FILE | synth FILE PID"
		" | perf-synth FILE | synth-all FILE | maps TID... -- CPU..."
		" | ... (see the file's head)\n");
	exit(2);
}

int
main(int argc, char **argv)
{
	if (argc < 2)
		usage();
	if (!strcmp(argv[1], "meta") && argc <= 3)
		return cmd_meta(argc == 3 ? argv[2] : NULL);
	if (!strcmp(argv[1], "file") && argc == 3)
		return cmd_file(argv[2]);
	if (!strcmp(argv[1], "synth") && (argc == 4 || argc == 5))
		return cmd_synth(argv[2], argv[3], argc == 5 ? argv[4] : NULL);
	if (!strcmp(argv[1], "perf-synth") && argc == 3)
		return cmd_perf_synth(argv[2], false);
	if (!strcmp(argv[1], "perf-maps") && argc == 3)
		return cmd_perf_synth(argv[2], true);
	if (!strcmp(argv[1], "synth-all") && argc == 3)
		return cmd_synth_all(argv[2]);
	if (!strcmp(argv[1], "header") && argc == 4)
		return cmd_header(argv[2], argv[3]);
	if (!strcmp(argv[1], "synth-comm") && argc == 4)
		return cmd_synth_comm(argv[2], argv[3]);
	if (!strcmp(argv[1], "buildids") && argc == 3)
		return cmd_buildids(argv[2], false);
	if (!strcmp(argv[1], "file-buildids") && argc == 3)
		return cmd_buildids(argv[2], true);
	if (!strcmp(argv[1], "tracing") && argc >= 3)
		return cmd_tracing(argc - 2, argv + 2);
	if (!strcmp(argv[1], "file-tracing") && argc == 3)
		return cmd_file_tracing(argv[2]);
	if (!strcmp(argv[1], "tracing-text") && argc == 3)
		return cmd_tracing_text(argv[2]);
	if (!strcmp(argv[1], "selftest"))
		return cmd_selftest();
	if (!strcmp(argv[1], "maps"))
		return cmd_maps(argc - 2, argv + 2);
	usage();
	return 2;
}
