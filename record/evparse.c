/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * record/evparse.c - the -e event syntax of perf 6.1
 * (tools/perf/util/parse-events.c, parse-events.l): symbolic hardware and
 * software events, hardware cache events, raw rNNN, pmu/term=val,.../,
 * tracepoints sys:name, modifiers and {groups}.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/xalloc.h"
#include "pdata/abi.h"
#include "record/record.h"

struct sym_event {
	const char *name;
	const char *alias;
	uint32_t type;
	uint64_t config;
};

/* parse-events.c's event_symbols_hw and event_symbols_sw */
static const struct sym_event sym_events[] = {
	{ "cpu-cycles", "cycles", PD_TYPE_HARDWARE, PD_HW_CPU_CYCLES },
	{ "instructions", NULL, PD_TYPE_HARDWARE, PD_HW_INSTRUCTIONS },
	{ "cache-references", NULL, PD_TYPE_HARDWARE, PD_HW_CACHE_REFERENCES },
	{ "cache-misses", NULL, PD_TYPE_HARDWARE, PD_HW_CACHE_MISSES },
	{ "branch-instructions", "branches", PD_TYPE_HARDWARE,
	  PD_HW_BRANCH_INSTRUCTIONS },
	{ "branch-misses", NULL, PD_TYPE_HARDWARE, PD_HW_BRANCH_MISSES },
	{ "bus-cycles", NULL, PD_TYPE_HARDWARE, PD_HW_BUS_CYCLES },
	{ "stalled-cycles-frontend", "idle-cycles-frontend", PD_TYPE_HARDWARE,
	  PD_HW_STALLED_CYCLES_FRONTEND },
	{ "stalled-cycles-backend", "idle-cycles-backend", PD_TYPE_HARDWARE,
	  PD_HW_STALLED_CYCLES_BACKEND },
	{ "ref-cycles", NULL, PD_TYPE_HARDWARE, PD_HW_REF_CPU_CYCLES },
	{ "cpu-clock", NULL, PD_TYPE_SOFTWARE, PD_SW_CPU_CLOCK },
	{ "task-clock", NULL, PD_TYPE_SOFTWARE, PD_SW_TASK_CLOCK },
	{ "page-faults", "faults", PD_TYPE_SOFTWARE, PD_SW_PAGE_FAULTS },
	{ "context-switches", "cs", PD_TYPE_SOFTWARE, PD_SW_CONTEXT_SWITCHES },
	{ "cpu-migrations", "migrations", PD_TYPE_SOFTWARE,
	  PD_SW_CPU_MIGRATIONS },
	{ "minor-faults", NULL, PD_TYPE_SOFTWARE, PD_SW_PAGE_FAULTS_MIN },
	{ "major-faults", NULL, PD_TYPE_SOFTWARE, PD_SW_PAGE_FAULTS_MAJ },
	{ "alignment-faults", NULL, PD_TYPE_SOFTWARE, PD_SW_ALIGNMENT_FAULTS },
	{ "emulation-faults", NULL, PD_TYPE_SOFTWARE, PD_SW_EMULATION_FAULTS },
	{ "dummy", NULL, PD_TYPE_SOFTWARE, PD_SW_DUMMY },
	{ "bpf-output", NULL, PD_TYPE_SOFTWARE, PD_SW_BPF_OUTPUT },
	{ "cgroup-switches", NULL, PD_TYPE_SOFTWARE, PD_SW_CGROUP_SWITCHES },
};

/* evsel.c's evsel__hw_cache: the accepted spellings of each part */
static const char *const cache_names[PD_HW_CACHE_MAX][4] = {
	{ "L1-dcache", "l1-d", "l1d", "L1-data" },
	{ "L1-icache", "l1-i", "l1i", "L1-instruction" },
	{ "LLC", "L2", NULL, NULL },
	{ "dTLB", "d-tlb", "Data-TLB", NULL },
	{ "iTLB", "i-tlb", "Instruction-TLB", NULL },
	{ "branch", "branches", "bpu", "btb" },
	{ "node", NULL, NULL, NULL },
};

static const char *const cache_ops[PD_HW_CACHE_OP_MAX][4] = {
	{ "load", "loads", "read", NULL },
	{ "store", "stores", "write", NULL },
	{ "prefetch", "prefetches", "speculative-read", "speculative-load" },
};

