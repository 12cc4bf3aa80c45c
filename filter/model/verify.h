/*
 * verify.h: the optional second pass (verify = low or yes). Each finding
 * goes back to the model with the code around it and the instruction to
 * refute it; only findings that survive are kept.
 */
#ifndef VERIFY_H
#define VERIFY_H

#include <stdbool.h>
#include <stddef.h>

#include "answer/answer.h"
#include "backend/backend.h"
#include "base/buf.h"
#include "patch/patch.h"

/* A finding and the patch line it was anchored to. */
struct placed_finding {
	size_t line;		/* or FINDING_WHOLE */
	const struct model_finding *finding;
	bool low;		/* below min_confidence: kept only when verified */
};

struct tree_review;

/*
 * Asks the model to refute the findings v[0..n) in one request, and marks
 * in refuted[0..n) those it refutes. With a tree (or NULL), each finding
 * also gets the definitions of the names it mentions. Returns the number
 * refuted, or -1 with the reason in *why when the pass failed (then none
 * is marked).
 */
int verify_findings(struct backend *b, const struct patch *p, const struct tree_review *tree,
		    const struct placed_finding *v, size_t n, bool *refuted, struct buf *why);

#endif
