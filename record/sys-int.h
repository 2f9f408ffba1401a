/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * record/sys-int.h - small readers of /proc and /sys shared by the files
 * behind record/sys.h.  Each returns 0 or -errno and never prints.
 */
#ifndef PD_RECORD_SYS_INT_H
#define PD_RECORD_SYS_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The most a /proc or /sys file may hold for these readers. */
#define REC_SYS_FILE_MAX	(64U << 20)

/* The whole file, NUL-terminated (*len excludes the NUL); free() it. */
int rec_sys_read_file(const char *path, char **out, size_t *len);

/* The first line, without its newline; free() it. */
int rec_sys_read_line(const char *path, char **out);

/* The first line trimmed of white space on both sides; free() it. */
int rec_sys_read_trimmed(const char *path, char **out);

/* A decimal integer, as atoi() reads it (perf's sysfs__read_int). */
int rec_sys_read_int(const char *path, int *out);

/* A hexadecimal integer, with or without 0x (perf's sysfs__read_xll). */
int rec_sys_read_hex(const char *path, uint64_t *out);

/* The highest number in a cpu list file, plus one (perf's get_max_num). */
int rec_sys_list_max(const char *path, int *out);

#endif /* PD_RECORD_SYS_INT_H */
