/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
#ifndef PDATA_TEXT_H
#define PDATA_TEXT_H
#endif
