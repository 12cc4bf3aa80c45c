/*
 * quoted.h: a path as git writes it when it holds a byte a reader could
 * misread (a blank at its end, a tab, a quote, a backslash, a control or
 * non-ASCII byte): in double quotes, with \t \n \" \\ (and \a \b \f \r \v)
 * and three octal digits for any other byte: "a/f\303\251.c".
 */
#ifndef PATCH_QUOTED_H
#define PATCH_QUOTED_H

#include <stddef.h>

#include "base/buf.h"

/*
 * When s[0..len) opens with a whole quoted path, appends it unquoted to
 * out and returns how many bytes of s it took, both quotes counted.
 * Returns 0 and leaves out as it was when it does not: no opening quote,
 * no closing one, an escape git does not write, or a NUL byte.
 */
size_t patch_unquote(const char *s, size_t len, struct buf *out);

#endif
