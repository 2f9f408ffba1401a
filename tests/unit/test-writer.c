/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * tests/unit/test-writer.c - pd_writer and pd_feature_encode(), checked
 * by reading their output back with pd_reader.
 *
 * A metadata set with every feature perf 6.1 writes is built by hand;
 * files are written in file mode, in pipe mode (into a real pipe, read
 * by pd_reader_open_fd) and left unfinished, and must give back the
 * events, the records byte for byte and every feature: equal features
 * encode to equal bytes, so each one is compared as the encoding of the
 * metadata read back against that of the original.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pdata/reader.h"
#include "pdata/writer.h"
#include "t.h"
#include "tests/unit/buf.h"

#define NR_EVSELS	3
#define SAMPLE_TYPE	(PD_SAMPLE_IDENTIFIER | PD_SAMPLE_IP | PD_SAMPLE_TID | \
			 PD_SAMPLE_TIME | PD_SAMPLE_PERIOD)

static const uint64_t ev_ids[NR_EVSELS][3] = {
	{ 101, 102, 0 }, { 201, 0, 0 }, { 301, 302, 303 },
};
static const size_t ev_nr_ids[NR_EVSELS] = { 2, 1, 3 };
static const char *const ev_names[NR_EVSELS] = {
	"cpu-clock", "task-clock", "page-faults:u",
};
static const char tracing_blob[] = "\x17\x08\x44tracing0.6 (a blob)";

static char tmpdir[256];

static char *
xstrdup(const char *s)
{
	char *d = strdup(s);

	if (!d)
		abort();
	return d;
}

static void *
xcalloc(size_t nr, size_t size)
{
	void *p = calloc(nr ? nr : 1, size);

	if (!p)
		abort();
	return p;
}

static void
make_attr(struct pd_attr *a, unsigned int i)
{
	memset(a, 0, sizeof(*a));
	a->type = PD_TYPE_SOFTWARE;
	a->size = i == 1 ? PD_ATTR_SIZE_VER5 : 0;	/* 0: the 6.1 default */
	a->config = i;
	a->sample_period = 1000 + i;
	a->sample_type = SAMPLE_TYPE;
	a->read_format = PD_FORMAT_ID;
	a->flags = 1ULL << PD_ATTR_SAMPLE_ID_ALL | 1ULL << PD_ATTR_DISABLED |
		   1ULL << PD_ATTR_FREQ | 1ULL << PD_ATTR_MMAP2;
	a->sample_max_stack = (uint16_t)(i * 7);
}

static void
strlist(struct pd_strlist *l, size_t nr, const char *const *s)
{
	size_t i;

	l->s = xcalloc(nr, sizeof(*l->s));
	l->nr = nr;
	for (i = 0; i < nr; i++)
		l->s[i] = xstrdup(s[i]);
}

static void
set_bit(uint64_t *bits, unsigned int k)
{
	bits[k / 64] |= 1ULL << (k % 64);
}

static void
build_ids(struct pd_meta *m)
{
	static const char *const names[] = {
		"[kernel.kallsyms]", "/usr/lib/x86_64-linux-gnu/libc.so.6",
		"/a/rather/long/path/that/needs/more/than/sixty/four/bytes/of/room/libx.so",
	};
	size_t i, j;

	m->nr_build_ids = ARRAY_SIZE(names);
	m->build_ids = xcalloc(m->nr_build_ids, sizeof(*m->build_ids));
	for (i = 0; i < m->nr_build_ids; i++) {
		struct pd_build_id *b = &m->build_ids[i];

		b->misc = (uint16_t)((i ? PD_MISC_USER : PD_MISC_KERNEL) |
				     PD_MISC_BUILD_ID_SIZE);
		b->pid = -1;
		b->size = i == 2 ? 16 : PD_BUILD_ID_SIZE;
		for (j = 0; j < b->size; j++)
			b->id[j] = (uint8_t)(i * 40 + j + 1);
		b->filename = xstrdup(names[i]);
	}
}

static void
build_event_desc(struct pd_meta *m)
{
	size_t i;

	m->nr_event_desc = NR_EVSELS;
	m->event_desc = xcalloc(NR_EVSELS, sizeof(*m->event_desc));
	for (i = 0; i < NR_EVSELS; i++) {
		struct pd_event_desc *e = &m->event_desc[i];

		make_attr(&e->attr, (unsigned int)i);
		e->attr.size = PD_ATTR_SIZE_VER7;
		e->name = xstrdup(ev_names[i]);
		e->nr_ids = ev_nr_ids[i];
		e->ids = xcalloc(e->nr_ids, sizeof(*e->ids));
		memcpy(e->ids, ev_ids[i], e->nr_ids * sizeof(*e->ids));
	}
}

