/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * session/trace.c - tracepoint samples printed through their print fmt,
 * by libtraceevent, from the tracing data of the file.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

#include "pdata/abi.h"
#include "pdata/errors.h"
#include "session/session.h"
#include "session/trace.h"
#include "symbol/symbol.h"

/* Largest blob we read into memory; perf's own are a few megabytes. */
#define TRACE_BLOB_MAX		(1ULL << 30)
/* Largest reach of a __data_loc/__rel_loc field: 16-bit offset and length. */
#define TRACE_DYN_REACH		(2U * 65536U)
/* A sample's raw data fits in a record: 64 KiB with its header. */
#define TRACE_RAW_MAX		65536U
/* perf reads the saved cmdlines from version 0.6 of the blob on. */
#define TRACE_CMDLINE_VERSION	0.6

struct ses_trace {
	struct tep_handle *tep;
	struct trace_seq seq;
	bool seq_ready;
	/*
	 * A sample's raw data is copied here, followed by zeros, so that
	 * whatever libtraceevent reads past a short record (a field beyond
	 * its end, a string without its NUL, a __data_loc pointing out of
	 * it) lies in this buffer and reads as zero.
	 */
	unsigned char *scratch;
	size_t scratch_len;
	size_t pad;		/* zeros kept after the raw data */
	ses_trace_resolver resolve;
	void *resolve_ctx;
	char *resolve_mod;	/* the module, for libtraceevent's char * */
};

/* A bounded walk over the blob. */
struct trace_cur {
	const unsigned char *p;
	size_t left;
	bool big_endian;
};

static bool
cur_take(struct trace_cur *c, size_t n, const unsigned char **out)
{
	if (n > c->left)
		return false;
	*out = c->p;
	c->p += n;
	c->left -= n;
	return true;
}

static uint64_t
cur_number(const struct trace_cur *c, const unsigned char *p, unsigned int n)
{
	uint64_t v = 0;
	unsigned int i;

	for (i = 0; i < n; i++) {
		unsigned int k = c->big_endian ? i : n - 1 - i;

		v = (v << 8) | p[k];
	}
	return v;
}

/*
 * A count or a size.  perf reads a missing one at the end of the blob as
 * 0 and goes on; so do we (the blob of an old perf ends early).
 */
static uint64_t
cur_uint(struct trace_cur *c, unsigned int n)
{
	const unsigned char *p;

	if (!cur_take(c, n, &p)) {
		c->p += c->left;
		c->left = 0;
		return 0;
	}
	return cur_number(c, p, n);
}

/* n bytes as a NUL-terminated copy, for the text parsers. */
static char *
cur_text(struct trace_cur *c, uint64_t n)
{
	const unsigned char *p;
	char *s;

	if (n > c->left || !cur_take(c, (size_t)n, &p))
		return NULL;
	s = malloc((size_t)n + 1);
	if (!s)
		return NULL;
	memcpy(s, p, (size_t)n);
	s[n] = '\0';
	return s;
}

/* A NUL-terminated string of the blob, in place. */
static const char *
cur_string(struct trace_cur *c)
{
	const unsigned char *nul = memchr(c->p, '\0', c->left);
	const char *s = (const char *)c->p;
	size_t n;

	if (!nul)
		return NULL;
	n = (size_t)(nul - c->p) + 1;
	c->p += n;
	c->left -= n;
	return s;
}

static bool
cur_tag(struct trace_cur *c, const char *tag, size_t n)
{
	const unsigned char *p;

	return cur_take(c, n, &p) && !memcmp(p, tag, n);
}

/*
 * One "ADDR : FMT" line of the printk formats: the address is the text
 * before the first colon (leading colons skipped), the format what
 * follows the colon and the one space after it.
 */
static void
register_printk_line(struct tep_handle *tep, char *line)
{
	unsigned long long addr;
	char *colon, *fmt;

	line += strspn(line, ":");
	colon = strchr(line, ':');
	if (!*line || !colon || !colon[1])
		return;
	*colon = '\0';
	fmt = colon + 2;
	/*
	 * libtraceevent strips a leading quote, then looks at the last
	 * three bytes for the closing quote and "\n": a shorter format
	 * would have it read before its copy (a kernel's are longer).
	 */
	if (strlen(fmt + (*fmt == '"')) < 3)
		return;
	addr = strtoull(line, NULL, 16);
	tep_register_print_string(tep, fmt, addr);
}

