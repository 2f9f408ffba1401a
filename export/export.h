/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * export/export.h - pexport: a recording written in another tool's
 * format, from the engine's events (session/), never from text.
 */
#ifndef PD_EXPORT_EXPORT_H
#define PD_EXPORT_EXPORT_H

#include <stdint.h>
#include <stdio.h>

#include "pdata/reader.h"
#include "session/session.h"

struct exp_run {
	struct pd_reader *r;
	struct ses_session *ses;
	const char *input;		/* the recording's path, for messages */
	FILE *out;
	uint64_t samples;		/* written */
};

/*
 * --to json: perf data convert --to-json of perf 6.1, byte for byte
 * (export/json.c).  Returns 0, or -1 after a message.
 */
int exp_json(struct exp_run *x);

#endif /* PD_EXPORT_EXPORT_H */
