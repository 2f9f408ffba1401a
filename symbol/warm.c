/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * symbol/warm.c - DSOs loaded ahead, on a thread of their own: their
 * symbols, and their DWARF for source lines and inline frames, as soon
 * as a DSO is known to be needed (sym_dso_warm()), while the caller is
 * busy with what came before.  Each load takes the DSO's lock as the
 * caller's would, so a DSO the caller asks for is either ready or being
 * loaded, and the caller waits for it: the results are the same.  What
 * a load warns is kept and said when the DSO is first asked for
 * (sym_dso_load_quietly() in dso.c).  With nothing left to load, the
 * thread makes the unit tables of the DSOs whose DWARF it opened
 * (sym_inline_prepare()), on a libdw handle of its own, up to a bound
 * on the rows they hold.
 */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>

#include "lib/xalloc.h"
#include "symbol/sym-dso.h"

/*
 * The line rows the unit tables made ahead may hold (16 bytes each): a
 * unit the caller never reaches costs its table.
 */
#define PREPARE_ROWS	(2u << 20)

struct sym_warm {
	pthread_t thread;
	pthread_mutex_t lock;		/* the queues, stop */
	pthread_cond_t cond;
	struct sym_dso **queue;		/* to load: queue[head..nr) */
	size_t head, nr, cap;
	/* loaded with their DWARF, units to make: prep[prep_head..nr) */
	struct sym_dso **prep;
	size_t prep_head, prep_nr;
	struct sym_prepare budget;
	bool dwarf;
	bool stop;
};

/*
 * The next DSO to load, else (*prepare set) one to make unit tables
 * of, waiting for either; NULL: stop.
 */
static struct sym_dso *
warm_next(struct sym_warm *w, bool *prepare)
{
	struct sym_dso *dso = NULL;

	pthread_mutex_lock(&w->lock);
	while (!w->stop && w->head == w->nr &&
	       (w->prep_head == w->prep_nr || !w->budget.rows_left))
		pthread_cond_wait(&w->cond, &w->lock);
	*prepare = w->head == w->nr;
	if (w->stop)
		dso = NULL;
	else if (!*prepare)
		dso = w->queue[w->head++];
	else
		dso = w->prep[w->prep_head];
	pthread_mutex_unlock(&w->lock);
	return dso;
}

/* Whether a DSO waits to be loaded: it goes before unit tables. */
static bool
warm_interrupted(void *arg)
{
	struct sym_warm *w = arg;
	bool wait;

	pthread_mutex_lock(&w->lock);
	wait = w->stop || w->head != w->nr;
	pthread_mutex_unlock(&w->lock);
	return wait;
}

static void
warm_loaded(struct sym_warm *w, struct sym_dso *dso)
{
	pthread_mutex_lock(&w->lock);
	/* each DSO comes once (sym_dso_warm()): prep has room for all */
	w->prep[w->prep_nr++] = dso;
	pthread_mutex_unlock(&w->lock);
}

static void
warm_prepared(struct sym_warm *w)
{
	pthread_mutex_lock(&w->lock);
	w->prep_head++;
	pthread_mutex_unlock(&w->lock);
}

static void *
warm_main(void *arg)
{
	struct sym_warm *w = arg;
	struct sym_dso *dso;
	bool prepare;

	while ((dso = warm_next(w, &prepare))) {
		if (prepare) {
			if (sym_inline_prepare(dso, &w->budget))
				warm_prepared(w);
			continue;
		}
		sym_dso_load_quietly(dso);
		if (w->dwarf) {
			sym_srcline_warm(dso);
			warm_loaded(w, dso);
		}
	}
	return NULL;
}

void
sym_ctx_warm_start(struct sym_ctx *ctx, bool dwarf)
{
	struct sym_warm *w;

	if (ctx->warm || ctx->ar || sym_ctx_noting(ctx))
		return;
	w = xcalloc(1, sizeof(*w));
	w->dwarf = dwarf;
	w->budget = (struct sym_prepare){
		.rows_left = PREPARE_ROWS, .interrupted = warm_interrupted,
		.arg = w,
	};
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->cond, NULL);
	if (pthread_create(&w->thread, NULL, warm_main, w)) {
		pthread_cond_destroy(&w->cond);
		pthread_mutex_destroy(&w->lock);
		free(w);
		return;
	}
	ctx->warm = w;
}

bool
sym_ctx_warming(const struct sym_ctx *ctx)
{
	return ctx->warm != NULL;
}

void
sym_dso_warm(struct sym_dso *dso)
{
	struct sym_warm *w = dso->ctx->warm;

	if (!w || dso->kind != SYM_DSO_FILE ||
	    __atomic_exchange_n(&dso->warm_queued, true, __ATOMIC_RELAXED))
		return;
	pthread_mutex_lock(&w->lock);
	if (w->nr == w->cap) {
		w->cap = w->cap ? 2 * w->cap : 16;
		w->queue = xreallocarray(w->queue, w->cap, sizeof(*w->queue));
		w->prep = xreallocarray(w->prep, w->cap, sizeof(*w->prep));
	}
	w->queue[w->nr++] = dso;
	pthread_cond_signal(&w->cond);
	pthread_mutex_unlock(&w->lock);
}

void
sym_warm_stop(struct sym_ctx *ctx)
{
	struct sym_warm *w = ctx->warm;

	if (!w)
		return;
	pthread_mutex_lock(&w->lock);
	w->stop = true;
	pthread_cond_signal(&w->cond);
	pthread_mutex_unlock(&w->lock);
	pthread_join(w->thread, NULL);
	pthread_cond_destroy(&w->cond);
	pthread_mutex_destroy(&w->lock);
	free(w->queue);
	free(w->prep);
	free(w);
	ctx->warm = NULL;
}
