/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * tests/fuzz/fuzz-archive.c - libFuzzer target for the pdata symbol
 * archive reader (symbol/archive-file.c, archive-codec.c,
 * archive-cfi-codec.c, archive-inline-codec.c).
 *
 * An input that starts with the archive's magic is a whole archive: it
 * goes into an in-memory file (memfd_create()) opened by sym_ar_open()
 * through /proc/self/fd, and every entry is read to its last byte, looked
 * up again by its key, its call frame information rebuilt into an
 * .eh_frame image, and its payload encoded and decoded once more, which
 * must give the same tables.  As the archive checks its entries and index
 * with checksums, most mutations stop there; so any other input is one
 * entry's payload (first byte: bit 0 lenient), given straight to
 * sym_ar_payload_decode(), symbols, covers, lines, call frame tables and
 * inline frames.
 */
#include "config.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbol/archive-int.h"
#include "symbol/archive.h"
#include "tests/fuzz/fuzz.h"

static void
touch_cstr(const char *s)
{
	if (s)
		touch(s, strlen(s));
}

static void
touch_cfi(const struct sym_ar_cfi *c)
{
	unsigned char *image = NULL;
	size_t i, len = 0;

	sink += c->machine + c->type + c->eh_frame_addr + c->hdr_addr;
	for (i = 0; i < c->nr_loads; i++)
		sink += c->loads[i].vaddr + c->loads[i].memsz;
	for (i = 0; i < c->nr_pieces; i++)
		touch(c->pieces[i].bytes, c->pieces[i].len);
	for (i = 0; i < c->nr_rows; i++)
		sink += c->rows[i].pc + c->rows[i].fde_off;
	if (sym_ar_cfi_image(c, &image, &len) == 0 && len)
		touch(image, len);
	free(image);
}

static void
touch_inlines(const struct sym_ar_inlines *t)
{
	size_t i;

	for (i = 0; i < t->nr_addrs; i++)
		sink += t->addrs[i].addr + t->addrs[i].first + t->addrs[i].nr;
	for (i = 0; i < t->nr_frames; i++) {
		touch_cstr(t->frames[i].name);
		touch_cstr(t->frames[i].srcline);
	}
}

static void
touch_dso(const struct sym_ar_dso *d)
{
	size_t i;

	touch_cstr(d->name);
	for (i = 0; i < d->nr_syms; i++) {
		touch_cstr(d->syms[i].name);
		sink += d->syms[i].start + d->syms[i].end;
	}
	for (i = 0; i < d->nr_covers; i++)
		sink += d->covers[i].lo + d->covers[i].hi + d->covers[i].sym;
	for (i = 0; i < d->nr_lines; i++) {
		touch_cstr(d->lines[i].line);
		sink += d->lines[i].addr;
	}
	if (d->cfi)
		touch_cfi(d->cfi);
	if (d->inl)
		touch_inlines(d->inl);
}

/* Encoding what was decoded and decoding it again gives the same tables. */
static void
recode(const struct sym_ar_dso *d)
{
	struct ar_buf b = { 0 };
	struct sym_ar_dso again = { 0 };
	uint64_t budget = AR_MEM_TOTAL_MAX;
	void *mem = NULL;
	char why[256];

	if (sym_ar_payload_encode(d, &b, why, sizeof(why)) == 0) {
		if (sym_ar_payload_decode(b.p, b.len, false, &budget, &again,
					  &mem, why, sizeof(why))) {
			fprintf(stderr, "fuzz-archive: %s\n", why);
			abort();
		}
		if (again.nr_syms != d->nr_syms ||
		    again.nr_covers != d->nr_covers ||
		    again.nr_lines != d->nr_lines ||
		    !again.cfi != !d->cfi || !again.inl != !d->inl) {
			fprintf(stderr, "fuzz-archive: the payload changed\n");
			abort();
		}
	}
	free(again.cfi);
	free(again.inl);
	free(mem);
	ar_buf_free(&b);
}

static void
ignore_warning(void *ctx, const char *msg)
{
	(void)ctx;
	sink += strlen(msg);
}

static void
whole_archive(const uint8_t *data, size_t size)
{
	int fd = fuzz_memfd("fuzz-archive", data, size);
	const struct sym_ar_dso *d;
	struct sym_ar *a = NULL;
	char path[64], err[256];
	size_t i;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (sym_ar_open(path, &a, ignore_warning, NULL, err, sizeof(err))) {
		sink += strlen(err);
	} else {
		for (i = 0; i < sym_ar_count(a); i++) {
			d = sym_ar_entry(a, i);
			touch_dso(d);
			if (sym_ar_find(a, d->kind, d->build_id,
					d->build_id_size, d->name) == NULL)
				sink++;
			recode(d);
		}
		sym_ar_close(a);
	}
	close(fd);
}

static void
payload(const uint8_t *data, size_t size)
{
	struct sym_ar_dso d = { 0 };
	uint64_t budget = AR_MEM_TOTAL_MAX;
	void *mem = NULL;
	char why[256];

	if (sym_ar_payload_decode(data + 1, size - 1, data[0] & 1, &budget, &d,
				  &mem, why, sizeof(why)) == 0) {
		touch_dso(&d);
		recode(&d);
	} else {
		sink += strlen(why);
	}
	free(d.cfi);
	free(d.inl);
	free(mem);
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size >= AR_MAGIC_LEN && !memcmp(data, AR_MAGIC, AR_MAGIC_LEN))
		whole_archive(data, size);
	else if (size > 0)
		payload(data, size);
	return 0;
}
