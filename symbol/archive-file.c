/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * symbol/archive-file.c - the archive's container: a header, entries
 * that each check themselves (a header with its own xxhash64, a zstd
 * payload with another), an index and a trailer (doc/symbol-archive.md,
 * "Container").
 *
 * The reader trusts nothing: the index is used only when its checksum
 * and every row agree with the entry headers they point at; otherwise
 * the entries are walked from the file header on, and each entry stands
 * or falls on its own checksums.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <xxhash.h>
#include <zstd.h>

#include "lib/safefile.h"
#include "lib/u64map.h"
#include "symbol/archive-int.h"

static int __attribute__((format(printf, 4, 5)))
set_err(int ret, char *err, size_t errsz, const char *fmt, ...)
{
	va_list ap;

	if (errsz) {
		va_start(ap, fmt);
		vsnprintf(err, errsz, fmt, ap);
		va_end(ap);
	}
	return ret;
}

/* The key's hash: kind and build-id size seed that of the build-id or name. */
static uint64_t
key_hash(unsigned int kind, const uint8_t *bid, size_t bid_size,
	 const char *name, size_t name_len)
{
	uint64_t seed = (uint64_t)kind << 8 | bid_size;

	if (bid_size)
		return XXH64(bid, bid_size, seed);
	return XXH64(name, name_len, seed);
}

static bool
kind_known(unsigned int kind)
{
	return kind >= SYM_AR_FILE && kind <= SYM_AR_RECORDING;
}

/* Writing. */

struct sym_ar_writer {
	char *path;
	struct sfile_out f;		/* the temporary file, renamed at the end */
	uint64_t off;			/* bytes written */
	struct ar_buf index;		/* the rows so far */
	size_t *row_at;			/* each row's offset in index */
	size_t count;
	struct u64map keys;		/* key hash -> entry number + 1 */
	ZSTD_CCtx *cctx;
	struct ar_buf raw, out;
	int broken;			/* a write failed: no more entries */
};

