/* b4skip.h: the patches a maintainer told b4 review to skip. */
#ifndef RUN_B4SKIP_H
#define RUN_B4SKIP_H

#include <stdbool.h>

/*
 * Has the maintainer marked the patch with this Message-ID "skip" in the
 * b4 review tracking data that $B4_TRACKING_FILE names? False when it is
 * unset or unreadable, or message_id is NULL.
 */
bool b4_marked_skip(const char *message_id);

#endif
