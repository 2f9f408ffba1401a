/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * format/feat-bpf.c - BPF_PROG_INFO and BPF_BTF (doc/perf-data-format.md
 * §5.18), and the little of struct bpf_prog_info and of BTF that naming
 * a program needs.
 *
 * A BPF_PROG_INFO entry is perf's "bpil" layout: a struct bpf_prog_info
 * (include/uapi/linux/bpf.h) whose array pointers hold offsets into the
 * data that follows it.  The struct's offsets below are the uapi ones,
 * stable since the fields were added.  BTF is described in the kernel's
 * Documentation/bpf/btf.rst.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "format/cursor.h"
#include "format/feat-int.h"
#include "pdata/errors.h"
#include "pdata/meta.h"

/* offsets in struct bpf_prog_info */
enum {
	BPI_ID			= 4,
	BPI_NAME		= 64,
	BPI_NR_JITED_KSYMS	= 104,
	BPI_NR_JITED_FUNC_LENS	= 108,
	BPI_JITED_KSYMS		= 112,
	BPI_JITED_FUNC_LENS	= 120,
	BPI_BTF_ID		= 128,
	BPI_FUNC_INFO_REC_SIZE	= 132,
	BPI_FUNC_INFO		= 136,
	BPI_NR_FUNC_INFO	= 144,
	BPI_NR_PROG_TAGS	= 180,
	BPI_PROG_TAGS		= 184,
};

static uint32_t
info_u32(const struct pd_bpf_prog_info *p, size_t off)
{
	return off + 4 <= p->info_len ? pd_load_u32(p->info + off, p->swap) : 0;
}

static uint64_t
info_u64(const struct pd_bpf_prog_info *p, size_t off)
{
	return off + 8 <= p->info_len ? pd_load_u64(p->info + off, p->swap) : 0;
}

static void
decode_prog_info(struct pd_bpf_prog_info *p)
{
	size_t n = 0;

	p->id = info_u32(p, BPI_ID);
	p->btf_id = info_u32(p, BPI_BTF_ID);
	p->nr_jited_ksyms = info_u32(p, BPI_NR_JITED_KSYMS);
	p->nr_jited_func_lens = info_u32(p, BPI_NR_JITED_FUNC_LENS);
	p->nr_prog_tags = info_u32(p, BPI_NR_PROG_TAGS);
	p->nr_func_info = info_u32(p, BPI_NR_FUNC_INFO);
	p->func_info_rec_size = info_u32(p, BPI_FUNC_INFO_REC_SIZE);
	if (p->info_len > BPI_NAME) {
		const unsigned char *name = p->info + BPI_NAME;
		size_t max = p->info_len - BPI_NAME;

		if (max > PD_BPF_OBJ_NAME_LEN)
			max = PD_BPF_OBJ_NAME_LEN;
		while (n < max && name[n])
			n++;
		memcpy(p->name, name, n);
	}
	p->name[n] = '\0';
}

/* Keep a copy of the payload: the entries point into it. */
static const unsigned char *
copy_payload(struct feat_ctx *x, void **storage)
{
	size_t len = (size_t)(x->c.end - x->c.start);
	unsigned char *copy = malloc(len ? len : 1);

	if (!copy) {
		pd_feat_fail(x, -PD_E_NOMEM, 0,
			  "out of memory for a %zu-byte payload", len);
		return NULL;
	}
	memcpy(copy, x->c.start, len);
	*storage = copy;
	return copy;
}

