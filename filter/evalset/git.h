/*
 * git.h: running git on the repository under evaluation, as a child
 * process without a shell, its output read through pipes and bounded.
 * The configuration that would change the output's shape (colour, quoted
 * paths, prefixes, external diff drivers) is overridden, the repository's
 * hooks never run, and the GIT_* variables of the caller's environment are
 * not passed on.
 */
#ifndef EVALSET_GIT_H
#define EVALSET_GIT_H

#include <stddef.h>

#include "base/buf.h"

/* Longest record (line, or NUL-ended record with -z) read from git. */
#define GIT_MAX_RECORD ((size_t)16 << 20)

/*
 * Called with each record of git's output, its separator replaced by a NUL.
 * Returns 0 to go on, 1 to stop reading (git is then ended), -1 to fail.
 */
typedef int git_each_fn(void *ctx, char *record, size_t len);

/*
 * Runs "git -C repo ARGS" (args NULL-terminated), stdin from stdin_path
 * or /dev/null, and hands each sep-ended record of its output to each.
 * Returns 0 when git succeeded or each stopped it; -1 after one line on
 * stderr with git's own first error line.
 */
int git_each(const char *repo, const char *const *args, const char *stdin_path,
	     char sep, git_each_fn *each, void *ctx);

/*
 * All of git's output into *out, at most max bytes. Returns 0; 1 when the
 * output was larger than max (nothing said); -1 after one line on stderr.
 */
int git_read(const char *repo, const char *const *args, size_t max, struct buf *out);

#endif
