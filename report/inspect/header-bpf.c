/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * report/inspect/header-bpf.c - the BPF feature sections: BPF_PROG_INFO and
 * BPF_BTF.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "pdata/reader.h"
#include "report/inspect/header-int.h"

static int
bpf_prog_cmp(const void *a, const void *b)
{
	const struct pd_bpf_prog_info *x =
		*(const struct pd_bpf_prog_info *const *)a;
	const struct pd_bpf_prog_info *y =
		*(const struct pd_bpf_prog_info *const *)b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	/* the pointers run in file order: earlier first, as a stable sort */
	return x < y ? -1 : x > y;
}

static int
u32_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* synthesize_bpf_prog_name(): bpf_prog_<tag>[_<name>] */
static void
bpf_prog_name(struct strbuf *sb, const struct pd_bpf_prog_info *p,
	      const struct pd_bpf_subprog *sp, const struct pd_bpf_btf *btf,
	      uint32_t sub_id)
{
	const char *short_name = NULL;
	size_t i;

	sb_reset(sb);
	sb_add(sb, "bpf_prog_");
	for (i = 0; i < PD_BPF_TAG_SIZE; i++)
		sb_addf(sb, "%02x", sp->tag[i]);
	if (btf) {
		if (sp->has_func)
			short_name = pd_btf_type_name(btf, sp->func_type_id);
	} else if (sub_id == 0 && p->nr_jited_ksyms == 1) {
		if (p->name[0])
			short_name = p->name;
	} else {
		short_name = "F";
	}
	if (short_name)
		sb_addf(sb, "_%s", short_name);
}

static void
print_one_bpf_prog(struct rep_hdr *h, const struct pd_bpf_prog_info *p,
		   const struct pd_meta *m)
{
	const struct pd_bpf_btf *btf = NULL;
	struct strbuf name = STRBUF_INIT;
	struct pd_bpf_subprog sp;
	uint32_t i, cnt = p->nr_jited_ksyms;

	if (cnt != p->nr_prog_tags || cnt != p->nr_jited_func_lens)
		return;
	for (i = 0; i < cnt; i++)
		if (pd_bpf_subprog_get(p, i, &sp))
			return;
	/* libbpf's btf__new() must accept the blob for the names to be used */
	if (p->btf_id && h->btf_ready) {
		btf = pd_meta_find_btf(m, p->btf_id);
		if (btf && !pd_btf_type_name(btf, 0))
			btf = NULL;
	}
	if (cnt == 1) {
		pd_bpf_subprog_get(p, 0, &sp);
		bpf_prog_name(&name, p, &sp, btf, 0);
		fprintf(h->out,
			"# bpf_prog_info %u: %s addr 0x%" PRIx64 " size %u\n",
			p->id, sb_str(&name), sp.addr, sp.len);
	} else {
		fprintf(h->out, "# bpf_prog_info %u:\n", p->id);
		for (i = 0; i < cnt; i++) {
			pd_bpf_subprog_get(p, i, &sp);
			bpf_prog_name(&name, p, &sp, btf, i);
			fprintf(h->out,
				"# \tsub_prog %u: %s addr 0x%" PRIx64
				" size %u\n",
				i, sb_str(&name), sp.addr, sp.len);
		}
	}
	sb_free(&name);
}

/* perf keeps the programs in a tree by id: the first of a duplicate id wins */
static const struct pd_bpf_prog_info **
bpf_progs_by_id(const struct pd_meta *m, size_t nr_ok, size_t *nr)
{
	const struct pd_bpf_prog_info **progs;
	size_t i, n = 0;

	progs = xcalloc(nr_ok ? nr_ok : 1, sizeof(*progs));
	for (i = 0; i < nr_ok; i++)
		progs[i] = &m->bpf_progs[i];
	qsort(progs, nr_ok, sizeof(*progs), bpf_prog_cmp);
	for (i = 0; i < nr_ok; i++) {
		if (n && progs[n - 1]->id == progs[i]->id)
			continue;
		progs[n++] = progs[i];
	}
	*nr = n;
	return progs;
}

/* perf refuses both BPF features in a file of the other byte order */
void
rep_feat_bpf_prog_info_print(struct rep_hdr *h, const struct pd_meta *m,
			     bool failed)
{
	const struct pd_bpf_prog_info **progs;
	size_t nr_ok, i, n;

	if (h->info->swap ||
	    (failed && rep_bit_test(m->bad_features, PD_FEAT_BPF_PROG_INFO)))
		return;
	rep_bpf_progs_ok_61(m, &nr_ok);
	progs = bpf_progs_by_id(m, nr_ok, &n);
	for (i = 0; i < n; i++)
		print_one_bpf_prog(h, progs[i], m);
	free(progs);
}

void
rep_feat_bpf_btf_print(struct rep_hdr *h, const struct pd_meta *m, bool failed)
{
	uint32_t *ids;
	size_t i, n = 0;

	if (h->info->swap || failed)
		return;
	ids = xcalloc(m->nr_bpf_btfs ? m->nr_bpf_btfs : 1, sizeof(*ids));
	for (i = 0; i < m->nr_bpf_btfs; i++)
		ids[i] = m->bpf_btfs[i].id;
	qsort(ids, m->nr_bpf_btfs, sizeof(*ids), u32_cmp);
	for (i = 0; i < m->nr_bpf_btfs; i++)
		if (!n || ids[n - 1] != ids[i])
			ids[n++] = ids[i];
	for (i = 0; i < n; i++)
		fprintf(h->out, "# btf info of id %u\n", ids[i]);
	free(ids);
}
