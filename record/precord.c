/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * record/precord.c - precord's main: perf record's command line, then
 * open, synthesise, drain until the workload ends or a signal comes, and
 * finish the file as perf 6.1's builtin-record.c does.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/diag.h"
#include "lib/xalloc.h"
#include "pdata/abi.h"
#include "pdata/reader.h"
#include "pdata/writer.h"
#include "record/record.h"
#include "record/session.h"

static const char usage_text[] =
"Usage: precord [OPTION]... [--] COMMAND [ARG]...\n"
"       precord [OPTION]... -p PID | -t TID | -a | -C CPUS\n"
"Record a profile of COMMAND, of running threads or of the whole system\n"
"(with no command and no target: until Ctrl-C) into a perf.data file\n"
"that Linux perf and preport read.\n"
"\n"
"Targets:\n"
"  -p, --pid=PID[,PID]      record these processes (all their threads)\n"
"  -t, --tid=TID[,TID]      record these threads\n"
"  -u, --uid=USER           record the processes of this user (name or id)\n"
"  -a, --all-cpus           system-wide collection from all CPUs\n"
"  -C, --cpu=CPUS           only these CPUs (e.g. 0-1,3)\n"
"  -D, --delay=MSECS        start recording MSECS after the command starts;\n"
"                           -1: start disabled; ON-OFF,...: record in these\n"
"                           ranges (ms) and stop after the last\n"
"  -i, --no-inherit         child tasks do not inherit counters\n"
"  -s, --stat               per-thread counts (inherit_stat)\n"
"Events:\n"
"  -e, --event=EVENT        event selector (perf's syntax: cpu-clock,\n"
"                           cycles:u, L1-dcache-load-misses, r1a8,\n"
"                           cpu/event=0x3c/, sched:sched_switch, {a,b})\n"
"      --filter=FILTER      the tracepoint filter of the last -e\n"
"      --exclude-perf       no event of precord itself (last -e)\n"
"  -G, --cgroup=NAME[,NAME] count the events before it in these cgroups\n"
"                           (with -a or -C)\n"
"Sampling:\n"
"  -F, --freq=HZ|max        sampling frequency (default 4000)\n"
"      --strict-freq        fail rather than throttle a -F over the limit\n"
"  -c, --count=PERIOD       sample every PERIOD events\n"
"  -n, --no-samples         count the events, take no sample\n"
"      --all-user           only user space, on every event\n"
"      --all-kernel         only the kernel, on every event\n"
"  -g                       record call chains (frame pointers)\n"
"      --call-graph=MODE    fp, dwarf[,SIZE] or lbr\n"
"      --user-callchains    call chains of user space only\n"
"      --kernel-callchains  call chains of the kernel only\n"
"  -b, --branch-any         sample any taken branch (LBR)\n"
"  -j, --branch-filter=F    branch stack filter (any,u,k,call,...)\n"
"      --user-regs[=REGS]   sample user registers (ax,bx,...)\n"
"  -I, --intr-regs[=REGS]   sample interrupt registers\n"
"  -d, --data               sample data addresses\n"
"  -W, --weight             sample the weight\n"
"      --phys-data          sample physical addresses\n"
"      --data-page-size     sample data page sizes\n"
"      --code-page-size     sample code page sizes\n"
"      --sample-cpu         sample the cpu\n"
"  -T, --timestamp          sample the time\n"
"  -R, --raw-samples        sample raw tracepoint data\n"
"      --switch-events      record context switches\n"
"      --namespaces         record namespace events\n"
"      --all-cgroups        record cgroup events\n"
"  -m, --mmap-pages=PAGES[,AUX]\n"
"                           ring buffer size in pages (or with B/K/M/G),\n"
"                           and of the AUX area buffer\n"
"  -k, --clockid=CLOCK      time stamps from CLOCK (monotonic, realtime,\n"
"                           boottime, tai, monotonic_raw, or a number)\n"
"Build-ids:\n"
"  -B, --no-buildid         no build-id list, and no build-id cache\n"
"  -N, --no-buildid-cache   do not fill the build-id cache\n"
"                           ($PERF_BUILDID_DIR, else ~/.debug)\n"
"      --buildid-mmap       record build-ids in MMAP2 records instead\n"
"      --archive            then write the symbol archive FILE.pdsym\n"
"                           (preport --archive)\n"
"      --perf-archive       then write perf archive's FILE.tar.bz2\n"
"                           (preport --perf-archive)\n"
"Output:\n"
"  -o, --output=FILE        output file (default perf.data; - for a pipe)\n"
"      --max-size=SIZE      stop once SIZE of records are written (B/K/M/G)\n"
"      --switch-output[=signal|SIZE|TIME]\n"
"                           finish the file and start a new one on SIGUSR2,\n"
"                           once SIZE is written (B/K/M/G) or every TIME\n"
"                           (s/m/h/d); each is renamed FILE.TIMESTAMP\n"
"      --switch-max-files=N keep only the last N of those files\n"
"      --timestamp-filename rename the finished file FILE.TIMESTAMP\n"
"      --overwrite          flight recorder: the rings keep the newest\n"
"                           records, written at the end or at each switch\n"
"      --control=fifo:CTL[,ACK] | fd:CTL[,ACK]\n"
"                           take enable, disable, stop, ping... on CTL\n"
"  -z, --compression-level[=N]\n"
"                           zstd-compress the rings' records at level N\n"
"                           (1, the default, fastest ... 22 smallest)\n"
"      --mmap-flush=SIZE    drain a ring only when it holds SIZE bytes\n"
"                           (or with B/K/M/G; default 1)\n"
"      --threads[=SPEC]     write a directory: one data.N per ring, drained\n"
"                           by threads per cpu (default), core, package,\n"
"                           numa, or MAPS/AFFINITY[:MAPS/AFFINITY...]\n"
"  -q, --quiet              no summary lines\n"
"  -v, --verbose            more messages\n"
"  -h, --help               show this help\n"
"      --version            show the version\n";

