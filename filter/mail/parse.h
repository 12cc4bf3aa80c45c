/*
 * parse.h: what the files of mail/ share. GMime's types appear here and
 * in the files of mail/ only; the rest of the program sees struct mail.
 */
#ifndef MAIL_PARSE_H
#define MAIL_PARSE_H

#include <gmime/gmime.h>
#include <stdbool.h>
#include <stddef.h>

#include "base/buf.h"
#include "mail/mail.h"

/* headers.c: From, To, Cc, Reply-To, Subject, Date, Message-ID, References. */
void mail_read_headers(struct mail *m, GMimeMessage *msg);

/* mime.c: the text to review, from the MIME tree. */
void mail_read_body(struct mail *m, GMimeMessage *msg);

/* mime.c: data in charset (NULL: UTF-8 or unknown) appended to out as clean UTF-8. */
void mail_append_utf8(struct buf *out, const char *data, size_t len, const char *charset);

/* limits.c: where, in an mbox cut to its limits, a message past one begins, and which. */
struct mail_cut_mark {
	size_t at;		/* offset of its "From " line in the cut input */
	unsigned cuts;		/* enum mail_cut bits */
};
struct mail_cut_marks {
	struct mail_cut_mark *v;	/* in input order */
	size_t n;
};

/*
 * limits.c: keeps each message of arr (all of it, or with mbox each
 * message from one "From " line to the next) within MAIL_MAX_PARTS MIME
 * parts, MAIL_MAX_FIELDS header fields, MAIL_MAX_HEADERS in a header block
 * and MAIL_MAX_HEADER_BYTES in a field: one message is cut where its part
 * past the limit opens; in an mbox the rest of that message is dropped
 * and the next is read. Fields past a limit are dropped. Returns the enum
 * mail_cut bits of what it did (arr is unchanged when it returns 0), and
 * in *marks (or NULL), for an mbox, the messages that went past a limit.
 */
unsigned mail_limit(GByteArray *arr, bool mbox, struct mail_cut_marks *marks);

/* input.c: CR LF line ends as LF, when the first line ends in CR LF. */
void mail_crlf_to_lf(GByteArray *arr);

/* input.c: the parser options every parse uses; g_mime_parser_options_free() them. */
GMimeParserOptions *mail_parser_options(void);

/* input.c: fills m from GMime's parse of a message. */
void mail_from_message(struct mail *m, GMimeMessage *msg);

/* input.c: parses arr, which it takes, as one message into m, within the limits; never fails. */
void mail_parse_one(struct mail *m, GByteArray *arr);

/* input.c: a new, zeroed mail at the end of list. */
struct mail *mail_list_add(struct mail_list *list);

/*
 * mbox.c: the messages of the mbox in arr (cut by mail_limit(), which
 * gave marks), appended to list, each with the cuts of its marks; arr is
 * not taken.
 */
void mail_read_mbox(struct mail_list *list, GByteArray *arr, const struct mail_cut_marks *marks);

#endif
