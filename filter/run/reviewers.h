/* reviewers.h: the review stage: every reviewer in turn. */
#ifndef REVIEWERS_H
#define REVIEWERS_H

#include "review/review.h"
#include "series/series.h"

/*
 * Runs the built-in checks (those the profile, skip_checks and add_checks
 * leave on), adds their closing sentence, then the model reviewer when a
 * backend is configured. Findings the suppression list knows are dropped.
 */
void reviewers_run(const struct review_input *in, struct review *r);

/*
 * The same for n patches at once (a series): the checks of each, then
 * the model review of all of them together (model_review()).
 */
void reviewers_run_all(const struct review_input *ins, struct review *rs, size_t n);

/*
 * The series-level checks of s into r, the review of its cover letter
 * (in is the cover letter's input), with the same profile, skip_checks
 * and suppression list as the others.
 */
void reviewers_run_series(const struct review_input *in, const struct series *s,
			  struct review *r);

#endif
