/* headers.h: the reply's header block, for draft.c. */
#ifndef DRAFT_HEADERS_H
#define DRAFT_HEADERS_H

#include <stdio.h>

#include "config/config.h"
#include "mail/mail.h"

/* Writes the header block and the blank line that ends it. */
void draft_headers(FILE *out, const struct mail *m, const struct config *c);

#endif
