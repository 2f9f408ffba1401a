/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * record/control.c - --control=fifo:CTL[,ACK] or fd:CTL[,ACK]: commands
 * read while recording, as perf 6.1 takes them (util/evlist.c
 * evlist__ctlfd_process()): enable, disable, enable-NAME, disable-NAME,
 * snapshot, stop, ping; each one it knows gets "ack\n" on ACK, an
 * unknown one is ignored.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/xalloc.h"
#include "record/record.h"

static int
open_fd(const char *text, bool fifo, int flags, char *why, size_t len)
{
	char *end;
	long fd;

	if (fifo) {
		int f = open(text, flags | O_CLOEXEC);

		if (f < 0)
			snprintf(why, len, "cannot open '%s': %s", text,
				 strerror(errno));
		return f;
	}
	errno = 0;
	fd = strtol(text, &end, 10);
	if (errno || end == text || *end || fd < 0 || fd > 1 << 20 ||
	    fcntl((int)fd, F_GETFD) < 0) {
		snprintf(why, len, "'%s' is not an open file descriptor", text);
		return -1;
	}
	return (int)fd;
}

int
rec_control_open(struct rec_control *c, const char *spec, char *why,
		 size_t len)
{
	bool fifo = !strncmp(spec, "fifo:", 5);
	char *ctl, *ack;

	memset(c, 0, sizeof(*c));
	c->ctl = c->ack = -1;
	if (!fifo && strncmp(spec, "fd:", 3)) {
		snprintf(why, len, "takes fd:CTL[,ACK] or "
			 "fifo:CTL[,ACK], not '%s'", spec);
		return -1;
	}
	ctl = xstrdup(spec + (fifo ? 5 : 3));
	ack = strchr(ctl, ',');
	if (ack)
		*ack++ = '\0';
	/* a FIFO opened for reading and writing does not wait for a writer */
	c->ctl = open_fd(ctl, fifo, O_RDWR | O_NONBLOCK, why, len);
	if (c->ctl >= 0 && ack)
		c->ack = open_fd(ack, fifo, O_RDWR, why, len);
	c->own = fifo;
	free(ctl);
	if (c->ctl < 0 || (ack && c->ack < 0)) {
		rec_control_close(c);
		return -1;
	}
	if (!fifo)
		fcntl(c->ctl, F_SETFL, fcntl(c->ctl, F_GETFL) | O_NONBLOCK);
	return 0;
}

void
rec_control_close(struct rec_control *c)
{
	if (c->own && c->ctl >= 0)
		close(c->ctl);
	if (c->own && c->ack >= 0)
		close(c->ack);
	c->ctl = c->ack = -1;
}

/* the event named name, or NULL */
static struct rec_event *
find_event(struct rec_evlist *list, const char *name)
{
	for (size_t i = 0; i < list->nr; i++)
		if (list->ev[i].name && !strcmp(list->ev[i].name, name))
			return &list->ev[i];
	return NULL;
}

/* One command line; true when it was one perf knows. */
static bool
command(struct rec_control *c, const char *cmd, struct rec_evlist *list,
	const struct rec_target *t, bool quiet)
{
	bool on = !strncmp(cmd, "enable", 6);

	if (on || !strncmp(cmd, "disable", 7)) {
		const char *rest = cmd + (on ? 6 : 7);
		struct rec_event *ev = NULL;

		if (*rest == '-' && !(ev = find_event(list, rest + 1)))
			return true;	/* perf acks an unknown name too */
		if (*rest && *rest != '-')
			return false;
		rec_events_switch(list, t, ev, on);
		if (!quiet && ev)
			fprintf(stderr, "Event %s %s\n", ev->name,
				on ? "enabled" : "disabled");
		else if (!quiet)
			fprintf(stderr, "Events %s\n",
				on ? "enabled" : "disabled");
		return true;
	}
	if (!strcmp(cmd, "stop")) {
		c->stop = true;
		return true;
	}
	/*
	 * snapshot: perf takes an AUX area snapshot (not --overwrite's rings,
	 * which SIGUSR2 dumps with --switch-output); precord records no AUX area
	 */
	return !strcmp(cmd, "ping") || !strcmp(cmd, "snapshot");
}

void
rec_control_process(struct rec_control *c, struct rec_evlist *list,
		    const struct rec_target *t, bool quiet)
{
	char *buf = c->buf;
	ssize_t n;

	while ((n = read(c->ctl, buf + c->have, sizeof(c->buf) - 1 - c->have)) >
	       0 || (n < 0 && errno == EINTR)) {
		char *line = buf, *nl;

		if (n < 0)
			continue;
		c->have += (size_t)n;
		buf[c->have] = '\0';
		while ((nl = memchr(line, '\n', c->have - (size_t)(line - buf)))) {
			*nl = '\0';
			if (command(c, line, list, t, quiet) && c->ack >= 0 &&
			    write(c->ack, "ack\n", 4) < 0)
				c->ack = -1;
			line = nl + 1;
		}
		c->have -= (size_t)(line - buf);
		memmove(buf, line, c->have);
		/* a line longer than the buffer is no command */
		if (c->have == sizeof(c->buf) - 1)
			c->have = 0;
	}
}
