/*
 * seen.h: what consume has read already, so that a folder run costs what
 * is new in the folder, not the folder. An entry is an empty file
 * STATE/seen/H, H the SHA-256 of a kind and a name: a Maildir file's
 * unique name (its part before ':', which a mail client's flags do not
 * change), or a placed message's Message-ID (a copy delivered again, by
 * another list or path, or read again from a folder lei rewrote). Each
 * sighting refreshes the entry's time, so state/prune.h forgets only
 * what no folder showed for consume_keep days. An mbox has a record of
 * its own (consume/path.c): how far it was read.
 */
#ifndef STATE_SEEN_H
#define STATE_SEEN_H

#include <stdbool.h>

#include "base/buf.h"

/* "STATE/seen/H" for kind and name into *path. */
void seen_path(struct buf *path, const char *state, const char *kind, const char *name);

/* Was kind/name seen? A seen entry's time becomes now. One system call, no read. */
bool seen_touch(const char *state, const char *kind, const char *name);

/* Marks kind/name seen. Returns 0, or -1 (errno set) when it cannot be written. */
int seen_mark(const char *state, const char *kind, const char *name);

#endif