enum {
	OPT_CALL_GRAPH = 256,
	OPT_USER_REGS,
	OPT_INTR_REGS,
	OPT_PHYS_DATA,
	OPT_DATA_PAGE_SIZE,
	OPT_CODE_PAGE_SIZE,
	OPT_SAMPLE_CPU,
	OPT_SWITCH_EVENTS,
	OPT_NAMESPACES,
	OPT_ALL_CGROUPS,
	OPT_BUILDID_MMAP,
	OPT_ARCHIVE,
	OPT_PERF_ARCHIVE,
	OPT_VERSION,
	OPT_STRICT_FREQ,
	OPT_ALL_USER,
	OPT_ALL_KERNEL,
	OPT_USER_CALLCHAINS,
	OPT_KERNEL_CALLCHAINS,
	OPT_FILTER,
	OPT_EXCLUDE_PERF,
	OPT_MAX_SIZE,
	OPT_CONTROL,
	OPT_MMAP_FLUSH,
	OPT_SWITCH_OUTPUT,
	OPT_SWITCH_MAX_FILES,
	OPT_TIMESTAMP_FILENAME,
	OPT_OVERWRITE,
	OPT_THREADS,
};

static const struct option long_opts[] = {
	{ "pid", required_argument, NULL, 'p' },
	{ "tid", required_argument, NULL, 't' },
	{ "uid", required_argument, NULL, 'u' },
	{ "all-cpus", no_argument, NULL, 'a' },
	{ "cpu", required_argument, NULL, 'C' },
	{ "delay", required_argument, NULL, 'D' },
	{ "no-inherit", no_argument, NULL, 'i' },
	{ "stat", no_argument, NULL, 's' },
	{ "strict-freq", no_argument, NULL, OPT_STRICT_FREQ },
	{ "no-samples", no_argument, NULL, 'n' },
	{ "all-user", no_argument, NULL, OPT_ALL_USER },
	{ "all-kernel", no_argument, NULL, OPT_ALL_KERNEL },
	{ "user-callchains", no_argument, NULL, OPT_USER_CALLCHAINS },
	{ "kernel-callchains", no_argument, NULL, OPT_KERNEL_CALLCHAINS },
	{ "clockid", required_argument, NULL, 'k' },
	{ "event", required_argument, NULL, 'e' },
	{ "filter", required_argument, NULL, OPT_FILTER },
	{ "cgroup", required_argument, NULL, 'G' },
	{ "exclude-perf", no_argument, NULL, OPT_EXCLUDE_PERF },
	{ "freq", required_argument, NULL, 'F' },
	{ "count", required_argument, NULL, 'c' },
	{ "call-graph", required_argument, NULL, OPT_CALL_GRAPH },
	{ "branch-any", no_argument, NULL, 'b' },
	{ "branch-filter", required_argument, NULL, 'j' },
	{ "user-regs", optional_argument, NULL, OPT_USER_REGS },
	{ "intr-regs", optional_argument, NULL, OPT_INTR_REGS },
	{ "data", no_argument, NULL, 'd' },
	{ "weight", no_argument, NULL, 'W' },
	{ "phys-data", no_argument, NULL, OPT_PHYS_DATA },
	{ "data-page-size", no_argument, NULL, OPT_DATA_PAGE_SIZE },
	{ "code-page-size", no_argument, NULL, OPT_CODE_PAGE_SIZE },
	{ "sample-cpu", no_argument, NULL, OPT_SAMPLE_CPU },
	{ "timestamp", no_argument, NULL, 'T' },
	{ "raw-samples", no_argument, NULL, 'R' },
	{ "switch-events", no_argument, NULL, OPT_SWITCH_EVENTS },
	{ "namespaces", no_argument, NULL, OPT_NAMESPACES },
	{ "all-cgroups", no_argument, NULL, OPT_ALL_CGROUPS },
	{ "mmap-pages", required_argument, NULL, 'm' },
	{ "no-buildid", no_argument, NULL, 'B' },
	{ "no-buildid-cache", no_argument, NULL, 'N' },
	{ "buildid-mmap", no_argument, NULL, OPT_BUILDID_MMAP },
	{ "archive", no_argument, NULL, OPT_ARCHIVE },
	{ "perf-archive", no_argument, NULL, OPT_PERF_ARCHIVE },
	{ "output", required_argument, NULL, 'o' },
	{ "max-size", required_argument, NULL, OPT_MAX_SIZE },
	{ "switch-output", optional_argument, NULL, OPT_SWITCH_OUTPUT },
	{ "switch-max-files", required_argument, NULL, OPT_SWITCH_MAX_FILES },
	{ "timestamp-filename", no_argument, NULL, OPT_TIMESTAMP_FILENAME },
	{ "overwrite", no_argument, NULL, OPT_OVERWRITE },
	{ "control", required_argument, NULL, OPT_CONTROL },
	{ "compression-level", optional_argument, NULL, 'z' },
	{ "mmap-flush", required_argument, NULL, OPT_MMAP_FLUSH },
	{ "threads", optional_argument, NULL, OPT_THREADS },
	{ "quiet", no_argument, NULL, 'q' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

static void __attribute__((noreturn)) PD_PRINTF(1, 2)
usage_error(const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	error_msg("%s", msg);
	fprintf(stderr, "Try 'precord --help' for more information.\n");
	exit(REC_EXIT_USAGE);
}

static uint64_t
parse_u64(const char *s, const char *what)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || *end || s[0] == '-')
		usage_error("bad %s '%s'", what, s);
	return v;
}