/* Lines split at '\n', the empty ones skipped, as strtok would. */
static void
for_each_line(char *text, void (*fn)(struct tep_handle *, char *),
	      struct tep_handle *tep)
{
	char *line = text;

	while (*line) {
		char *nl = strchr(line, '\n');

		if (nl)
			*nl = '\0';
		if (*line)
			fn(tep, line);
		if (!nl)
			break;
		line = nl + 1;
	}
}

/* One "PID COMM" line of the saved cmdlines (comm at most 16 bytes). */
static void
register_cmdline(struct tep_handle *tep, char *line)
{
	char comm[17];
	int pid;

	if (sscanf(line, "%d %16s", &pid, comm) == 2)
		tep_register_comm(tep, comm, pid);
}

/* header_page, then header_event (whose text perf does not use). */
static int
parse_headers(struct tep_handle *tep, struct trace_cur *c)
{
	const unsigned char *skip;
	uint64_t size;
	char *text;
	int bad;

	if (!cur_tag(c, "header_page", 12))
		return -PD_E_BAD_FEATURE;
	size = cur_uint(c, 8);
	text = cur_text(c, size);
	if (!text)
		return size > c->left ? -PD_E_BAD_FEATURE : -PD_E_NOMEM;
	bad = tep_parse_header_page(tep, text, (unsigned long)size,
				    tep_get_long_size(tep));
	free(text);
	/* the size of the page's commit field is the kernel's long */
	if (!bad)
		tep_set_long_size(tep, tep_get_header_page_size(tep));

	if (!cur_tag(c, "header_event", 13))
		return -PD_E_BAD_FEATURE;
	size = cur_uint(c, 8);
	if (size > c->left || !cur_take(c, (size_t)size, &skip))
		return -PD_E_BAD_FEATURE;
	return 0;
}

/*
 * libtraceevent 1.7 fails on a tab inside the quoted format of a "print
 * fmt:" line (the kernel writes one in maple_tree's events), where
 * perf 6.1's own copy of the library reads it.  Written as the escape
 * "\t", which the library prints as a tab, it parses and prints alike.
 * Returns text itself when it has no such tab, else a new string
 * (*len updated), or NULL when out of memory.
 */
static char *
escape_format_tabs(char *text, size_t *len)
{
	char *q = strstr(text, "print fmt:");
	char *end, *out, *o;
	size_t tabs = 0;
	char *p;

	if (!q || !(q = strchr(q, '"')))
		return text;
	for (end = q + 1; *end && *end != '"'; end++) {
		if (*end == '\\' && end[1])
			end++;
		else if (*end == '\t')
			tabs++;
	}
	if (!tabs)
		return text;
	out = malloc(*len + tabs + 1);
	if (!out)
		return NULL;
	for (p = text, o = out; p < text + *len; p++) {
		if (p > q && p < end && *p == '\t') {
			*o++ = '\\';
			*o++ = 't';
		} else {
			*o++ = *p;
		}
	}
	*o = '\0';
	*len += tabs;
	return out;
}

/*
 * A format file is printable ASCII, tabs and newlines.  libtraceevent's
 * tokenizer dereferences a null token on any other byte, so such a file
 * is refused before it gets there.
 */
static bool
format_text_ok(const char *text, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char ch = (unsigned char)text[i];

		if ((ch < 0x20 || ch > 0x7e) && ch != '\t' && ch != '\n')
			return false;
	}
	return true;
}

static bool
is_ident(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
	       (ch >= '0' && ch <= '9') || ch == '_';
}

