/*
 * ready.h: is a pending series ready for its review? A lone patch is; a
 * series "k/n" is once its n patches are in, and its cover letter when
 * the patches answer one; any series is once consume_wait seconds have
 * passed since its first message came, as far as it came.
 */
#ifndef CONSUME_READY_H
#define CONSUME_READY_H

#include <stdbool.h>
#include <time.h>

#include "mail/mail.h"

bool series_ready(const struct mail_list *list, time_t since, long wait);

#endif