static void
build_topology(struct pd_meta *m)
{
	static const char *const pkg[] = { "0-3" };
	static const char *const thr[] = { "0,2", "1,3" };
	static const char *const die[] = { "0-3" };
	size_t i;

	m->nr_cpus_avail = 4;
	m->nr_cpus_online = 3;
	strlist(&m->package_cpus, 1, pkg);
	strlist(&m->thread_cpus, 2, thr);
	strlist(&m->die_cpus, 1, die);
	m->nr_topo_cpus = 4;
	m->topo_cpus = xcalloc(4, sizeof(*m->topo_cpus));
	for (i = 0; i < 4; i++) {
		m->topo_cpus[i].core_id = (uint32_t)(i % 2);
		m->topo_cpus[i].socket_id = 0;
		m->topo_cpus[i].die_id = (uint32_t)(i / 2);
	}
	m->topo_has_ids = true;
	m->topo_has_die = true;

	m->nr_numa_nodes = 2;
	m->numa_nodes = xcalloc(2, sizeof(*m->numa_nodes));
	for (i = 0; i < 2; i++) {
		m->numa_nodes[i].node = (uint32_t)i;
		m->numa_nodes[i].mem_total_kb = 1000000 + i;
		m->numa_nodes[i].mem_free_kb = 500000 + i;
		m->numa_nodes[i].cpus = xstrdup(i ? "2-3" : "0-1");
	}

	m->cache_version = 1;
	m->nr_caches = 2;
	m->caches = xcalloc(2, sizeof(*m->caches));
	for (i = 0; i < 2; i++) {
		struct pd_cache_level *c = &m->caches[i];

		c->level = (uint32_t)(i + 1);
		c->line_size = 64;
		c->sets = 64 << i;
		c->ways = 8;
		c->type = xstrdup(i ? "Unified" : "Data");
		c->size = xstrdup(i ? "1024K" : "48K");
		c->map = xstrdup("0-3");
	}

	m->mem_version = 1;
	m->mem_block_size = 0x8000000;
	m->nr_mem_nodes = 1;
	m->mem_nodes = xcalloc(1, sizeof(*m->mem_nodes));
	m->mem_nodes[0].node = 0;
	m->mem_nodes[0].size = 200;
	m->mem_nodes[0].bitmap = xcalloc(4, sizeof(uint64_t));
	m->mem_nodes[0].bitmap[0] = 0xff00ff00ffULL;
	m->mem_nodes[0].bitmap[3] = 0x5;

	m->nr_hybrid_nodes = 2;
	m->hybrid_nodes = xcalloc(2, sizeof(*m->hybrid_nodes));
	m->hybrid_nodes[0].pmu_name = xstrdup("cpu_core");
	m->hybrid_nodes[0].cpus = xstrdup("0-1");
	m->hybrid_nodes[1].pmu_name = xstrdup("cpu_atom");
	m->hybrid_nodes[1].cpus = xstrdup("2-3");
}

static void
build_pmus(struct pd_meta *m)
{
	static const char *const pmu_names[] = {
		"software", "tracepoint", "msr",
	};
	static const uint32_t types[] = { 1, 2, 9 };
	size_t i;

	m->nr_pmu_mappings = 3;
	m->pmu_mappings = xcalloc(3, sizeof(*m->pmu_mappings));
	for (i = 0; i < 3; i++) {
		m->pmu_mappings[i].type = types[i];
		m->pmu_mappings[i].name = xstrdup(pmu_names[i]);
	}
	m->nr_groups = 1;
	m->groups = xcalloc(1, sizeof(*m->groups));
	m->groups[0].name = xstrdup("{anon_group}");
	m->groups[0].leader_idx = 1;
	m->groups[0].nr_members = 2;

	m->nr_cpu_pmu_caps = 2;
	m->cpu_pmu_caps = xcalloc(2, sizeof(*m->cpu_pmu_caps));
	m->cpu_pmu_caps[0].name = xstrdup("branches");
	m->cpu_pmu_caps[0].value = xstrdup("32");
	m->cpu_pmu_caps[1].name = xstrdup("pmu_name");
	m->cpu_pmu_caps[1].value = xstrdup("icelake");

	m->nr_pmu_caps = 1;
	m->pmu_caps = xcalloc(1, sizeof(*m->pmu_caps));
	m->pmu_caps[0].pmu_name = xstrdup("cpu_atom");
	m->pmu_caps[0].nr_caps = 1;
	m->pmu_caps[0].caps = xcalloc(1, sizeof(struct pd_cap));
	m->pmu_caps[0].caps[0].name = xstrdup("max_precise");
	m->pmu_caps[0].caps[0].value = xstrdup("3");
}

