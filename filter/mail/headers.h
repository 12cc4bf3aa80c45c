/* headers.h: inside mail/: the header fields of a message GMime parsed. */
#ifndef MAIL_HEADERS_H
#define MAIL_HEADERS_H

#include <gmime/gmime.h>

#include "mail/mail.h"

/* From, To, Cc, Reply-To, Subject, Date, Message-ID, References. */
void mail_read_headers(struct mail *m, GMimeMessage *msg);

#endif
