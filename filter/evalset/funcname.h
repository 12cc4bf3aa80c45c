/* funcname.h: the function a line of C opens, for scoring and for the truth. */
#ifndef EVALSET_FUNCNAME_H
#define EVALSET_FUNCNAME_H

#include <stdbool.h>
#include <stddef.h>

#include "base/buf.h"

/*
 * The name of the function that the source line text (no diff marker)
 * opens, as git's default rule sees one: it starts with a letter, '_' or
 * '$', is no label and no declaration ending in ';', and names something
 * before a '('. "static int foo(void)" gives "foo". false when it opens none.
 */
bool eval_function_name(const char *text, size_t len, struct buf *name);

#endif