static int
write_all(int fd, const void *p, size_t n)
{
	const unsigned char *b = p;
	ssize_t w;

	while (n) {
		w = write(fd, b, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		if (w == 0)
			return -EIO;
		b += w;
		n -= (size_t)w;
	}
	return 0;
}

static void
writer_free(struct sym_ar_writer *w)
{
	sfile_abort(&w->f);
	free(w->path);
	ar_buf_free(&w->index);
	ar_buf_free(&w->raw);
	ar_buf_free(&w->out);
	free(w->row_at);
	u64map_free(&w->keys);
	ZSTD_freeCCtx(w->cctx);
	free(w);
}

int
sym_ar_writer_open(struct sym_ar_writer **out, const char *path,
		   char *err, size_t errsz)
{
	struct sym_ar_writer *w = calloc(1, sizeof(*w));
	struct ar_buf head = { 0 };
	int ret;

	*out = NULL;
	if (!w)
		return set_err(-ENOMEM, err, errsz, "%s: out of memory", path);
	w->f.fd = -1;
	w->keys = (struct u64map)U64MAP_INIT;
	w->path = strdup(path);
	w->cctx = ZSTD_createCCtx();
	if (!w->path || !w->cctx) {
		writer_free(w);
		return set_err(-ENOMEM, err, errsz, "%s: out of memory", path);
	}
	/* 0600 like perf.data: an archive holds kernel addresses */
	ret = sfile_create(&w->f, path, 0600, 0);
	if (ret < 0) {
		set_err(ret, err, errsz, "%s: %s", path, sfile_strerror(ret));
		writer_free(w);
		return ret;
	}
	ar_buf_add(&head, AR_MAGIC, AR_MAGIC_LEN);
	ar_buf_le16(&head, AR_MAJOR);
	ar_buf_le16(&head, AR_MINOR);
	ar_buf_le32(&head, 0);
	ret = head.nomem ? -ENOMEM : write_all(w->f.fd, head.p, head.len);
	ar_buf_free(&head);
	if (ret) {
		set_err(ret, err, errsz, "%s: %s", w->f.tmp, strerror(-ret));
		sym_ar_writer_abort(w);
		return ret;
	}
	w->off = AR_HEADER_SIZE;
	*out = w;
	return 0;
}

static bool
row_key_equal(const struct sym_ar_writer *w, size_t i,
	      const struct sym_ar_dso *d, const char *name)
{
	const unsigned char *row = w->index.p + w->row_at[i];
	size_t key_len = (size_t)row[26] | (size_t)row[27] << 8;

	if (row[24] != d->kind || row[25] != d->build_id_size)
		return false;
	if (d->build_id_size)
		return memcmp(row + AR_INDEX_ROW_FIXED, d->build_id,
			      d->build_id_size) == 0;
	return key_len == strlen(name) &&
	       memcmp(row + AR_INDEX_ROW_FIXED, name, key_len) == 0;
}

/* Whether an entry with d's key was added before; else remember it. */
static bool
writer_seen(struct sym_ar_writer *w, const struct sym_ar_dso *d,
	    const char *name)
{
	uint64_t *slot = u64map_slot(&w->keys, key_hash(d->kind, d->build_id,
					d->build_id_size, name, strlen(name)));
	size_t i;

	if (*slot && row_key_equal(w, (size_t)(*slot - 1), d, name))
		return true;
	if (*slot) {
		for (i = 0; i < w->count; i++)
			if (row_key_equal(w, i, d, name))
				return true;
	} else {
		*slot = w->count + 1;
	}
	return false;
}

static int
check_entry(const struct sym_ar_dso *d, const char *name, char *err,
	    size_t errsz, const char *path)
{
	if (!kind_known(d->kind))
		return set_err(-EINVAL, err, errsz, "%s: entry %s: unknown "
			       "kind %d", path, name, (int)d->kind);
	if (d->build_id_size > SYM_BUILD_ID_MAX)
		return set_err(-EINVAL, err, errsz, "%s: entry %s: build-id of "
			       "%zu bytes", path, name, d->build_id_size);
	if (strlen(name) > AR_NAME_MAX)
		return set_err(-EINVAL, err, errsz, "%s: entry name longer "
			       "than %d bytes", path, AR_NAME_MAX);
	if (!d->build_id_size && !*name)
		return set_err(-EINVAL, err, errsz, "%s: an entry has neither "
			       "a build-id nor a name", path);
	return 0;
}

/* The entry header (doc/symbol-archive.md, "Entry") into w->out. */
static void
entry_header(struct sym_ar_writer *w, const struct sym_ar_dso *d,
	     const char *name, size_t zsize, uint64_t zhash)
{
	uint8_t bid[SYM_BUILD_ID_MAX] = { 0 };
	size_t start = w->out.len;

	memcpy(bid, d->build_id, d->build_id_size);
	ar_buf_add(&w->out, AR_ENTRY_MAGIC, 4);
	ar_buf_u8(&w->out, (uint8_t)d->kind);
	ar_buf_u8(&w->out, (uint8_t)d->build_id_size);
	ar_buf_u8(&w->out, (uint8_t)d->origin);
	ar_buf_u8(&w->out, d->demangled ? AR_FLAG_DEMANGLED : 0);
	ar_buf_le32(&w->out, (uint32_t)strlen(name));
	ar_buf_le32(&w->out, 0);
	ar_buf_le64(&w->out, zsize);
	ar_buf_le64(&w->out, w->raw.len);
	ar_buf_le64(&w->out, zhash);
	ar_buf_add(&w->out, bid, sizeof(bid));
	ar_buf_add(&w->out, name, strlen(name));
	if (!w->out.nomem)
		ar_buf_le64(&w->out, XXH64(w->out.p + start,
					   w->out.len - start, 0));
}

static void
index_row(struct sym_ar_writer *w, const struct sym_ar_dso *d,
	  const char *name, uint64_t zsize)
{
	size_t key_len = d->build_id_size ? d->build_id_size : strlen(name);

	w->row_at[w->count] = w->index.len;
	ar_buf_le64(&w->index, w->off);
	ar_buf_le64(&w->index, zsize);
	ar_buf_le64(&w->index, w->raw.len);
	ar_buf_u8(&w->index, (uint8_t)d->kind);
	ar_buf_u8(&w->index, (uint8_t)d->build_id_size);
	ar_buf_le16(&w->index, (uint16_t)key_len);
	ar_buf_add(&w->index, d->build_id_size ? (const void *)d->build_id :
		   (const void *)name, key_len);
}

/* zstd, then header and payload in w->out: the payload after the header. */
static int
entry_compress(struct sym_ar_writer *w, const struct sym_ar_dso *d,
	       const char *name, size_t *zsize)
{
	size_t bound = ZSTD_compressBound(w->raw.len);
	size_t hsize = AR_ENTRY_MIN + strlen(name);
	size_t z;

	w->out.len = 0;
	if (!ar_buf_reserve(&w->out, hsize + bound))
		return -ENOMEM;
	ZSTD_CCtx_reset(w->cctx, ZSTD_reset_session_and_parameters);
	ZSTD_CCtx_setParameter(w->cctx, ZSTD_c_compressionLevel, AR_ZSTD_LEVEL);
	ZSTD_CCtx_setParameter(w->cctx, ZSTD_c_checksumFlag, 0);
	ZSTD_CCtx_setParameter(w->cctx, ZSTD_c_dictIDFlag, 0);
	ZSTD_CCtx_setParameter(w->cctx, ZSTD_c_contentSizeFlag, 1);
	z = ZSTD_compress2(w->cctx, w->out.p + hsize, bound, w->raw.p,
			   w->raw.len);
	if (ZSTD_isError(z))
		return -EIO;
	/* the header goes in front of the payload, in room reserved above */
	entry_header(w, d, name, z, XXH64(w->out.p + hsize, z, 0));
	if (w->out.nomem || w->out.len != hsize)
		return -ENOMEM;
	w->out.len += z;
	*zsize = z;
	return 0;
}

int
sym_ar_writer_add(struct sym_ar_writer *w, const struct sym_ar_dso *d,
		  char *err, size_t errsz)
{
	const char *name = d->name ? d->name : "";
	char why[256];
	size_t zsize, *row_at;
	int ret;

	if (w->broken)
		return set_err(w->broken, err, errsz, "%s: %s", w->f.tmp,
			       strerror(-w->broken));
	ret = check_entry(d, name, err, errsz, w->path);
	if (ret)
		return ret;
	w->raw.len = 0;
	w->raw.nomem = false;
	ret = sym_ar_payload_encode(d, &w->raw, why, sizeof(why));
	if (ret)
		return set_err(ret, err, errsz, "%s: entry %s: %s", w->path,
			       name, why);
	if (writer_seen(w, d, name))
		return set_err(-EEXIST, err, errsz, "%s: entry %s: a second "
			       "entry with the same key", w->path, name);
	row_at = realloc(w->row_at, (w->count + 1) * sizeof(*row_at));
	if (!row_at)
		return set_err(-ENOMEM, err, errsz, "%s: out of memory",
			       w->path);
	w->row_at = row_at;
	ret = entry_compress(w, d, name, &zsize);
	if (!ret) {
		/* part of it may be in the file: no entry can follow */
		ret = write_all(w->f.fd, w->out.p, w->out.len);
		w->broken = ret;
	}
	if (ret) {
		uint64_t *slot = u64map_slot(&w->keys, key_hash(d->kind,
				d->build_id, d->build_id_size, name,
				strlen(name)));

		/* forget the key: nothing of this entry is in the index */
		if (*slot == w->count + 1)
			*slot = 0;
		return set_err(ret, err, errsz, "%s: entry %s: %s", w->f.tmp,
			       name, strerror(-ret));
	}
	index_row(w, d, name, zsize);
	w->count++;
	w->off += w->out.len;
	return 0;
}

int
sym_ar_writer_finish(struct sym_ar_writer *w, uint64_t *bytes,
		     char *err, size_t errsz)
{
	struct ar_buf tail = { 0 };
	size_t isize;
	int ret;

	ar_buf_add(&tail, AR_INDEX_MAGIC, 4);
	ar_buf_le32(&tail, (uint32_t)w->count);
	ar_buf_add(&tail, w->index.p, w->index.len);
	isize = tail.len;
	ar_buf_le64(&tail, w->off);
	ar_buf_le64(&tail, isize);
	if (!tail.nomem)
		ar_buf_le64(&tail, XXH64(tail.p, isize, 0));
	ar_buf_add(&tail, AR_TRAILER_MAGIC, 8);
	ret = w->broken;
	if (!ret && (w->index.nomem || tail.nomem))
		ret = -ENOMEM;
	if (!ret && w->count > UINT32_MAX)
		ret = -EFBIG;
	if (!ret)
		ret = write_all(w->f.fd, tail.p, tail.len);
	if (!ret)
		ret = sfile_commit(&w->f);
	if (ret) {
		set_err(ret, err, errsz, "%s: %s", w->path,
			sfile_strerror(ret));
		ar_buf_free(&tail);
		sym_ar_writer_abort(w);
		return ret;
	}
	if (bytes)
		*bytes = w->off + tail.len;
	ar_buf_free(&tail);
	writer_free(w);
	return 0;
}

void
sym_ar_writer_abort(struct sym_ar_writer *w)
{
	if (!w)
		return;
	writer_free(w);
}

/* Reading. */

struct ar_entry {
	struct sym_ar_dso d;
	char *name;
	void *mem;			/* the tables' block */
};

struct sym_ar {
	const char *path;		/* during sym_ar_open() only */
	struct ar_entry *ents;
	size_t nr, cap;
	struct u64map keys;		/* key hash -> entry number + 1 */
	bool collided;			/* two keys share a hash */
	bool lenient;			/* a newer minor version */
	bool trusted;			/* sfile_trusted() */
	uint64_t budget;		/* what decoded tables may still take */
	ZSTD_DCtx *dctx;
	void (*warn)(void *ctx, const char *msg);
	void *warn_ctx;
};

/* An entry header as read (doc/symbol-archive.md, "Entry"). */
struct ehdr {
	unsigned int kind, bid_size, origin, flags;
	size_t name_len;
	uint64_t zsize, raw_size, zhash;
	const unsigned char *bid;
	const char *name;
	uint64_t size;			/* of the header */
};

/* "PATH: offset OFF: [entry NAME: ]what"; name is name_len bytes. */
static void __attribute__((format(printf, 5, 6)))
ar_warn(struct sym_ar *a, uint64_t off, const char *name, size_t name_len,
	const char *fmt, ...)
{
	char msg[AR_NAME_MAX + 1024];
	size_t n;
	va_list ap;

	if (!a->warn)
		return;
	n = (size_t)snprintf(msg, sizeof(msg), "%s: offset %#" PRIx64 ": ",
			     a->path, off);
	if (name && n < sizeof(msg)) {
		size_t at = n;

		n += (size_t)snprintf(msg + n, sizeof(msg) - n, "entry %.*s: ",
				      (int)name_len, name);
		/* a name from the file is printed, never obeyed */
		for (at += 6; at < n && at < sizeof(msg) - 1; at++)
			if ((unsigned char)msg[at] < 0x20 || msg[at] == 0x7f)
				msg[at] = '?';
	}
	if (n < sizeof(msg)) {
		va_start(ap, fmt);
		vsnprintf(msg + n, sizeof(msg) - n, fmt, ap);
		va_end(ap);
	}
	a->warn(a->warn_ctx, msg);
}

static bool __attribute__((format(printf, 3, 4)))
why_set(char *why, size_t whysz, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, whysz, fmt, ap);
	va_end(ap);
	return false;
}

