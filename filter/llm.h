/*
 * llm.h: the model reviewer. Builds the prompt, asks the configured
 * backend (or the cache), anchors the findings in the patch, and turns
 * any failure into a note at the top of the draft: the draft is always
 * written.
 */
#ifndef LLM_H
#define LLM_H

#include "review.h"

extern const struct reviewer model_reviewer;

#endif
