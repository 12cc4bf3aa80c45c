/*
 * path.h: the new messages of a Maildir (its cur/ and new/) or an mbox
 * into the queue, for a cron or timer run over the folder lei q keeps: a
 * run reads what came since the last one (state/seen.h), not the folder.
 */
#ifndef CONSUME_PATH_H
#define CONSUME_PATH_H

#include <stddef.h>

/* Messages read from one path at most; the rest wait for the next run. */
#define CONSUME_MAX_PATH_MSGS 100000

struct path_counts {
	size_t queued, known;	/* new entries; entries already there */
	size_t seen;		/* Maildir files passed unread: queued by an earlier run */
	size_t skipped_bytes;	/* of mboxes, the bytes an earlier run read, passed unread */
};

/* Queues each message of path (at most max in the queue). Returns 0, or -1 after one line on stderr. */
int path_queue(const char *state, const char *path, long max, struct path_counts *n);

#endif
