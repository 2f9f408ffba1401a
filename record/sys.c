/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * record/sys.c - the system facts of the feature sections perf 6.1 writes
 * by default (doc/perf-data-format.md §5.3 .. §5.20), read the way perf
 * reads them (tools/perf/util/header.c, cputopo.c, pmu.c) so that the
 * header of a precord file prints the lines of a perf record file made on
 * the same machine.  A fact that cannot be read leaves its feature out,
 * which is what perf does when a write_*() hook fails.
 */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "lib/cpulist.h"
#include "lib/xalloc.h"
#include "record/sys.h"
#include "record/sys-int.h"

#define SYS_CPU		"/sys/devices/system/cpu"
#define SYS_NODE	"/sys/devices/system/node"
#define SYS_MEMORY	"/sys/devices/system/memory"
#define SYS_PMUS	"/sys/bus/event_source/devices"
/* perf's MAX_CACHE_LVL: index0..index3 per CPU */
#define CACHE_INDEXES	4
/* perf's MAX_MEMORY_NODES */
#define MAX_MEM_NODES	2000

static void
feat_set(struct pd_meta *m, unsigned int feat)
{
	m->features[feat / 64] |= 1ULL << (feat % 64);
}

static void
strlist_push(struct pd_strlist *l, char *s)
{
	l->s = xreallocarray(l->s, l->nr + 1, sizeof(*l->s));
	l->s[l->nr++] = s;
}

static bool
strlist_has(const struct pd_strlist *l, const char *s)
{
	size_t i;

	for (i = 0; i < l->nr; i++)
		if (!strcmp(l->s[i], s))
			return true;
	return false;
}

static void
collect_uname(struct pd_meta *m)
{
	struct utsname u;

	if (uname(&u) < 0)
		return;
	m->hostname = xstrdup(u.nodename);
	m->os_release = xstrdup(u.release);
	m->arch = xstrdup(u.machine);
	feat_set(m, PD_FEAT_HOSTNAME);
	feat_set(m, PD_FEAT_OSRELEASE);
	feat_set(m, PD_FEAT_ARCH);
}

/*
 * perf writes its own version here; a precord file says which precord
 * wrote it, so `perf report --header-only` prints
 * "# perf version : precord 0.1.0".
 */
static void
collect_version(struct pd_meta *m)
{
	m->version = xstrdup("precord " PACKAGE_VERSION);
	feat_set(m, PD_FEAT_VERSION);
}

/*
 * The highest cpu of a list file, plus one, or 4096 when sysfs does not
 * say: perf's cpu__max_present_cpu() ("present") and cpu__max_cpu()
 * ("possible").
 */
static uint32_t
max_cpu(const char *path)
{
	int n;

	if (rec_sys_list_max(path, &n) || n <= 0)
		return 4096;
	return (uint32_t)n;
}

static void
collect_nrcpus(struct pd_meta *m)
{
	long online = sysconf(_SC_NPROCESSORS_ONLN);

	if (online < 0)
		return;
	m->nr_cpus_avail = max_cpu(SYS_CPU "/present");
	m->nr_cpus_online = (uint32_t)online;
	feat_set(m, PD_FEAT_NRCPUS);
}

/* The /proc/cpuinfo key perf reads for CPUDESC on this architecture. */
static const char *const cpuinfo_keys[] = {
#if defined(__powerpc__) || defined(__hppa__) || defined(__sparc__)
	"cpu",
#elif defined(__s390__)
	"vendor_id",
#elif defined(__arm__)
	"model name", "Processor",
#else
	"model name",
#endif
};

/* Every run of white space becomes one space, as perf squashes it. */
static void
squash_spaces(char *s)
{
	char *w = s;
	bool in_space = false;

	for (; *s; s++) {
		if (isspace((unsigned char)*s)) {
			if (!in_space)
				*w++ = ' ';
			in_space = true;
		} else {
			*w++ = *s;
			in_space = false;
		}
	}
	*w = '\0';
}

