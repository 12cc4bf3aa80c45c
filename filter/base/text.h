/* text.h: making untrusted text safe to put in a draft. */
#ifndef TEXT_H
#define TEXT_H

#include <stdbool.h>
#include <stddef.h>

#include "base/buf.h"

enum {
	TEXT_KEEP_CR = 1 << 0,	/* keep CR, for the DOS line-ending check */
	TEXT_ONE_LINE = 1 << 1,	/* newlines and tabs become spaces, runs collapse */
};

/*
 * Appends s to out as valid UTF-8 with no control characters: invalid
 * bytes, C0 controls other than tab and newline, DEL, C1 controls (which
 * start terminal escape sequences), the line and paragraph separators
 * (U+2028, U+2029, which end a line in JavaScript and some viewers) and
 * the bidirectional overrides and isolates (U+202A..U+202E,
 * U+2066..U+2069, which reorder text on screen) become U+FFFD, one for a
 * run of them (a space, with TEXT_ONE_LINE, for CR and the separators). It adds and removes nothing else,
 * so its output is safe whatever was done to the input before, and never
 * more than three times as long.
 */
void text_clean(struct buf *out, const char *s, size_t len, unsigned flags);

/* text_clean() into a new string; caller frees. */
char *text_clean_dup(const char *s, unsigned flags);

/* The length of the valid UTF-8 sequence at s (its code point in *cp), or 0. */
size_t text_utf8_decode(const char *s, size_t len, unsigned *cp);

/* Number of UTF-8 code points in s[0..len). */
size_t text_width(const char *s, size_t len);

/*
 * Is s[0..len) one token of a header: 1 to max bytes of printable ASCII
 * without blanks or angle brackets? An address or a message id that is
 * not one is no address or id.
 */
bool text_is_token(const char *s, size_t len, size_t max);

/* The longest message id kept, wherever a mail names one. */
#define TEXT_MAX_MESSAGE_ID 250

#endif
