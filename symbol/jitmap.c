/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * symbol/jitmap.c - /tmp/perf-PID.map files (doc/perf-records.md
 * §7.7): "START SIZE NAME" lines, START and SIZE in hex.  As perf 6.1
 * reads them: the last character of every line is dropped (the newline,
 * or the last name character of an unterminated last line), short lines
 * are skipped, and no end fixup or duplicate removal is applied.
 * Newer perf reads only those owned by the user or root unless -f
 * (doc/security.md); we do, and only regular files.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <elf.h>

#include "lib/safefile.h"
#include "symbol/sym-int.h"

static size_t
hex_prefix(const char *s, uint64_t *val)
{
	size_t n = 0;
	uint64_t v = 0;

	for (;; n++) {
		int c = s[n], d;

		if (c >= '0' && c <= '9')
			d = c - '0';
		else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
			d = (c | 0x20) - 'a' + 10;
		else
			break;
		v = v << 4 | (uint64_t)d;
	}
	*val = v;
	return n;
}

int
sym_jitmap_load(const char *path, bool force, struct sym_table **out)
{
	struct sym_builder b;
	struct stat st;
	char *line = NULL;
	size_t cap = 0;
	ssize_t got;
	FILE *f;
	int fd;

	*out = NULL;
	fd = sfile_open_input(path, 0, &st);
	if (fd < 0)
		return fd;
	if (!force && !sfile_owned(&st)) {
		close(fd);
		return -EPERM;
	}
	f = fdopen(fd, "r");
	if (!f) {
		close(fd);
		return -ENOMEM;
	}
	sym_builder_init(&b);
	while ((got = getline(&line, &cap, f)) >= 0) {
		size_t len = (size_t)got, pos;
		uint64_t start, size;

		if (len == 0)
			continue;
		line[--len] = '\0';
		pos = hex_prefix(line, &start) + 1;
		if (pos + 2 >= len)
			continue;
		pos += hex_prefix(line + pos, &size) + 1;
		if (pos + 2 >= len)
			continue;
		sym_builder_add(&b, start, size, STB_GLOBAL, STT_FUNC,
				line + pos);
	}
	free(line);
	fclose(f);
	*out = sym_builder_finish(&b);
	return *out ? 0 : -ENOMEM;
}
