/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * session/hint.h - the DSOs a file's samples land in, named to the
 * loading thread by the reading thread as it reads (hint.c).
 */
#ifndef PD_SESSION_HINT_H
#define PD_SESSION_HINT_H

#include <stdint.h>

#include "pdata/reader.h"
#include "pdata/sample.h"

struct ses_session;

/* Sets it up for the reading thread, when DSOs are loaded ahead. */
void ses_hints_start(struct ses_session *s);
void ses_hints_free(struct ses_session *s);
/* The reading thread: a record read (the maps of MMAP and MMAP2). */
void ses_hint_record(struct ses_session *s, const struct pd_record *rec);
/*
 * The reading thread, for every sample it reads (one in a few is looked
 * at): a sample not decoded ahead (decoded here when looked at)...
 */
void ses_hint_undecoded(struct ses_session *s, const struct pd_record *rec);
/* ...a sample decoded ahead, whole... */
void ses_hint_decoded(struct ses_session *s, const struct pd_sample *ps);
/* ...a sample whose key fields were decoded ahead, of pid at ip. */
void ses_hint_sample(struct ses_session *s, int32_t pid, uint64_t ip,
		     uint8_t cpumode);

#endif /* PD_SESSION_HINT_H */