/*
 * Check the entry header at p, with avail bytes before the end of what
 * may hold entries.  Returns false with why set.
 */
static bool
ehdr_parse(const unsigned char *p, uint64_t avail, struct ehdr *h,
	   char *why, size_t whysz)
{
	struct ar_rd r;

	if (avail < AR_ENTRY_MIN)
		return why_set(why, whysz, "only %" PRIu64 " bytes left for an "
			       "entry header", avail);
	ar_rd_init(&r, p, avail < AR_ENTRY_MIN + AR_NAME_MAX ? (size_t)avail :
		   AR_ENTRY_MIN + AR_NAME_MAX);
	if (memcmp(ar_rd_bytes(&r, 4), AR_ENTRY_MAGIC, 4) != 0)
		return why_set(why, whysz, "no entry magic");
	h->kind = ar_rd_u8(&r);
	h->bid_size = ar_rd_u8(&r);
	h->origin = ar_rd_u8(&r);
	h->flags = ar_rd_u8(&r);
	h->name_len = ar_rd_le32(&r);
	ar_rd_le32(&r);
	h->zsize = ar_rd_le64(&r);
	h->raw_size = ar_rd_le64(&r);
	h->zhash = ar_rd_le64(&r);
	h->bid = ar_rd_bytes(&r, SYM_BUILD_ID_MAX);
	if (h->name_len > AR_NAME_MAX)
		return why_set(why, whysz, "name length %zu, more than %d",
			       h->name_len, AR_NAME_MAX);
	h->size = AR_ENTRY_MIN + h->name_len;
	if (avail < h->size)
		return why_set(why, whysz, "only %" PRIu64 " bytes left for a "
			       "%" PRIu64 "-byte entry header", avail, h->size);
	h->name = (const char *)ar_rd_bytes(&r, h->name_len);
	if (XXH64(p, AR_ENTRY_FIXED + h->name_len, 0) != ar_rd_le64(&r))
		return why_set(why, whysz, "header checksum mismatch");
	if (h->bid_size > SYM_BUILD_ID_MAX)
		return why_set(why, whysz, "build-id of %u bytes", h->bid_size);
	if (memchr(h->name, 0, h->name_len))
		return why_set(why, whysz, "NUL byte in the name");
	if (!h->bid_size && !h->name_len)
		return why_set(why, whysz, "neither a build-id nor a name");
	if (h->raw_size > AR_RAW_MAX)
		return why_set(why, whysz, "payload of %" PRIu64 " bytes "
			       "decompressed, more than the limit of %" PRIu64,
			       h->raw_size, AR_RAW_MAX);
	return true;
}

