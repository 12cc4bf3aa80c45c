/*
 * trigger.h: does a guide's trigger header match a patch? Deterministic,
 * in C, so the selection can be explained and tested.
 */
#ifndef TRIGGER_H
#define TRIGGER_H

#include <stdbool.h>
#include <stddef.h>

#include "base/buf.h"
#include "patch/patch.h"
#include "prompt/guide.h"

struct ident {
	const char *s;		/* points into the patch text */
	size_t len;
};

/* What the triggers look at, gathered once per patch. */
struct trigger_input {
	const struct patch *patch;
	bool in_series;		/* reviewed with the rest of its series in view */
	bool in_thread;		/* the thread already holds comments on it */
	bool kernel;		/* a kernel patch, as the checks' profile decides (checks/rules.h) */
	struct ident *idents;	/* identifiers of the changed lines and message, sorted, unique */
	size_t nidents;
};

void trigger_input_init(struct trigger_input *ti, const struct patch *p);
void trigger_input_release(struct trigger_input *ti);

/*
 * Whether guide g applies to the patch. Not when its "kernel" says the
 * patch is not for it. Then: "always", "series" when the patch
 * is reviewed with its series, "thread" when the thread holds comments
 * on it, a path pattern matching
 * a file's old or new path, a symbol among the identifiers, or a regex
 * matching a changed line. On a match *why says which, for
 * --explain-prompt.
 */
bool trigger_match(const struct guide *g, const struct trigger_input *ti, struct buf *why);

#endif
