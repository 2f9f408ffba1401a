/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/* record/record.h - precord internals (owned by the precord core). */
#ifndef PD_RECORD_H
#define PD_RECORD_H
#endif
