/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * format/attr.c - struct perf_event_attr of any ABI revision, either byte
 * order, to and from struct pd_attr.
 *
 * perf_event_attr grows with each kernel and carries its own size
 * (perf_event_open(2), "size").  We read what the file holds, zero-fill
 * the rest and ignore anything newer than we know, unlike perf 6.1, which
 * refuses attrs larger than its own struct (doc/errata.md).
 *
 * The flag word and aux_action are C bitfields: a big-endian writer
 * allocates them from the most significant bit, so they are converted
 * field by field, not byte-swapped (doc/perf-data-format.md §14.4).
 */
#include "config.h"

#include <string.h>

#include "format/compiler.h"
#include "format/cursor.h"
#include "pdata/bitfield.h"
#include "pdata/errors.h"
#include "pdata/records.h"

/* precise_ip is the only attr flag wider than one bit */
static const struct pd_bitfield attr_wide_flags[] = {
	{ .shift = PD_ATTR_PRECISE_IP, .width = PD_ATTR_PRECISE_IP_WIDTH },
};

/* to_be: from pd_attr's numbering to a big-endian writer's, else back */
static uint64_t
flags_mirror(uint64_t word, bool to_be)
{
	return pd_bitfield_move(word, 64, attr_wide_flags,
				ARRAY_SIZE(attr_wide_flags), to_be);
}

/* aux_action: one-bit flags only, so either way is the same */
static uint32_t
aux_action_mirror(uint32_t word)
{
	return (uint32_t)pd_bitfield_move(word, 32, NULL, 0, false);
}

int
pd_attr_decode(const void *buf, size_t len, bool swap, struct pd_attr *out)
{
	unsigned char img[PD_ATTR_SIZE_MAX];
	struct pd_cursor c;
	uint32_t size;
	size_t used;

	memset(out, 0, sizeof(*out));
	if (len < PD_ATTR_SIZE_VER0)
		return -PD_E_BAD_ATTR;
	size = pd_load_u32((const unsigned char *)buf + 4, swap);
	if (size != 0 && size < PD_ATTR_SIZE_VER0)
		return -PD_E_BAD_ATTR;
	used = size ? size : PD_ATTR_SIZE_VER0;
	if (used > len)
		used = len;
	if (used > sizeof(img))
		used = sizeof(img);
	memset(img, 0, sizeof(img));
	memcpy(img, buf, used);

	cur_init(&c, img, sizeof(img), swap);
	out->type = cur_u32(&c);
	out->size = cur_u32(&c);
	out->config = cur_u64(&c);
	out->sample_period = cur_u64(&c);
	out->sample_type = cur_u64(&c);
	out->read_format = cur_u64(&c);
	out->flags = cur_u64(&c);
	out->wakeup_events = cur_u32(&c);
	out->bp_type = cur_u32(&c);
	out->config1 = cur_u64(&c);
	out->config2 = cur_u64(&c);
	out->branch_sample_type = cur_u64(&c);
	out->sample_regs_user = cur_u64(&c);
	out->sample_stack_user = cur_u32(&c);
	out->clockid = (int32_t)cur_u32(&c);
	out->sample_regs_intr = cur_u64(&c);
	out->aux_watermark = cur_u32(&c);
	out->sample_max_stack = cur_u16(&c);
	out->reserved_2 = cur_u16(&c);
	out->aux_sample_size = cur_u32(&c);
	out->aux_action = cur_u32(&c);
	out->sig_data = cur_u64(&c);
	out->config3 = cur_u64(&c);
	out->config4 = cur_u64(&c);
	if (pd_file_big_endian(swap)) {
		out->flags = flags_mirror(out->flags, false);
		out->aux_action = aux_action_mirror(out->aux_action);
	}
	return 0;
}

static void
put_bytes(unsigned char *buf, size_t size, size_t *at, const void *v, size_t n)
{
	/* fields past a smaller attr size are dropped, not written */
	if (*at <= size && size - *at >= n)
		memcpy(buf + *at, v, n);
	*at += n;
}

#define PUT(field) put_bytes(buf, size, &at, &(field), sizeof(field))

void
pd_attr_encode(const struct pd_attr *attr, uint32_t size, void *buf)
{
	size_t at = 0;
	uint64_t flags = attr->flags;
	uint32_t aux_action = attr->aux_action;

	if (PD_HOST_BIG_ENDIAN) {
		flags = flags_mirror(flags, true);
		aux_action = aux_action_mirror(aux_action);
	}
	memset(buf, 0, size);
	PUT(attr->type);
	PUT(size);
	PUT(attr->config);
	PUT(attr->sample_period);
	PUT(attr->sample_type);
	PUT(attr->read_format);
	PUT(flags);
	PUT(attr->wakeup_events);
	PUT(attr->bp_type);
	PUT(attr->config1);
	PUT(attr->config2);
	PUT(attr->branch_sample_type);
	PUT(attr->sample_regs_user);
	PUT(attr->sample_stack_user);
	PUT(attr->clockid);
	PUT(attr->sample_regs_intr);
	PUT(attr->aux_watermark);
	PUT(attr->sample_max_stack);
	PUT(attr->reserved_2);
	PUT(attr->aux_sample_size);
	PUT(aux_action);
	PUT(attr->sig_data);
	PUT(attr->config3);
	PUT(attr->config4);
}