/* One BPF program (a 192-byte info, 24 data bytes) and one BTF blob. */
static void
build_bpf(struct pd_meta *m)
{
	unsigned char *prog = xcalloc(1, 192 + 24);
	unsigned char *btf = xcalloc(1, 16);
	uint32_t id = 77;

	memcpy(prog + 4, &id, sizeof(id));
	memcpy(prog + 64, "my_prog", 7);
	memset(prog + 192, 0xab, 24);
	m->bpf_prog_storage = prog;
	m->nr_bpf_progs = 1;
	m->bpf_progs = xcalloc(1, sizeof(*m->bpf_progs));
	m->bpf_progs[0].info_len = 192;
	m->bpf_progs[0].data_len = 24;
	m->bpf_progs[0].arrays = 0x108;
	m->bpf_progs[0].info = prog;
	m->bpf_progs[0].data = prog + 192;

	memset(btf, 0x5a, 16);
	m->bpf_btf_storage = btf;
	m->nr_bpf_btfs = 1;
	m->bpf_btfs = xcalloc(1, sizeof(*m->bpf_btfs));
	m->bpf_btfs[0].id = 12;
	m->bpf_btfs[0].data_size = 16;
	m->bpf_btfs[0].data = btf;
}

static void
build_meta(struct pd_meta *m)
{
	static const char *const argv[] = {
		"/usr/bin/perf", "record", "-e", "cpu-clock", "--", "true",
	};
	static const unsigned int feats[] = {
		PD_FEAT_BUILD_ID, PD_FEAT_HOSTNAME, PD_FEAT_OSRELEASE,
		PD_FEAT_VERSION, PD_FEAT_ARCH, PD_FEAT_NRCPUS, PD_FEAT_CPUDESC,
		PD_FEAT_CPUID, PD_FEAT_TOTAL_MEM, PD_FEAT_CMDLINE,
		PD_FEAT_EVENT_DESC, PD_FEAT_CPU_TOPOLOGY, PD_FEAT_NUMA_TOPOLOGY,
		PD_FEAT_BRANCH_STACK, PD_FEAT_PMU_MAPPINGS, PD_FEAT_GROUP_DESC,
		PD_FEAT_CACHE, PD_FEAT_SAMPLE_TIME, PD_FEAT_MEM_TOPOLOGY,
		PD_FEAT_CLOCKID, PD_FEAT_DIR_FORMAT, PD_FEAT_BPF_PROG_INFO,
		PD_FEAT_BPF_BTF, PD_FEAT_COMPRESSED, PD_FEAT_CPU_PMU_CAPS,
		PD_FEAT_CLOCK_DATA, PD_FEAT_HYBRID_TOPOLOGY, PD_FEAT_PMU_CAPS,
	};
	size_t i;

	pd_meta_init(m);
	build_ids(m);
	m->hostname = xstrdup("vm");
	m->os_release = xstrdup("6.1.0-test");
	m->version = xstrdup("6.1.192");
	m->arch = xstrdup("x86_64");
	m->cpu_desc = xstrdup("AMD EPYC");
	m->cpuid = xstrdup("AuthenticAMD,26,2,1");
	m->total_mem_kb = 24684084;
	strlist(&m->cmdline, ARRAY_SIZE(argv), argv);
	build_event_desc(m);
	build_topology(m);
	build_pmus(m);
	build_bpf(m);
	m->first_sample_time = 9777856887000ULL;
	m->last_sample_time = 9777857139000ULL;
	m->clockid_res_ns = 1;
	m->dir_format_version = 1;
	m->comp_type = PD_COMP_ZSTD;
	m->comp_level = 1;
	m->comp_ratio = 2;
	m->comp_mmap_len = 528384;
	m->clock_data_version = 1;
	m->clock_data_clockid = 1;
	m->clock_tod_ns = 1700000000123456789ULL;
	m->clock_clockid_ns = 9777000000000ULL;
	for (i = 0; i < ARRAY_SIZE(feats); i++)
		set_bit(m->features, feats[i]);
}

/* The records: a SAMPLE per event, a COMM, FINISHED_ROUND, host order. */
static void
build_records(struct tbuf *r)
{
	uint32_t pidtid[2] = { 42, 43 };
	unsigned int i;
	size_t at;

	tb_init(r, HOST_BE);
	at = tb_begin_record(r, PD_RECORD_COMM, 0);
	tb_bytes(r, pidtid, sizeof(pidtid));
	tb_bytes(r, "workload\0\0\0\0\0\0\0", 16);
	tb_bytes(r, pidtid, sizeof(pidtid));	/* trailer: tid, time, id */
	tb_u64(r, 1000);
	tb_u64(r, ev_ids[0][0]);
	tb_end_record(r, at);
	for (i = 0; i < NR_EVSELS; i++) {
		at = tb_begin_record(r, PD_RECORD_SAMPLE, PD_MISC_USER);
		tb_u64(r, ev_ids[i][0]);
		tb_u64(r, 0x400000 + i);
		tb_bytes(r, pidtid, sizeof(pidtid));
		tb_u64(r, 2000 + i);
		tb_u64(r, 1000 + i);
		tb_end_record(r, at);
	}
	at = tb_begin_record(r, PD_RECORD_FINISHED_ROUND, 0);
	tb_end_record(r, at);
}