static char *
cpuinfo_value(const char *text, const char *key)
{
	const char *line = text;
	size_t klen = strlen(key);

	while (*line) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);

		if (len >= klen && !strncmp(line, key, klen)) {
			const char *s = line, *colon = memchr(line, ':', len);
			char *v;

			const char *end = line + len;

			/* perf keeps the newline: ": \n" has a value */
			if (colon && colon + 1 < end && colon[1] == ' ' &&
			    (colon + 2 < end || nl))
				s = colon + 2;
			v = xstrndup(s, len - (size_t)(s - line));
			squash_spaces(v);
			return v;
		}
		line += len + (nl ? 1 : 0);
	}
	return NULL;
}

static void
collect_cpudesc(struct pd_meta *m)
{
	char *text;
	size_t i;

	if (rec_sys_read_file("/proc/cpuinfo", &text, NULL))
		return;
	for (i = 0; i < sizeof(cpuinfo_keys) / sizeof(cpuinfo_keys[0]); i++) {
		m->cpu_desc = cpuinfo_value(text, cpuinfo_keys[i]);
		if (m->cpu_desc) {
			feat_set(m, PD_FEAT_CPUDESC);
			break;
		}
	}
	free(text);
}

/*
 * x86: "vendor,family,model,stepping" with the extended family and model
 * folded in as perf's get_cpuid() does.  Other architectures: perf reads
 * registers or sysfs files that this port does not know, so the feature
 * is left out.
 */
static void
collect_cpuid(struct pd_meta *m)
{
#if defined(__x86_64__) || defined(__i386__)
	unsigned int a, b, c, d, lvl;
	int family = -1, model = -1, step = -1;
	char vendor[13], buf[64];

	if (!__get_cpuid(0, &lvl, &b, &c, &d))
		return;
	memcpy(vendor, &b, 4);
	memcpy(vendor + 4, &d, 4);
	memcpy(vendor + 8, &c, 4);
	vendor[12] = '\0';
	if (lvl >= 1 && __get_cpuid(1, &a, &b, &c, &d)) {
		family = (int)((a >> 8) & 0xf);
		model = (int)((a >> 4) & 0xf);
		step = (int)(a & 0xf);
		if (family == 0xf)
			family += (int)((a >> 20) & 0xff);
		if (family >= 6)
			model += (int)(((a >> 16) & 0xf) << 4);
	}
	snprintf(buf, sizeof(buf), "%s,%u,%u,%u", vendor, (unsigned int)family,
		 (unsigned int)model, (unsigned int)step);
	m->cpuid = xstrdup(buf);
	feat_set(m, PD_FEAT_CPUID);
#else
	(void)m;
#endif
}

static void
collect_total_mem(struct pd_meta *m)
{
	char *text, *p;
	unsigned long long kb;

	if (rec_sys_read_file("/proc/meminfo", &text, NULL))
		return;
	p = text;
	while (p && strncmp(p, "MemTotal:", 9)) {
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	if (p && sscanf(p + 9, "%llu", &kb) == 1) {
		m->total_mem_kb = kb;
		feat_set(m, PD_FEAT_TOTAL_MEM);
	}
	free(text);
}

/*
 * perf writes the path of its own executable, then its arguments after
 * "perf" ("record", "-o", ...); precord writes its path, then argv[1..].
 */
static void
collect_cmdline(struct pd_meta *m, int argc, char *const argv[])
{
	char exe[PATH_MAX];
	ssize_t n;
	int i;

	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n < 0)
		snprintf(exe, sizeof(exe), "%s",
			 argc > 0 ? argv[0] : "precord");
	else
		exe[n] = '\0';
	strlist_push(&m->cmdline, xstrdup(exe));
	for (i = 1; i < argc; i++)
		strlist_push(&m->cmdline, xstrdup(argv[i]));
	feat_set(m, PD_FEAT_CMDLINE);
}

/* Add the first line of path to l unless l has it; 0 when it was read. */
static int
topo_list_add(struct pd_strlist *l, const char *path)
{
	char *s;

	if (rec_sys_read_line(path, &s))
		return -1;
	if (strlist_has(l, s))
		free(s);
	else
		strlist_push(l, s);
	return 0;
}

