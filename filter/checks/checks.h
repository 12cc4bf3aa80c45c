/*
 * checks.h: the built-in reviewers. They need no network and no model,
 * and are sure enough to state; each finding's source names its rule.
 */
#ifndef CHECKS_H
#define CHECKS_H

#include "review/review.h"

extern const struct reviewer check_form;	/* subject, mail damage, hunks */
extern const struct reviewer check_message;	/* sign-off, trailers */
extern const struct reviewer check_log;		/* the commit message as prose */
extern const struct reviewer check_whitespace;	/* added lines */
extern const struct reviewer check_kstyle;	/* kernel coding style of added C lines */
extern const struct reviewer check_kcode;	/* kernel code: BUG_ON, printk, SPDX... */
extern const struct reviewer check_spelling;	/* common misspellings in prose */
extern const struct reviewer check_tree;	/* what only the tree shows (--tree) */

/*
 * The tree's scripts/checkpatch.pl, on the patches ins[0..n) of a series
 * that ask for it (--tree, checkpatch = yes, the rule on): started in one
 * run in the background, so that it runs while the model reviews them.
 * start returns the job, or NULL (a reason, if any, noted in rs[k]);
 * finish waits for it and adds its findings to rs[k]. finish(NULL) does
 * nothing.
 */
struct checkpatch_job;
struct checkpatch_job *checks_checkpatch_start(const struct review_input *ins, struct review *rs,
					       size_t n);
void checks_checkpatch_finish(struct checkpatch_job *j, const struct review_input *ins,
			      struct review *rs, size_t n);

#endif
