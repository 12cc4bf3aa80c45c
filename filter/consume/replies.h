/*
 * replies.h: the replies to patches, kept so that a series is reviewed
 * with what its thread said (thread/thread.h): a v2 with the comments on
 * v1. A reply ("Re: [PATCH ...]" answering a message) moves from the
 * queue into STATE/thread/ROOT/ (state_thread_root()), once by its
 * Message-ID; it never starts a review. As a series' review starts, the
 * replies of its threads are linked into STATE/series/KEY/thread/, the
 * ones the review has in view and the key press reads back.
 */
#ifndef CONSUME_REPLIES_H
#define CONSUME_REPLIES_H

#include <stdbool.h>

#include <stddef.h>

#include "mail/mail.h"

/* Is m a reply to a patch, what the thread reader takes comments from? */
bool replies_wanted(const struct mail *m);

/* What replies_keep() did: kept; a copy was kept already; dropped (a bound); not moved (an error). */
enum reply_kept { REPLY_KEPT, REPLY_DUPLICATE, REPLY_DROPPED, REPLY_FAILED };

/* Moves the queue entry at path, holding the reply m, into its thread (a line in the log unless kept). */
enum reply_kept replies_keep(const char *state, const char *path, const struct mail *m);

/*
 * Links the replies kept for the threads of the series' messages (list,
 * read from the folder dir) into dir/thread/, up to STATE_MAX_THREAD_MSGS
 * there. Returns how many links it made.
 */
size_t replies_link(const char *state, const char *dir, const struct mail_list *list);

#endif