struct warns {
	unsigned int n;
	bool not_finalised;
};

static void
on_warn(void *ctx, uint64_t offset, const char *msg)
{
	struct warns *w = ctx;

	w->n++;
	if (strstr(msg, "not finalised"))
		w->not_finalised = true;
}

/* The writer's side: events, raw tracing data, begin, records, finish. */
static int
write_all(int fd, bool pipe, const struct pd_meta *m, const void *data,
	  size_t len, bool finish)
{
	struct pd_writer_opts opts = { .pipe = pipe };
	struct pd_writer *w;
	struct pd_attr a;
	unsigned int i;
	int err;

	err = pd_writer_open(&w, fd, &opts);
	if (err)
		return err;
	for (i = 0; !err && i < NR_EVSELS; i++) {
		make_attr(&a, i);
		err = pd_writer_add_evsel(w, &a, ev_ids[i], ev_nr_ids[i]);
	}
	if (!err)
		err = pd_writer_set_feature_raw(w, PD_FEAT_TRACING_DATA,
						tracing_blob,
						sizeof(tracing_blob));
	if (!err)
		err = pd_writer_begin_data(w, m);
	if (!err)
		err = pd_writer_write(w, data, len);
	if (!err && pd_writer_data_size(w) != len)
		err = -PD_E_INVAL;
	if (!err && finish)
		err = pd_writer_finish(w, m);
	pd_writer_close(w);
	return err;
}

/* Concatenate the data records read back (not the writer's own ones). */
static unsigned char *
read_records(struct pd_reader *r, size_t *len)
{
	unsigned char *out = NULL;
	struct pd_record rec;
	size_t n = 0, cap = 0;
	int got;

	while ((got = pd_reader_next(r, &rec)) > 0) {
		if (rec.header.type == PD_RECORD_HEADER_ATTR ||
		    rec.header.type == PD_RECORD_HEADER_FEATURE ||
		    rec.header.type == PD_RECORD_HEADER_TRACING_DATA)
			continue;
		/* grow by doubling: the large test reads 80,000 records */
		while (n + rec.size > cap) {
			cap = cap ? 2 * cap : 4096;
			out = realloc(out, cap);
			if (!out)
				abort();
		}
		memcpy(out + n, rec.data, rec.size);
		n += rec.size;
	}
	T(got == 0, "reading records: %s", pd_reader_errmsg(r));
	*len = n;
	return out;
}

static void
check_evsels(struct pd_reader *r, bool names, bool pipe)
{
	struct pd_attr want;
	unsigned int i;

	T_EQ_U64(pd_reader_nr_evsels(r), NR_EVSELS, "evsel count");
	for (i = 0; i < NR_EVSELS && i < pd_reader_nr_evsels(r); i++) {
		const struct pd_evsel *ev = pd_reader_evsel(r, i);

		make_attr(&want, i);
		/*
		 * file mode has one stride for all, the largest (128); a
		 * HEADER_ATTR record keeps each event's own size
		 */
		T_EQ_U64(ev->attr.size, pipe && i == 1 ? PD_ATTR_SIZE_VER5 :
			 PD_ATTR_SIZE_VER7, "attr.size");
		want.size = ev->attr.size;
		T(memcmp(&ev->attr, &want, sizeof(want)) == 0,
		  "evsel %u: attr differs", i);
		T_EQ_U64(ev->nr_ids, ev_nr_ids[i], "id count");
		T(ev->nr_ids == ev_nr_ids[i] &&
		  memcmp(ev->ids, ev_ids[i], ev->nr_ids * 8) == 0,
		  "evsel %u: ids differ", i);
		if (names)
			T_EQ_STR(ev->name, ev_names[i], "evsel name");
	}
}

/* Every feature in mask: present in got, and encoding the same as in want. */
static void
check_features(const struct pd_meta *want, const struct pd_meta *got,
	       uint64_t mask)
{
	unsigned int feat;

	for (feat = 1; feat < 64; feat++) {
		void *a = NULL, *b = NULL;
		size_t alen = 0, blen = 0;

		if (!((mask >> feat) & 1) || feat == PD_FEAT_TRACING_DATA)
			continue;
		T(pd_meta_has(got, feat), "feature %s is missing",
		  pd_feature_name(feat));
		T(!((got->bad_features[0] >> feat) & 1),
		  "feature %s did not parse", pd_feature_name(feat));
		T(pd_feature_encode(want, feat, &a, &alen) == 0,
		  "feature %s does not encode", pd_feature_name(feat));
		T(pd_feature_encode(got, feat, &b, &blen) == 0,
		  "feature %s read back does not encode",
		  pd_feature_name(feat));
		T(alen == blen && a && b && memcmp(a, b, alen) == 0,
		  "feature %s differs after the round trip (%zu vs %zu bytes)",
		  pd_feature_name(feat), alen, blen);
		free(a);
		free(b);
	}
}

