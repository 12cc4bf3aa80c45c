/*
 * score.h: whether a finding is about the known bug, decided from the
 * patch and the truth, with no model as judge. A finding anchored to a
 * line that a fix changes or removes (or inserts beside) found the bug
 * ("line"); one elsewhere in the same hunk of the bug patch and in the
 * same function found it too ("hunk"). When no such line is in the patch,
 * a finding in a function a fix changes counts as "hunk".
 */
#ifndef EVAL_SCORE_H
#define EVAL_SCORE_H

#include <stdbool.h>
#include <stddef.h>

#include "base/buf.h"
#include "evalset/truth.h"
#include "patch/patch.h"

enum match { MATCH_NONE, MATCH_HUNK, MATCH_LINE };

/* "line", "hunk", or "" for none. */
const char *match_name(enum match m);

/*
 * The function patch line i is in: the nearest line at or above it in its
 * hunk that opens one, else the hunk header's. false when there is none.
 */
bool score_function_at(const struct patch *p, size_t i, struct buf *name);

/* How the finding anchored at line (an index, or FINDING_WHOLE) matches t. */
enum match score_finding(const struct patch *p, const struct truth *t, size_t line);

/* Whether some patch line is one the fixes change: the bug is located in the diff. */
bool score_located(const struct patch *p, const struct truth *t);

#endif
