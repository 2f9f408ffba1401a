/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * format/meta.c - the lifetime of struct pd_meta: what each feature's
 * row (features.c) owns is released through the row, and feature ids
 * pdata does not know are noted once each.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "format/feat-int.h"
#include "pdata/meta.h"

const char *
pd_feature_name(unsigned int feat)
{
	const struct feat_ops *row = pd_feat_ops_of(feat);

	return row ? row->name : NULL;
}

void
pd_meta_init(struct pd_meta *m)
{
	memset(m, 0, sizeof(*m));
}

void
pd_meta_note_unknown_feature(struct pd_meta *m, unsigned int feat)
{
	size_t i;

	for (i = 0; i < m->nr_unknown_features; i++)
		if (m->unknown_features[i] == feat)
			return;
	if (m->nr_unknown_features < PD_FEAT_BITS)
		m->unknown_features[m->nr_unknown_features++] = feat;
}

void
pd_meta_clear_feature(struct pd_meta *m, unsigned int feat)
{
	const struct feat_ops *row = pd_feat_ops_of(feat);

	if (row && row->clear)
		row->clear(m, feat);
	if (feat < PD_FEAT_BITS)
		m->features[feat / 64] &= ~(1ULL << (feat % 64));
}

void
pd_strlist_free(struct pd_strlist *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++)
		free(l->s[i]);
	free(l->s);
	l->s = NULL;
	l->nr = 0;
}

void
pd_caps_free(struct pd_cap *caps, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		free(caps[i].name);
		free(caps[i].value);
	}
	free(caps);
}

void
pd_meta_free(struct pd_meta *m)
{
	const struct feat_ops *row;
	unsigned int feat;
	size_t i;

	for (feat = 0; (row = pd_feat_ops_of(feat)); feat++)
		if (row->clear)
			row->clear(m, feat);
	for (i = 0; i < m->nr_build_ids; i++)
		free(m->build_ids[i].filename);
	free(m->build_ids);
	free(m->tracing_data_blob);
	memset(m, 0, sizeof(*m));
}
