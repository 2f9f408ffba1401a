/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * script/tracememo.c - the `trace` text of tracepoint samples, kept by
 * their raw data: libtraceevent's text is a function of the event and
 * the raw bytes alone, and a workload repeats them often (a loop's
 * system calls with the same arguments, switches between the same
 * tasks), so a sample whose event and bytes were printed before copies
 * that text instead of formatting it again.
 *
 * What is kept is bounded (MEMO_MAX bytes of raw data and text, in
 * MEMO_MAX_ENTS entries at most).  An
 * event whose samples seldom repeat (fewer than one in MEMO_MIN_RATE of
 * its first MEMO_TRIAL) is no longer looked up: hashing it would only
 * cost.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "lib/u64map.h"
#include "lib/xalloc.h"
#include "script/scr.h"

#define MEMO_MAX	((size_t)4 << 20)
#define MEMO_MAX_ENTS	((size_t)1 << 16)
#define MEMO_TRIAL	4096u
#define MEMO_MIN_RATE	8u

struct memo_ent {
	uint64_t config;	/* the tracepoint's id */
	size_t raw_off, text_off;	/* in bytes */
	uint32_t raw_len, text_len;
};

/* how an event's lookups went */
struct memo_stat {
	uint32_t lookups, hits;
	bool off;
};

struct ses_trace_memo {
	struct u64map by_hash;	/* hash of config and raw -> entry + 1 */
	struct u64map by_event;	/* config -> stat + 1 */
	uint64_t last_config;	/* the event last looked up, */
	struct memo_stat *last;	/* its stat (NULL: none yet) */
	struct memo_ent *ents;
	size_t nr_ents, cap_ents;
	struct memo_stat *stats;
	size_t nr_stats;
	char *bytes;		/* raw data and text of every entry */
	size_t len, cap;
};

static struct memo_stat *
event_stat(struct ses_trace_memo *m, uint64_t config)
{
	uint64_t *slot;

	if (m->last && m->last_config == config)
		return m->last;
	slot = u64map_slot(&m->by_event, config);
	if (!*slot) {
		m->stats = xreallocarray(m->stats, m->nr_stats + 1,
					 sizeof(*m->stats));
		m->stats[m->nr_stats++] = (struct memo_stat){ 0 };
		*slot = m->nr_stats;
	}
	/* stats moves when it grows: m->last is taken again then */
	m->last_config = config;
	m->last = &m->stats[*slot - 1];
	return m->last;
}

static bool
ent_matches(const struct ses_trace_memo *m, const struct memo_ent *e,
	    uint64_t config, const struct pd_bytes *raw)
{
	return e->config == config && e->raw_len == raw->len &&
	       memcmp(m->bytes + e->raw_off, raw->p, raw->len) == 0;
}

/* The entry kept for hash, config and raw, or NULL. */
static const struct memo_ent *
memo_find(const struct ses_trace_memo *m, uint64_t hash, uint64_t config,
	  const struct pd_bytes *raw)
{
	const uint64_t *v = u64map_find(&m->by_hash, hash);
	const struct memo_ent *e = v ? &m->ents[*v - 1] : NULL;

	return e && ent_matches(m, e, config, raw) ? e : NULL;
}

static void
stat_count(struct memo_stat *st, bool hit)
{
	st->lookups++;
	st->hits += hit;
	if (st->lookups == MEMO_TRIAL &&
	    st->hits < MEMO_TRIAL / MEMO_MIN_RATE)
		st->off = true;
}

static bool
bytes_fit(struct ses_trace_memo *m, size_t n)
{
	if (n > MEMO_MAX - m->len)
		return false;
	if (m->len + n > m->cap) {
		m->cap = m->cap ? m->cap : (size_t)1 << 16;
		while (m->cap < m->len + n)
			m->cap *= 2;
		if (m->cap > MEMO_MAX)
			m->cap = MEMO_MAX;
		m->bytes = xrealloc(m->bytes, m->cap);
	}
	return true;
}

static void
memo_put(struct ses_trace_memo *m, uint64_t hash, uint64_t config,
	 const struct pd_bytes *raw, const char *text, size_t text_len)
{
	struct memo_ent *e;

	if (raw->len > UINT32_MAX || text_len > UINT32_MAX ||
	    m->nr_ents == MEMO_MAX_ENTS || !bytes_fit(m, raw->len + text_len))
		return;
	if (m->nr_ents == m->cap_ents) {
		m->cap_ents = m->cap_ents ? m->cap_ents * 2 : 1024;
		m->ents = xreallocarray(m->ents, m->cap_ents,
					sizeof(*m->ents));
	}
	e = &m->ents[m->nr_ents++];
	*e = (struct memo_ent){ .config = config, .raw_off = m->len,
				.text_off = m->len + raw->len,
				.raw_len = (uint32_t)raw->len,
				.text_len = (uint32_t)text_len };
	memcpy(m->bytes + e->raw_off, raw->p, raw->len);
	memcpy(m->bytes + e->text_off, text, text_len);
	m->len += raw->len + text_len;
	*u64map_slot(&m->by_hash, hash) = m->nr_ents;
}


int
ses_trace_text(struct scr *s, const struct pd_attr *attr,
	       const struct pd_sample *ps, const char **text, size_t *len)
{
	struct ses_trace_memo *m = s->trace_memo;
	struct memo_stat *st;
	uint64_t h = 0;
	int err;

	if (!m)
		m = s->trace_memo = xcalloc(1, sizeof(*m));
	st = event_stat(m, attr->config);
	if (!st->off) {
		const struct memo_ent *e;

		h = XXH3_64bits_withSeed(ps->raw.p, ps->raw.len, attr->config);
		e = memo_find(m, h, attr->config, &ps->raw);
		stat_count(st, e != NULL);
		if (e) {
			*text = m->bytes + e->text_off;
			*len = e->text_len;
			return 0;
		}
	}
	sb_reset(&s->tbuf);
	err = ses_trace_format(s->trace, attr, ps, &s->tbuf);
	if (err)
		return err;
	*text = sb_str(&s->tbuf);
	*len = s->tbuf.len;
	/* a hash kept for other bytes keeps them */
	if (!st->off && !u64map_find(&m->by_hash, h))
		memo_put(m, h, attr->config, &ps->raw, *text, *len);
	return 0;
}

void
ses_trace_memo_free(struct scr *s)
{
	struct ses_trace_memo *m = s->trace_memo;

	if (!m)
		return;
	u64map_free(&m->by_hash);
	u64map_free(&m->by_event);
	free(m->ents);
	free(m->stats);
	free(m->bytes);
	free(m);
	s->trace_memo = NULL;
}
