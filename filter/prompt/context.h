/*
 * context.h: code beyond the patch for the prompt, as a list of sections
 * (the tree's code now; a series' other patches can be another). Each
 * section has a byte budget filled in priority order: an item that does
 * not fit goes in short or is cut, and so is every item of a lower
 * priority after it. The text goes after the patch, in its own fence.
 */
#ifndef PROMPT_CONTEXT_H
#define PROMPT_CONTEXT_H

#include <stdio.h>

#include "base/buf.h"
#include "review/review.h"

enum piece_fate { PIECE_IN, PIECE_SHORT, PIECE_CUT };

struct context_piece {
	int priority;		/* lower goes first */
	const char *kind;	/* for --explain-prompt: "changed", "definition", ... */
	const char *title;
	const char *text;
	const char *short_text;	/* or NULL */
	enum piece_fate fate;
	size_t bytes;		/* what went in */
};

struct context_section {
	const char *name;	/* "tree" */
	const char *intro;	/* the paragraph before its pieces */
	const char *note;	/* a first line inside the fence, or NULL */
	size_t budget;
	struct context_piece *pieces;
	size_t npieces;
	size_t used;
};

struct prompt_context {
	struct context_section *sections;
	size_t nsections;
};

/* Collects every section that has something for this review and fills the budgets. */
void prompt_context_build(struct prompt_context *pc, const struct review_input *in);
void prompt_context_release(struct prompt_context *pc);

/* Appends the fenced context to the user message; nothing when there is none. */
void prompt_context_text(const struct prompt_context *pc, struct buf *user);

/* --explain-prompt: what went in, short, or was cut, and the budgets. */
void prompt_context_explain(const struct prompt_context *pc, FILE *out);

#endif
