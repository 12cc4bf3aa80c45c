/*
 * verify.h: the optional second pass (verify = yes). Each finding goes
 * back to the model with the code around it and the instruction to refute
 * it; only findings that survive are kept.
 */
#ifndef VERIFY_H
#define VERIFY_H

#include <stddef.h>

#include "answer/answer.h"
#include "backend/backend.h"
#include "base/buf.h"
#include "patch/patch.h"

/* A finding and the patch line it was anchored to. */
struct placed_finding {
	size_t line;		/* or FINDING_WHOLE */
	const struct model_finding *finding;
};

struct tree_review;

/*
 * Removes the findings the model refutes from v (compacting it, *n
 * updated). With a tree (or NULL), each finding also gets the definitions
 * of the names it mentions. Returns the number dropped, or -1 with the
 * reason in *why when the pass failed; then every finding is kept.
 */
int verify_findings(struct backend *b, const struct patch *p, const struct tree_review *tree,
		    struct placed_finding *v, size_t *n, struct buf *why);

#endif
