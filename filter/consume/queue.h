/*
 * queue.h: a delivered message into STATE/queue/, as it came, under the
 * SHA-256 of its bytes: cheap enough for a delivery agent to wait for, and
 * a message delivered twice by the same path is one entry. The worker
 * (consume/worker.h) places each entry into its series.
 */
#ifndef CONSUME_QUEUE_H
#define CONSUME_QUEUE_H

#include <stddef.h>

/* What queue_put() did. */
enum queue_result { QUEUE_ADDED, QUEUE_DUPLICATE, QUEUE_FULL, QUEUE_FAILED };

/*
 * Writes the len bytes at raw as a new entry of state's queue, unless it
 * already holds max entries. QUEUE_FAILED leaves errno set.
 */
enum queue_result queue_put(const char *state, const char *raw, size_t len, long max);

/*
 * The length of the message without the blank line that separates it from
 * the next in an mbox, which procmail also adds to what it pipes: the
 * message as its folder holds it, and as the key press gets it.
 */
size_t queue_trim_separator(const char *raw, size_t len);

/* "STATE/queue", created; NULL (errno set) when it cannot be. Caller frees. */
char *queue_dir(const char *state);

#endif
