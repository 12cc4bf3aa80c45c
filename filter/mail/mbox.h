/* mbox.h: inside mail/: the messages of an mbox. */
#ifndef MAIL_MBOX_H
#define MAIL_MBOX_H

#include <gmime/gmime.h>

#include "mail/limits.h"
#include "mail/mail.h"

/*
 * The messages of the mbox in arr (cut by mail_limit(), which gave marks),
 * appended to list, each with the cuts of its marks; arr is not taken.
 */
void mail_read_mbox(struct mail_list *list, GByteArray *arr, const struct mail_cut_marks *marks);

#endif