static unsigned int
read_max_rate(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_max_sample_rate", "r");
	unsigned int v = 0;

	if (f) {
		if (fscanf(f, "%u", &v) != 1)
			v = 0;
		fclose(f);
	}
	return v;
}

static void
parse_freq(struct rec_opts *o, const char *s)
{
	o->freq_set = true;
	if (!strcmp(s, "max")) {
		o->freq = read_max_rate();
		if (!o->freq)
			die(REC_EXIT_FAIL, "cannot read "
			    "/proc/sys/kernel/perf_event_max_sample_rate");
		if (!o->quiet)
			fprintf(stderr, "info: Using a maximum frequency rate "
				"of %u Hz\n", o->freq);
		return;
	}
	o->freq = (unsigned int)parse_u64(s, "frequency");
	if (!o->freq)
		usage_error("bad frequency '%s'", s);
}

/* -u: the user's processes become the -p list, as perf's target does */
static void
config_uid(struct rec_opts *o)
{
	const struct passwd *pw;
	char *end;
	uid_t uid;

	if (!o->uid)
		return;
	if (o->pids || o->tids) {
		warn_msg("PID/TID switch overriding UID");
		o->uid = NULL;
		return;
	}
	pw = getpwnam(o->uid);
	if (pw) {
		uid = pw->pw_uid;
	} else {
		errno = 0;
		uid = (uid_t)strtoul(o->uid, &end, 10);
		if (errno || end == o->uid || *end || !getpwuid(uid))
			usage_error("Invalid User: %s", o->uid);
	}
	o->pids = rec_pids_of_uid(uid);
	if (!o->pids)
		die(REC_EXIT_FAIL, "user '%s' has no process to record",
		    o->uid);
}