static bool
ent_key_equal(const struct ar_entry *e, unsigned int kind, const uint8_t *bid,
	      size_t bid_size, const char *name)
{
	if (e->d.kind != (enum sym_ar_kind)kind ||
	    e->d.build_id_size != bid_size)
		return false;
	if (bid_size)
		return memcmp(e->d.build_id, bid, bid_size) == 0;
	return strcmp(e->name, name) == 0;
}

static struct ar_entry *
ar_lookup(const struct sym_ar *a, unsigned int kind, const uint8_t *bid,
	  size_t bid_size, const char *name)
{
	uint64_t *slot = u64map_find(&a->keys, key_hash(kind, bid, bid_size,
					 name, name ? strlen(name) : 0));
	size_t i;

	if (slot && *slot && ent_key_equal(&a->ents[*slot - 1], kind, bid,
					   bid_size, name))
		return &a->ents[*slot - 1];
	if (!a->collided)
		return NULL;
	for (i = 0; i < a->nr; i++)
		if (ent_key_equal(&a->ents[i], kind, bid, bid_size, name))
			return &a->ents[i];
	return NULL;
}

/* Keep e (its name and mem now belong to a) unless its key is taken. */
static int
ar_keep(struct sym_ar *a, struct ar_entry *e, uint64_t off)
{
	uint64_t *slot;

	if (ar_lookup(a, e->d.kind, e->d.build_id, e->d.build_id_size,
		      e->name)) {
		ar_warn(a, off, e->name, strlen(e->name), "a second entry "
			"with the same key; the first one is used");
		return -EEXIST;
	}
	if (a->nr == a->cap) {
		size_t cap = a->cap ? a->cap * 2 : 16;
		struct ar_entry *ents = realloc(a->ents, cap * sizeof(*ents));

		if (!ents)
			return -ENOMEM;
		a->ents = ents;
		a->cap = cap;
	}
	slot = u64map_slot(&a->keys, key_hash(e->d.kind, e->d.build_id,
			   e->d.build_id_size, e->name, strlen(e->name)));
	if (*slot)
		a->collided = true;
	else
		*slot = a->nr + 1;
	a->ents[a->nr++] = *e;
	return 0;
}

