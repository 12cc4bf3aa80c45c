/*
 * message.h: the commit message's own structure: an in-body "From:" line
 * naming the author, git's scissors line, and the trailer block.
 */
#ifndef PATCH_MESSAGE_H
#define PATCH_MESSAGE_H

#include <stddef.h>

#include "patch/patch.h"

/*
 * The in-body "From:" and the trailers of p's commit message, lines
 * [0, message_end); part is the first line of the part carrying the patch.
 */
void patch_parse_message(struct patch *p, size_t part);

/*
 * The first message line after the last scissors line ("-- >8 --", as
 * git's is_scissors_line() reads it), or 0; git am --scissors drops what
 * is above it.
 */
size_t patch_scissors_end(const struct patch *p);

#endif