/* perf's has_die_topology(): x86_64 and s390x with die_cpus_list. */
static bool
has_die_topology(void)
{
	struct utsname u;

	if (uname(&u) < 0)
		return false;
	if (strncmp(u.machine, "x86_64", 6) && strncmp(u.machine, "s390x", 5))
		return false;
	return access(SYS_CPU "/cpu0/topology/die_cpus_list", F_OK) == 0;
}

static const char *
topo_path(char *buf, size_t len, int cpu, const char *file, const char *old)
{
	snprintf(buf, len, SYS_CPU "/cpu%d/topology/%s", cpu, file);
	if (old && access(buf, F_OK) == -1)
		snprintf(buf, len, SYS_CPU "/cpu%d/topology/%s", cpu, old);
	return buf;
}

/* The sibling lists of one online CPU; -1 when none could be read. */
static int
topo_cpu_lists(struct pd_meta *m, int cpu, bool has_die)
{
	char path[PATH_MAX];
	int ret = -1;

	topo_path(path, sizeof(path), cpu, "package_cpus_list",
		  "core_siblings_list");
	if (!topo_list_add(&m->package_cpus, path))
		ret = 0;
	if (has_die &&
	    !topo_list_add(&m->die_cpus,
			   topo_path(path, sizeof(path), cpu,
				     "die_cpus_list", NULL)))
		ret = 0;
	if (!topo_list_add(&m->thread_cpus,
			   topo_path(path, sizeof(path), cpu,
				     "core_cpus_list", "thread_siblings_list")))
		ret = 0;
	return ret;
}

static uint32_t
topo_int(int cpu, const char *name)
{
	char path[PATH_MAX];
	int v;

	topo_path(path, sizeof(path), cpu, name, NULL);
	if (rec_sys_read_int(path, &v))
		return (uint32_t)-1;
	return (uint32_t)v;
}

static void
online_cpus(int **cpus, size_t *nr)
{
	char *s;

	*cpus = NULL;
	*nr = 0;
	if (!rec_sys_read_line(SYS_CPU "/online", &s)) {
		cpulist_parse(s, INT_MAX, cpus, nr);
		free(s);
	}
	if (!*nr) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);
		long i;

		free(*cpus);
		*cpus = xcalloc(n > 0 ? (size_t)n : 1, sizeof(**cpus));
		for (i = 0; i < n; i++)
			(*cpus)[i] = (int)i;
		*nr = n > 0 ? (size_t)n : 0;
	}
}

static void
collect_cpu_topology(struct pd_meta *m)
{
	uint32_t nr = m->nr_cpus_avail ? m->nr_cpus_avail :
					 max_cpu(SYS_CPU "/present");
	bool has_die = has_die_topology();
	size_t nr_online, k;
	int *online, ret = -1;
	uint32_t i;

	online_cpus(&online, &nr_online);
	for (k = 0; k < nr_online && (uint32_t)online[k] < nr; k++) {
		ret = topo_cpu_lists(m, online[k], has_die);
		if (ret < 0)
			break;
	}
	free(online);
	if (ret < 0) {
		pd_meta_clear_feature(m, PD_FEAT_CPU_TOPOLOGY);
		return;
	}
	m->topo_cpus = xcalloc(nr ? nr : 1, sizeof(*m->topo_cpus));
	m->nr_topo_cpus = nr;
	for (i = 0; i < nr; i++) {
		m->topo_cpus[i].core_id = topo_int((int)i, "core_id");
		m->topo_cpus[i].socket_id = topo_int((int)i,
						     "physical_package_id");
		m->topo_cpus[i].die_id = topo_int((int)i, "die_id");
	}
	m->topo_has_ids = true;
	m->topo_has_die = has_die && m->die_cpus.nr > 0;
	if (!m->topo_has_die) {
		pd_strlist_free(&m->die_cpus);
		for (i = 0; i < nr; i++)
			m->topo_cpus[i].die_id = 0;
	}
	feat_set(m, PD_FEAT_CPU_TOPOLOGY);
}