/* The payload: checksum, one zstd frame of the stated size, decode. */
static int
ent_payload(struct sym_ar *a, const struct ehdr *h, const unsigned char *z,
	    struct ar_entry *e, char *why, size_t whysz)
{
	unsigned char *raw;
	size_t n;
	int ret;

	if (XXH64(z, (size_t)h->zsize, 0) != h->zhash)
		return set_err(-EINVAL, why, whysz,
			       "payload checksum mismatch");
	if (ZSTD_findFrameCompressedSize(z, (size_t)h->zsize) != h->zsize ||
	    ZSTD_getFrameContentSize(z, (size_t)h->zsize) != h->raw_size)
		return set_err(-EINVAL, why, whysz, "payload is not one zstd "
			       "frame of %" PRIu64 " bytes", h->raw_size);
	raw = malloc((size_t)h->raw_size + 1);
	if (!raw)
		return set_err(-ENOMEM, why, whysz, "out of memory");
	n = ZSTD_decompressDCtx(a->dctx, raw, (size_t)h->raw_size, z,
				(size_t)h->zsize);
	if (ZSTD_isError(n) || n != h->raw_size) {
		why_set(why, whysz, "zstd: %s", ZSTD_isError(n) ?
			ZSTD_getErrorName(n) : "short payload");
		free(raw);
		return -EINVAL;
	}
	ret = sym_ar_payload_decode(raw, n, a->lenient, &a->budget, &e->d,
				    &e->mem, why, whysz);
	free(raw);
	return ret;
}