static const char *const cache_results[2][4] = {
	{ "refs", "Reference", "ops", "access" },
	{ "misses", "miss", NULL, NULL },
};

static void
why_set(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
}

static int
match_word(const char *const *names, size_t n, const char *s, size_t len)
{
	for (size_t i = 0; i < n; i++)
		if (names[i] && strlen(names[i]) == len &&
		    !strncasecmp(names[i], s, len))
			return 1;
	return 0;
}

static int
find_index(const char *const (*table)[4], size_t rows, const char *s,
	   size_t len)
{
	for (size_t i = 0; i < rows; i++)
		if (match_word(table[i], 4, s, len))
			return (int)i;
	return -1;
}

/* "L1-dcache-load-misses": cache[-op[-result]] */
static int
parse_hw_cache(const char *s, uint64_t *config)
{
	int cache = -1, op = -1, result = -1;

	/* cache names contain '-', so try each prefix that names a cache */
	for (size_t cut = strlen(s); cut > 0 && cache < 0; cut--) {
		if (s[cut] != '\0' && s[cut] != '-')
			continue;
		cache = find_index(cache_names, PD_HW_CACHE_MAX, s, cut);
		if (cache >= 0)
			s += cut;
	}
	if (cache < 0)
		return -1;
	while (*s == '-') {
		const char *w = ++s;
		size_t n = strcspn(w, "-");
		int i;

		s = w + n;
		if (op < 0 && (i = find_index(cache_ops, PD_HW_CACHE_OP_MAX,
					      w, n)) >= 0) {
			op = i;
			continue;
		}
		i = result < 0 ? find_index(cache_results, 2, w, n) : -1;
		if (i >= 0) {
			result = i;
			continue;
		}
		return -1;
	}
	if (*s)
		return -1;
	*config = (uint64_t)cache | (uint64_t)(op < 0 ? 0 : op) << 8 |
		  (uint64_t)(result < 0 ? 0 : result) << 16;
	return 0;
}

static const struct sym_event *
find_symbol(const char *s, size_t len)
{
	size_t n = sizeof(sym_events) / sizeof(sym_events[0]);

	for (size_t i = 0; i < n; i++) {
		const struct sym_event *e = &sym_events[i];

		if ((strlen(e->name) == len && !strncmp(e->name, s, len)) ||
		    (e->alias && strlen(e->alias) == len &&
		     !strncmp(e->alias, s, len)))
			return e;
	}
	return NULL;
}

static bool
tracing_dir(char *buf, size_t len, const char *sys, const char *name)
{
	static const char *const roots[] = {
		"/sys/kernel/tracing/events",
		"/sys/kernel/debug/tracing/events",
	};

	for (size_t i = 0; i < 2; i++) {
		FILE *f;

		snprintf(buf, len, "%s/%s/%s/id", roots[i], sys, name);
		f = fopen(buf, "r");
		if (f) {
			fclose(f);
			return true;
		}
	}
	return false;
}

/* The first line of a file, with its newline; 0, -errno or -EINVAL. */
static int
read_first_line(const char *path, char *line, size_t size)
{
	FILE *f = fopen(path, "r");
	bool ok;

	if (!f)
		return -errno;
	ok = fgets(line, (int)size, f) != NULL;
	fclose(f);
	return ok ? 0 : -EINVAL;
}

/* The first line of a PMU's dir/name file, as read_first_line(). */
static int
read_pmu_line(const char *pmu, const char *dir, const char *name,
	      char *line, size_t size)
{
	char path[512];

	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/%s/%s",
		 pmu, dir, name);
	return read_first_line(path, line, size);
}

static int
read_u64_file(const char *path, uint64_t *v, int base)
{
	char line[64];
	char *end;
	int err;

	err = read_first_line(path, line, sizeof(line));
	if (err)
		return err;
	errno = 0;
	*v = strtoull(line, &end, base);
	return errno || end == line ? -EINVAL : 0;
}

/* Modifiers, as get_event_modifier() applies them. */
struct mods {
	bool eu, ek, eh, eH, eG, eI;
	unsigned int precise;
	bool precise_max, sample_read, pinned, exclusive;
	bool exclude_GH;
};

