/*
 * parts.h: a patch too large for one request is reviewed in parts, each
 * with the commit message. A part is a run of whole files where they fit;
 * a file too large for one part is cut between its hunks, and a hunk too
 * large at a line (after a context line where it can), each piece under
 * a hunk header of its own. A model given a 40-file patch at once misses
 * bugs it finds when shown a few files at a time, and a small local model
 * cannot take the whole patch at all.
 */
#ifndef PARTS_H
#define PARTS_H

#include <stdbool.h>
#include <stddef.h>

#include "base/buf.h"
#include "patch/patch.h"

/* Lines no part divides: a file's header with its first hunk, a hunk, or a piece of one. */
struct diff_unit {
	size_t begin, end;	/* the patch's lines [begin, end) */
	int32_t file;
	int32_t hunk;		/* of a piece: the hunk it is cut from; else -1 */
	uint32_t old_start, old_count, new_start, new_count;	/* of a piece */
	bool file_start;	/* the first unit of its file */
};

struct prompt_part {
	size_t index, count;		/* part index + 1 of count */
	size_t first_unit, end_unit;	/* the units [first, end) it holds */
	size_t bytes;			/* of its diff, as prompt_part_diff() writes it */
	bool too_large;			/* one line is larger than a part may be */
};

struct prompt_parts {
	const struct patch *patch;
	struct diff_unit *units;
	size_t nunits;
	struct prompt_part *v;
	size_t n;
};

/*
 * Cuts p's diff into parts of at most budget bytes each, as
 * prompt_part_diff() writes them. A part is too_large only when a single
 * line of the diff is larger than budget. Linear in the patch.
 */
void prompt_parts_cut(struct prompt_parts *pp, const struct patch *p, size_t budget);
void prompt_parts_release(struct prompt_parts *pp);

/* Appends the diff of part k, each line guarded against imitating a fence. */
void prompt_part_diff(const struct prompt_parts *pp, size_t k, struct buf *b);

/*
 * Appends to b the files whose diffs are all elsewhere than part k, then
 * those it holds only some of, as far as about max bytes of names go.
 */
void prompt_part_others(const struct prompt_parts *pp, size_t k, size_t max, struct buf *b);

/*
 * Appends to b, separated by ", ", what parts [first, end) hold: a file's
 * path, with "(hunks 3-5 of 12, lines 120-480)" when they hold only some
 * of its diff; at most max files, then "and N more files".
 */
void prompt_parts_describe(const struct prompt_parts *pp, size_t first, size_t end,
			   size_t max, struct buf *b);

#endif