/* perf's record__config_freq(), once every option is read */
static void
config_freq(struct rec_opts *o)
{
	unsigned int max = o->freq_set ? read_max_rate() : 0;

	if (!max || o->freq <= max)
		return;
	if (o->strict_freq)
		die(REC_EXIT_FAIL, "Maximum frequency rate (%u Hz) exceeded. "
		    "Please use -F freq option with a lower value or consider "
		    "tweaking /proc/sys/kernel/perf_event_max_sample_rate.",
		    max);
	warn_msg("Maximum frequency rate (%u Hz) exceeded, throttling from "
		 "%u Hz to %u Hz.", max, o->freq, max);
	hint_msg("the limit is kernel.perf_event_max_sample_rate");
	o->freq = max;
}

static void
parse_callgraph(struct rec_opts *o, const char *s)
{
	const char *comma = strchr(s, ',');
	size_t n = comma ? (size_t)(comma - s) : strlen(s);

	if (n == 2 && !strncmp(s, "fp", 2) && !comma) {
		o->callgraph = REC_CG_FP;
	} else if (n == 3 && !strncmp(s, "lbr", 3) && !comma) {
		o->callgraph = REC_CG_LBR;
	} else if (n == 5 && !strncmp(s, "dwarf", 5)) {
		uint64_t size = 8192;

		if (comma) {
			size = parse_u64(comma + 1, "dwarf stack size");
			/* perf rounds up to u64 and caps below 64 KiB */
			size = (size + 7) & ~7ULL;
			if (!size || size > 65528)
				usage_error("dwarf stack size '%s' is not in "
					    "1..65528", comma + 1);
		}
		o->callgraph = REC_CG_DWARF;
		o->stack_dump_size = (uint32_t)size;
		/* perf record samples data addresses with dwarf */
		o->sample_addr = true;
	} else {
		usage_error("bad --call-graph mode '%s' "
			    "(fp, dwarf[,SIZE], lbr)", s);
	}
}

/*
 * Digits with an optional B, K, M or G (powers of 1024, either case):
 * the bytes, and whether a suffix said they are bytes; false: not that.
 */
static bool
bytes_of(const char *s, uint64_t *out, bool *suffixed)
{
	unsigned int shift = 0;
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || s[0] == '-')
		return false;
	switch (*end) {
	case '\0': case 'B': case 'b': break;
	case 'K': case 'k': shift = 10; break;
	case 'M': case 'm': shift = 20; break;
	case 'G': case 'g': shift = 30; break;
	default: return false;
	}
	if ((*end && end[1]) || v > (UINT64_MAX >> shift))
		return false;
	*out = (uint64_t)v << shift;
	if (suffixed)
		*suffixed = *end != '\0';
	return true;
}

/* perf's unit_number__scnprintf(): 16K, 1024K, 2M */
static void
size_text(char *buf, size_t len, uint64_t n)
{
	static const char unit[] = "BKMGTPE";
	unsigned int i = 0;

	while (n / 1024 > 1 && i < sizeof(unit) - 2) {
		n /= 1024;
		i++;
	}
	snprintf(buf, len, "%" PRIu64 "%c", n, unit[i]);
}

/*
 * PAGES, or a size rounded up to whole pages; a count that is not a
 * power of two is rounded up to one, and perf says so (0 becomes 1).
 */
static unsigned int
parse_pages(const struct rec_opts *o, const char *s)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	uint64_t pages, p = 1;
	bool in_bytes;
	char size[32];

	if (!bytes_of(s, &pages, &in_bytes))
		usage_error("bad mmap size '%s'", s);
	if (in_bytes)
		pages = pages / page + (pages % page != 0);
	if (pages > (1ULL << 24))
		usage_error("mmap size '%s' is out of range", s);
	if (pages && !(pages & (pages - 1)))
		return (unsigned int)pages;
	while (p < pages)
		p <<= 1;
	if (!o->quiet) {
		size_text(size, sizeof(size), p * page);
		fprintf(stderr, "rounding mmap pages size to %s (%" PRIu64
			" pages)\n", size, p);
	}
	return (unsigned int)p;
}

/* perf's default: perf_event_mlock_kb less one page, a power of two */
static unsigned int
default_pages(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_mlock_kb", "r");
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	unsigned long kb = 516;
	unsigned long pages, p = 1;

	if (f) {
		if (fscanf(f, "%lu", &kb) != 1)
			kb = 516;
		fclose(f);
	}
	pages = kb * 1024 / page;
	pages = pages > 1 ? pages - 1 : 1;
	while (p * 2 <= pages)
		p *= 2;
	return (unsigned int)p;
}

/*
 * --filter and --exclude-perf: a tracepoint filter for the events of the
 * last -e, joined to one given before as perf joins them
 */
