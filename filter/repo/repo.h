/*
 * repo.h: the maintainer's git work tree, read-only. Every git command runs
 * as a child process without a shell, in the minimal environment of
 * base/child.h (no GIT_* variable of ours, no API key), with optional locks
 * and the tree's fsmonitor program off; temporary files (the patch, a
 * private index) live in a scratch directory of ours, never in the tree.
 */
#ifndef REPO_H
#define REPO_H

#include <stdbool.h>
#include <stddef.h>

#include "base/buf.h"

struct symbol_index;
struct tracked;
struct read_cache;

/* The last base guessed (repo/guess.h), for the series' other patches. */
struct guess_memo {
	char *key;		/* the files and pre-image blobs it was guessed from */
	char *commit;
	size_t matched, total;
	bool at_head, timed_out;
	bool capped;		/* the patch has files past GUESS_MAX_FILES */
};

struct tree {
	char *top;		/* absolute path of the work tree */
	char *git_dir;		/* absolute path of its git directory */
	char *head;		/* HEAD's commit id, or NULL before the first commit */
	char *scratch;		/* our temporary directory */
	struct symbol_index *index;	/* loaded on first use */
	bool index_tried;
	bool quiet;
	struct tracked *tracked;	/* what git tracks: repo/tracked.h */
	struct read_cache *reads;	/* what this run read: repo/read.h */
	/* The patch-ids of base..HEAD, computed once a run for each base (repo/base.c). */
	char *prereq_base;
	struct buf prereq_ids;
	double prereq_seconds;	/* spent on them so far this run */
	struct guess_memo guess;
	double checkpatch_seconds;	/* spent running its checkpatch.pl this run (tree/checkpatch.c) */
};

/*
 * Runs "git -C top ARGS..." (args NULL-terminated) with stdin from
 * stdin_path (or /dev/null) and extra environment entries env (or NULL).
 * Returns git's exit status, or -1 with the reason in *why.
 */
int repo_git(const struct tree *t, const char *const *args, const char *stdin_path,
	     const char *const *env, size_t max_out, struct buf *out, struct buf *err,
	     struct buf *why);

/* repo_git() with a deadline of its own: killed after timeout seconds. */
int repo_git_within(const struct tree *t, const char *const *args, const char *stdin_path,
		    const char *const *env, size_t max_out, double timeout, struct buf *out,
		    struct buf *err, struct buf *why);

/*
 * A path from a mail that may be read below the top: relative, no "..",
 * no "//", no ".git" (in any case) among its folders.
 */
bool repo_path_ok(const char *path);

/* "<scratch>/<name>"; caller frees. */
char *repo_scratch_path(const struct tree *t, const char *name);

/* Is id (hex) a commit in this repository? Its full id goes to *fullo (caller frees). */
bool repo_has_commit(const struct tree *t, const char *id, char **fullo);

/* The full id of the commit id names, or NULL. Caller frees. */
char *repo_resolve_commit(const struct tree *t, const char *id);

/* Writes data to <scratch>/name. Returns the path (caller frees), or NULL. */
char *repo_scratch_write(const struct tree *t, const char *name, const char *data, size_t len);

#endif