static int
parse_mods(const char *s, struct mods *m)
{
	bool exclude = m->eu || m->ek || m->eh;

	for (; *s; s++) {
		switch (*s) {
		case 'u':
			if (!exclude)
				exclude = m->eu = m->ek = m->eh = true;
			if (!m->exclude_GH)
				m->eG = true;
			m->eu = false;
			break;
		case 'k':
			if (!exclude)
				exclude = m->eu = m->ek = m->eh = true;
			m->ek = false;
			break;
		case 'h':
			if (!exclude)
				exclude = m->eu = m->ek = m->eh = true;
			m->eh = false;
			break;
		case 'G':
			if (!m->exclude_GH)
				m->exclude_GH = m->eG = m->eH = true;
			m->eG = false;
			break;
		case 'H':
			if (!m->exclude_GH)
				m->exclude_GH = m->eG = m->eH = true;
			m->eH = false;
			break;
		case 'I':
			m->eI = true;
			break;
		case 'p':
			m->precise++;
			if (!m->exclude_GH)
				m->eG = true;
			break;
		case 'P':
			m->precise_max = true;
			break;
		case 'S':
			m->sample_read = true;
			break;
		case 'D':
			m->pinned = true;
			break;
		case 'e':
			m->exclusive = true;
			break;
		default:
			return -1;
		}
	}
	return m->precise > 3 ? -1 : 0;
}

static void
set_flag(struct pd_attr *a, unsigned int bit, bool on)
{
	if (on)
		a->flags |= 1ULL << bit;
	else
		a->flags &= ~(1ULL << bit);
}

static void
mods_from_attr(const struct pd_attr *a, struct mods *m)
{
	memset(m, 0, sizeof(*m));
	m->eu = pd_attr_has(a, PD_ATTR_EXCLUDE_USER);
	m->ek = pd_attr_has(a, PD_ATTR_EXCLUDE_KERNEL);
	m->eh = pd_attr_has(a, PD_ATTR_EXCLUDE_HV);
	m->eH = pd_attr_has(a, PD_ATTR_EXCLUDE_HOST);
	m->eG = pd_attr_has(a, PD_ATTR_EXCLUDE_GUEST);
	m->eI = pd_attr_has(a, PD_ATTR_EXCLUDE_IDLE);
	m->precise = pd_attr_precise_ip(a);
}

static void
mods_apply(struct rec_event *ev, const struct mods *m, bool leader)
{
	struct pd_attr *a = &ev->attr;

	set_flag(a, PD_ATTR_EXCLUDE_USER, m->eu);
	set_flag(a, PD_ATTR_EXCLUDE_KERNEL, m->ek);
	set_flag(a, PD_ATTR_EXCLUDE_HV, m->eh);
	set_flag(a, PD_ATTR_EXCLUDE_HOST, m->eH);
	set_flag(a, PD_ATTR_EXCLUDE_GUEST, m->eG);
	set_flag(a, PD_ATTR_EXCLUDE_IDLE, m->eI);
	a->flags &= ~(3ULL << PD_ATTR_PRECISE_IP);
	a->flags |= (uint64_t)m->precise << PD_ATTR_PRECISE_IP;
	ev->sample_read = m->sample_read;
	ev->precise_max = m->precise_max;
	if (leader) {
		set_flag(a, PD_ATTR_PINNED, m->pinned);
		set_flag(a, PD_ATTR_EXCLUSIVE, m->exclusive);
	}
}

static struct rec_event *
event_new(struct rec_evlist *list)
{
	struct rec_event *ev;

	list->ev = xreallocarray(list->ev, list->nr + 1, sizeof(*list->ev));
	ev = &list->ev[list->nr];
	memset(ev, 0, sizeof(*ev));
	ev->leader = list->nr++;
	ev->nr_members = 1;
	ev->cgroup_fd = -1;
	/* event_attr_init(): perf_guest is off, so guests are excluded */
	ev->attr.size = PD_ATTR_SIZE_VER7;
	set_flag(&ev->attr, PD_ATTR_EXCLUDE_GUEST, true);
	return ev;
}

/* Find "name" in the PMU's format/ directory and OR value into attr. */
static int
pmu_format_apply(const char *pmu, const char *term, uint64_t value,
		 struct pd_attr *a)
{
	char line[256];
	uint64_t *cfg;
	const char *p;
	unsigned int bit = 0;

