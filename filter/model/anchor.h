/*
 * anchor.h: placing a model finding on a patch line by what it quotes.
 * Model line numbers are never trusted; the quoted text is matched
 * against the patch instead, tolerant of whitespace and of a diff marker
 * the model may have kept.
 */
#ifndef ANCHOR_H
#define ANCHOR_H

#include <stdbool.h>
#include <stddef.h>

#include "patch/patch.h"

/* A context line this close to an added or removed line is about the change. */
#define ANCHOR_NEAR 3

/*
 * The index of the patch line quote is about, or FINDING_WHOLE when no
 * line matches. An equal line (whitespace collapsed) beats a line merely
 * containing the quote; then a line in file beats other files (file ""
 * means the commit message); then added beats context beats removed. Of a
 * quote of several lines, the last one that matches wins, since comments
 * go below the code they discuss.
 */
size_t anchor_quote(const struct patch *p, const char *file, const char *quote);

/*
 * Whether a finding on this line is about the patch: any line but a
 * context line, and a context line only within ANCHOR_NEAR lines of an
 * added or removed line in its hunk. Others are about code the patch does
 * not touch, and are dropped.
 */
bool anchor_about_change(const struct patch *p, size_t line);

#endif
