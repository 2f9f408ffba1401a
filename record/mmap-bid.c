/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * record/mmap-bid.c - precord --buildid-mmap: the probe for attr.build_id
 * and the rewriting of synthesised maps into build-id MMAP2s.
 *
 * With --buildid-mmap perf 6.1 synthesises the kernel map and the
 * modules as MMAP2 rather than MMAP, and every synthesised MMAP2 whose
 * file has a build-id carries it instead of the device and inode
 * (util/synthetic-events.c with symbol_conf.buildid_mmap2): the id's size
 * byte, three reserved bytes, the 20 id bytes, and
 * PERF_RECORD_MISC_MMAP_BUILD_ID in misc.  The kernel's id comes from
 * /sys/kernel/notes; a module's and a user file's from the file.  The
 * maps perf turns from MMAP to MMAP2 keep prot and flags 0, as perf's
 * zeroed record leaves them.  Layouts: doc/perf-data-format.md, MMAP and
 * MMAP2.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lib/u64map.h"
#include "lib/xalloc.h"
#include "pdata/abi.h"
#include "record/buildid-int.h"
#include "record/record.h"
#include "symbol/symbol.h"

/* header, pid, tid, start, len, pgoff */
#define MMAP_HEAD	40
/* MMAP2: maj, min, ino, ino_generation or the build-id; prot, flags */
#define MMAP2_ID_BLOCK	24
#define MMAP2_HEAD	(MMAP_HEAD + MMAP2_ID_BLOCK + 8)

#define KERNEL_PREFIX	"[kernel.kallsyms]"

struct bid_file {
	char *name;
	uint8_t size;			/* 0: the file has none */
	uint8_t id[PD_BUILD_ID_SIZE];
};

struct rec_bid_emit {
	rec_write_fn next;
	void *next_ctx;
	struct bid_file *files;
	size_t nr_files;
	struct u64map by_name;		/* name hash -> files index + 1 */
	unsigned char *buf;		/* the rewritten record */
};

bool
rec_can_record_build_id(void)
{
	/* perf_event_attr up to the build_id bit: PERF_ATTR_SIZE_VER5 */
	uint64_t attr[14] = { 0 };
	long fd;

	/* cpu-clock:u on this thread, as perf's probe tries it */
	attr[0] = (uint64_t)PD_TYPE_SOFTWARE | (uint64_t)112 << 32;
	attr[1] = 0;			/* PERF_COUNT_SW_CPU_CLOCK */
	attr[5] = 1ULL << PD_ATTR_DISABLED | 1ULL << PD_ATTR_EXCLUDE_KERNEL |
		  1ULL << PD_ATTR_EXCLUDE_HV | 1ULL << PD_ATTR_BUILD_ID;
	fd = syscall(__NR_perf_event_open, attr, 0, -1, -1, 0UL);
	if (fd < 0)
		return errno != EINVAL && errno != E2BIG;
	close((int)fd);
	return true;
}

struct rec_bid_emit *
rec_bid_emit_new(rec_write_fn next, void *next_ctx)
{
	struct rec_bid_emit *e = xcalloc(1, sizeof(*e));

	e->next = next;
	e->next_ctx = next_ctx;
	e->buf = xmalloc(PD_RECORD_MAX_SIZE);
	return e;
}

void
rec_bid_emit_free(struct rec_bid_emit *e)
{
	if (!e)
		return;
	for (size_t i = 0; i < e->nr_files; i++)
		free(e->files[i].name);
	free(e->files);
	u64map_free(&e->by_name);
	free(e->buf);
	free(e);
}

/* The build-id of the file name, read once per name. */
static const struct bid_file *
file_build_id(struct rec_bid_emit *e, const char *name)
{
	uint64_t *slot = u64map_slot(&e->by_name, u64map_str_key(name));
	uint8_t id[SYM_BUILD_ID_MAX];
	struct bid_file *f;
	int n;

	if (*slot && !strcmp(e->files[*slot - 1].name, name))
		return &e->files[*slot - 1];
	e->files = xreallocarray(e->files, e->nr_files + 1, sizeof(*e->files));
	f = &e->files[e->nr_files];
	memset(f, 0, sizeof(*f));
	f->name = xstrdup(name);
	n = name[0] == '/' ? sym_elf_build_id(name, id) : 0;
	if (n > 0) {
		f->size = (uint8_t)(n < PD_BUILD_ID_SIZE ? n :
				    PD_BUILD_ID_SIZE);
		memcpy(f->id, id, f->size);
	}
	/* a hash collision keeps the first name: the other reads again */
	if (!*slot)
		*slot = e->nr_files + 1;
	e->nr_files++;
	return f;
}

