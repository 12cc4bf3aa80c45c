/*
 * base.h: which version of the tree a patch is read against, and whether
 * it applies there. The mail's "base-commit:" wins when the tree has that
 * commit; its "prerequisite-patch-id:" lines then move the base to the
 * tree's commit that carries the last of them, when all are found.
 * Otherwise the base is guessed from the patch's index lines, else the
 * work tree is the base. "git apply --check" decides whether
 * the patch applies: against the work tree's files, or against a private
 * index holding the base's versions of the patch's files.
 */
#ifndef BASE_H
#define BASE_H

#include <stdbool.h>

#include "base/buf.h"
#include "patch/patch.h"
#include "repo/repo.h"

struct base_choice {
	char *commit;		/* the commit to read, or NULL for the work tree */
	struct buf what;	/* e.g. "base-commit 5d9fad10c6c1 (from the mail)" */
	bool prereqs_in_tree;	/* the base moved to the commit of its prerequisite patches */
	size_t prereqs_not_in_tree;	/* else: of its prerequisite-patch-ids, those the tree lacks */
	size_t prereqs_wanted;		/* ... of this many */
};

/*
 * series: the message whose base-commit: speaks for the series p is in
 * (series/series.h), taken when p names no base itself; or NULL. The
 * prerequisites are those of the message whose base is taken. With no
 * base the tree has, the base is guessed (repo/guess.h) from the index
 * lines of all[0..nall), the whole series (none: p alone); the work tree
 * stays the base when HEAD has every file as the patches saw it, or when
 * no commit has any.
 */
void base_choose(const struct tree *t, const struct patch *p, const struct patch *series,
		 const struct patch *const *all, size_t nall, struct base_choice *b);
void base_release(struct base_choice *b);

/*
 * Does p apply to the base, on top of the earlier patches of its series
 * (earlier[0..nearlier), in order; none for a lone patch)? They are checked
 * as one input, in a private index, so p reads what they made of a file.
 * Returns true, or false with the first failure ("drivers/x.c, hunk 2 of 3
 * (@@ -10,6 +10,7 @@): does not apply") in *why.
 */
bool base_applies(const struct tree *t, const struct patch *const *earlier, size_t nearlier,
		  const struct patch *p, const char *commit, struct buf *why);

/* Do earlier[0..nearlier) apply to the base, one after the other? */
bool base_applies_earlier(const struct tree *t, const struct patch *const *earlier,
			  size_t nearlier, const char *commit);

#endif
