/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * lib/term.h - output for a terminal: percentages in colour, and a pager
 * that standard output goes through while the program runs.
 */
#ifndef PD_LIB_TERM_H
#define PD_LIB_TERM_H

#include <stdbool.h>
#include <stddef.h>

/*
 * text into buf (size bytes), wrapped in red when percent is 5 or more,
 * in green when above 0.5; as it is otherwise.
 */
void term_percent_color(char *buf, size_t size, double percent,
			const char *text);

/* A colour mode: 1 always, 0 never, -1 auto; -2 for none of these. */
int term_color_mode(const char *mode);

/*
 * Whether to colour: mode 1 or 0 as it says; -1 (auto) when standard
 * output is a terminal or the pager's and TERM is set and not "dumb";
 * -3 (no mode given) when it is a terminal or the pager's.
 */
bool term_use_color(int mode);

/*
 * When standard output is a terminal, start the pager (env_name's
 * value, else $PAGER, else /usr/bin/pager or /usr/bin/less; none when
 * it is empty or "cat") as `sh -c PAGER` reading what the program writes
 * to standard output (and to standard error, when that is the terminal
 * too); LESS defaults to FRSX.  At exit the program waits for it.
 * Returns whether it started one.
 */
bool term_pager_start(const char *env_name);
bool term_pager_active(void);

#endif /* PD_LIB_TERM_H */
