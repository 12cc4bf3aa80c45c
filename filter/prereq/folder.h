/*
 * folder.h: the list folder (list_folder): a Maildir or an mbox of the
 * list's mail, such as the one lei keeps, read as raw messages by
 * mail/folder.h within the bounds below, newest first, so that a folder of
 * any size, or a huge or malformed message in it, costs at most
 * FOLDER_MAX_BYTES read and one message held at a time.
 */
#ifndef PREREQ_FOLDER_H
#define PREREQ_FOLDER_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "base/buf.h"
#include "base/strvec.h"

/* Messages scanned, and bytes read in all, of the folder's newest mail. */
#define FOLDER_MAX_MESSAGES 20000
#define FOLDER_MAX_BYTES ((size_t)256 << 20)
/* A larger message is passed over (a patch mail is rarely 1 MiB). */
#define FOLDER_MAX_MESSAGE ((size_t)4 << 20)

/* Where a message is, to read it again: a Maildir's file, or an mbox's bytes. */
struct folder_ref {
	size_t file;		/* index into names (Maildir) */
	off_t at;		/* mbox: offset of the text after its "From " line */
	size_t len;
};

struct folder {
	char *path;
	bool maildir;
	struct strvec names;	/* Maildir: the files scanned, newest first */
	int fd;			/* mbox: open, or -1 */
	size_t scanned;		/* messages passed to the scan */
	size_t bytes;		/* bytes read by the scan */
	bool capped;		/* the scan stopped at a bound before the folder's end */
};

/* Called with each message's raw bytes (len <= FOLDER_MAX_MESSAGE) and where it is. */
typedef void folder_fn(void *ctx, const char *data, size_t len, const struct folder_ref *ref);

/* Opens path (a leading ~/ is the home). Returns 0, or -1 with the reason in *why. */
int folder_open(struct folder *f, const char *path, struct buf *why);

/* Passes the newest messages, within the bounds above, to fn. */
void folder_scan(struct folder *f, folder_fn *fn, void *ctx);

/* The message at ref into out. Returns 0, or -1. */
int folder_read(const struct folder *f, const struct folder_ref *ref, struct buf *out);

void folder_close(struct folder *f);

#endif
