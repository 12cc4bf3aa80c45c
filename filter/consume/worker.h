/*
 * worker.h: the review at delivery. One worker at a time holds
 * STATE/worker.lock; it places the queue's messages into their series
 * (consume/place.h) and reviews each pending series that is ready
 * (consume/ready.h) with the user's configuration, through the same driver
 * as the key press (run/run.h), so the model's answers land in the cache
 * and the state says the series was reviewed. Up to jobs series are
 * reviewed at once, each by a process of its own sending one request at a
 * time: at most jobs model requests at once. A series starts only when
 * its token_budget still fits in the day's consume_tokens, counting the
 * budgets of those under way; past it, the series is left for the key
 * press, with a line in the log.
 */
#ifndef CONSUME_WORKER_H
#define CONSUME_WORKER_H

#include "config/config.h"

struct tree;

/* Series reviewed at once, at most, whatever jobs says. */
#define CONSUME_MAX_JOBS 64
/* Rounds of placing and reviewing one worker makes before it leaves the rest to the next. */
#define CONSUME_MAX_ROUNDS 100

struct worker_counts {
	size_t placed, duplicates, dropped, reviewed, failed, over_budget;
};

/*
 * Opens STATE/worker.lock and takes it: waiting for it with wait, else
 * returning -1 at once when another worker holds it. Returns the lock's
 * descriptor, which holds the lock until every process sharing it closed
 * it.
 */
int worker_lock(const char *state, bool wait);

/* Writes the calling process's id into the lock file: the worker is kill -- -PID (its group). */
void worker_lock_owner(int fd);

/* Does the queue hold anything? */
bool worker_queue_waiting(const char *state);

/* Runs the worker, the lock taken; c is changed (quiet). Adds to *n what it did. */
void worker_run(const char *state, struct config *c, struct tree *tree, struct worker_counts *n);

#endif