/*
 * Read the entry whose header h was checked at off.  A damaged entry is
 * reported and left out; only running out of memory is an error.
 */
static int
ent_load(struct sym_ar *a, const unsigned char *file, uint64_t off,
	 const struct ehdr *h)
{
	struct ar_entry e = { .mem = NULL };
	char why[256];
	int ret;

	if (!kind_known(h->kind))
		return 0;	/* a newer writer's kind: not for us */
	e.name = malloc(h->name_len + 1);
	if (!e.name)
		return -ENOMEM;
	memcpy(e.name, h->name, h->name_len);
	e.name[h->name_len] = '\0';
	e.d.kind = (enum sym_ar_kind)h->kind;
	memcpy(e.d.build_id, h->bid, h->bid_size);
	e.d.build_id_size = h->bid_size;
	e.d.name = e.name;
	e.d.origin = (char)h->origin;
	e.d.demangled = h->flags & AR_FLAG_DEMANGLED;
	ret = ent_payload(a, h, file + off + h->size, &e, why, sizeof(why));
	if (ret)
		ar_warn(a, off, e.name, h->name_len, "%s; entry left out", why);
	else
		ret = ar_keep(a, &e, off);
	if (ret) {
		free(e.name);
		free(e.mem);
		free(e.d.cfi);
		free(e.d.inl);
	}
	return ret == -ENOMEM ? ret : 0;
}

/* An index row (doc/symbol-archive.md, "Index"). */
struct irow {
	uint64_t off, zsize, raw_size;
	unsigned int kind, bid_size;
	size_t key_len;
	const unsigned char *key;
};

static bool
irow_read(struct ar_rd *r, struct irow *row)
{
	row->off = ar_rd_le64(r);
	row->zsize = ar_rd_le64(r);
	row->raw_size = ar_rd_le64(r);
	row->kind = ar_rd_u8(r);
	row->bid_size = ar_rd_u8(r);
	row->key_len = ar_rd_le16(r);
	row->key = ar_rd_bytes(r, row->key_len);
	return !r->bad;
}

static bool
irow_matches(const struct irow *row, const struct ehdr *h)
{
	if (row->kind != h->kind || row->bid_size != h->bid_size ||
	    row->zsize != h->zsize || row->raw_size != h->raw_size)
		return false;
	if (h->bid_size)
		return row->key_len == h->bid_size &&
		       memcmp(row->key, h->bid, h->bid_size) == 0;
	return row->key_len == h->name_len &&
	       memcmp(row->key, h->name, h->name_len) == 0;
}

/*
 * Find and check the index through the trailer.  Returns true with *ioff
 * and *isize set, or false with why and *where: the offset of what was
 * wrong, which is the index's own once the trailer checked out.
 */
static bool
index_find(const unsigned char *file, uint64_t size, uint64_t *ioff,
	   uint64_t *isize, uint64_t *where, char *why, size_t whysz)
{
	const unsigned char *t = file + size - AR_TRAILER_SIZE;
	struct ar_rd r;
	struct irow row;
	uint32_t count, i;

	*where = size;
	if (size < AR_HEADER_SIZE + AR_INDEX_HEAD + AR_TRAILER_SIZE)
		return why_set(why, whysz, "no room for a trailer");
	*where = size - AR_TRAILER_SIZE;
	if (memcmp(t + 24, AR_TRAILER_MAGIC, 8) != 0)
		return why_set(why, whysz, "no trailer magic");
	*ioff = ar_le64(t);
	*isize = ar_le64(t + 8);
	if (*ioff < AR_HEADER_SIZE || *ioff > *where ||
	    *isize != *where - *ioff)
		return why_set(why, whysz, "index at %#" PRIx64 " of %" PRIu64
			       " bytes does not end at the trailer", *ioff,
			       *isize);
	*where = *ioff;
	if (*isize < AR_INDEX_HEAD ||
	    XXH64(file + *ioff, (size_t)*isize, 0) != ar_le64(t + 16))
		return why_set(why, whysz, "index checksum mismatch");
	ar_rd_init(&r, file + *ioff, (size_t)*isize);
	if (memcmp(ar_rd_bytes(&r, 4), AR_INDEX_MAGIC, 4) != 0)
		return why_set(why, whysz, "no index magic");
	count = ar_rd_le32(&r);
	for (i = 0; i < count; i++)
		if (!irow_read(&r, &row))
			return why_set(why, whysz, "index row %" PRIu32
				       " cut short", i);
	if (ar_rd_left(&r))
		return why_set(why, whysz, "%zu bytes after the index's rows",
			       ar_rd_left(&r));
	return true;
}

