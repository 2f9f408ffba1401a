/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * report/inspect/header-host.c - the feature sections that describe the
 * machine and the command: HOSTNAME, OSRELEASE, VERSION, ARCH, NRCPUS,
 * CPUDESC, CPUID, TOTAL_MEM and CMDLINE.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>

#include "pdata/reader.h"
#include "report/inspect/header-int.h"

static void
print_string(struct rep_hdr *h, const char *label, const char *s)
{
	fprintf(h->out, "# %s : %s\n", label, s ? s : "(null)");
}

void
rep_feat_hostname_print(struct rep_hdr *h, const struct pd_meta *m, bool failed)
{
	print_string(h, "hostname", failed ? NULL : m->hostname);
}

void
rep_feat_osrelease_print(struct rep_hdr *h, const struct pd_meta *m,
			 bool failed)
{
	print_string(h, "os release", failed ? NULL : m->os_release);
}

void
rep_feat_version_print(struct rep_hdr *h, const struct pd_meta *m, bool failed)
{
	print_string(h, "perf version", failed ? NULL : m->version);
}

void
rep_feat_arch_print(struct rep_hdr *h, const struct pd_meta *m, bool failed)
{
	print_string(h, "arch", failed ? NULL : m->arch);
}

void
rep_feat_cpudesc_print(struct rep_hdr *h, const struct pd_meta *m, bool failed)
{
	print_string(h, "cpudesc", failed ? NULL : m->cpu_desc);
}

void
rep_feat_cpuid_print(struct rep_hdr *h, const struct pd_meta *m, bool failed)
{
	print_string(h, "cpuid", failed ? NULL : m->cpuid);
}

void
rep_feat_nrcpus_print(struct rep_hdr *h, const struct pd_meta *m, bool failed)
{
	if (failed)
		m = &rep_no_meta;
	fprintf(h->out, "# nrcpus online : %u\n", m->nr_cpus_online);
	fprintf(h->out, "# nrcpus avail : %u\n", m->nr_cpus_avail);
}

void
rep_feat_total_mem_print(struct rep_hdr *h, const struct pd_meta *m,
			 bool failed)
{
	if (failed)
		m = &rep_no_meta;
	fprintf(h->out, "# total memory : %" PRIu64 " kB\n", m->total_mem_kb);
}

/* each argument and a space, with ' printed as \' */
void
rep_feat_cmdline_print(struct rep_hdr *h, const struct pd_meta *m, bool failed)
{
	size_t i;

	if (failed)
		m = &rep_no_meta;
	fputs("# cmdline : ", h->out);
	for (i = 0; i < m->cmdline.nr; i++) {
		const char *s;

		for (s = m->cmdline.s[i]; *s; s++) {
			if (*s == '\'')
				fputs("\\'", h->out);
			else
				fputc(*s, h->out);
		}
		fputc(' ', h->out);
	}
	fputc('\n', h->out);
}