/* A node's MemTotal and MemFree ("Node 0 MemTotal:  123 kB" lines). */
static int
numa_node_load(struct pd_numa_node *n, int node)
{
	char path[PATH_MAX], field[32], *text, *line;
	unsigned long long v;
	int err;

	n->node = (uint32_t)node;
	snprintf(path, sizeof(path), SYS_NODE "/node%d/meminfo", node);
	if (rec_sys_read_file(path, &text, NULL))
		return -1;
	err = 0;
	for (line = text; line && *line; ) {
		char *nl = strchr(line, '\n');

		if (nl)
			*nl = '\0';
		if (strchr(line, ':')) {
			if (sscanf(line, "%*s %*d %31s %llu", field, &v) != 2) {
				err = -1;
				break;
			}
			if (!strcmp(field, "MemTotal:"))
				n->mem_total_kb = v;
			if (!strcmp(field, "MemFree:"))
				n->mem_free_kb = v;
			if (n->mem_total_kb && n->mem_free_kb)
				break;
		}
		line = nl ? nl + 1 : NULL;
	}
	free(text);
	if (err)
		return err;
	snprintf(path, sizeof(path), SYS_NODE "/node%d/cpulist", node);
	return rec_sys_read_line(path, &n->cpus) ? -1 : 0;
}

static void
collect_numa(struct pd_meta *m)
{
	int *nodes;
	size_t nr, i;
	char *s;

	if (rec_sys_read_line(SYS_NODE "/online", &s))
		return;
	if (cpulist_parse(s, INT_MAX, &nodes, &nr)) {
		free(s);
		return;
	}
	free(s);
	m->numa_nodes = xcalloc(nr ? nr : 1, sizeof(*m->numa_nodes));
	m->nr_numa_nodes = nr;
	for (i = 0; i < nr; i++) {
		if (numa_node_load(&m->numa_nodes[i], nodes[i])) {
			pd_meta_clear_feature(m, PD_FEAT_NUMA_TOPOLOGY);
			free(nodes);
			return;
		}
	}
	free(nodes);
	feat_set(m, PD_FEAT_NUMA_TOPOLOGY);
}

/* perf_pmu__hybrid_mounted(): a cpu_* PMU with a cpus file. */
static bool
pmu_is_hybrid(const char *name)
{
	char path[PATH_MAX];

	if (strncmp(name, "cpu_", 4))
		return false;
	snprintf(path, sizeof(path), SYS_PMUS "/%s/cpus", name);
	return access(path, F_OK) == 0;
}

static int
pmu_type(const char *name, uint32_t *type)
{
	char path[PATH_MAX], *s, *end;
	unsigned long v;

	snprintf(path, sizeof(path), SYS_PMUS "/%s/type", name);
	if (rec_sys_read_line(path, &s))
		return -1;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (end == s || errno || v > UINT32_MAX) {
		free(s);
		return -1;
	}
	free(s);
	*type = (uint32_t)v;
	return 0;
}

/*
 * The PMUs perf knows, in the order it scans them: directory order of
 * /sys/bus/event_source/devices, without a cpu_* that is not hybrid and
 * without one whose type cannot be read.
 */
static void
pmus_scan(struct pd_pmu_mapping **out, size_t *nr)
{
	struct dirent *d;
	DIR *dir;

	*out = NULL;
	*nr = 0;
	dir = opendir(SYS_PMUS);
	if (!dir)
		return;
	while ((d = readdir(dir))) {
		uint32_t type;

		if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
			continue;
		if (!strncmp(d->d_name, "cpu_", 4) && !pmu_is_hybrid(d->d_name))
			continue;
		if (pmu_type(d->d_name, &type))
			continue;
		*out = xreallocarray(*out, *nr + 1, sizeof(**out));
		(*out)[*nr].type = type;
		(*out)[(*nr)++].name = xstrdup(d->d_name);
	}
	closedir(dir);
}

static void
pmus_free(struct pd_pmu_mapping *p, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		free(p[i].name);
	free(p);
}