int
pd_feat_parse_bpf_prog_info(struct feat_ctx *x)
{
	struct pd_meta *m = x->m;
	const unsigned char *copy;
	uint32_t nr, i;
	size_t at;
	int err;

	err = pd_feat_count(x, 0, 16, "BPF programs", &nr);
	if (err)
		return err;
	copy = copy_payload(x, &m->bpf_prog_storage);
	if (!copy)
		return -PD_E_NOMEM;
	m->bpf_progs = pd_feat_calloc(x, nr, sizeof(*m->bpf_progs));
	if (!m->bpf_progs && nr)
		return -PD_E_NOMEM;
	m->nr_bpf_progs = nr;
	for (i = 0; i < nr; i++) {
		struct pd_bpf_prog_info *p = &m->bpf_progs[i];
		const unsigned char *info, *data;

		at = cur_pos(&x->c);
		p->info_len = cur_u32(&x->c);
		p->data_len = cur_u32(&x->c);
		p->arrays = cur_u64(&x->c);
		if (x->c.short_read)
			return pd_feat_truncated(x, at, "a program's lengths");
		info = cur_bytes(&x->c, p->info_len);
		data = cur_bytes(&x->c, p->data_len);
		if (!info || !data)
			return pd_feat_fail(x, -PD_E_TRUNCATED, at,
					 "program %u: info (%u bytes) and data (%u bytes) run past the end",
					 i, p->info_len, p->data_len);
		p->info = copy + (info - x->c.start);
		p->data = copy + (data - x->c.start);
		p->swap = x->c.swap;
		decode_prog_info(p);
	}
	return 0;
}

void
pd_feat_clear_bpf_prog_info(struct pd_meta *m, unsigned int feat)
{
	free(m->bpf_progs);
	free(m->bpf_prog_storage);
	m->bpf_progs = NULL;
	m->bpf_prog_storage = NULL;
	m->nr_bpf_progs = 0;
}

int
pd_feat_parse_bpf_btf(struct feat_ctx *x)
{
	struct pd_meta *m = x->m;
	const unsigned char *copy, *data;
	uint32_t nr, i;
	size_t at;
	int err;

	err = pd_feat_count(x, 0, 8, "BTF blobs", &nr);
	if (err)
		return err;
	copy = copy_payload(x, &m->bpf_btf_storage);
	if (!copy)
		return -PD_E_NOMEM;
	m->bpf_btfs = pd_feat_calloc(x, nr, sizeof(*m->bpf_btfs));
	if (!m->bpf_btfs && nr)
		return -PD_E_NOMEM;
	m->nr_bpf_btfs = nr;
	for (i = 0; i < nr; i++) {
		struct pd_bpf_btf *b = &m->bpf_btfs[i];

		at = cur_pos(&x->c);
		b->id = cur_u32(&x->c);
		b->data_size = cur_u32(&x->c);
		if (x->c.short_read)
			return pd_feat_truncated(x, at, "a BTF id and size");
		data = cur_bytes(&x->c, b->data_size);
		if (!data)
			return pd_feat_fail(x, -PD_E_TRUNCATED, at,
					 "BTF %u: %u bytes run past the end",
					 b->id, b->data_size);
		b->data = copy + (data - x->c.start);
	}
	return 0;
}

void
pd_feat_clear_bpf_btf(struct pd_meta *m, unsigned int feat)
{
	free(m->bpf_btfs);
	free(m->bpf_btf_storage);
	m->bpf_btfs = NULL;
	m->bpf_btf_storage = NULL;
	m->nr_bpf_btfs = 0;
}

/* Element i of array `bit`, whose offset into data is at info offset off. */
static const unsigned char *
bpil_elem(const struct pd_bpf_prog_info *p, unsigned int bit, size_t off,
	  uint32_t nr, uint32_t i, uint64_t elem_size)
{
	uint64_t start;

	if (!((p->arrays >> bit) & 1) || i >= nr || !elem_size)
		return NULL;
	start = info_u64(p, off);
	if (start > p->data_len || (p->data_len - start) / elem_size <= i)
		return NULL;
	return p->data + start + (uint64_t)i * elem_size;
}

int
pd_bpf_subprog_get(const struct pd_bpf_prog_info *p, uint32_t i,
		   struct pd_bpf_subprog *out)
{
	const unsigned char *ksym, *len, *tag, *func;

