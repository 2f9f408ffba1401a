/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * tests/unit/t.h - a minimal unit-test harness.
 *
 * T(cond, fmt, ...) records a failure with its location and goes on, so
 * one run lists every broken check.  T_EQ_U64 prints both values.  main()
 * ends with t_done(), which prints the tally and returns the exit status
 * automake expects (0 pass, 1 fail).  t_tmpdir() makes a test's scratch
 * directory.
 */
#ifndef PD_TESTS_T_H
#define PD_TESTS_T_H

#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

static unsigned int t_checks, t_failures;

static void __attribute__((format(printf, 3, 4), unused))
t_fail(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	t_failures++;
	fprintf(stderr, "%s:%d: FAIL: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

#define T(cond, ...)							\
	do {								\
		t_checks++;						\
		if (!(cond))						\
			t_fail(__FILE__, __LINE__, __VA_ARGS__);	\
	} while (0)

#define T_EQ_U64(got, want, what)					\
	do {								\
		uint64_t t_g_ = (uint64_t)(got), t_w_ = (uint64_t)(want); \
		T(t_g_ == t_w_, "%s: got %#" PRIx64 ", want %#" PRIx64,	\
		  (what), t_g_, t_w_);					\
	} while (0)

#define T_EQ_STR(got, want, what)					\
	do {								\
		const char *t_g_ = (got), *t_w_ = (want);		\
		T(t_g_ && t_w_ && strcmp(t_g_, t_w_) == 0,		\
		  "%s: got \"%s\", want \"%s\"", (what),		\
		  t_g_ ? t_g_ : "(null)", t_w_ ? t_w_ : "(null)");	\
	} while (0)

/*
 * A new directory $TMPDIR/pdata-NAME.<six random characters> (or under
 * /tmp) into dir; false when it cannot be made.  t_tmpdir_remove()
 * removes it and all in it.
 */
static inline bool
t_tmpdir(const char *name, char *dir, size_t len)
{
	const char *base = getenv("TMPDIR");
	char unique[7];

	/* mkdtemp's template: six capital letters it replaces */
	memset(unique, 'X', 6);
	unique[6] = '\0';
	snprintf(dir, len, "%s/pdata-%s.%s",
		 base && *base ? base : "/tmp", name, unique);
	if (mkdtemp(dir))
		return true;
	perror("mkdtemp");
	return false;
}

static inline void
t_tmpdir_remove(const char *dir)
{
	size_t len = strlen(dir) + 16;
	char *cmd = malloc(len);

	snprintf(cmd, len, "rm -rf '%s'", dir);
	if (!cmd || system(cmd) != 0)
		perror("rm");
	free(cmd);
}

static inline int
t_done(const char *name)
{
	printf("%s: %u checks, %u failed\n", name, t_checks, t_failures);
	return t_failures ? 1 : 0;
}

#endif /* PD_TESTS_T_H */