static void
collect_pmu_mappings(struct pd_meta *m)
{
	if (access(SYS_PMUS, F_OK))
		return;
	pmus_scan(&m->pmu_mappings, &m->nr_pmu_mappings);
	feat_set(m, PD_FEAT_PMU_MAPPINGS);
}

/* One cache level of a CPU: 1 when the index does not exist, -1 on error. */
static int
cache_level_read(struct pd_cache_level *c, uint32_t cpu, unsigned int idx)
{
	char dir[PATH_MAX], path[PATH_MAX + 32];
	int v[4];
	static const char *const ints[4] = {
		"level", "coherency_line_size", "number_of_sets",
		"ways_of_associativity",
	};
	unsigned int i;
	struct stat st;

	snprintf(dir, sizeof(dir), SYS_CPU "/cpu%u/cache/index%u", cpu, idx);
	if (stat(dir, &st))
		return 1;
	for (i = 0; i < 4; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, ints[i]);
		if (rec_sys_read_int(path, &v[i]))
			return -1;
	}
	memset(c, 0, sizeof(*c));
	c->level = (uint32_t)v[0];
	c->line_size = (uint32_t)v[1];
	c->sets = (uint32_t)v[2];
	c->ways = (uint32_t)v[3];
	snprintf(path, sizeof(path), "%s/type", dir);
	if (rec_sys_read_trimmed(path, &c->type))
		return -1;
	snprintf(path, sizeof(path), "%s/size", dir);
	if (rec_sys_read_trimmed(path, &c->size))
		goto fail;
	snprintf(path, sizeof(path), "%s/shared_cpu_list", dir);
	if (rec_sys_read_trimmed(path, &c->map))
		goto fail;
	return 0;
fail:
	free(c->type);
	free(c->size);
	return -1;
}

static bool
cache_level_eq(const struct pd_cache_level *a, const struct pd_cache_level *b)
{
	return a->level == b->level && a->line_size == b->line_size &&
	       a->sets == b->sets && a->ways == b->ways &&
	       !strcmp(a->type, b->type) && !strcmp(a->size, b->size) &&
	       !strcmp(a->map, b->map);
}

static void
cache_level_free(struct pd_cache_level *c)
{
	free(c->type);
	free(c->size);
	free(c->map);
}

static void
caches_free(struct pd_cache_level *c, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		cache_level_free(&c[i]);
	free(c);
}

/* Ordered by level, keeping the order found within a level. */
static void
caches_sort(struct pd_cache_level *c, size_t nr)
{
	size_t i, j;

	for (i = 1; i < nr; i++) {
		struct pd_cache_level t = c[i];

		for (j = i; j > 0 && c[j - 1].level > t.level; j--)
			c[j] = c[j - 1];
		c[j] = t;
	}
}

static void
collect_cache(struct pd_meta *m)
{
	uint32_t nr_cpus = max_cpu(SYS_CPU "/possible"), cpu;
	struct pd_cache_level *c = NULL, lvl;
	size_t nr = 0, i;
	unsigned int idx;

	for (cpu = 0; cpu < nr_cpus; cpu++) {
		for (idx = 0; idx < CACHE_INDEXES; idx++) {
			int err = cache_level_read(&lvl, cpu, idx);

			if (err < 0) {
				caches_free(c, nr);
				return;
			}
			if (err)
				break;
			for (i = 0; i < nr && !cache_level_eq(&lvl, &c[i]); i++)
				;
			if (i < nr) {
				cache_level_free(&lvl);
				continue;
			}
			c = xreallocarray(c, nr + 1, sizeof(*c));
			c[nr++] = lvl;
		}
	}
	caches_sort(c, nr);
	m->cache_version = 1;
	m->caches = c;
	m->nr_caches = nr;
	feat_set(m, PD_FEAT_CACHE);
}

