/*
 * result.h: the result of one case with one model, as a JSON object: how
 * the review went, what it cost, and each model finding with where it is,
 * how it matches the known bug, and for the others a hint from later
 * history; the same for each finding a filter kept out of the draft
 * ("filtered", with the filter's name). The reviewing process writes it;
 * the report reads it.
 */
#ifndef EVAL_RESULT_H
#define EVAL_RESULT_H

#include <cjson/cJSON.h>

#include "evalset/set.h"
#include "evalset/truth.h"
#include "patch/patch.h"
#include "review/review.h"

/*
 * The result of the review r of case k's patch p (t its truth, or NULL for
 * a clean case). previous is the last run's result, or NULL: hints and the
 * time of a review since cached are taken from it. Caller deletes.
 */
cJSON *result_build(const struct eval_set *s, const struct eval_case *k, const char *model,
		    const struct patch *p, const struct review *r, const struct truth *t,
		    const cJSON *previous);

#endif
