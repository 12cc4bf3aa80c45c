/*
 * fingerprint.h: a short name for a finding that survives a v2 of the
 * series and a rebase: it hashes what the finding is about, never where
 * the line is. Twelve hex digits: eight for the place (who found it, the
 * file, the line's text with its blanks collapsed; for a finding about
 * the whole patch, its subject) and four for the gist of the comment
 * (the rule id of a built-in check; the model's first words).
 */
#ifndef FINGERPRINT_H
#define FINGERPRINT_H

#include <stdbool.h>

#include "patch/patch.h"
#include "review/finding.h"

#define FINGERPRINT_LEN 12
#define FINGERPRINT_PLACE 8	/* the first eight digits: the place */

void finding_fingerprint(const struct patch *p, const struct finding *f,
			 char out[FINGERPRINT_LEN + 1]);

/* Is s twelve lowercase hex digits? */
bool fingerprint_valid(const char *s);

/*
 * Does a dismissal of fingerprint dismissed cover finding fp? A check's
 * must be the same; the model's words vary from one run to the next, so
 * a model finding on a line is covered by any dismissed model finding on
 * the same line content (about the whole patch: the same words too).
 */
bool fingerprint_covers(const char *dismissed, const char *fp, const struct finding *f);

#endif