/* The memory blocks of one node, as a bitmap of memoryN indexes. */
static int
mem_node_read(struct pd_mem_node *n, unsigned int node)
{
	char path[PATH_MAX];
	unsigned int phys, max = 0;
	struct dirent *d;
	DIR *dir;

	snprintf(path, sizeof(path), SYS_NODE "/node%u", node);
	dir = opendir(path);
	if (!dir)
		return -1;
	while ((d = readdir(dir)))
		if (sscanf(d->d_name, "memory%u", &phys) == 1 && phys > max)
			max = phys;
	if (max >= (1U << 30)) {
		closedir(dir);
		return -1;
	}
	n->node = node;
	n->size = (uint64_t)max + 1;
	n->bitmap = xcalloc((size_t)(n->size + 63) / 64, sizeof(uint64_t));
	rewinddir(dir);
	while ((d = readdir(dir)))
		if (sscanf(d->d_name, "memory%u", &phys) == 1)
			n->bitmap[phys / 64] |= 1ULL << (phys % 64);
	closedir(dir);
	return 0;
}

static void
mem_nodes_free(struct pd_mem_node *n, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		free(n[i].bitmap);
	free(n);
}

static int
mem_node_cmp(const void *a, const void *b)
{
	const struct pd_mem_node *x = a, *y = b;

	return (x->node > y->node) - (x->node < y->node);
}

static void
collect_mem_topology(struct pd_meta *m)
{
	struct pd_mem_node *nodes = NULL;
	uint64_t bsize;
	struct dirent *d;
	size_t nr = 0;
	DIR *dir;

	if (rec_sys_read_hex(SYS_MEMORY "/block_size_bytes", &bsize))
		return;
	dir = opendir(SYS_NODE);
	if (!dir)
		return;
	while ((d = readdir(dir))) {
		unsigned int idx;

		if (sscanf(d->d_name, "node%u", &idx) != 1)
			continue;
		if (nr >= MAX_MEM_NODES) {
			closedir(dir);
			mem_nodes_free(nodes, nr);
			return;
		}
		nodes = xreallocarray(nodes, nr + 1, sizeof(*nodes));
		if (mem_node_read(&nodes[nr], idx)) {
			closedir(dir);
			mem_nodes_free(nodes, nr);
			return;
		}
		nr++;
	}
	closedir(dir);
	if (nr)
		qsort(nodes, nr, sizeof(*nodes), mem_node_cmp);
	m->mem_version = 1;
	m->mem_block_size = bsize;
	m->mem_nodes = nodes;
	m->nr_mem_nodes = nr;
	feat_set(m, PD_FEAT_MEM_TOPOLOGY);
}

static void
collect_clock(struct pd_meta *m, int clockid, bool use_clockid)
{
	struct timespec res, now;
	struct timeval tod;

	if (!use_clockid)
		return;
	if (!clock_getres((clockid_t)clockid, &res) && res.tv_nsec) {
		m->clockid_res_ns = (uint64_t)res.tv_nsec;
		feat_set(m, PD_FEAT_CLOCKID);
	}
	if (gettimeofday(&tod, NULL) ||
	    clock_gettime((clockid_t)clockid, &now))
		return;
	m->clock_data_version = 1;
	m->clock_data_clockid = (uint32_t)clockid;
	m->clock_tod_ns = (uint64_t)tod.tv_sec * 1000000000ULL +
			  (uint64_t)tod.tv_usec * 1000ULL;
	m->clock_clockid_ns = (uint64_t)now.tv_sec * 1000000000ULL +
			      (uint64_t)now.tv_nsec;
	feat_set(m, PD_FEAT_CLOCK_DATA);
}

/*
 * The caps of a PMU: one file per cap in caps/, its first line without
 * the last character (perf drops the newline that way).  -1 when caps/
 * exists but cannot be listed.
 */
static int
pmu_caps_read(const char *pmu, struct pd_cap **caps, size_t *nr)
{
	char dir[PATH_MAX], path[PATH_MAX + 256];
	struct dirent *d;
	struct stat st;
	DIR *dp;

	*caps = NULL;
	*nr = 0;
	snprintf(dir, sizeof(dir), SYS_PMUS "/%s/caps", pmu);
	if (stat(dir, &st) < 0)
		return 0;
	dp = opendir(dir);
	if (!dp)
		return -1;
	while ((d = readdir(dp))) {
		char *v;
		size_t len;

		if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
		if (rec_sys_read_file(path, &v, &len) || !len) {
			free(v);
			continue;
		}
		/*
		 * perf reads the first line with fgets() into 128 bytes and
		 * drops its last character, the newline when it fits.
		 */
		len = strcspn(v, "\n") + (v[strcspn(v, "\n")] == '\n');
		if (len > 127)
			len = 127;
		v[len - 1] = '\0';
		*caps = xreallocarray(*caps, *nr + 1, sizeof(**caps));
		(*caps)[*nr].name = xstrdup(d->d_name);
		(*caps)[(*nr)++].value = v;
	}
	closedir(dp);
	return 0;
}