static void
check_records(struct pd_reader *r, const struct tbuf *recs)
{
	unsigned char *back;
	size_t len;

	back = read_records(r, &len);
	T_EQ_U64(len, recs->len, "record bytes");
	T(len == recs->len && back && memcmp(back, recs->p, len) == 0,
	  "records differ");
	T_EQ_U64(pd_reader_stats(r)->unknown_id, 0, "records of no event");
	free(back);
}

static void
tmp_path(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", tmpdir, name);
}

static int
create(const char *path)
{
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);

	if (fd < 0)
		abort();
	return fd;
}

/* Write m and recs to the temporary file name (path), finished or not. */
static void
write_file(char *path, size_t len, const char *name, const struct pd_meta *m,
	   const struct tbuf *recs, bool finish, const char *what)
{
	int fd;

	tmp_path(path, len, name);
	fd = create(path);
	T(write_all(fd, false, m, recs->p, recs->len, finish) == 0,
	  "%s: write", what);
	close(fd);
}

static void
check_file_layout(const char *path, const struct tbuf *recs)
{
	unsigned char h[PD_FILE_HEADER_SIZE];
	uint64_t v[13];
	uint64_t nids = 2 + 1 + 3;
	int fd = open(path, O_RDONLY);

	T(fd >= 0 && pread(fd, h, sizeof(h), 0) == sizeof(h), "header read");
	memcpy(v, h, sizeof(v));
	T_EQ_U64(v[0], PD_MAGIC2, "magic");
	T_EQ_U64(v[1], 104, "header size");
	T_EQ_U64(v[2], 128 + 16, "attr_size");
	T_EQ_U64(v[3], 104 + 8 * nids, "attrs.offset: after the ids");
	T_EQ_U64(v[4], 3 * 144, "attrs.size");
	T_EQ_U64(v[5], 104 + 8 * nids + 3 * 144, "data.offset");
	T_EQ_U64(v[6], recs->len, "data.size");
	T_EQ_U64(v[7] | v[8], 0, "event_types");
	if (fd >= 0)
		close(fd);
}

static void
test_file_mode(const struct pd_meta *m, const struct tbuf *recs)
{
	struct warns warns = { 0 };
	struct pd_reader_opts ro = { .warn = on_warn, .warn_ctx = &warns };
	struct pd_reader *r = NULL;
	const struct pd_meta *got;
	char path[320];

	write_file(path, sizeof(path), "file.data", m, recs, true, "file mode");
	check_file_layout(path, recs);
	T(pd_reader_open(&r, path, &ro) == 0, "file mode: open: %s",
	  r ? pd_reader_errmsg(r) : "");
	if (!r)
		return;
	T(pd_reader_info(r)->mode == PD_MODE_FILE, "file mode: mode");
	T(!pd_reader_info(r)->not_finalised, "file mode: finalised");
	check_evsels(r, true, false);
	got = pd_reader_meta(r);
	check_features(m, got, m->features[0]);
	T(pd_meta_has(got, PD_FEAT_TRACING_DATA), "TRACING_DATA is there");
	T_EQ_U64(got->tracing_data_size, sizeof(tracing_blob),
		 "TRACING_DATA size");
	T_EQ_U64(got->features[0] & ~(1ULL << PD_FEAT_TRACING_DATA),
		 m->features[0], "feature bits");
	check_records(r, recs);
	T_EQ_U64(warns.n, 0, "file mode: warnings");
	pd_reader_close(r);
}

/*
 * Pipe mode into a real pipe: a child writes, pd_reader_open_fd() reads.
 * Only the features perf 6.1 sends in pipe mode come back.
 */
static void
test_pipe_mode(const struct pd_meta *m, const struct tbuf *recs)
{
	uint64_t sent = m->features[0] &
		~(1ULL << PD_FEAT_BUILD_ID | 1ULL << PD_FEAT_BRANCH_STACK |
		  1ULL << PD_FEAT_CACHE | 1ULL << PD_FEAT_DIR_FORMAT |
		  1ULL << PD_FEAT_HYBRID_TOPOLOGY);
	struct pd_reader *r = NULL;
	const struct pd_meta *got;
	int fds[2], status;
	pid_t pid;

	if (pipe(fds) < 0)
		abort();
	pid = fork();
	if (pid < 0)
		abort();
	if (pid == 0) {
		close(fds[0]);
		_exit(write_all(fds[1], true, m, recs->p, recs->len, true) ?
		      1 : 0);
	}
	close(fds[1]);
	T(pd_reader_open_fd(&r, fds[0], "pipe", NULL) == 0,
	  "pipe mode: open: %s", r ? pd_reader_errmsg(r) : "");
	if (r) {
		T(pd_reader_info(r)->mode == PD_MODE_PIPE, "pipe mode: mode");
		check_records(r, recs);
		check_evsels(r, true, true);
		got = pd_reader_meta(r);
		check_features(m, got, sent);
		T_EQ_U64(got->features[0] & ~(1ULL << PD_FEAT_TRACING_DATA),
			 sent, "pipe feature bits");
		T_EQ_U64(got->tracing_data_size,
			 (sizeof(tracing_blob) + 7) & ~7UL,
			 "pipe TRACING_DATA size");
		pd_reader_close(r);
	}
	close(fds[0]);
	T(waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	  WEXITSTATUS(status) == 0, "pipe mode: the writer failed");
}