/* Every entry the index names; a damaged one is reported and skipped. */
static int
index_read(struct sym_ar *a, const unsigned char *file, uint64_t ioff,
	   uint64_t isize)
{
	struct ar_rd r;
	struct irow row;
	struct ehdr h;
	char why[256];
	uint32_t count, i;
	int ret;

	ar_rd_init(&r, file + ioff + 4, (size_t)isize - 4);
	count = ar_rd_le32(&r);
	for (i = 0; i < count; i++) {
		irow_read(&r, &row);
		if (row.off < AR_HEADER_SIZE || row.off >= ioff) {
			ar_warn(a, ioff, NULL, 0, "index row %" PRIu32
				" points at offset %#" PRIx64 ", outside the "
				"entries", i, row.off);
			continue;
		}
		if (!ehdr_parse(file + row.off, ioff - row.off, &h, why,
				sizeof(why))) {
			ar_warn(a, row.off, NULL, 0, "entry header damaged "
				"(%s); entry left out", why);
			continue;
		}
		if (h.zsize > ioff - row.off - h.size) {
			ar_warn(a, row.off, h.name, h.name_len, "payload of "
				"%" PRIu64 " bytes runs into the index; entry "
				"left out", h.zsize);
			continue;
		}
		if (!irow_matches(&row, &h)) {
			ar_warn(a, row.off, h.name, h.name_len, "does not "
				"match index row %" PRIu32 "; entry left out",
				i);
			continue;
		}
		ret = ent_load(a, file, row.off, &h);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * Without a usable index: entry after entry from the file header on,
 * until the index's magic, size (the end of the file, or where a sound
 * trailer says the index starts), or the first entry header that does
 * not check out.
 */
static int
entries_walk(struct sym_ar *a, const unsigned char *file, uint64_t size)
{
	uint64_t off = AR_HEADER_SIZE;
	struct ehdr h;
	char why[256];
	int ret;

	while (off < size) {
		if (size - off >= 4 &&
		    memcmp(file + off, AR_INDEX_MAGIC, 4) == 0)
			break;
		if (!ehdr_parse(file + off, size - off, &h, why, sizeof(why))) {
			ar_warn(a, off, NULL, 0, "entry header damaged (%s); "
				"no entries read past it", why);
			break;
		}
		if (h.zsize > size - off - h.size) {
			ar_warn(a, off, h.name, h.name_len, "payload of "
				"%" PRIu64 " bytes, only %" PRIu64 " left (a "
				"cut file?); entry left out", h.zsize,
				size - off - h.size);
			break;
		}
		ret = ent_load(a, file, off, &h);
		if (ret)
			return ret;
		off += h.size + h.zsize;
	}
	return 0;
}

static int
file_read(const char *path, unsigned char **out, uint64_t *size,
	  bool *trusted, char *err, size_t errsz)
{
	struct stat st;
	unsigned char *buf;
	size_t got = 0;
	ssize_t n;
	int fd, ret = 0;

	fd = sfile_open_input(path, 0, &st);
	if (fd == SFILE_E_NOTREG || fd == -EISDIR)
		return set_err(-EINVAL, err, errsz, "%s: not a regular file",
			       path);
	if (fd < 0)
		return set_err(fd, err, errsz, "%s: %s", path, strerror(-fd));
	if ((uint64_t)st.st_size > AR_FILE_MAX) {
		close(fd);
		return set_err(-EINVAL, err, errsz, "%s: larger than the "
			       "%" PRIu64 " bytes an archive may have", path,
			       AR_FILE_MAX);
	}
	*trusted = sfile_trusted(&st);
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		close(fd);
		return set_err(-ENOMEM, err, errsz, "%s: out of memory", path);
	}
	while (got < (size_t)st.st_size) {
		n = read(fd, buf + got, (size_t)st.st_size - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			ret = n < 0 ? -errno : 0;
			break;
		}
		got += (size_t)n;
	}
	close(fd);
	if (ret) {
		free(buf);
		return set_err(ret, err, errsz, "%s: %s", path, strerror(-ret));
	}
	*out = buf;
	*size = got;
	return 0;
}

