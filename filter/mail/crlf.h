/* crlf.h: inside mail/: CR LF line ends undone where they are the transport form. */
#ifndef MAIL_CRLF_H
#define MAIL_CRLF_H

#include <gmime/gmime.h>


/* CR LF line ends as LF, when the first line ends in CR LF. */
void mail_crlf_to_lf(GByteArray *arr);

#endif
