/*
 * model.h: the model reviewer, the one entry to model/. It builds the
 * prompt, asks the configured backend (or the cache), anchors the findings
 * in the patch, and turns any failure into a note at the top of the draft:
 * the draft is always written. With no backend configured it does nothing.
 */
#ifndef MODEL_H
#define MODEL_H

#include <stdio.h>

#include "review/review.h"

extern const struct reviewer model_reviewer;

/*
 * --explain-prompt: prints to out which guides would be sent and why, and
 * the prompt's size, without calling a model. Returns 0, or -1 after one
 * line on stderr.
 */
int model_explain_prompt(const struct review_input *in, FILE *out);

#endif
