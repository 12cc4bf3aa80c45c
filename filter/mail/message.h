/*
 * message.h: inside mail/: one message parsed by GMime into struct mail.
 * GMime's types appear in the headers and files of mail/ only; the rest of
 * the program sees struct mail.
 */
#ifndef MAIL_MESSAGE_H
#define MAIL_MESSAGE_H

#include <gmime/gmime.h>

#include "mail/mail.h"

/* Fills m from GMime's parse of a message. */
void mail_from_message(struct mail *m, GMimeMessage *msg);

/* Parses arr, which it takes, as one message into m, within the limits; never fails. */
void mail_parse_one(struct mail *m, GByteArray *arr);

/* A new, zeroed mail at the end of list. */
struct mail *mail_list_add(struct mail_list *list);

#endif
