/*
 * parse.h: the patch stage: the subject and the text of a mail in, the
 * patch model (patch/patch.h) out. The files of patch/ each read one part
 * of the text; parse.c runs them in order.
 */
#ifndef PATCH_PARSE_H
#define PATCH_PARSE_H

#include <stddef.h>

#include "patch/patch.h"

/*
 * Builds the patch model from subject and text. Takes ownership of text,
 * which must be NUL-terminated and is modified in place. The "---" and the
 * diff are looked for from byte offset from on (where the part carrying
 * the patch begins); text before it is commit message. Never fails: text
 * without a diff gives a patch with no files.
 */
void patch_parse(struct patch *p, const char *subject, char *text, size_t len,
		 size_t from);

#endif