static void
add_filter(struct rec_opts *o, const char *opt, const char *filter)
{
	char **have;
	char *both;
	size_t n;

	if (!o->nr_events)
		usage_error("%s option should follow a -e tracepoint option",
			    opt);
	have = &o->filters[o->nr_events - 1];
	if (!*have) {
		*have = xstrdup(filter);
		return;
	}
	n = strlen(*have) + strlen(filter) + 11;
	both = xmalloc(n);
	snprintf(both, n, "(%s) && (%s)", *have, filter);
	free(*have);
	*have = both;
}

/* A size in bytes, or with perf's B, K, M or G suffix; not 0. */
static uint64_t
parse_size(const char *s, const char *opt)
{
	uint64_t v;

	if (!bytes_of(s, &v, NULL) || !v)
		usage_error("bad %s '%s'", opt, s);
	return v;
}

/* One "on-off" of -D ranges, after the previous one; false: bad. */
static bool
parse_range(const char *s, const struct rec_range *prev,
	    struct rec_range *out)
{
	char *end;
	unsigned long on, off;

	errno = 0;
	on = strtoul(s, &end, 10);
	if (errno || end == s || *end != '-' || s[0] == '-')
		return false;
	s = end + 1;
	off = strtoul(s, &end, 10);
	if (errno || end == s || (*end && *end != ',') || off <= on ||
	    off > UINT_MAX || (prev && on <= prev->off))
		return false;
	out->on = (unsigned int)on;
	out->off = (unsigned int)off;
	return true;
}

/* -D MSECS, -D -1 (events left disabled) or -D on-off,on-off... */
static void
parse_delay(struct rec_opts *o, const char *arg)
{
	const char *p = arg;

	if (!strcmp(arg, "-1")) {
		o->delay_forever = true;
		return;
	}
	if (!strchr(arg, '-')) {
		o->delay_ms = (unsigned int)parse_u64(arg, "delay");
		return;
	}
	for (;;) {
		o->ranges = xreallocarray(o->ranges, o->nr_ranges + 1,
					  sizeof(*o->ranges));
		if (!parse_range(p, o->nr_ranges ? &o->ranges[o->nr_ranges - 1]
						 : NULL,
				 &o->ranges[o->nr_ranges]))
			usage_error("bad -D range list '%s' (ms after the "
				    "start: on-off,on-off..., increasing)",
				    arg);
		o->nr_ranges++;
		p = strchr(p, ',');
		if (!p)
			break;
		p++;
	}
}

/* -m PAGES[,AUX]: the AUX size matters only to AUX area events */
static void
parse_mmap(struct rec_opts *o, const char *arg)
{
	const char *comma = strchr(arg, ',');
	char *data = xstrdup(arg);

	if (comma) {
		data[comma - arg] = '\0';
		o->aux_pages = parse_pages(o, comma + 1);
	}
	if (*data)
		o->mmap_pages = parse_pages(o, data);
	free(data);
}

/* perf's clockid names, without their CLOCK_ prefix */
static const struct {
	const char *name;
	int id;
} clock_names[] = {
	{ "monotonic", CLOCK_MONOTONIC }, { "mono", CLOCK_MONOTONIC },
	{ "monotonic_raw", CLOCK_MONOTONIC_RAW }, { "raw", CLOCK_MONOTONIC_RAW },
	{ "realtime", CLOCK_REALTIME }, { "real", CLOCK_REALTIME },
	{ "boottime", CLOCK_BOOTTIME }, { "boot", CLOCK_BOOTTIME },
	{ "tai", CLOCK_TAI },
};

/* -k: a clock by name (any case, CLOCK_ prefix or not) or by number */
static void
parse_clockid(struct rec_opts *o, const char *arg)
{
	const char *name = arg;
	struct timespec res;
	size_t i;

	o->use_clockid = true;
	if (arg[0] >= '0' && arg[0] <= '9') {
		o->clockid = (int)parse_u64(arg, "clockid");
	} else {
		if (!strncasecmp(name, "CLOCK_", 6))
			name += 6;
		for (i = 0; i < sizeof(clock_names) / sizeof(clock_names[0]);
		     i++)
			if (!strcasecmp(name, clock_names[i].name))
				break;
		if (i == sizeof(clock_names) / sizeof(clock_names[0]))
			usage_error("unknown clockid '%s'", arg);
		o->clockid = clock_names[i].id;
	}
	/* perf checks the clock by its resolution */
	if (clock_getres((clockid_t)o->clockid, &res))
		usage_error("clockid %d is not supported here", o->clockid);
}

