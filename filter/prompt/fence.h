/*
 * fence.h: the lines that fence untrusted text in the prompt, and the
 * guard that keeps text from imitating them. The patch, the rest of its
 * series, the thread's comments and the tree's code each go between an
 * opening and a closing line; a line inside that reads like one of them
 * is replaced, so what a mail says can never close its own fence.
 */
#ifndef PROMPT_FENCE_H
#define PROMPT_FENCE_H

#include <stdbool.h>
#include <stddef.h>

#include "base/buf.h"

#define PROMPT_FENCE_OPEN "<<<PATCH"
#define PROMPT_FENCE_CLOSE "PATCH>>>"
/* Around the rest of the series, when the patch is reviewed with it. */
#define PROMPT_SERIES_OPEN "<<<SERIES"
#define PROMPT_SERIES_CLOSE "SERIES>>>"
/* Around what the thread's replies already said of the patch. */
#define PROMPT_THREAD_OPEN "<<<THREAD"
#define PROMPT_THREAD_CLOSE "THREAD>>>"
/* Around the code from the tree (prompt/context.h). */
#define PROMPT_CONTEXT_OPEN "<<<CONTEXT"
#define PROMPT_CONTEXT_CLOSE "CONTEXT>>>"

/*
 * Whether the line imitates one of the n fence lines (ASCII capitals and
 * angle brackets): whether a piece of it, between the characters a reader
 * may take for a line break (CR, VT, FF, U+0085, U+2028, U+2029), holds a
 * fence once case, blanks, digits, punctuation, zero-width and no-break
 * spaces are set aside and look-alike letters and brackets read as what
 * they look like. So a patch line quoting a fence ("+PATCH>>>"), and
 * "Thread>>>.", "THREAD>>>" followed by a no-break space, or text, a
 * U+2028 and a fence, all count.
 */
bool prompt_line_imitates(const char *s, size_t len, const char *const *fences, size_t n);

/* A line that would end or open a fence of the prompt. */
bool prompt_line_is_fence(const char *s, size_t len);

/* Appends text's lines to b, replacing each line is_fence() says imitates a fence. */
void prompt_add_lines(struct buf *b, const char *text, bool (*is_fence)(const char *, size_t));

#endif
