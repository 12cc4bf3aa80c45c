/*
 * run.h: reviewing the cases. Each case is reviewed with each model in a
 * process of its own, up to jobs at once, the way patchreview reviews a
 * mail: the configured backend, cache and budgets, or offline answers.
 * The process writes, under results/MODEL/, the draft (NAME.draft), the
 * review's stderr (NAME.log) and the result (NAME.json): the findings
 * scored against the truth, with hints from later history. With a tree,
 * each slot of jobs has a work tree of its own (eval/worktree.h).
 */
#ifndef EVAL_RUN_H
#define EVAL_RUN_H

#include <stdbool.h>

#include "base/buf.h"
#include "base/strvec.h"
#include "config/config.h"
#include "evalset/set.h"
#include "review/review.h"

#define EVAL_MAX_JOBS 64

struct eval_run {
	const struct config *config;
	review_fn *review;
	const struct eval_set *set;
	const struct strvec *models;	/* their names */
	long jobs;
	bool quiet;			/* no line per case on stderr */
	bool tree;			/* review each case with a work tree at its parent */
};

/* "dir/results/MODEL" with the model's name made safe; caller frees. */
char *run_results_dir(const struct eval_set *s, const char *model);

/*
 * Reviews every case with every model. Returns 0, or -1 after one line on
 * stderr when a results folder cannot be made; a case that fails is
 * recorded in its result, and a process that dies leaves none. The work
 * trees are removed before it returns.
 */
int run_cases(const struct eval_run *run);

#endif