/*
 * -z as perf 6.1's record__parse_comp_level() and cmd_record() take it:
 * strtol(), 0 (no level, or no number) means 1, anything above 22 (a
 * negative number too, as perf's level is unsigned) means 22.
 */
static unsigned int
parse_comp_level(const char *arg)
{
	unsigned int level;
	char *end;
	long v;

	if (!arg)
		return 1;
	v = strtol(arg, &end, 0);
	if (end == arg || *end)
		warn_msg("compression level '%s' is not a number: level %ld "
			 "(as perf)", arg, v ? v : 1L);
	level = (unsigned int)v;
	if (!level)
		return 1;
	if (level > PD_ZSTD_LEVEL_MAX) {
		warn_msg("compression level '%s' is above %d: level %d (as "
			 "perf)", arg, PD_ZSTD_LEVEL_MAX, PD_ZSTD_LEVEL_MAX);
		return PD_ZSTD_LEVEL_MAX;
	}
	return level;
}

/*
 * --mmap-flush as perf 6.1's record__mmap_flush_parse(): a number with
 * one of B, K, M, G after it, else strtol(); 0 means 1.  The quarter of
 * a ring's mmap is the most, applied once -m is known.
 */
static uint64_t
parse_mmap_flush(const char *arg)
{
	uint64_t v;
	char *end;
	long n;

	if (bytes_of(arg, &v, NULL))
		return v ? v : 1;
	n = strtol(arg, &end, 0);
	if (end == arg || *end || n < 0)
		usage_error("bad --mmap-flush size '%s' (a number of bytes, "
			    "or with B, K, M or G)", arg);
	return n ? (uint64_t)n : 1;
}

/* --user-regs and --intr-regs: a register list, or none for the default. */
static uint64_t
parse_regs(const char *arg)
{
	uint64_t mask;

	if (!arg)
		return 0xff0fffULL;
	if (rec_parse_regs(arg, &mask))
		usage_error("unknown register in '%s'", arg);
	return mask;
}

