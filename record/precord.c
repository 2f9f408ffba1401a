/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * record/precord.c - precord's main.
 */
#include "config.h"

#include <stdio.h>

int
main(void)
{
	fputs("precord: not built yet\n", stderr);
	return 1;
}
