/* read.h: the messages of one series' folder in the consume state, read in name order. */
#ifndef STATE_READ_H
#define STATE_READ_H

#include "base/strvec.h"
#include "mail/mail.h"

/* Messages one series holds in the state; more are not kept (a flood). */
#define STATE_MAX_SERIES_MSGS 200
/* Replies kept of one thread, and read with one series; more are not kept. */
#define STATE_MAX_THREAD_MSGS 100

/*
 * The names of the messages (H.eml) in dir, sorted, at most max; the
 * temporary files of a write under way are not among them. Returns 0, or
 * -1 when dir cannot be read.
 */
int state_list_messages(const char *dir, size_t max, struct strvec *names);

/*
 * Every message of the series folder dir into *list, in name order, then
 * the replies of dir/thread/ in name order (the same order for the review
 * at delivery and for the key press, so the requests are the same).
 * Returns 0 with list->n >= 1, or -1.
 */
int state_read_series(const char *dir, struct mail_list *list);

#endif
