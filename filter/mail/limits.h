/* limits.h: inside mail/: a hostile input kept within bounds before GMime parses it. */
#ifndef MAIL_LIMITS_H
#define MAIL_LIMITS_H

#include <gmime/gmime.h>


/*
 * Cuts arr to MAIL_MAX_PARTS MIME parts and drops header fields past
 * MAIL_MAX_HEADERS or MAIL_MAX_HEADER_BYTES. Returns the enum mail_cut bits
 * of what it did; arr is unchanged when it returns 0.
 */
unsigned mail_limit(GByteArray *arr);

#endif
