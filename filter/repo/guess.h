/*
 * guess.h: the base a patch was made on, guessed from the patch itself
 * when the mail names none the tree has (as b4's --guess-base does). A
 * git diff's "index <old>..<new>" line names the blob of each file before
 * the patch; the base is the newest commit where every such blob is the
 * file's. The candidates are HEAD, then the commits that touch the files
 * (git log -- paths, newest first) and their parents, at most
 * GUESS_MAX_COMMITS of them, looked up in batches (git cat-file
 * --batch-check, no shell) until one matches every file, within
 * GUESS_MAX_SECONDS in all. With no full match, the candidate matching
 * the most files is taken and the note says how many. A series is guessed
 * once: from the first pre-image of each file across its patches.
 */
#ifndef GUESS_H
#define GUESS_H

#include <stdbool.h>
#include <stddef.h>

#include "patch/patch.h"
#include "repo/repo.h"

/* The commits touching the patch's files looked at, the time, the files compared. */
#define GUESS_MAX_COMMITS 5000
#define GUESS_MAX_SECONDS 20.0
#define GUESS_MAX_FILES 100

struct base_guess {
	const char *commit;	/* the commit guessed (owned by the tree), or NULL */
	size_t matched;		/* files whose pre-image blob is the commit's */
	size_t total;		/* files the patch names a pre-image blob of */
	bool at_head;		/* HEAD matches every file: the work tree stays the base */
	bool timed_out;		/* GUESS_MAX_SECONDS ran out before a full match */
	bool capped;		/* only the first GUESS_MAX_FILES files were compared */
};

/*
 * Guesses the base of the patches v[0..n) (a series, or one patch). The
 * result is kept in the tree: the same series asks again at no cost.
 * g->total is 0 when no file has an index line (not a git diff).
 */
void base_guess(const struct tree *t, const struct patch *const *v, size_t n,
		struct base_guess *g);

#endif
