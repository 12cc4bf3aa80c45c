/*
 * own.h: what a draft says in patchreview's own hand, which patchreview
 * dismiss and learn may trust: the fingerprints it names.
 */
#ifndef LEARN_OWN_H
#define LEARN_OWN_H

#include "base/strvec.h"
#include "mail/mail.h"

/*
 * Appends to fps the fingerprints the draft m names: its
 * MAIL_FINGERPRINTS_HEADER field, else its last MAIL_FINGERPRINTS_LINE.
 * Only a line at the left margin counts: quoted mail starts with '>', and
 * the draft writer puts a space before any line of mail or model text that
 * would start with the mark, so no sender can plant one. Well-formed
 * fingerprints only, at most OWN_FINGERPRINTS_MAX.
 */
void own_fingerprints(const struct mail *m, struct strvec *fps);

#define OWN_FINGERPRINTS_MAX 1000

#endif
