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
extern const struct reviewer check_checkpatch;	/* the tree's scripts/checkpatch.pl */

#endif
