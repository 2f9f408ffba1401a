/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * script/main.c - pscript's main(), apart from the tool itself
 * (pscript.c), which tests/fuzz/fuzz-script.c calls too.
 */
#include "config.h"

#include "script/scr.h"

int
main(int argc, char **argv)
{
	return pscript_main(argc, argv);
}
