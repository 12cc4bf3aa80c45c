/* draft.h: the lkml-style reply draft: headers, quoted patch, comments in place. */
#ifndef DRAFT_H
#define DRAFT_H

#include <stdbool.h>
#include <stdio.h>

#include "config/config.h"
#include "mail/mail.h"
#include "patch/patch.h"
#include "review/review.h"

/* Longest body line, in bytes, as 8bit mail allows; longer ones are cut. */
#define DRAFT_MAX_LINE 998

/* The draft's settings (attribution, --tag): 0, or -1 with one line on stderr. */
int draft_check_config(const struct config *c);

/*
 * Writes the reply draft to out. With reviewed false (the mail holds no
 * patch, or is a cover letter) the whole text is quoted up to the sender's
 * signature or the list's footer. Its Date: is when (draft_now() for
 * one draft). Returns 0, or -1 when writing failed.
 */
int draft_write(FILE *out, const struct mail *m, const struct patch *p,
		const struct review *r, const struct config *c, bool reviewed, time_t when);

/* Now, for a draft's Date: SOURCE_DATE_EPOCH when set, else the clock. */
time_t draft_now(void);

#endif
