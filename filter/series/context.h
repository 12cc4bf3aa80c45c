/* context.h: what the model is told about the series around a patch. */
#ifndef SERIES_CONTEXT_H
#define SERIES_CONTEXT_H

#include <stddef.h>

#include "series/series.h"

/*
 * For s->patches[k]: which patch of the series it is, the cover letter
 * (up to its signature), the subjects of the 20 patches nearest to it
 * (those missing too; the others counted), the base commit and
 * prerequisites, then the diffs of those nearest patches, nearest first,
 * as long as their sum stays within budget bytes; the ones left out are
 * named. Its size does not grow with the series. Plain text, untrusted;
 * the prompt fences it. Caller frees.
 */
char *series_context(const struct series *s, size_t k, size_t budget);

#endif