static int
header_check(const char *path, const unsigned char *file, uint64_t size,
	     bool *lenient, char *err, size_t errsz)
{
	unsigned int major, minor;

	if (size < AR_HEADER_SIZE || memcmp(file, AR_MAGIC, AR_MAGIC_LEN) != 0)
		return set_err(-EINVAL, err, errsz, "%s: offset 0: not a pdata "
			       "symbol archive", path);
	major = (unsigned int)file[8] | (unsigned int)file[9] << 8;
	minor = (unsigned int)file[10] | (unsigned int)file[11] << 8;
	if (major != AR_MAJOR)
		return set_err(-EINVAL, err, errsz, "%s: offset 0x8: archive "
			       "format %u.%u, this reader knows %u.x", path,
			       major, minor, AR_MAJOR);
	*lenient = minor > AR_MINOR;
	return 0;
}

int
sym_ar_open(const char *path, struct sym_ar **out,
	    void (*warn)(void *ctx, const char *msg), void *warn_ctx,
	    char *err, size_t errsz)
{
	struct sym_ar *a;
	unsigned char *file = NULL;
	uint64_t size = 0, ioff = 0, isize = 0, where;
	char why[256];
	bool trusted = false;
	int ret;

	*out = NULL;
	ret = file_read(path, &file, &size, &trusted, err, errsz);
	if (ret)
		return ret;
	a = calloc(1, sizeof(*a));
	if (a) {
		a->keys = (struct u64map)U64MAP_INIT;
		a->dctx = ZSTD_createDCtx();
	}
	if (!a || !a->dctx) {
		free(file);
		sym_ar_close(a);
		return set_err(-ENOMEM, err, errsz, "%s: out of memory", path);
	}
	a->path = path;
	a->trusted = trusted;
	a->budget = AR_MEM_TOTAL_MAX;
	a->warn = warn;
	a->warn_ctx = warn_ctx;
	ret = header_check(path, file, size, &a->lenient, err, errsz);
	if (!ret && index_find(file, size, &ioff, &isize, &where, why,
			       sizeof(why))) {
		ret = index_read(a, file, ioff, isize);
	} else if (!ret) {
		ar_warn(a, where, NULL, 0, "index damaged (%s); reading "
			"entries one by one", why);
		/* where: the index's offset once the trailer checked out */
		if (size <= AR_TRAILER_SIZE || where >= size - AR_TRAILER_SIZE)
			where = size;
		ret = entries_walk(a, file, where);
	}
	free(file);
	ZSTD_freeDCtx(a->dctx);
	a->dctx = NULL;
	a->path = NULL;
	if (ret == -ENOMEM)
		set_err(ret, err, errsz, "%s: out of memory", path);
	if (ret) {
		sym_ar_close(a);
		return ret;
	}
	*out = a;
	return 0;
}

const struct sym_ar_dso *
sym_ar_find(const struct sym_ar *a, enum sym_ar_kind kind,
	    const uint8_t *build_id, size_t build_id_size, const char *name)
{
	const struct ar_entry *e;

	if (!a || build_id_size > SYM_BUILD_ID_MAX ||
	    (!build_id_size && !name))
		return NULL;
	e = ar_lookup(a, kind, build_id, build_id_size, name);
	return e ? &e->d : NULL;
}

bool
sym_ar_trusted(const struct sym_ar *a)
{
	return a->trusted;
}

size_t
sym_ar_count(const struct sym_ar *a)
{
	return a ? a->nr : 0;
}

const struct sym_ar_dso *
sym_ar_entry(const struct sym_ar *a, size_t i)
{
	return a && i < a->nr ? &a->ents[i].d : NULL;
}

void
sym_ar_close(struct sym_ar *a)
{
	size_t i;

	if (!a)
		return;
	for (i = 0; i < a->nr; i++) {
		free(a->ents[i].name);
		free(a->ents[i].mem);
		free(a->ents[i].d.cfi);
		free(a->ents[i].d.inl);
	}
	free(a->ents);
	u64map_free(&a->keys);
	ZSTD_freeDCtx(a->dctx);
	free(a);
}
