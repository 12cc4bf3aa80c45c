/*
 * hints.h: what later history says about a line a finding is on, for the
 * person who judges the finding: the first later commit that changed the
 * line, and whether its Fixes: trailer names the reviewed commit (a later
 * change of the same line for the same reason is strong evidence that the
 * finding was real).
 */
#ifndef EVALSET_HINTS_H
#define EVALSET_HINTS_H

#include <stdbool.h>

#include "base/buf.h"

struct hint {
	char *commit;		/* the commit that changed the line, or NULL */
	char *subject;
	bool fixes;		/* its Fixes: names the reviewed commit */
};

/*
 * The hint for line of path as commit sha left it, with history up to
 * head. A line unchanged up to head gets commit NULL. Returns 0, or -1
 * after one line on stderr.
 */
int hint_for_line(const char *repo, const char *sha, const char *head,
		  const char *path, long line, struct hint *h);
void hint_release(struct hint *h);

#endif