/* Whether a "field:" line of head (up to end) declares name (n bytes). */
static bool
declares_field(const char *head, const char *end, const char *name, size_t n)
{
	const char *p = head;

	while ((p = strstr(p, "field:")) && p < end) {
		const char *semi = memchr(p, ';', (size_t)(end - p));
		const char *q;

		if (!semi)
			return false;
		/* the declarator ends at ';' or at the '[' of an array */
		for (q = p; q < semi && *q != '['; q++)
			;
		if ((size_t)(q - p) > n && !memcmp(q - n, name, n) &&
		    (q[-(long)n - 1] == ' ' || q[-(long)n - 1] == '*'))
			return true;
		p = semi;
	}
	return false;
}

/*
 * Every REC->NAME of the print fmt is a field of the format.  libtraceevent
 * 1.7 walks into a null pointer on some print fmts that name a field the
 * format lacks (the kernel never writes one).
 */
static bool
print_fields_ok(const char *text)
{
	const char *fmt = strstr(text, "print fmt:");
	const char *p;

	if (!fmt)
		return true;
	for (p = fmt; (p = strstr(p, "REC->")); ) {
		size_t n = 0;

		p += 5;
		while (is_ident(p[n]))
			n++;
		if (!n || !declares_field(text, fmt, p, n))
			return false;
		p += n;
	}
	return true;
}

/* One format file of system sys; perf gives up on the first that fails. */
static int
parse_format(struct tep_handle *tep, struct trace_cur *c, const char *sys)
{
	uint64_t size = cur_uint(c, 8);
	enum tep_errno terr;
	char *text, *fmt;
	size_t len;

	if (size > c->left)
		return -PD_E_BAD_FEATURE;
	text = cur_text(c, size);
	if (!text)
		return -PD_E_NOMEM;
	len = (size_t)size;
	if (!format_text_ok(text, len) || !print_fields_ok(text)) {
		free(text);
		return -PD_E_BAD_FEATURE;
	}
	fmt = escape_format_tabs(text, &len);
	if (!fmt) {
		free(text);
		return -PD_E_NOMEM;
	}
	terr = tep_parse_event(tep, fmt, (unsigned long)len, sys);
	if (fmt != text)
		free(fmt);
	free(text);
	return terr ? -PD_E_BAD_FEATURE : 0;
}

static int
parse_formats(struct tep_handle *tep, struct trace_cur *c)
{
	uint64_t i, j, n, systems;
	int err;

	n = cur_uint(c, 4);
	for (i = 0; i < n; i++) {
		err = parse_format(tep, c, "ftrace");
		if (err)
			return err;
	}
	systems = cur_uint(c, 4);
	for (i = 0; i < systems; i++) {
		const char *sys = cur_string(c);

		if (!sys)
			return -PD_E_BAD_FEATURE;
		n = cur_uint(c, 4);
		for (j = 0; j < n; j++) {
			err = parse_format(tep, c, sys);
			if (err)
				return err;
		}
	}
	return 0;
}

/* A text table of n-byte size whose lines go to fn; none when empty. */
static int
parse_lines(struct tep_handle *tep, struct trace_cur *c, unsigned int n,
	    void (*fn)(struct tep_handle *, char *))
{
	uint64_t size = cur_uint(c, n);
	char *text;

	if (!size)
		return 0;
	if (size > c->left)
		return -PD_E_BAD_FEATURE;
	text = cur_text(c, size);
	if (!text)
		return -PD_E_NOMEM;
	for_each_line(text, fn, tep);
	free(text);
	return 0;
}

/*
 * kallsyms (skipped: symbols come from the resolver, as in perf), the
 * printk formats, and the saved cmdlines of a version 0.6 blob.
 */
static int
parse_tables(struct tep_handle *tep, struct trace_cur *c, double version)
{
	const unsigned char *skip;
	uint64_t size;
	int err;

	size = cur_uint(c, 4);
	if (size > c->left || !cur_take(c, (size_t)size, &skip))
		return -PD_E_BAD_FEATURE;
	err = parse_lines(tep, c, 4, register_printk_line);
	if (err || version < TRACE_CMDLINE_VERSION)
		return err;
	return parse_lines(tep, c, 8, register_cmdline);
}