/* A recording that was never finished still gives all its records. */
static void
test_not_finalised(const struct pd_meta *m, const struct tbuf *recs)
{
	struct warns warns = { 0 };
	struct pd_reader_opts ro = { .warn = on_warn, .warn_ctx = &warns };
	struct pd_reader *r = NULL;
	char path[320];

	write_file(path, sizeof(path), "crashed.data", m, recs, false,
		   "unfinished");
	T(pd_reader_open(&r, path, &ro) == 0, "unfinished: open: %s",
	  r ? pd_reader_errmsg(r) : "");
	if (!r)
		return;
	T(pd_reader_info(r)->not_finalised, "unfinished: not_finalised");
	T(warns.not_finalised, "unfinished: the reader warns");
	check_evsels(r, false, false);
	check_records(r, recs);
	pd_reader_close(r);
}

/* A writer with the test's events, its data section begun, on fd. */
static struct pd_writer *
begin_on(int fd, const struct pd_meta *m)
{
	struct pd_writer *w = NULL;
	struct pd_attr a;
	unsigned int i;

	T(pd_writer_open(&w, fd, NULL) == 0, "open the writer");
	for (i = 0; w && i < NR_EVSELS; i++) {
		make_attr(&a, i);
		T(pd_writer_add_evsel(w, &a, ev_ids[i], ev_nr_ids[i]) == 0,
		  "add evsel %u", i);
	}
	T(w && pd_writer_begin_data(w, m) == 0, "begin the data");
	return w;
}

/* path's records (not the writer's own) equal want[0..len) */
static void
check_file_records(const char *path, const void *want, size_t len,
		   bool features, const char *what)
{
	struct pd_reader *r = NULL;
	unsigned char *back;
	size_t n;

	T(pd_reader_open(&r, path, NULL) == 0, "%s: open: %s", what,
	  r ? pd_reader_errmsg(r) : "");
	if (!r)
		return;
	T(!pd_reader_info(r)->not_finalised, "%s: the data size is set",
	  what);
	T(pd_meta_has(pd_reader_meta(r), PD_FEAT_HOSTNAME) == features,
	  "%s: features %s", what, features ? "written" : "absent");
	back = read_records(r, &n);
	T_EQ_U64(n, len, "record bytes");
	T(n == len && back && memcmp(back, want, len) == 0,
	  "%s: the records differ", what);
	free(back);
	pd_reader_close(r);
}

/*
 * pd_writer_sync(): a writer that stops after it (killed) leaves a file
 * that reads, without features.  pd_writer_salvage(): after a write cut
 * short, every whole record on disk is kept, the cut one dropped, and
 * the writer finishes the file.
 */
static void
test_sync_salvage(const struct pd_meta *m, const struct tbuf *recs)
{
	struct tbuf copies;
	struct pd_writer *w;
	char path[320];
	uint64_t kept = 0;
	size_t last;
	int fd;

	tmp_path(path, sizeof(path), "killed.data");
	fd = create(path);
	w = begin_on(fd, m);
	T(w && pd_writer_write(w, recs->p, recs->len) == 0 &&
	  pd_writer_sync(w) == 0, "sync: write and sync");
	/* written after the sync and never synced: not counted */
	T(w && pd_writer_write(w, recs->p, recs->len) == 0, "sync: more");
	pd_writer_close(w);
	close(fd);
	check_file_records(path, recs->p, recs->len, false, "killed");

	/* two more copies, the last record cut short by a failed write */
	tb_init(&copies, HOST_BE);
	tb_bytes(&copies, recs->p, recs->len);
	tb_bytes(&copies, recs->p, recs->len);
	last = recs->len - 8;		/* the FINISHED_ROUND's 8 bytes */
	tmp_path(path, sizeof(path), "cut.data");
	fd = create(path);
	w = begin_on(fd, m);
	T(w && pd_writer_write(w, recs->p, recs->len) == 0 &&
	  pd_writer_sync(w) == 0 &&
	  pd_writer_write(w, copies.p, copies.len) == 0 &&
	  pd_writer_flush(w) == 0, "cut: write");
	T(ftruncate(fd, lseek(fd, 0, SEEK_END) - 4) == 0, "cut: truncate");
	T(w && pd_writer_salvage(w, &kept) == 0, "cut: salvage: %s",
	  w ? pd_writer_errmsg(w) : "");
	T_EQ_U64(kept, 2 * recs->len + last, "cut: bytes kept");
	T(w && pd_writer_finish(w, m) == 0, "cut: finish after salvage");
	pd_writer_close(w);
	close(fd);
	/* kept: the three copies but the last one's FINISHED_ROUND */
	tb_bytes(&copies, recs->p, recs->len);
	check_file_records(path, copies.p, 2 * recs->len + last, true, "cut");
	tb_free(&copies);
}

