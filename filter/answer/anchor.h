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

/* A multi-line quote's next line may come this many code lines after the one before. */
#define ANCHOR_BLOCK_GAP 3
/* Identifiers of a comment that help choose between equal lines. */
#define ANCHOR_MAX_IDENTS 16

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
	struct line_view *function;	/* per patch line: the name of the function it is in */
};

void anchor_index_init(struct anchor_index *ix, const struct patch *p);
void anchor_index_release(struct anchor_index *ix);

/* What a finding says about where it belongs; any field may be NULL. */
struct anchor_hint {
	const char *file;	/* "" or NULL: the commit message */
	const char *quote;	/* one or more lines copied from the patch */
	const char *function;	/* the function the model says the quote is in */
	const char *comment;	/* its identifiers help choose between equal lines */
};

/*
 * The index of the patch line a finding is about, or FINDING_WHOLE when no
 * line matches. A quote of several lines is matched as a block (its lines
 * in order in one hunk, a few lines apart at most) and the comment goes
 * under the block's last line; without a block, under the quote's most
 * distinctive matching line. For one line: an equal line (whitespace
 * collapsed) beats a line merely containing the quote; then a line in the
 * named file (file "" means the commit message), in the function named,
 * near the identifiers the comment names; then added beats context beats
 * removed; then the earlier line. A removed line that comes back changed
 * as an added line gives its comment to the added one.
 */
size_t anchor_finding(const struct anchor_index *ix, const struct anchor_hint *h);

/*
 * Whether a finding on this line is about the patch: any line but a
 * context line, and a context line only within ANCHOR_NEAR lines of an
 * added or removed line in its hunk. Others are about code the patch does
 * not touch, and are dropped.
 */
bool anchor_about_change(const struct patch *p, size_t line);

#endif