	if (read_pmu_line(pmu, "format", term, line, sizeof(line)))
		return -1;
	if (!strncmp(line, "config1:", 8))
		cfg = &a->config1, p = line + 8;
	else if (!strncmp(line, "config2:", 8))
		cfg = &a->config2, p = line + 8;
	else if (!strncmp(line, "config:", 7))
		cfg = &a->config, p = line + 7;
	else
		return -1;
	/* bit ranges "0-7,32-35": value bits fill them in order */
	while (*p && *p != '\n') {
		char *end;
		unsigned long lo = strtoul(p, &end, 10), hi = lo;

		if (end == p)
			return -1;
		p = end;
		if (*p == '-') {
			hi = strtoul(p + 1, &end, 10);
			p = end;
		}
		if (lo > 63 || hi > 63 || hi < lo)
			return -1;
		for (unsigned long b = lo; b <= hi; b++, bit++)
			if (bit < 64 && ((value >> bit) & 1))
				*cfg |= 1ULL << b;
		if (*p == ',')
			p++;
	}
	return 0;
}

static int pmu_terms_apply(const char *pmu, char *terms,
			   struct rec_event *ev, char *why, size_t why_len,
			   int depth);

/* An alias from the PMU's events/ directory ("cpu/cycles/"). */
static int
pmu_alias_apply(const char *pmu, const char *name, struct rec_event *ev,
		char *why, size_t why_len, int depth)
{
	char line[512];
	size_t n;

	if (strchr(name, '/') || depth > 2)
		return -1;
	if (read_pmu_line(pmu, "events", name, line, sizeof(line)))
		return -1;
	n = strcspn(line, "\n");
	line[n] = '\0';
	return pmu_terms_apply(pmu, line, ev, why, why_len, depth + 1);
}

/*
 * One term of a PMU event (pmu) or of a symbolic one (pmu NULL): a term
 * every event takes, config, config1, config2, or the PMU's format terms
 * and aliases.
 */
static int
pmu_term_apply(const char *pmu, char *t, struct rec_event *ev, char *why,
	       size_t why_len, int depth)
{
	struct pd_attr *a = &ev->attr;
	char *eq = strchr(t, '='), *end;
	uint64_t v = 1;
	int r;

	if (eq)
		*eq = '\0';
	r = rec_event_term(ev, t, eq ? eq + 1 : NULL, why, why_len);
	if (r)
		return r < 0 ? -1 : 0;
	if (eq) {
		errno = 0;
		v = strtoull(eq + 1, &end, 0);
		if (errno || end == eq + 1 || *end) {
			why_set(why, why_len, "bad value '%s' for term '%s'",
				eq + 1, t);
			return -1;
		}
	}
	if (!strcmp(t, "config"))
		a->config = v;
	else if (!strcmp(t, "config1"))
		a->config1 = v;
	else if (!strcmp(t, "config2"))
		a->config2 = v;
	else if (!pmu || (pmu_format_apply(pmu, t, v, a) &&
			  (eq || pmu_alias_apply(pmu, t, ev, why, why_len,
						 depth)))) {
		if (!*why)
			why_set(why, why_len, "unknown term '%s' for %s '%s'",
				t, pmu ? "pmu" : "event", pmu ? pmu : ev->name);
		return -1;
	}
	return 0;
}

static int
pmu_terms_apply(const char *pmu, char *terms, struct rec_event *ev,
		char *why, size_t why_len, int depth)
{
	char *save = NULL;

	for (char *t = strtok_r(terms, ",", &save); t;
	     t = strtok_r(NULL, ",", &save))
		if (pmu_term_apply(pmu, t, ev, why, why_len, depth))
			return -1;
	return 0;
}

/*
 * "pmu/terms/" or "pmu/terms/mods" (modifiers follow the closing slash with
 * no colon): returns 1 when s is one, 0 when not, -1 on error.
 */
