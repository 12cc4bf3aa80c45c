/*
 * unreviewed.h: what the model did not review of a patch, said in its
 * draft: the parts the run's token budget left out, and those holding a
 * line no request can hold, by file and hunk, and how to review them.
 * A maintainer must not take the model's silence for approval.
 */
#ifndef UNREVIEWED_H
#define UNREVIEWED_H

#include <stdbool.h>
#include <stddef.h>

#include "model/batch.h"
#include "prompt/prompt.h"
#include "review/review.h"

/* Was request k of the plan (q) left out for one of those reasons, which are no failure? */
bool unreviewed_left_out(const struct prompt_plan *pl, const struct model_request *q, size_t k);

/* Notes in r what the plan's requests v (pl->count of them) left out, if anything. */
void unreviewed_note(struct review *r, const struct prompt_plan *pl,
		     const struct model_request *v, const struct config *c);

#endif
