/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * lib/dynlib.h - a library loaded at its first use (dlopen(3)), so that
 * a run that never needs it does not pay for loading it and everything
 * it needs: libarchive and libdebuginfod bring some forty libraries
 * between them, most of a small report's start-up.
 *
 * A user lists the functions it calls, X(name) each, keeps their
 * pointers in a struct of DYNLIB_FIELD()s, and fills each with
 * dynlib_sym(handle, "name", &fns.name).
 */
#ifndef PD_LIB_DYNLIB_H
#define PD_LIB_DYNLIB_H

#include <stdbool.h>

/* A pointer to function name, of its own type (from its header). */
#define DYNLIB_FIELD(name)	__typeof__(&name) name;

/* The library soname; NULL with *why set to dlerror(3)'s text. */
void *dynlib_open(const char *soname, const char **why);

/*
 * Stores the address of function name of handle into *fn, a function
 * pointer of any type.  False, *fn untouched, when there is none.
 */
bool dynlib_sym(void *handle, const char *name, void *fn);

#endif