static int
parse_pmu(struct rec_event *ev, const char *s, size_t len, char *why,
	  size_t why_len)
{
	const char *slash = memchr(s, '/', len), *close;
	const struct sym_event *sym;
	char path[512], *pmu, *terms;
	uint64_t type;
	int err;

	if (!slash)
		return 0;
	close = memchr(slash + 1, '/', (size_t)(s + len - slash - 1));
	if (!close)
		return 0;
	if (memchr(close + 1, '/', (size_t)(s + len - close - 1)) ||
	    memchr(close + 1, ':', (size_t)(s + len - close - 1))) {
		why_set(why, why_len, "bad text after PMU event '%.*s'",
			(int)len, s);
		return -1;
	}
	pmu = xstrndup(s, (size_t)(slash - s));
	terms = xstrndup(slash + 1, (size_t)(close - slash - 1));
	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/type",
		 pmu);
	if (!read_u64_file(path, &type, 10)) {
		ev->attr.type = (uint32_t)type;
		err = pmu_terms_apply(pmu, terms, ev, why, why_len, 0);
	} else if ((sym = find_symbol(pmu, strlen(pmu)))) {
		/* "cpu-clock/period=1000/": a named event with its terms */
		ev->attr.type = sym->type;
		ev->attr.config = sym->config;
		set_flag(&ev->attr, PD_ATTR_EXCLUDE_GUEST, true);
		err = pmu_terms_apply(NULL, terms, ev, why, why_len, 0);
	} else {
		why_set(why, why_len, "no PMU or event '%s' (%s)", pmu, path);
		free(pmu);
		free(terms);
		return -1;
	}
	free(pmu);
	free(terms);
	if (!err && close + 1 < s + len) {
		/* parse_events__modifier_event() starts from a clean set */
		struct mods m = { 0 };
		char *mod = xstrndup(close + 1, (size_t)(s + len - close - 1));

		err = parse_mods(mod, &m);
		free(mod);
		if (err) {
			why_set(why, why_len, "bad modifier in '%.*s'",
				(int)len, s);
			return -1;
		}
		mods_apply(ev, &m, true);
	}
	return err ? -1 : 1;
}

/* "sys:name" from the tracing events directory; 1, 0 (not one) or -1. */
static int
parse_tracepoint(struct rec_event *ev, const char *s, size_t len,
		 size_t *used)
{
	const char *colon = memchr(s, ':', len);
	char path[600], *sys, *name;
	size_t nlen;
	uint64_t id;

	if (!colon)
		return 0;
	nlen = strcspn(colon + 1, ":");
	if ((size_t)(colon + 1 + nlen - s) > len)
		nlen = len - (size_t)(colon + 1 - s);
	sys = xstrndup(s, (size_t)(colon - s));
	name = xstrndup(colon + 1, nlen);
	if (!*sys || !*name || strchr(sys, '/') || strchr(name, '/') ||
	    !strcmp(sys, "..") || !strcmp(name, "..") ||
	    !tracing_dir(path, sizeof(path), sys, name)) {
		free(sys);
		free(name);
		return 0;
	}
	free(sys);
	free(name);
	if (read_u64_file(path, &id, 10))
		return -1;
	ev->attr.type = PD_TYPE_TRACEPOINT;
	ev->attr.config = id;
	/* evsel__newtp(): raw samples, one per hit */
	ev->attr.sample_type = PD_SAMPLE_RAW | PD_SAMPLE_TIME | PD_SAMPLE_CPU |
			       PD_SAMPLE_PERIOD;
	ev->attr.sample_period = 1;
	ev->tracepoint = xstrndup(s, (size_t)(colon + 1 + nlen - s));
	*used = (size_t)(colon + 1 + nlen - s);
	return 1;
}

static int parse_one(struct rec_evlist *list, const char *s, size_t len,
		     char *why, size_t why_len);

/*
 * "sys:name[:mods]" where sys or name is a glob pattern: every matching
 * tracepoint, with the modifiers; 1, 0 (not a pattern) or -1.
 */
static int
parse_glob(struct rec_evlist *list, const char *s, size_t len, char *why,
	   size_t why_len)
{
	char *text = xstrndup(s, len), *name, *mods;
	struct rec_tp_list tps;
	int ret = 1;

	name = strchr(text, ':');
	if (!name || memchr(text, '/', len) || memchr(text, '{', len)) {
		free(text);
		return 0;
	}
	*name++ = '\0';
	mods = strchr(name, ':');
	if (mods)
		*mods++ = '\0';
	if (!rec_tracepoint_is_glob(text, name)) {
		free(text);
		return 0;
	}
	if (rec_tracepoints_matching(text, name, &tps) || !tps.nr) {
		why_set(why, why_len, "no tracepoint matches '%s:%s'", text,
			name);
		ret = -1;
	}
	for (size_t i = 0; ret > 0 && i < tps.nr; i++) {
		char one[512];
		int n = snprintf(one, sizeof(one), "%s%s%s", tps.names[i],
				 mods ? ":" : "", mods ? mods : "");

		if (n < 0 || (size_t)n >= sizeof(one) ||
		    parse_one(list, one, (size_t)n, why, why_len))
			ret = -1;
	}
	rec_tp_list_free(&tps);
	free(text);
	return ret;
}

