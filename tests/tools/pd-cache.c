/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * tests/tools/pd-cache.c - drive symbol/buildid-cache.c from the tests.
 *
 *   pd-cache dir                          print sym_cache_dir()
 *   pd-cache add DIR NAME HEX [SRC]       sym_cache_add(); SRC "-": NULL
 *   pd-cache tar OUT DIR NAME:HEX...      sym_perf_tar_write(); prints
 *                                         "missing N"
 *
 * Errors go to stderr as "pd-cache: MESSAGE"; the exit status is 1.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbol/buildid-cache.h"
#include "symbol/symbol.h"

static size_t
parse_hex(const char *s, uint8_t *out)
{
	size_t n = 0;

	if (strlen(s) % 2 || strlen(s) > 2 * SYM_BUILD_ID_MAX)
		return 0;
	while (s[0] && s[1]) {
		unsigned v;

		if (sscanf(s, "%2x", &v) != 1)
			return 0;
		out[n++] = (uint8_t)v;
		s += 2;
	}
	return n;
}

static int
usage(void)
{
	fputs("usage: pd-cache dir\n"
	      "       pd-cache add DIR NAME HEX [SRC]\n"
	      "       pd-cache tar OUT DIR NAME:HEX...\n", stderr);
	return 2;
}

static int
cmd_add(int argc, char **argv)
{
	uint8_t bid[SYM_BUILD_ID_MAX];
	const char *src = NULL;
	char err[512];
	size_t n;

	if (argc < 5 || argc > 6)
		return usage();
	n = parse_hex(argv[4], bid);
	if (!n) {
		fprintf(stderr, "pd-cache: bad build-id %s\n", argv[4]);
		return 1;
	}
	if (argc == 6 && strcmp(argv[5], "-"))
		src = argv[5];
	if (sym_cache_add(argv[2], argv[3], bid, n, src, err,
			  sizeof(err)) < 0) {
		fprintf(stderr, "pd-cache: %s\n", err);
		return 1;
	}
	return 0;
}

static int
cmd_tar(int argc, char **argv)
{
	struct sym_cache_ref *refs;
	size_t i, nr, missing = 0;
	char err[512];
	int r;

	if (argc < 4)
		return usage();
	nr = (size_t)(argc - 4);
	refs = calloc(nr ? nr : 1, sizeof(*refs));
	if (!refs)
		return 1;
	for (i = 0; i < nr; i++) {
		char *colon = strrchr(argv[4 + i], ':');

		if (!colon) {
			free(refs);
			return usage();
		}
		*colon = '\0';
		refs[i].name = argv[4 + i];
		refs[i].bid_size = parse_hex(colon + 1, refs[i].bid);
	}
	r = sym_perf_tar_write(argv[2], argv[3], refs, nr, &missing, err,
			       sizeof(err));
	free(refs);
	if (r < 0) {
		fprintf(stderr, "pd-cache: %s\n", err);
		return 1;
	}
	printf("missing %zu\n", missing);
	return 0;
}

int
main(int argc, char **argv)
{
	if (argc < 2)
		return usage();
	if (!strcmp(argv[1], "dir")) {
		char *d = sym_cache_dir();

		if (!d)
			return 1;
		puts(d);
		free(d);
		return 0;
	}
	if (!strcmp(argv[1], "add"))
		return cmd_add(argc, argv);
	if (!strcmp(argv[1], "tar"))
		return cmd_tar(argc, argv);
	return usage();
}