static void
parse_option(struct rec_opts *o, int c, const char *arg)
{
	switch (c) {
	case 'p': o->pids = xstrdup(arg); break;
	case 't': o->tids = xstrdup(arg); break;
	case 'u': o->uid = arg; break;
	case 'a': o->system_wide = true; break;
	case 'C': o->cpu_list = xstrdup(arg); break;
	case 'D': parse_delay(o, arg); break;
	case 'i': o->no_inherit = true; break;
	case 's': o->inherit_stat = true; break;
	case 'n': o->no_samples = true; break;
	case OPT_STRICT_FREQ: o->strict_freq = true; break;
	case OPT_ALL_USER: o->all_user = true; break;
	case OPT_ALL_KERNEL: o->all_kernel = true; break;
	case OPT_USER_CALLCHAINS: o->user_callchains = true; break;
	case OPT_KERNEL_CALLCHAINS: o->kernel_callchains = true; break;
	case 'k': parse_clockid(o, arg); break;
	case 'e':
		o->events = xreallocarray(o->events, o->nr_events + 1,
					  sizeof(*o->events));
		o->filters = xreallocarray(o->filters, o->nr_events + 1,
					   sizeof(*o->filters));
		o->filters[o->nr_events] = NULL;
		o->events[o->nr_events++] = xstrdup(arg);
		break;
	case OPT_FILTER:
		add_filter(o, "--filter", arg);
		break;
	case 'G':
		o->cgroups = xreallocarray(o->cgroups, o->nr_cgroup_args + 1,
					   sizeof(*o->cgroups));
		o->cgroups[o->nr_cgroup_args++] = (struct rec_cgroup_arg){
			.names = arg, .after = o->nr_events
		};
		break;
	case OPT_EXCLUDE_PERF: {
		char self[64];

		snprintf(self, sizeof(self), "common_pid != %d",
			 (int)getpid());
		add_filter(o, "--exclude-perf", self);
		break;
	}
	case 'F': parse_freq(o, arg); break;
	case 'c':
		o->period = parse_u64(arg, "period");
		if (!o->period)
			usage_error("bad period '%s'", arg);
		o->period_set = true;
		break;
	case 'g':
		if (o->callgraph == REC_CG_NONE)
			o->callgraph = REC_CG_FP;
		break;
	case OPT_CALL_GRAPH: parse_callgraph(o, arg); break;
	case 'b': o->branch_stack = PD_BRANCH_ANY; break;
	case 'j':
		if (rec_parse_branch_filter(arg, &o->branch_stack))
			usage_error("unknown branch filter in '%s'", arg);
		break;
	/* perf takes each register set once */
	case OPT_USER_REGS:
		if (o->user_regs)
			usage_error("%s", "--user-regs is given twice");
		o->user_regs = parse_regs(arg);
		break;
	case OPT_INTR_REGS:
	case 'I':
		if (o->intr_regs)
			usage_error("%s", "-I/--intr-regs is given twice");
		o->intr_regs = parse_regs(arg);
		break;
	case 'd': o->sample_addr = true; break;
	case 'W': o->sample_weight = true; break;
	case OPT_PHYS_DATA: o->phys_data = true; break;
	case OPT_DATA_PAGE_SIZE: o->data_page_size = true; break;
	case OPT_CODE_PAGE_SIZE: o->code_page_size = true; break;
	case OPT_SAMPLE_CPU: o->sample_cpu = true; break;
	case 'T': o->sample_time_set = true; break;
	case 'R': o->raw_samples = true; break;
	case OPT_SWITCH_EVENTS: o->switch_events = true; break;
	case OPT_NAMESPACES: o->namespaces = true; break;
	case OPT_ALL_CGROUPS: o->all_cgroups = true; break;
	case 'm': parse_mmap(o, arg); break;
	case 'B': o->no_buildid = true; break;
	case 'N': o->no_buildid_cache = true; break;
	case OPT_BUILDID_MMAP: o->buildid_mmap = true; break;
	case OPT_ARCHIVE: o->archive = true; break;
	case OPT_PERF_ARCHIVE: o->perf_archive = true; break;
	case 'o': o->output = arg; break;
	case OPT_MAX_SIZE: o->max_size = parse_size(arg, "--max-size"); break;
	case OPT_CONTROL: o->control = arg; break;
	case OPT_SWITCH_OUTPUT:
		if (rec_switch_parse(&o->switch_output, arg))
			usage_error("bad --switch-output '%s' (signal, a size "
				    "with B/K/M/G or a time with s/m/h/d)", arg);
		break;
	case OPT_SWITCH_MAX_FILES:
		o->switch_max_files = (unsigned int)parse_u64(arg,
						"--switch-max-files");
		if (o->switch_max_files > 100000)
			usage_error("--switch-max-files '%s' is too many",
				    arg);
		break;
	case OPT_TIMESTAMP_FILENAME: o->timestamp_filename = true; break;
	case OPT_OVERWRITE: o->overwrite = true; break;
	case 'z': o->comp_level = parse_comp_level(arg); break;
	case OPT_MMAP_FLUSH: o->mmap_flush = parse_mmap_flush(arg); break;
	case OPT_THREADS:
		o->threads = true;
		o->threads_spec = arg;
		break;
	case 'q': o->quiet = true; break;
	case 'v': o->verbose++; break;
	case 'h':
		fputs(usage_text, stdout);
		exit(0);
	case OPT_VERSION:
		printf("precord (pdata) %s\n", PACKAGE_VERSION);
		exit(0);
	default:
		fprintf(stderr, "Try 'precord --help' for more information.\n");
		exit(REC_EXIT_USAGE);
	}
}

/*
 * perf 6.1's cmd_record(): --buildid-mmap puts the build-ids in the MMAP2
 * records and turns the build-id list and the cache off; -B turns the
 * cache off too.
 */
static void
config_buildid(struct rec_opts *o)
{
	if (o->buildid_mmap) {
		if (!rec_can_record_build_id())
			die(REC_EXIT_FAIL, "no support to record build id in "
			    "mmap events, update your kernel");
		o->no_buildid = true;
	}
	if (o->no_buildid)
		o->no_buildid_cache = true;
}

static const char short_opts[] = "+p:t:u:aC:D:isne:G:F:c:gbj:I::dWTRm:k:BNo:z::qvh";

/*
 * perf 6.1 drains whatever a ring holds unless --mmap-flush says more,
 * and never waits for more than a quarter of the ring's mmap.  With -z
 * it skips its build-id pass at the end (cmd_record()), as -B does.
 */
static void
config_output(struct rec_opts *o)
{
	uint64_t flush_max = ((uint64_t)o->mmap_pages + 1) *
			     (uint64_t)sysconf(_SC_PAGESIZE) / 4;

	if (!o->mmap_flush)
		o->mmap_flush = 1;
	if (o->mmap_flush > flush_max)
		o->mmap_flush = flush_max;
	if (o->comp_level)
		o->no_buildid = true;
}

