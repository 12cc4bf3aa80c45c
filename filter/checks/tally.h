/*
 * tally.h: a rule that a file breaks on many lines is said once, at the
 * first of them, with a count of the rest.
 */
#ifndef TALLY_H
#define TALLY_H

#include "review/review.h"

struct tally {
	size_t first;	/* index into patch->lines of the first line */
	size_t count;
};

static inline void tally_add(struct tally *t, size_t line)
{
	if (!t->count++)
		t->first = line;
}

/*
 * One finding at the first line: "TEXT." alone, or "TEXT. The same goes for
 * N more added lines in PATH." Nothing when the tally is empty.
 */
void tally_report(struct review *r, const struct tally *t, enum severity sev,
		  const char *id, const char *text, const char *path);

#endif
