/* mime.h: inside mail/: the text to review, from the MIME tree GMime parsed. */
#ifndef MAIL_MIME_H
#define MAIL_MIME_H

#include <gmime/gmime.h>

#include "base/buf.h"
#include "mail/mail.h"

/* The text to review, from the MIME tree. */
void mail_read_body(struct mail *m, GMimeMessage *msg);

/* data in charset (NULL: UTF-8 or unknown) appended to out as clean UTF-8. */
void mail_append_utf8(struct buf *out, const char *data, size_t len, const char *charset);

#endif
