/* reviewers.h: the review stage: every reviewer in turn. */
#ifndef REVIEWERS_H
#define REVIEWERS_H

#include "review/review.h"

/*
 * Runs the built-in checks (those the profile, skip_checks and add_checks
 * leave on), adds their closing sentence, then the model reviewer when a
 * backend is configured. Findings the suppression list knows are dropped.
 */
void reviewers_run(const struct review_input *in, struct review *r);

#endif