/* Several MiB through the buffer and around it, in odd pieces. */
static void
test_large(void)
{
	size_t total = 5u << 20, at = 0, piece = 1, len;
	unsigned char *data = malloc(total), *back;
	struct pd_reader *r = NULL;
	struct pd_writer *w = NULL;
	struct pd_attr a;
	char path[320];
	int fd;

	if (!data)
		abort();
	/* 5 MiB of 64-byte FINISHED_ROUND-typed filler records */
	for (at = 0; at < total; at += 64) {
		struct pd_event_header h = {
			.type = PD_RECORD_FINISHED_ROUND, .size = 64,
		};

		memset(data + at, (int)(at / 64), 64);
		memcpy(data + at, &h, sizeof(h));
	}
	tmp_path(path, sizeof(path), "large.data");
	fd = create(path);
	T(pd_writer_open(&w, fd, NULL) == 0, "large: open");
	make_attr(&a, 0);
	T(pd_writer_add_evsel(w, &a, ev_ids[0], 1) == 0, "large: evsel");
	T(pd_writer_begin_data(w, NULL) == 0, "large: begin");
	for (at = 0; at < total; at += len) {
		len = piece < total - at ? piece : total - at;
		T(pd_writer_write(w, data + at, len) == 0, "large: write");
		piece = piece * 3 + 1;
		if (piece > (3u << 20))
			piece = 1;
	}
	T(pd_writer_finish(w, NULL) == 0, "large: finish");
	pd_writer_close(w);
	close(fd);
	T(pd_reader_open(&r, path, NULL) == 0, "large: read");
	if (!r)
		goto out;
	back = read_records(r, &len);
	T(len == total && back && memcmp(back, data, total) == 0,
	  "large: records differ (%zu bytes back)", len);
	free(back);
	pd_reader_close(r);
out:
	free(data);
}

/* A section given as bytes, of an id pdata does not know, is written. */
static void
test_raw_unknown(void)
{
	static const unsigned char blob[] = "simpleperf meta info";
	struct pd_event_header round = {
		.type = PD_RECORD_FINISHED_ROUND, .size = 8,
	};
	struct pd_reader *r = NULL;
	struct pd_writer *w = NULL;
	const struct pd_meta *got;
	struct pd_attr a;
	char path[320];
	int fd;

	tmp_path(path, sizeof(path), "raw.data");
	fd = create(path);
	T(pd_writer_open(&w, fd, NULL) == 0, "raw: open");
	make_attr(&a, 0);
	T(pd_writer_add_evsel(w, &a, ev_ids[0], 1) == 0, "raw: evsel");
	T(pd_writer_set_feature_raw(w, 129, blob, sizeof(blob)) == 0,
	  "raw: feature 129");
	T(pd_writer_set_feature_raw(w, 0, blob, 1) == -PD_E_INVAL,
	  "raw: feature 0 is refused");
	T(pd_writer_begin_data(w, NULL) == 0, "raw: begin");
	/* with no record, data size 0 would read as "not finalised" */
	T(pd_writer_write(w, &round, sizeof(round)) == 0, "raw: write");
	T(pd_writer_finish(w, NULL) == 0, "raw: finish");
	pd_writer_close(w);
	close(fd);
	T(pd_reader_open(&r, path, NULL) == 0, "raw: read");
	if (!r)
		return;
	got = pd_reader_meta(r);
	T(pd_meta_has(got, 129), "raw: feature 129 is there");
	T_EQ_U64(got->sections[129].size, sizeof(blob), "raw: its size");
	T_EQ_U64(got->sections[129].offset,
		 pd_reader_info(r)->feat_offset + 16, "raw: after the table");
	T_EQ_U64(got->nr_unknown_features, 1, "raw: one unknown feature");
	pd_reader_close(r);
}

