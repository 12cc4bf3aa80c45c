/*
 * eval.h: patchreview eval, the measurement built into the product. It
 * builds an evaluation set from a git repository's history (commits that
 * a later Fixes: trailer names, and clean ones), reviews each case as
 * patchreview would, scores the findings against what the fixes changed,
 * and reports recall, findings, tokens and time per model.
 */
#ifndef EVAL_H
#define EVAL_H

#include "review/review.h"

/*
 * "patchreview eval ARGS": argv[0] is "eval". Returns the exit status:
 * 0 done, 2 bad option or configuration, 3 the set or the run directory
 * could not be made.
 */
int eval_main(int argc, char **argv, review_fn *review);

#endif
