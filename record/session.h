/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/* record/session.h - one recording, from the parsed options to the file. */
#ifndef PD_RECORD_SESSION_H
#define PD_RECORD_SESSION_H

#include "record/record.h"

/*
 * Record as the options say; returns the exit status (the workload's,
 * or 1 on failure), or re-raises the workload's fatal signal.
 */
int rec_session_run(struct rec_opts *o, int argc, char **argv);

#endif /* PD_RECORD_SESSION_H */
