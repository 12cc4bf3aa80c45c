/*
 * model.h: the model reviewer, the one entry to model/. It builds the
 * prompt, asks the configured backend (or the cache), anchors the findings
 * in the patch, and turns any failure into a note at the top of the draft:
 * the draft is always written. With no backend configured it does nothing.
 */
#ifndef MODEL_H
#define MODEL_H

#include <stdbool.h>
#include <stdio.h>

#include "review/review.h"

/* Is a model asked at all: a backend is configured, or files answer for it? */
bool model_configured(const struct config *c);

/*
 * The model review of n patches at once (a series): their requests, one
 * per patch or per part of a large one, are answered together, and each
 * patch's findings, notes and summary go into rs[i]; a failure sets
 * rs[i].model_failed, a request left for offline answering model_deferred.
 */
void model_review(const struct review_input *ins, struct review *rs, size_t n);

/*
 * --explain-prompt: prints to out which guides would be sent and why, and
 * the prompt's size, without calling a model. Returns 0, or -1 after one
 * line on stderr.
 */
int model_explain_prompt(const struct review_input *in, FILE *out);

/* --list-prompts: each prompt file, its size and its title. Returns 0 or -1. */
int model_list_prompts(const struct config *c, FILE *out);

#endif
