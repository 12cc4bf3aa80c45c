/*
 * prompt.h: what the model is told. The system prompt is core plus the
 * guides whose triggers match the patch; the user message is the patch,
 * fenced between "<<<PATCH" and "PATCH>>>" lines and labelled as
 * untrusted data; before it, fenced the same way, the rest of its series
 * when it is reviewed with one, and the comments the thread already made;
 * after it, the tree's code. No request is larger than the model's
 * context allows (backend/budget.h): a patch that does not fit, or whose
 * diff is over part_bytes, goes in parts (prompt/parts.h), and the
 * series, the thread and the tree each take at most a share of what the
 * instructions leave, so that the patch keeps room.
 */
#ifndef PROMPT_H
#define PROMPT_H

#include <stdbool.h>
#include <stdio.h>

#include "base/buf.h"
#include "prompt/context.h"
#include "prompt/parts.h"
#include "review/review.h"

struct prompt {
	char *system;
	char *user;
	size_t bytes;		/* both together */
};

/* The requests for one patch: the whole mail in one, or its parts. */
struct prompt_plan {
	const struct review_input *in;
	char *system;		/* core and the guides chosen */
	char *series;		/* the rest of the series, labelled and fenced; or "" */
	char *thread;		/* what the thread said, labelled and fenced; or "" */
	struct prompt_context tree;	/* the tree's code */
	char *context;		/* that code as it goes after the patch; or "" */
	char *message;		/* of a part: the subject and commit message, fenced */
	struct prompt_parts parts;	/* the parts, or with whole one holding all */
	size_t count;		/* the requests */
	bool whole;		/* one request holds the whole mail */
};

/*
 * Plans the requests for in->patch. Returns 0; -1 with the reason in *why
 * when the guides cannot be read; 1 with it when the instructions leave
 * the patch no room in the model's context. Release pl either way.
 */
int prompt_plan(struct prompt_plan *pl, const struct review_input *in, struct buf *why);
void prompt_plan_release(struct prompt_plan *pl);

/* Writes request k of the plan (0 <= k < pl->count). */
void prompt_plan_request(const struct prompt_plan *pl, size_t k, struct prompt *p);
void prompt_release(struct prompt *p);

/* Appends what requests [first, end) of the plan hold, file by file, for the draft. */
void prompt_plan_describe(const struct prompt_plan *pl, size_t first, size_t end,
			  struct buf *b);

/* Does request k of the plan hold a line larger than any request may be? */
bool prompt_plan_too_large(const struct prompt_plan *pl, size_t k);

/*
 * model_explain_prompt(), for model.h: the guides chosen, and the size of
 * each request, split into instructions, patch, series, thread and tree.
 */
int prompt_explain(const struct review_input *in, FILE *out);

/*
 * model_list_prompts(), for model.h: each prompt file config c finds (core
 * first, then the guides not disabled), its bytes as sent and its title,
 * one a line. Returns 0, or -1 after one line on stderr when there is no
 * core.
 */
int prompt_list(const struct config *c, FILE *out);

#endif