	memset(out, 0, sizeof(*out));
	ksym = bpil_elem(p, PD_BPIL_JITED_KSYMS, BPI_JITED_KSYMS,
			 p->nr_jited_ksyms, i, 8);
	len = bpil_elem(p, PD_BPIL_JITED_FUNC_LENS, BPI_JITED_FUNC_LENS,
			p->nr_jited_func_lens, i, 4);
	tag = bpil_elem(p, PD_BPIL_PROG_TAGS, BPI_PROG_TAGS, p->nr_prog_tags,
			i, PD_BPF_TAG_SIZE);
	func = p->func_info_rec_size >= 8 ?
	       bpil_elem(p, PD_BPIL_FUNC_INFO, BPI_FUNC_INFO, p->nr_func_info,
			 i, p->func_info_rec_size) : NULL;
	if (ksym)
		out->addr = pd_load_u64(ksym, p->swap);
	if (len)
		out->len = pd_load_u32(len, p->swap);
	if (tag)
		memcpy(out->tag, tag, PD_BPF_TAG_SIZE);
	if (func) {
		/* struct bpf_func_info { u32 insn_off; u32 type_id; } */
		out->has_func = true;
		out->func_type_id = pd_load_u32(func + 4, p->swap);
	}
	return ksym && len && tag ? 0 : -PD_E_BAD_FEATURE;
}

const struct pd_bpf_btf *
pd_meta_find_btf(const struct pd_meta *m, uint32_t id)
{
	size_t i;

	for (i = 0; i < m->nr_bpf_btfs; i++)
		if (m->bpf_btfs[i].id == id)
			return &m->bpf_btfs[i];
	return NULL;
}

#define BTF_MAGIC	0xeb9f
#define BTF_HDR_SIZE	24

/* Bytes that follow struct btf_type for a type of this kind, or -1. */
static int64_t
btf_kind_extra(unsigned int kind, uint32_t vlen)
{
	switch (kind) {
	/* PTR FWD TYPEDEF VOLATILE CONST RESTRICT FUNC FLOAT TYPE_TAG */
	case 2: case 7: case 8: case 9: case 10: case 11: case 12: case 16:
	case 18:
		return 0;
	case 1: case 14: case 17:	/* INT, VAR, DECL_TAG */
		return 4;
	case 3:				/* ARRAY */
		return 12;
	/* STRUCT UNION DATASEC ENUM64 */
	case 4: case 5: case 15: case 19:
		return 12LL * vlen;
	case 6: case 13:		/* ENUM, FUNC_PROTO */
		return 8LL * vlen;
	default:
		return -1;
	}
}

const char *
pd_btf_type_name(const struct pd_bpf_btf *b, uint32_t type_id)
{
	const unsigned char *d = b->data;
	uint32_t hdr_len, type_off, type_len, str_off, str_len, name_off = 0;
	uint64_t pos, end, id = 1;
	bool swap, found = type_id == 0;

	if (!d || b->data_size < BTF_HDR_SIZE)
		return NULL;
	if (pd_load_u16(d, false) == BTF_MAGIC)
		swap = false;
	else if (pd_load_u16(d, true) == BTF_MAGIC)
		swap = true;
	else
		return NULL;
	if (d[2] != 1)
		return NULL;
	hdr_len = pd_load_u32(d + 4, swap);
	type_off = pd_load_u32(d + 8, swap);
	type_len = pd_load_u32(d + 12, swap);
	str_off = pd_load_u32(d + 16, swap);
	str_len = pd_load_u32(d + 20, swap);
	if (hdr_len < BTF_HDR_SIZE || hdr_len > b->data_size || type_off % 4 ||
	    (uint64_t)hdr_len + type_off + type_len > b->data_size ||
	    (uint64_t)hdr_len + str_off + str_len > b->data_size || !str_len)
		return NULL;
	d += hdr_len;
	if (d[str_off] || d[str_off + str_len - 1])
		return NULL;
	pos = type_off;
	end = (uint64_t)type_off + type_len;
	while (pos < end) {
		uint32_t info, this_name;
		int64_t extra;

		if (end - pos < 12)
			return NULL;
		this_name = pd_load_u32(d + pos, swap);
		info = pd_load_u32(d + pos + 4, swap);
		extra = btf_kind_extra((info >> 24) & 0x1f, info & 0xffff);
		if (extra < 0 || (uint64_t)extra > end - pos - 12)
			return NULL;
		if (id == type_id) {
			found = true;
			name_off = this_name;
		}
		pos += 12 + (uint64_t)extra;
		id++;
	}
	if (!found || name_off >= str_len)
		return NULL;
	return (const char *)d + str_off + name_off;
}