static void
test_errors(const struct pd_meta *m)
{
	struct pd_writer *w = NULL;
	struct pd_attr a;
	struct pd_meta bad = *m;
	int fds[2], fd;
	char path[320];

	/* file mode needs to seek */
	if (pipe(fds) < 0)
		abort();
	T(pd_writer_open(&w, fds[1], NULL) == PD_ERR_ERRNO(ESPIPE),
	  "file mode on a pipe");
	T(w == NULL, "no writer after a failed open");
	close(fds[0]);
	close(fds[1]);

	/* a failed write is reported with its errno and stops the writer */
	fd = open("/dev/full", O_WRONLY);
	if (fd >= 0) {
		struct pd_writer_opts po = { .pipe = true };

		T(pd_writer_open(&w, fd, &po) == 0, "open /dev/full");
		make_attr(&a, 0);
		T(pd_writer_add_evsel(w, &a, ev_ids[0], 1) == 0, "evsel");
		T(pd_writer_begin_data(w, NULL) == 0, "begin (buffered)");
		T(pd_writer_flush(w) == PD_ERR_ERRNO(ENOSPC),
		  "the flush fails with ENOSPC");
		T(pd_writer_write(w, "12345678", 8) == -PD_E_INVAL,
		  "no write after a failure");
		T(strstr(pd_writer_errmsg(w), "writing") != NULL,
		  "the first failure is kept: %s", pd_writer_errmsg(w));
		pd_writer_close(w);
		close(fd);
	}

	tmp_path(path, sizeof(path), "errors.data");
	fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0600);
	T(fd >= 0 && pd_writer_open(&w, fd, NULL) == -PD_E_INVAL,
	  "file mode on an O_APPEND fd");
	if (fd >= 0)
		close(fd);
	fd = create(path);
	T(pd_writer_open(&w, fd, NULL) == 0, "open");
	make_attr(&a, 0);
	a.size = 100;
	T(pd_writer_add_evsel(w, &a, NULL, 0) == -PD_E_BAD_ATTR,
	  "attr size 100 is refused");
	T(strstr(pd_writer_errmsg(w), "attr size 100") != NULL,
	  "the message says why: %s", pd_writer_errmsg(w));
	T(pd_writer_write(w, "x", 1) == -PD_E_INVAL, "write before begin");
	T(pd_writer_finish(w, NULL) == -PD_E_INVAL, "finish before begin");
	a.size = 0;
	T(pd_writer_add_evsel(w, &a, ev_ids[0], 1) == 0, "good evsel");
	T(pd_writer_begin_data(w, NULL) == 0, "begin");
	T(pd_writer_add_evsel(w, &a, NULL, 0) == -PD_E_INVAL,
	  "evsel after begin");
	/* a feature meta cannot encode is dropped, as perf drops it */
	bad.hostname = NULL;
	T(pd_writer_finish(w, &bad) == 0, "finish with a NULL hostname");
	T(pd_writer_feature_dropped(w, PD_FEAT_HOSTNAME), "HOSTNAME dropped");
	T(!pd_writer_feature_dropped(w, PD_FEAT_OSRELEASE), "OSRELEASE kept");
	pd_writer_close(w);
	close(fd);
}

/* Byte layouts seen in perf 6.1 files (doc/perf-data-format.md §4.2, §5.2) */
static void
test_layouts(const struct pd_meta *m)
{
	unsigned char *p;
	size_t len;
	uint32_t u32;
	uint16_t u16;

	T(pd_feature_encode(m, PD_FEAT_HOSTNAME, (void **)&p, &len) == 0,
	  "HOSTNAME");
	memcpy(&u32, p, 4);
	T(len == 68 && u32 == 64 && memcmp(p + 4, "vm\0", 3) == 0,
	  "hostname \"vm\" takes 68 bytes, len 64");
	free(p);
	T(pd_feature_encode(m, PD_FEAT_BUILD_ID, (void **)&p, &len) == 0,
	  "BUILD_ID");
	memcpy(&u16, p + 6, 2);
	T_EQ_U64(u16, 36 + 64, "build-id record size");
	T_EQ_U64(len, 100 + 100 + 36 + 128, "build-id section size");
	T_EQ_U64(p[32], 20, "build-id size byte");
	T_EQ_U64(p[200 + 32], 16, "short build-id size byte");
	free(p);
	T(pd_feature_encode(m, PD_FEAT_TRACING_DATA, (void **)&p, &len) ==
	  -PD_E_UNSUPPORTED, "TRACING_DATA has no encoder");
	T(pd_feature_encode(m, PD_FEAT_BITS, (void **)&p, &len) == -PD_E_INVAL,
	  "feature 256");
}

int
main(void)
{
	struct pd_meta m;
	struct tbuf recs;
	char cmd[300];
	const char *base = getenv("TMPDIR");
	char unique[7];

	/* mkdtemp's template: six capital X that it replaces */
	memset(unique, 'X', 6);
	unique[6] = '\0';
	snprintf(tmpdir, sizeof(tmpdir), "%s/pdata-test-writer.%s",
		 base && *base ? base : "/tmp", unique);
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 99;
	}
	build_meta(&m);
	build_records(&recs);
	test_layouts(&m);
	test_file_mode(&m, &recs);
	test_pipe_mode(&m, &recs);
	test_not_finalised(&m, &recs);
	test_sync_salvage(&m, &recs);
	test_large();
	test_raw_unknown();
	test_errors(&m);
	pd_meta_free(&m);
	tb_free(&recs);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	if (system(cmd) != 0)
		perror("rm");
	return t_done("test-writer");
}