/*
 * perf's switch_output_size_warn(): a ring is drained when it is half
 * full, so a file takes up to that much past the size asked.
 */
static void
switch_size_warn(const struct rec_opts *o)
{
	uint64_t wakeup = ((uint64_t)o->mmap_pages + 1) *
			  (uint64_t)sysconf(_SC_PAGESIZE) / 2;
	const char *units = "BKMG";
	int unit = 0;

	if (!o->switch_output.size || o->switch_output.size >= wakeup)
		return;
	while (wakeup / 1024 > 1 && unit < 3) {
		wakeup /= 1024;
		unit++;
	}
	warn_msg("switch-output data size lower than wakeup kernel buffer "
		 "size (%llu%c) expect bigger perf.data sizes",
		 (unsigned long long)wakeup, units[unit]);
}

/*
 * --threads as perf 6.1 takes it: not with a pipe, nor (here) with
 * --overwrite, whose backward rings its threads do not read;
 * --switch-output and --timestamp-filename are dropped with a warning.
 */
static void
config_threads(struct rec_opts *o)
{
	if (!o->threads)
		return;
	if (o->pipe)
		die(REC_EXIT_USAGE, "Parallel trace streaming is not available "
		    "in pipe mode.");
	if (o->overwrite)
		die(REC_EXIT_USAGE, "--overwrite option is not available in "
		    "parallel streaming mode.");
	if (o->switch_output.on) {
		warn_msg("--switch-output option is not available in "
			 "parallel streaming mode.");
		o->switch_output = (struct rec_switch){ 0 };
	}
	if (o->timestamp_filename) {
		warn_msg("--timestamp-filename option is not available in "
			 "parallel streaming mode.");
		o->timestamp_filename = false;
	}
}

/* --switch-output and --timestamp-filename, which need a file */
static void
config_switch(struct rec_opts *o)
{
	if (o->switch_output.on && o->pipe)
		usage_error("%s", "--switch-output needs an output file, not "
			    "a pipe");
	if (o->switch_output.on)
		o->timestamp_filename = true;
	if (o->timestamp_filename && !o->pipe &&
	    (o->archive || o->perf_archive))
		usage_error("%s needs one output file: not with %s",
			    o->archive ? "--archive" : "--perf-archive",
			    o->switch_output.on ? "--switch-output" :
			    "--timestamp-filename");
	if (o->timestamp_filename && o->pipe) {
		warn_msg("--timestamp-filename option is not available in "
			 "pipe mode.");
		o->timestamp_filename = false;
	}
	switch_size_warn(o);
}

static void
parse_args(struct rec_opts *o, int argc, char **argv)
{
	int c;

	o->output = "perf.data";
	o->freq = 4000;
	while ((c = getopt_long(argc, argv, short_opts, long_opts,
				NULL)) != -1)
		parse_option(o, c, optarg);
	o->argc = argc - optind;
	o->argv = o->argc ? argv + optind : NULL;
	o->pipe = !strcmp(o->output, "-");
	if (o->freq_set && o->period_set)
		usage_error("%s", "-F and -c cannot be used together");
	config_uid(o);
	if (o->nr_cgroup_args && !o->system_wide && !o->cpu_list)
		usage_error("%s", "cgroup monitoring only available in "
			    "system-wide mode (-a or -C)");
	/* perf record with no command and no target: the whole system */
	if (!o->argv && !o->pids && !o->tids && !o->cpu_list)
		o->system_wide = true;
	if ((o->pids || o->tids) && (o->system_wide || o->cpu_list))
		usage_error("%s", "-p and -t cannot be used with -a or -C");
	if (o->pipe && (o->archive || o->perf_archive))
		usage_error("%s needs an output file, not a pipe",
			    o->archive ? "--archive" : "--perf-archive");
	if (!o->mmap_pages)
		o->mmap_pages = default_pages();
	config_freq(o);
	config_output(o);
	config_threads(o);
	config_switch(o);
	config_buildid(o);
}

static void
opts_free(struct rec_opts *o)
{
	for (size_t i = 0; i < o->nr_events; i++) {
		free(o->events[i]);
		free(o->filters[i]);
	}
	free(o->events);
	free(o->filters);
	free(o->cgroups);
	free(o->ranges);
	free(o->pids);
	free(o->tids);
	free(o->cpu_list);
}

int
main(int argc, char **argv)
{
	struct rec_opts o = { 0 };
	int status;

	diag_set_program("precord");
	parse_args(&o, argc, argv);
	status = rec_session_run(&o, argc, argv);
	opts_free(&o);
	return status;
}
