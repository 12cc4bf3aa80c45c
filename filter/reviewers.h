/* reviewers.h: the review stage: every reviewer in turn. */
#ifndef REVIEWERS_H
#define REVIEWERS_H

#include "review/review.h"

/*
 * Runs the built-in checks (less those in skip_checks), adds their closing
 * sentence, then the model reviewer when a backend is configured.
 */
void reviewers_run(const struct review_input *in, struct review *r);

#endif