/* One event term with its own modifiers: s[0..len). */
static int
parse_one(struct rec_evlist *list, const char *s, size_t len, char *why,
	  size_t why_len)
{
	struct rec_event *ev;
	const struct sym_event *sym;
	size_t body = len, used = 0;
	char *text;
	const char *colon;
	uint64_t config;
	int r;

	r = parse_glob(list, s, len, why, why_len);
	if (r)
		return r < 0 ? -1 : 0;
	ev = event_new(list);
	text = xstrndup(s, len);

	ev->name = xstrdup(text);
	r = parse_pmu(ev, text, len, why, why_len);
	if (r < 0)
		goto fail;
	if (r > 0)
		goto done;
	r = parse_tracepoint(ev, text, len, &used);
	if (r < 0) {
		why_set(why, why_len, "cannot read the id of tracepoint '%s'",
			text);
		goto fail;
	}
	if (r > 0) {
		if (used < len && text[used] == ':') {
			struct mods m = { 0 };

			if (parse_mods(text + used + 1, &m))
				goto bad_mod;
			mods_apply(ev, &m, true);
			/* perf names a tracepoint sys:name, modifiers or not */
			free(ev->name);
			ev->name = xstrdup(ev->tracepoint);
		}
		goto done;
	}
	colon = memchr(text, ':', len);
	if (colon) {
		struct mods m = { 0 };

		body = (size_t)(colon - text);
		if (parse_mods(colon + 1, &m))
			goto bad_mod;
		mods_apply(ev, &m, true);
	}
	text[body] = '\0';
	if ((sym = find_symbol(text, body))) {
		ev->attr.type = sym->type;
		ev->attr.config = sym->config;
	} else if (text[0] == 'r' && body > 1 &&
		   strspn(text + 1, "0123456789abcdefABCDEF") == body - 1) {
		ev->attr.type = PD_TYPE_RAW;
		ev->attr.config = strtoull(text + 1, NULL, 16);
	} else if (!parse_hw_cache(text, &config)) {
		ev->attr.type = PD_TYPE_HW_CACHE;
		ev->attr.config = config;
	} else {
		why_set(why, why_len, "unknown event '%s'", ev->name);
		goto fail;
	}
done:
	free(text);
	return 0;
bad_mod:
	why_set(why, why_len, "bad modifier in '%s'", ev->name);
fail:
	free(text);
	list->nr--;
	free(ev->name);
	free(ev->tracepoint);
	return -1;
}

/* Length of the next comma-separated item at top level. */
static size_t
item_len(const char *s)
{
	int depth = 0;
	bool in_pmu = false;
	size_t i;

	for (i = 0; s[i]; i++) {
		char c = s[i];

		if (c == '{')
			depth++;
		else if (c == '}')
			depth--;
		else if (c == '/')
			in_pmu = !in_pmu;
		else if (c == ',' && depth == 0 && !in_pmu)
			break;
	}
	return i;
}

