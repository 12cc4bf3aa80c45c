/*
 * place.h: the queue's messages into their series (state/state.h): each
 * message moves by rename() into STATE/series/KEY/ under the name of its
 * Message-ID, so a copy delivered again, by another list or path, is one
 * message; a reply to a patch is kept for its thread (consume/replies.h);
 * what is no patch, no cover letter and no such reply (a pull request) is
 * dropped; a Message-ID placed before (state/seen.h) is passed. A series
 * that got a message is pending again:
 * STATE/pending/KEY holds the time its first message came.
 */
#ifndef CONSUME_PLACE_H
#define CONSUME_PLACE_H

#include <stddef.h>

struct place_counts {
	size_t placed, duplicates, dropped;
};

/* Places up to max entries of the queue, adding to *n what became of them. */
void place_queue(const char *state, size_t max, struct place_counts *n);

#endif
