/* headers.h: the reply's header block, for draft.c. */
#ifndef DRAFT_HEADERS_H
#define DRAFT_HEADERS_H

#include <stdio.h>
#include <time.h>

#include "config/config.h"
#include "mail/mail.h"

/* Writes the reply's header fields, Date: when. */
void draft_headers(FILE *out, const struct mail *m, const struct config *c, time_t when);
/* Writes the MIME fields and the blank line that ends the header block. */
void draft_headers_end(FILE *out);

#endif