/*
 * The build-id of a map's file: the kernel's from its notes, any other
 * from the file; 0 when there is none.
 */
static size_t
map_build_id(struct rec_bid_emit *e, const char *name,
	     uint8_t out[PD_BUILD_ID_SIZE])
{
	const struct bid_file *f;

	if (!strncmp(name, KERNEL_PREFIX, sizeof(KERNEL_PREFIX) - 1))
		return rec_kernel_build_id(out);
	f = file_build_id(e, name);
	memcpy(out, f->id, f->size);
	return f->size;
}

/* The filename of a map record at off: its length with padding, or 0. */
static size_t
name_span(const unsigned char *rec, size_t size, size_t off)
{
	const unsigned char *nul;

	if (size <= off)
		return 0;
	nul = memchr(rec + off, '\0', size - off);
	if (!nul)
		return 0;
	return ((size_t)(nul - (rec + off)) + 1 + 7) & ~(size_t)7;
}

static void
put_id_block(unsigned char *p, const uint8_t *id, size_t n)
{
	memset(p, 0, MMAP2_ID_BLOCK);
	p[0] = (unsigned char)n;
	memcpy(p + 4, id, n);
}

/* MMAP -> MMAP2 with prot and flags 0, and the build-id when known. */
static int
rewrite_mmap(struct rec_bid_emit *e, const unsigned char *rec, size_t size)
{
	size_t span = name_span(rec, size, MMAP_HEAD);
	size_t out = size + MMAP2_ID_BLOCK + 8;
	uint8_t id[PD_BUILD_ID_SIZE];
	struct pd_event_header h;
	size_t n;

	if (!span || MMAP_HEAD + span > size || out > PD_RECORD_MAX_SIZE)
		return e->next(e->next_ctx, rec, size);
	n = map_build_id(e, (const char *)rec + MMAP_HEAD, id);
	memcpy(e->buf, rec, MMAP_HEAD);
	memset(e->buf + MMAP_HEAD, 0, MMAP2_ID_BLOCK + 8);
	if (n)
		put_id_block(e->buf + MMAP_HEAD, id, n);
	memcpy(e->buf + MMAP2_HEAD, rec + MMAP_HEAD, size - MMAP_HEAD);
	memcpy(&h, e->buf, sizeof(h));
	h.type = PD_RECORD_MMAP2;
	h.size = (uint16_t)out;
	if (n)
		h.misc |= PD_MISC_MMAP_BUILD_ID;
	memcpy(e->buf, &h, sizeof(h));
	return e->next(e->next_ctx, e->buf, out);
}

/* A file MMAP2: its device and inode give way to the build-id. */
static int
rewrite_mmap2(struct rec_bid_emit *e, const unsigned char *rec, size_t size)
{
	size_t span = name_span(rec, size, MMAP2_HEAD);
	uint8_t id[PD_BUILD_ID_SIZE];
	struct pd_event_header h;
	size_t n;

	memcpy(&h, rec, sizeof(h));
	if (!span || (h.misc & PD_MISC_MMAP_BUILD_ID))
		return e->next(e->next_ctx, rec, size);
	n = map_build_id(e, (const char *)rec + MMAP2_HEAD, id);
	if (!n)
		return e->next(e->next_ctx, rec, size);
	memcpy(e->buf, rec, size);
	put_id_block(e->buf + MMAP_HEAD, id, n);
	h.misc |= PD_MISC_MMAP_BUILD_ID;
	memcpy(e->buf, &h, sizeof(h));
	return e->next(e->next_ctx, e->buf, size);
}

int
rec_bid_emit(void *ctx, const void *rec, size_t size)
{
	struct rec_bid_emit *e = ctx;
	struct pd_event_header h;

	if (size < sizeof(h))
		return e->next(e->next_ctx, rec, size);
	memcpy(&h, rec, sizeof(h));
	if (h.type == PD_RECORD_MMAP)
		return rewrite_mmap(e, rec, size);
	if (h.type == PD_RECORD_MMAP2)
		return rewrite_mmap2(e, rec, size);
	return e->next(e->next_ctx, rec, size);
}
