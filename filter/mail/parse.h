/*
 * parse.h: what the files of mail/ share. GMime's types appear here and
 * in the files of mail/ only; the rest of the program sees struct mail.
 */
#ifndef MAIL_PARSE_H
#define MAIL_PARSE_H

#include <gmime/gmime.h>

#include "base/buf.h"
#include "mail/mail.h"

/* headers.c: From, To, Cc, Reply-To, Subject, Date, Message-ID, References. */
void mail_read_headers(struct mail *m, GMimeMessage *msg);

/* mime.c: the text to review, from the MIME tree. */
void mail_read_body(struct mail *m, GMimeMessage *msg);

/* mime.c: data in charset (NULL: UTF-8 or unknown) appended to out as clean UTF-8. */
void mail_append_utf8(struct buf *out, const char *data, size_t len, const char *charset);

/* input.c: CR LF line ends as LF, when the first line ends in CR LF. */
void mail_crlf_to_lf(GByteArray *arr);

#endif