static int
parse_group(struct rec_evlist *list, const char *s, size_t len, char *why,
	    size_t why_len)
{
	const char *close = NULL;
	size_t first = list->nr;

	for (size_t i = len; i > 0; i--)
		if (s[i - 1] == '}') {
			close = s + i - 1;
			break;
		}
	if (!close) {
		why_set(why, why_len, "unbalanced '{' in '%.*s'", (int)len, s);
		return -1;
	}
	for (const char *p = s + 1; p < close;) {
		size_t n = item_len(p);

		if (p + n > close)
			n = (size_t)(close - p);
		if (n == 0 || parse_one(list, p, n, why, why_len))
			goto fail;
		p += n;
		if (*p == ',')
			p++;
	}
	if (list->nr == first) {
		why_set(why, why_len, "empty group");
		return -1;
	}
	if (close + 1 < s + len) {
		char *mod;

		if (close[1] != ':') {
			why_set(why, why_len, "bad text after group '%.*s'",
				(int)len, s);
			goto fail;
		}
		mod = xstrndup(close + 2, (size_t)(s + len - close - 2));
		for (size_t i = first; i < list->nr; i++) {
			struct mods m;

			mods_from_attr(&list->ev[i].attr, &m);
			m.exclude_GH = false;
			if (parse_mods(mod, &m)) {
				why_set(why, why_len, "bad group modifier '%s'",
					mod);
				free(mod);
				goto fail;
			}
			mods_apply(&list->ev[i], &m, i == first);
		}
		free(mod);
	}
	for (size_t i = first; i < list->nr; i++) {
		list->ev[i].leader = first;
		list->ev[i].in_group = list->nr - first > 1;
	}
	list->ev[first].nr_members = list->nr - first;
	if (list->nr - first > 1)
		list->nr_groups++;
	return 0;
fail:
	while (list->nr > first) {
		list->nr--;
		free(list->ev[list->nr].name);
		free(list->ev[list->nr].tracepoint);
	}
	return -1;
}

int
rec_events_parse(struct rec_evlist *list, const char *text, char *why,
		 size_t why_len)
{
	const char *p = text;

	why[0] = '\0';
	if (!*p) {
		why_set(why, why_len, "empty event list");
		return -1;
	}
	while (*p) {
		size_t n = item_len(p);
		int err;

		if (n == 0) {
			why_set(why, why_len, "empty event in '%s'", text);
			return -1;
		}
		if (*p == '{')
			err = parse_group(list, p, n, why, why_len);
		else
			err = parse_one(list, p, n, why, why_len);
		if (err)
			return -1;
		p += n;
		if (*p == ',' && *++p == '\0') {
			why_set(why, why_len, "empty event in '%s'", text);
			return -1;
		}
	}
	return 0;
}

static bool
cpu_is_amd(void)
{
	char line[256];
	FILE *f = fopen("/proc/cpuinfo", "r");
	bool amd = false;

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "vendor_id", 9)) {
			amd = strstr(line, "AuthenticAMD") != NULL;
			break;
		}
	fclose(f);
	return amd;
}

/* perf_event_can_profile_kernel(): root, or paranoid at most 1 */
static bool
can_profile_kernel(void)
{
	uint64_t v;

	if (geteuid() == 0)
		return true;
	if (read_u64_file("/proc/sys/kernel/perf_event_paranoid", &v, 10))
		return false;
	return (int64_t)v <= 1;
}

void
rec_events_add_default(struct rec_evlist *list)
{
	struct rec_event *ev = event_new(list);
	bool user_only = !can_profile_kernel();

	/*
	 * evsel__new_cycles(): the best precise level; on AMD, precise
	 * cycles use IBS, which cannot exclude guests, so perf leaves them.
	 */
	ev->attr.type = PD_TYPE_HARDWARE;
	ev->attr.config = PD_HW_CPU_CYCLES;
	set_flag(&ev->attr, PD_ATTR_EXCLUDE_GUEST, !cpu_is_amd());
	set_flag(&ev->attr, PD_ATTR_EXCLUDE_KERNEL, user_only);
	ev->precise_max = true;
	ev->name = xstrdup(user_only ? "cycles:u" : "cycles");
}

void
rec_events_add_dummy(struct rec_evlist *list)
{
	struct rec_event *ev = event_new(list);

	/* evlist__dummy_event() */
	ev->attr.type = PD_TYPE_SOFTWARE;
	ev->attr.config = PD_SW_DUMMY;
	ev->attr.sample_period = 1;
	set_flag(&ev->attr, PD_ATTR_EXCLUDE_GUEST, false);
}

void
rec_evlist_free(struct rec_evlist *list)
{
	for (size_t i = 0; i < list->nr; i++) {
		free(list->ev[i].name);
		free(list->ev[i].tracepoint);
		free(list->ev[i].filter);
		rec_event_cgroup_free(&list->ev[i]);
		free(list->ev[i].fds);
		free(list->ev[i].ids);
	}
	free(list->ev);
	list->ev = NULL;
	list->nr = 0;
}
