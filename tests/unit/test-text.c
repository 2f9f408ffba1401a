/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
#include "config.h"
#include "tests/unit/t.h"
int main(void) { return t_done("text"); }
