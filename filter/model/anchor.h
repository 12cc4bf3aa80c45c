/*
 * anchor.h: placing a model finding on a patch line by what it quotes.
 * Model line numbers are never trusted; the quoted text is matched
 * against the patch instead, tolerant of whitespace and of a diff marker
 * the model may have kept. The patch lines are indexed once, by a hash of
 * their normalised text, so that the whole step is linear in the patch
 * and the (bounded) quotes, however many findings come.
 */
#ifndef ANCHOR_H
#define ANCHOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "patch/patch.h"

/* A context line this close to an added or removed line is about the change. */
#define ANCHOR_NEAR 3
/* Of a quote, only the first ANCHOR_MAX_QUOTE bytes and ANCHOR_MAX_LINES lines are matched. */
#define ANCHOR_MAX_QUOTE 4096
#define ANCHOR_MAX_LINES 20

/* The lines a quote may match: the commit message and the code lines. */
struct anchor_index {
	const struct patch *patch;
	struct buf text;	/* each candidate normalised, then '\n' */
	size_t *start;		/* candidate k is text[start[k], start[k + 1] - 1) */
	size_t *line;		/* the patch line of candidate k */
	size_t n;		/* candidates */
	uint32_t *head;		/* per hash bucket: first candidate + 1, or 0 */
	uint32_t *next;		/* per candidate: the next one in its bucket + 1, or 0 */
	size_t buckets;		/* a power of two */
};

void anchor_index_init(struct anchor_index *ix, const struct patch *p);
void anchor_index_release(struct anchor_index *ix);

/*
 * The index of the patch line quote is about, or FINDING_WHOLE when no
 * line matches. An equal line (whitespace collapsed) beats a line merely
 * containing the quote; then a line in file beats other files (file ""
 * means the commit message); then added beats context beats removed; then
 * the earlier line. Of a quote of several lines, the last one that
 * matches wins, since comments go below the code they discuss.
 */
size_t anchor_quote(const struct anchor_index *ix, const char *file, const char *quote);

/*
 * Whether a finding on this line is about the patch: any line but a
 * context line, and a context line only within ANCHOR_NEAR lines of an
 * added or removed line in its hunk. Others are about code the patch does
 * not touch, and are dropped.
 */
bool anchor_about_change(const struct patch *p, size_t line);

#endif
