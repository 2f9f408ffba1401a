/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
#ifndef PD_FORMAT_READER_INT_H
#define PD_FORMAT_READER_INT_H
#endif
