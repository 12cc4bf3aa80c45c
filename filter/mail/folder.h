/*
 * folder.h: a Maildir (its cur/ and new/) or an mbox walked as raw
 * messages, one at a time, within fixed caps, for the readers of folders
 * (--thread, patchreview consume, list_folder): a folder of any size, or a
 * huge or malformed message in it, costs at most the bytes capped below
 * read, the names of one Maildir listed, and one message held.
 *
 * An mbox is cut before each "From " line that starts it or follows a
 * blank line; each piece keeps its "From " line (the bytes before the
 * first such line, if not blank, are a piece without one). Nothing else
 * is looked at: GMime's subtler rules (a "From " line inside an
 * attachment) are mail_read_all()'s, for whoever parses the bytes.
 */
#ifndef MAIL_FOLDER_H
#define MAIL_FOLDER_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "mail/mail.h"

/*
 * The caps, and the default of each limit of a walk: names listed in a
 * Maildir's cur/ and new/ (then messages handed), and messages started
 * in an mbox; bytes of one message (a larger one is passed over); bytes
 * read in all.
 */
#define MAIL_FOLDER_MAX_MESSAGES 200000
#define MAIL_FOLDER_MAX_MESSAGE MAIL_MAX_INPUT
#define MAIL_FOLDER_MAX_BYTES ((size_t)1 << 30)

/* The order in which a Maildir's files are handed (an mbox's: the file's). */
enum mail_folder_order {
	MAIL_FOLDER_LISTED,	/* cur/, then new/, each as readdir lists it */
	MAIL_FOLDER_BY_NAME,	/* by path */
	MAIL_FOLDER_NEWEST,	/* newest mtime first (regular files only), then by path */
};

/* One raw message as the walk hands it. */
struct mail_folder_msg {
	const char *data;	/* its bytes, NUL-terminated; an mbox's with its "From " line */
	size_t len;
	size_t from_len;	/* of that "From " line; 0 in a Maildir */
	const char *path;	/* Maildir: its file; NULL in an mbox */
	off_t at;		/* mbox: the offset of data[0] in the file */
};

/* Returns 0 to go on, else stops the walk with this message not taken. */
typedef int mail_folder_fn(void *ctx, const struct mail_folder_msg *m);
/* Maildir: true to pass the file named name (no directory) unread. */
typedef bool mail_folder_skip_fn(void *ctx, const char *name);

struct mail_folder_walk {
	/* Set by the caller; 0 (or more than the cap) is the cap. */
	size_t max_messages, max_message, max_bytes;
	enum mail_folder_order order;
	off_t mbox_from;	/* where to begin: 0, or where an earlier walk ended */
	bool mbox_tail;		/* the last max_bytes only (the message cut there is not handed) */
	mail_folder_fn *fn;
	mail_folder_skip_fn *skip;	/* or NULL */
	void *ctx;
	/* Set by the walk. */
	bool maildir;
	size_t messages;	/* handed to fn, passed by skip, or passed over as too large */
	size_t bytes;		/* read */
	bool capped;		/* stopped at a limit before the folder's end */
	int stopped;		/* what fn returned to stop the walk, or 0 */
	off_t mbox_end;		/* where the first message not taken begins: a next walk's mbox_from */
};

/*
 * Walks the Maildir or mbox at path, handing each message to w->fn.
 * Returns 0 (also when fn stopped it), or -1 with errno set when path
 * cannot be read.
 */
int mail_folder_walk(const char *path, struct mail_folder_walk *w);

#endif