static void
pmu_caps_add(struct pd_meta *m, const char *name)
{
	struct pd_cap *caps;
	struct pd_pmu_caps *p;
	size_t nr;

	if (pmu_caps_read(name, &caps, &nr) || !nr) {
		pd_caps_free(caps, nr);
		return;
	}
	m->pmu_caps = xreallocarray(m->pmu_caps, m->nr_pmu_caps + 1,
				    sizeof(*m->pmu_caps));
	p = &m->pmu_caps[m->nr_pmu_caps++];
	p->pmu_name = xstrdup(name);
	p->caps = caps;
	p->nr_caps = nr;
}

/*
 * CPU_PMU_CAPS when there is a "cpu" PMU; PMU_CAPS always, hybrid PMUs
 * first as perf writes them, then the others that have caps; and
 * HYBRID_TOPOLOGY when hybrid PMUs exist.
 */
static void
collect_pmu_caps(struct pd_meta *m)
{
	struct pd_pmu_mapping *pmus;
	size_t nr, i;
	int pass;
	uint32_t type;

	if (!pmu_type("cpu", &type) &&
	    !pmu_caps_read("cpu", &m->cpu_pmu_caps, &m->nr_cpu_pmu_caps))
		feat_set(m, PD_FEAT_CPU_PMU_CAPS);
	pmus_scan(&pmus, &nr);
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < nr; i++)
			if (strcmp(pmus[i].name, "cpu") &&
			    pmu_is_hybrid(pmus[i].name) == !pass)
				pmu_caps_add(m, pmus[i].name);
	feat_set(m, PD_FEAT_PMU_CAPS);
	for (i = 0; i < nr; i++) {
		char path[PATH_MAX];
		struct pd_hybrid_node *h;
		char *cpus;

		if (!pmu_is_hybrid(pmus[i].name))
			continue;
		snprintf(path, sizeof(path), SYS_PMUS "/%s/cpus", pmus[i].name);
		if (rec_sys_read_line(path, &cpus))
			continue;
		m->hybrid_nodes = xreallocarray(m->hybrid_nodes,
						m->nr_hybrid_nodes + 1,
						sizeof(*m->hybrid_nodes));
		h = &m->hybrid_nodes[m->nr_hybrid_nodes++];
		h->pmu_name = xstrdup(pmus[i].name);
		h->cpus = cpus;
	}
	if (m->nr_hybrid_nodes)
		feat_set(m, PD_FEAT_HYBRID_TOPOLOGY);
	pmus_free(pmus, nr);
}

int
rec_sys_collect(struct pd_meta *meta, int argc, char *const argv[],
		int clockid, bool use_clockid)
{
	collect_uname(meta);
	collect_version(meta);
	collect_nrcpus(meta);
	collect_cpudesc(meta);
	collect_cpuid(meta);
	collect_total_mem(meta);
	collect_cmdline(meta, argc, argv);
	collect_cpu_topology(meta);
	collect_numa(meta);
	collect_pmu_mappings(meta);
	collect_cache(meta);
	collect_mem_topology(meta);
	collect_clock(meta, clockid, use_clockid);
	collect_pmu_caps(meta);
	/*
	 * perf writes the BPF programs and BTF it learnt of while recording;
	 * precord does not follow BPF programs, so both are present and
	 * empty, as perf writes them on a system without any.
	 */
	feat_set(meta, PD_FEAT_BPF_PROG_INFO);
	feat_set(meta, PD_FEAT_BPF_BTF);
	return 0;
}
