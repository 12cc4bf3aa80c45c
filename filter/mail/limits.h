/* limits.h: inside mail/: a hostile input kept within bounds before GMime parses it. */
#ifndef MAIL_LIMITS_H
#define MAIL_LIMITS_H

#include <gmime/gmime.h>
#include <stdbool.h>
#include <stddef.h>

/* Where, in an mbox cut to its limits, a message past one begins, and which. */
struct mail_cut_mark {
	size_t at;		/* offset of its "From " line in the cut input */
	unsigned cuts;		/* enum mail_cut bits */
};
struct mail_cut_marks {
	struct mail_cut_mark *v;	/* in input order */
	size_t n;
};

/*
 * Keeps each message of arr (all of it, or with mbox each message from one
 * "From " line to the next) within MAIL_MAX_PARTS MIME parts,
 * MAIL_MAX_FIELDS header fields, MAIL_MAX_HEADERS in a header block and
 * MAIL_MAX_HEADER_BYTES in a field: one message is cut where its part past
 * the limit opens; in an mbox the rest of that message is dropped and the
 * next is read. Fields past a limit are dropped. Returns the enum mail_cut
 * bits of what it did (arr is unchanged when it returns 0), and in *marks
 * (or NULL), for an mbox, the messages that went past a limit.
 */
unsigned mail_limit(GByteArray *arr, bool mbox, struct mail_cut_marks *marks);

#endif
