/* mbox.h: inside mail/: the messages of an mbox. */
#ifndef MAIL_MBOX_H
#define MAIL_MBOX_H

#include <gmime/gmime.h>

#include "mail/mail.h"

/* The messages of the mbox in arr, appended to list; arr is not taken. */
void mail_read_mbox(struct mail_list *list, GByteArray *arr);

#endif
