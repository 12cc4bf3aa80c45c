/*
 * prompt.h: what the model is told. The system prompt is core plus the
 * guides whose triggers match the patch; the user message is the patch,
 * fenced between "<<<PATCH" and "PATCH>>>" lines and labelled as
 * untrusted data; before it, fenced the same way, the rest of its series
 * when it is reviewed with one, and the comments the thread already made.
 */
#ifndef PROMPT_H
#define PROMPT_H

#include <stdio.h>

#include "base/buf.h"
#include "review/review.h"

/* Rough, model-independent: English and code average near 4 bytes a token. */
#define PROMPT_BYTES_PER_TOKEN 4

struct prompt {
	char *system;
	char *user;
	size_t bytes;		/* both together */
};

struct prompt_part;

/*
 * Builds the prompt for in->patch, or for one part of it (prompt/parts.h;
 * NULL for all of it). Returns 0, or -1 with the reason in *why.
 */
int prompt_build(struct prompt *p, const struct review_input *in,
		 const struct prompt_part *part, struct buf *why);
void prompt_release(struct prompt *p);

/* model_explain_prompt(), for model.h: the guides chosen and the prompt's size. */
int prompt_explain(const struct review_input *in, FILE *out);

/*
 * model_list_prompts(), for model.h: each prompt file config c finds (core
 * first, then the guides not disabled), its bytes as sent and its title,
 * one a line. Returns 0, or -1 after one line on stderr when there is no
 * core.
 */
int prompt_list(const struct config *c, FILE *out);

#endif
