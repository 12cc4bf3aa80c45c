/* parts.h: what draft.c takes from the other files of draft/. */
#ifndef DRAFT_PARTS_H
#define DRAFT_PARTS_H

#include <stdbool.h>
#include <stdio.h>

#include "base/buf.h"
#include "config/config.h"
#include "mail/mail.h"
#include "patch/patch.h"
#include "review/review.h"

/*
 * select.c: which lines of p to quote, one flag a line (caller frees).
 * trim is the setting (NULL is auto): no quotes everything; yes quotes the
 * message and what the comments need; auto does that only for a long
 * patch with comments on its diff (or a very long one), and quotes a short
 * or uncommented one whole, so there is code to answer under. A mail that
 * was not reviewed is quoted whole.
 */
unsigned char *draft_select_lines(const struct patch *p, const struct review *r,
				  const char *trim, bool reviewed);

/*
 * attribution.c: the line above the quote, from format (the attribution
 * setting), appended to out.
 */
void draft_attribution(struct buf *out, const struct mail *m, const char *format);
/* attribution.c: 0, or -1 with one line on stderr naming origin for an unknown escape. */
int draft_check_attribution(const char *format, const char *origin);

/* closing.c: "TAG: Name <addr>" from the reviewer's from, appended to out. */
void draft_tag(struct buf *out, const char *tag, const char *from);
/* closing.c: 0, or -1 with one line on stderr when the tag or from is wrong. */
int draft_check_tag(const char *tag, const char *from);

/*
 * closing.c: the signature file's text, cleaned, appended to out. Returns
 * 0 (a missing file is no signature, as in mutt), or -1 after a warning.
 */
int draft_signature(struct buf *out, const char *path);

/* bookkeeping.c: notes = body: the notes and summaries are in the text, as before. */
bool draft_notes_in_body(const struct config *c);
/* bookkeeping.c: is the fingerprints setting where ("header", "line", "none")? */
bool draft_fingerprints_as(const struct config *c, const char *where);
/* bookkeeping.c: the findings' fingerprints, blank-separated, appended to out. */
void draft_fingerprints(struct buf *out, const struct patch *p, const struct review *r);
/*
 * bookkeeping.c: the X-Patchreview-* header fields: the notes and the
 * summaries (unless notes = body), the fingerprints (fingerprints = header).
 */
void draft_bookkeeping_headers(FILE *out, const struct patch *p, const struct review *r,
			       const struct config *c);

#endif
