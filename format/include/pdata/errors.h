/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * pdata/errors.h - the error values of the perf.data library.
 *
 * Library functions return 0 (or a positive count) on success, -PD_E_*
 * for a format or library error, and -errno (below -PD_ERRNO_BASE) for a
 * failed system call.  pd_strerror() names either kind.
 */
#ifndef PDATA_ERRORS_H
#define PDATA_ERRORS_H

#define PD_ERRORS							\
	PD_E(OK,		"no error")				\
	PD_E(BAD_MAGIC,		"not a perf.data file (bad magic)")	\
	PD_E(BAD_HEADER,	"inconsistent file header")		\
	PD_E(TRUNCATED,		"file ends inside a record or section")	\
	PD_E(BAD_ATTR,		"bad event attribute")			\
	PD_E(BAD_RECORD,	"malformed record")			\
	PD_E(BAD_SIZE,		"record size out of range")		\
	PD_E(BAD_SAMPLE,	"sample does not match its sample_type") \
	PD_E(BAD_FEATURE,	"malformed feature section")		\
	PD_E(ZSTD,		"zstd decompression failed")		\
	PD_E(TOO_BIG,		"a count or size exceeds the limits pdata accepts") \
	PD_E(NOMEM,		"out of memory")			\
	PD_E(INVAL,		"invalid argument")			\
	PD_E(UNSUPPORTED,	"not supported")			\
	PD_E(BAD_DIR,		"not a perf.data directory")

enum pd_error {
#define PD_E(name, text) PD_E_##name,
	PD_ERRORS
#undef PD_E
	PD_E_COUNT
};

/* -errno values are shifted below this so they never collide with -PD_E_*. */
#define PD_ERRNO_BASE	1000
#define PD_ERR_ERRNO(e)	(-(PD_ERRNO_BASE + (e)))

/* err is 0, -PD_E_* or PD_ERR_ERRNO(errno). */
const char *pd_strerror(int err);

#endif /* PDATA_ERRORS_H */
