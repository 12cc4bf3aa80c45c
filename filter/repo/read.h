/*
 * read.h: the tree's files, each read once a run: at a commit (git
 * cat-file) or from the work tree as git tracks it (repo/tracked.h). What
 * was read stays in a cache of the run, READ_CACHE_BYTES at most, so that
 * a series, or a patch that names one file many times, reads it once; and
 * each call hands out no more than the budget its caller has left.
 */
#ifndef READ_H
#define READ_H

#include <stdbool.h>
#include <stddef.h>

#include "base/buf.h"

struct tree;
struct read_cache;

/* Files over this size are not read: generated tables, firmware, data. */
#define REPO_MAX_FILE ((size_t)8 << 20)
/* What the cache of a run keeps; the oldest files read go first. */
#define READ_CACHE_BYTES ((size_t)64 << 20)

/* A file's text, read from the work tree or at a commit. */
struct repo_file {
	char *path;
	char *data;		/* NUL-terminated; NULL when it could not be read */
	size_t len;
	bool over_budget;	/* not handed out: the budget was spent */
};

/*
 * Reads the n paths at commit (NULL: the work tree) into files[0..n).
 * A file that is missing, untracked, too large or unsafe has data NULL;
 * so has one that does not fit in what is left of *budget (over_budget
 * set), which the others' lengths are taken from. Returns 0, or -1 with
 * the reason in *why when git could not be run.
 */
int repo_read(const struct tree *t, const char *commit, const char *const *paths, size_t n,
	      size_t *budget, struct repo_file *files, struct buf *why);
void repo_file_release(struct repo_file *f);

struct read_cache *read_cache_new(void);
void read_cache_free(struct read_cache *c);

#endif
