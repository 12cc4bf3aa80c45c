/* maildir.h: delivering the draft into a Maildir, atomically. */
#ifndef MAILDIR_H
#define MAILDIR_H

#include <stdio.h>

struct maildir_file {
	FILE *f;		/* write the message here */
	char *tmp_path;		/* dir/tmp/<name> */
	char *new_path;		/* dir/new/<name> */
};

/*
 * Creates dir (and tmp, new, cur) when missing and opens a file in tmp/,
 * to become new/NAME: a unique name, or with name that one, replacing the
 * message of that name in new/. Returns 0 or -1.
 */
int maildir_open(struct maildir_file *m, const char *dir, const char *name);
/* Flushes, syncs and renames the file into new/. Returns 0 or -1; releases m either way. */
int maildir_commit(struct maildir_file *m);
/* Removes the file from tmp/ and releases m. */
void maildir_abort(struct maildir_file *m);

/*
 * Moves the messages of Maildir dir (new/ and cur/) into the Maildir
 * dir-old beside it, created when needed: a fresh folder, nothing lost.
 * Returns 0, or -1 when one could not be moved (those stay in dir).
 */
int maildir_archive(const char *dir);

#endif
