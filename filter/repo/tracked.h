/*
 * tracked.h: the work tree as git tracks it. Only paths git's index holds
 * (at stage 0, not a submodule) are read, each as git sees it: a regular
 * file's bytes, a symbolic link's target as text (never followed), and
 * nothing reached through a symbolic link on the way, nothing in the git
 * directory. An untracked or ignored file, whatever the mail names, is
 * never read. The index is listed once a run, on first use.
 */
#ifndef TRACKED_H
#define TRACKED_H

#include <stddef.h>

#include "base/buf.h"
#include "base/strvec.h"

struct tree;
struct tracked;

/* An empty list, filled on first use. */
struct tracked *tracked_new(void);
void tracked_free(struct tracked *tk);

/*
 * Appends the work tree's path to *out, up to max bytes. Returns 0, or -1
 * with errno set: ENOENT when git does not track it (or it is gone, or is
 * neither a file nor a link), EFBIG when it is larger than max.
 */
int tracked_read(const struct tree *t, const char *path, size_t max, struct buf *out);

/* The tracked names directly in the folder dir ("" for the top), sorted, into *names. */
void tracked_list(const struct tree *t, const char *dir, struct strvec *names);

#endif