/*
 * The end of the furthest field of a list, or end if it is further;
 * SIZE_MAX when a field has a negative offset or size, or ends past the
 * largest raw data a record can hold.
 */
static size_t
list_end(const struct tep_format_field *f, size_t end)
{
	for (; f; f = f->next) {
		if (f->offset < 0 || f->size < 0 ||
		    (size_t)f->offset + (size_t)f->size > TRACE_RAW_MAX)
			return SIZE_MAX;
		if ((size_t)f->offset + (size_t)f->size > end)
			end = (size_t)f->offset + (size_t)f->size;
	}
	return end;
}

/*
 * The longest reach of a fixed field of any event: where padding starts;
 * SIZE_MAX when a format puts a field where no record could hold it.
 */
static size_t
fields_end(struct tep_handle *tep)
{
	struct tep_event **events = tep_list_events(tep, TEP_EVENT_SORT_ID);
	size_t end = 0;
	int i;

	for (i = 0; events && events[i] && end != SIZE_MAX; i++) {
		end = list_end(events[i]->format.common_fields, end);
		if (end != SIZE_MAX)
			end = list_end(events[i]->format.fields, end);
	}
	return end;
}

static const unsigned char trace_magic[] = { 23, 8, 'D' };

int
ses_trace_parse(const unsigned char *blob, size_t len, struct ses_trace **out)
{
	struct trace_cur c = { blob, len, false };
	const unsigned char *p = NULL;
	struct ses_trace *t;
	const char *version;
	uint64_t page_size;
	double ver;
	int err;

	*out = NULL;
	if (!cur_tag(&c, (const char *)trace_magic, sizeof(trace_magic)) ||
	    !cur_tag(&c, "tracing", 7))
		return -PD_E_BAD_FEATURE;
	version = cur_string(&c);
	if (!version || !cur_take(&c, 2, &p))
		return -PD_E_BAD_FEATURE;
	c.big_endian = p[0] != 0;
	ver = strtod(version, NULL);

	t = calloc(1, sizeof(*t));
	if (!t)
		return -PD_E_NOMEM;
	t->tep = tep_alloc();
	if (!t->tep) {
		free(t);
		return -PD_E_NOMEM;
	}
	tep_set_flag(t->tep, TEP_NSEC_OUTPUT);
	tep_set_file_bigendian(t->tep, c.big_endian ? TEP_BIG_ENDIAN :
			       TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(t->tep, __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ?
				TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	page_size = cur_uint(&c, 4);
	if (!page_size) {
		err = -PD_E_BAD_FEATURE;
		goto fail;
	}
	tep_set_long_size(t->tep, p[1]);
	tep_set_page_size(t->tep, (int)page_size);

	err = parse_headers(t->tep, &c);
	if (!err)
		err = parse_formats(t->tep, &c);
	if (!err)
		err = parse_tables(t->tep, &c, ver);
	if (err)
		goto fail;

	t->pad = fields_end(t->tep);
	if (t->pad == SIZE_MAX) {
		err = -PD_E_BAD_FEATURE;
		goto fail;
	}
	t->pad += TRACE_DYN_REACH + 64;
	trace_seq_init(&t->seq);
	t->seq_ready = true;
	*out = t;
	return 0;
fail:
	ses_trace_free(t);
	return err;
}

/* The blob's bytes from the file the reader has open. */
static int
read_blob(struct pd_reader *r, uint64_t offset, uint64_t size,
	  unsigned char **out)
{
	const struct pd_file_info *info = pd_reader_info(r);
	const char *name = pd_reader_source_name(r, 0);
	unsigned char *buf;
	size_t done = 0;
	int fd, err = 0;

	*out = NULL;
	if (size > TRACE_BLOB_MAX)
		return -PD_E_TOO_BIG;
	if (info->file_size && (offset > info->file_size ||
				size > info->file_size - offset))
		return -PD_E_TRUNCATED;
	if (!name)
		return -PD_E_INVAL;
	if (!strcmp(name, "<stdin>"))
		fd = STDIN_FILENO;
	else
		fd = open(name, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return PD_ERR_ERRNO(errno);
	buf = malloc(size ? (size_t)size : 1);
	if (!buf) {
		err = -PD_E_NOMEM;
		goto out;
	}
	while (done < size) {
		ssize_t n = pread(fd, buf + done, (size_t)size - done,
				  (off_t)(offset + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			err = n < 0 ? PD_ERR_ERRNO(errno) : -PD_E_TRUNCATED;
			free(buf);
			goto out;
		}
		done += (size_t)n;
	}
	*out = buf;
out:
	if (fd != STDIN_FILENO)
		close(fd);
	return err;
}

int
ses_trace_open(struct pd_reader *r, struct ses_trace **out)
{
	const struct pd_meta *m = pd_reader_meta(r);
	unsigned char *blob;
	int err;

	*out = NULL;
	if (!(m->features[0] & (1ULL << PD_FEAT_TRACING_DATA)) ||
	    !m->tracing_data_size)
		return 0;
	/* a stream's blob, kept by the reader once read past */
	if (m->tracing_data_blob)
		return ses_trace_parse(m->tracing_data_blob,
				       (size_t)m->tracing_data_size, out);
	/* a stream the reader has not yet read past the blob */
	if (!m->tracing_data_offset)
		return -PD_E_UNSUPPORTED;
	err = read_blob(r, m->tracing_data_offset, m->tracing_data_size, &blob);
	if (err)
		return err;
	err = ses_trace_parse(blob, (size_t)m->tracing_data_size, out);
	free(blob);
	return err;
}

struct ses_trace *
ses_trace_new(struct pd_reader *r)
{
	struct ses_trace *t;

	return ses_trace_open(r, &t) ? NULL : t;
}

void
ses_trace_free(struct ses_trace *t)
{
	if (!t)
		return;
	if (t->seq_ready)
		trace_seq_destroy(&t->seq);
	tep_free(t->tep);
	free(t->scratch);
	free(t->resolve_mod);
	free(t);
}

/* libtraceevent's resolver, over ours. */
static char *
resolve_thunk(void *priv, unsigned long long *addrp, char **modp)
{
	struct ses_trace *t = priv;
	const char *mod = NULL;
	const char *name;
	uint64_t addr = *addrp;

	name = t->resolve(t->resolve_ctx, &addr, &mod);
	if (!name)
		return NULL;
	*addrp = addr;
	free(t->resolve_mod);
	t->resolve_mod = mod ? strdup(mod) : NULL;
	*modp = t->resolve_mod;
	return (char *)name;
}

/* perf's machine__resolve_kernel_addr(): the kernel symbol at *addr. */
static const char *
resolve_in_session(void *ctx, uint64_t *addr, const char **mod)
{
	struct ses_session *s = ctx;
	struct ses_loc l;

	ses_resolve(s, NULL, PD_MISC_KERNEL, *addr, &l);
	if (!l.map || !l.sym)
		return NULL;
	*mod = sym_dso_kind(l.dso) == SYM_DSO_MODULE ?
	       sym_dso_short_name(l.dso) : NULL;
	*addr = l.map->identity ? l.sym->start :
		l.sym->start + l.map->start - l.map->pgoff;
	return l.sym->name;
}

void
ses_trace_resolve_kernel(struct ses_trace *t, struct ses_session *s)
{
	ses_trace_set_resolver(t, resolve_in_session, s);
}

void
ses_trace_set_resolver(struct ses_trace *t, ses_trace_resolver fn, void *ctx)
{
	t->resolve = fn;
	t->resolve_ctx = ctx;
	if (fn)
		tep_set_function_resolver(t->tep, resolve_thunk, t);
	else
		tep_reset_function_resolver(t->tep);
}

const char *
ses_trace_event_name(struct ses_trace *t, uint64_t id, const char **sys)
{
	struct tep_event *ev;

	if (id > INT32_MAX)
		return NULL;
	ev = tep_find_event(t->tep, (int)id);
	if (!ev)
		return NULL;
	if (sys)
		*sys = ev->system;
	return ev->name;
}

/* Room for the raw data and the zeros after it. */
static int
scratch_fit(struct ses_trace *t, size_t len)
{
	unsigned char *p;
	size_t need;

	if (len > SIZE_MAX - t->pad)
		return -PD_E_TOO_BIG;
	need = len + t->pad;
	if (need <= t->scratch_len)
		return 0;
	p = calloc(1, need);
	if (!p)
		return -PD_E_NOMEM;
	free(t->scratch);
	t->scratch = p;
	t->scratch_len = need;
	return 0;
}

/* perf's is_printable_array(): printable or space up to the first NUL. */
static bool
printable(const unsigned char *p, size_t len)
{
	size_t i;

	for (i = 0; i < len && p[i]; i++)
		if (!isprint(p[i]) && !isspace(p[i]))
			return false;
	return true;
}

/*
 * One field's value as perf 6.1's bundled libtraceevent prints it with
 * tep_print_field() (newer libtraceevent releases print other forms):
 * strings, byte arrays, pointers and longs in hex, other numbers in
 * decimal.  Parts past the data's end read as nothing.
 */
static void
print_field(struct trace_seq *seq, const unsigned char *data, size_t size,
	    struct tep_format_field *f)
{
	unsigned long long val = 0;
	size_t off = (size_t)f->offset, len = (size_t)f->size, i;

	if (f->flags & TEP_FIELD_IS_ARRAY) {
		if ((f->flags & TEP_FIELD_IS_DYNAMIC) && off + len <= size) {
			val = tep_read_number(f->event->tep, data + off, (int)len);
			off = val & 0xffff;
			len = (val >> 16) & 0xffff;
			if (f->flags & TEP_FIELD_IS_RELATIVE)
				off += (size_t)f->offset + (size_t)f->size;
		}
		if (off > size)
			off = size;
		if (len > size - off)
			len = size - off;
		if ((f->flags & TEP_FIELD_IS_STRING) && printable(data + off, len)) {
			trace_seq_printf(seq, "%.*s", (int)strnlen((const char *)data + off, len),
					 (const char *)data + off);
			return;
		}
		trace_seq_puts(seq, "ARRAY[");
		for (i = 0; i < len; i++)
			trace_seq_printf(seq, "%s%02x", i ? ", " : "", data[off + i]);
		trace_seq_putc(seq, ']');
		/* perf's library forgets the field is a string from then on */
		f->flags &= ~TEP_FIELD_IS_STRING;
		return;
	}
	if (off + len <= size && len <= 8)
		val = tep_read_number(f->event->tep, data + off, (int)len);
	if (f->flags & TEP_FIELD_IS_POINTER) {
		trace_seq_printf(seq, "0x%llx", val);
	} else if (f->flags & TEP_FIELD_IS_SIGNED) {
		switch (len) {
		case 4:
			if (f->flags & TEP_FIELD_IS_LONG)
				trace_seq_printf(seq, "0x%x", (int)val);
			else
				trace_seq_printf(seq, "%d", (int)val);
			break;
		case 2:
			trace_seq_printf(seq, "%2d", (short)val);
			break;
		case 1:
			trace_seq_printf(seq, "%1d", (signed char)val);
			break;
		default:
			trace_seq_printf(seq, "%lld", (long long)val);
		}
	} else if (f->flags & TEP_FIELD_IS_LONG) {
		trace_seq_printf(seq, "0x%llx", val);
	} else {
		trace_seq_printf(seq, "%llu", val);
	}
}

/* perf 6.1's tep_print_fields(): " name=value" for each field. */
static void
print_fields(struct trace_seq *seq, const unsigned char *data, size_t size,
	     struct tep_event *ev)
{
	struct tep_format_field *f;

	for (f = ev->format.fields; f; f = f->next) {
		trace_seq_printf(seq, " %s=", f->name);
		print_field(seq, data, size, f);
	}
}

/*
 * The sample's raw data through its event's print fmt (fields false:
 * libtraceevent's info part) or as its fields one by one (fields true:
 * perf's --raw-trace).
 */
static int
trace_print(struct ses_trace *t, const struct pd_attr *attr,
	    const struct pd_sample *ps, bool fields, struct strbuf *out)
{
	struct tep_event *ev = NULL;
	struct tep_record rec;
	int err;

	if (!t || !attr || !ps || !out || attr->type != PD_TYPE_TRACEPOINT)
		return -PD_E_INVAL;
	if (!ps->raw.len)
		return 0;
	if (ps->raw.len > INT32_MAX)
		return -PD_E_TOO_BIG;
	if (fields) {
		if (attr->config > INT32_MAX)
			return 0;
		ev = tep_find_event(t->tep, (int)attr->config);
		if (!ev)
			return 0;
	}
	err = scratch_fit(t, ps->raw.len);
	if (err)
		return err;
	memcpy(t->scratch, ps->raw.p, ps->raw.len);

	memset(&rec, 0, sizeof(rec));
	rec.cpu = (int)ps->cpu;
	rec.size = (int)ps->raw.len;
	rec.data = t->scratch;
	trace_seq_reset(&t->seq);
	if (fields)
		print_fields(&t->seq, t->scratch, ps->raw.len, ev);
	else
		tep_print_event(t->tep, &t->seq, &rec, "%s", TEP_PRINT_INFO);
	memset(t->scratch, 0, ps->raw.len);
	if (t->seq.state != TRACE_SEQ__GOOD)
		return -PD_E_NOMEM;
	sb_addn(out, t->seq.buffer, t->seq.len);
	return 0;
}

int
ses_trace_format(struct ses_trace *t, const struct pd_attr *attr,
		 const struct pd_sample *ps, struct strbuf *out)
{
	return trace_print(t, attr, ps, false, out);
}

int
ses_trace_format_fields(struct ses_trace *t, const struct pd_attr *attr,
			const struct pd_sample *ps, struct strbuf *out)
{
	return trace_print(t, attr, ps, true, out);
}

static struct tep_event *
event_of(struct ses_trace *t, uint64_t id)
{
	if (!t || id > INT32_MAX)
		return NULL;
	return tep_find_event(t->tep, (int)id);
}

static void
field_out(struct ses_trace *t, struct tep_format_field *f,
	  struct ses_trace_field *out)
{
	unsigned int flags = 0;

	if (f->flags & TEP_FIELD_IS_STRING)
		flags |= SES_TRACE_FIELD_STRING;
	if (f->flags & TEP_FIELD_IS_DYNAMIC)
		flags |= SES_TRACE_FIELD_DYNAMIC;
	if (f->flags & TEP_FIELD_IS_RELATIVE)
		flags |= SES_TRACE_FIELD_RELATIVE;
	*out = (struct ses_trace_field){
		.name = f->name,
		.offset = (uint32_t)f->offset,
		.size = (uint32_t)f->size,
		.flags = flags,
		.big_endian = tep_is_file_bigendian(t->tep),
		.handle = f,
	};
}

long
ses_trace_event_fields(struct ses_trace *t, uint64_t id,
		       struct ses_trace_field *out, size_t max)
{
	struct tep_event *ev = event_of(t, id);
	struct tep_format_field *f;
	long n = 0;

	if (!ev)
		return -1;
	for (f = ev->format.fields; f; f = f->next, n++)
		if ((size_t)n < max)
			field_out(t, f, &out[n]);
	return n;
}

int
ses_trace_find_field(struct ses_trace *t, uint64_t id, const char *name,
		     struct ses_trace_field *out)
{
	struct tep_event *ev = event_of(t, id);
	struct tep_format_field *f;

	if (!ev || !name)
		return -1;
	f = tep_find_any_field(ev, name);
	if (!f)
		return -1;
	field_out(t, f, out);
	return 0;
}

void
ses_trace_format_field(const struct ses_trace_field *f,
		       const unsigned char *raw, size_t len, struct strbuf *out)
{
	struct trace_seq seq;

	trace_seq_init(&seq);
	print_field(&seq, raw ? raw : (const unsigned char *)"", raw ? len : 0,
		    f->handle);
	if (seq.state == TRACE_SEQ__GOOD)
		sb_addn(out, seq.buffer, seq.len);
	trace_seq_destroy(&seq);
}
