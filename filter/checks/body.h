/*
 * body.h: the commit message proper inside the text before the diff. A
 * mail may carry a cover note and then a format-patch pasted or attached
 * whole ("From <sha> Mon Sep 17 ...", From:, Date:, Subject:), or the
 * output of git show ("commit <sha>", Author:, Date:); the patch's message
 * starts after those headers, and a Subject: there is the commit's.
 */
#ifndef BODY_H
#define BODY_H

#include <stdbool.h>
#include <stddef.h>

#include "patch/patch.h"

/*
 * Does this line open a pasted commit: "From 0123...abc Mon Sep 17
 * 00:00:00 2001" (format-patch) or "commit 0123...abc" (git show, git log)?
 */
bool body_commit_header(const char *line);

/* The first line of the commit message proper (not blank), or message_end. */
size_t body_begin(const struct patch *p);

/*
 * The subject of the commit: the pasted format-patch's Subject: when
 * there is one, else the mail's. *s is set either way; release it with
 * body_subject_release().
 */
void body_subject(const struct patch *p, struct subject_prefix *s);
void body_subject_release(const struct patch *p, struct subject_prefix *s);

#endif
