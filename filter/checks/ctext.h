/*
 * ctext.h: the lines of a C file's hunks as code and as prose, so that a
 * rule about code never looks into a comment or a string, and the
 * spelling rule looks nowhere else.
 */
#ifndef CTEXT_H
#define CTEXT_H

#include <stdbool.h>
#include <stddef.h>

#include "patch/patch.h"

struct c_line {
	size_t index;		/* into patch->lines */
	const char *raw;	/* the text after the diff marker */
	size_t len;		/* of raw, code and prose alike */
	const char *code;	/* comments blanked, literal contents as 'X' */
	const char *prose;	/* comment text and literal contents, the rest blanked */
	bool added;		/* an added line, else context */
	bool first;		/* the first context or added line of its hunk */
	bool slash_comment;	/* holds a // comment */
	bool block_comment;	/* holds some of a block comment */
};

typedef void c_line_fn(const struct c_line *l, void *ctx);

/* Is this a C source or header file (.c, .h)? */
bool c_source(const char *path);

/*
 * Calls fn for every context and added line of file f's hunks, in order;
 * removed lines are not in the new file and are skipped. Whether a hunk
 * starts inside a block comment is guessed from its first lines, as
 * checkpatch does: a "*" opening the first line, or a "*" "/" before any
 * "/" "*".
 */
void c_walk(const struct patch *p, const struct patch_file *f, c_line_fn *fn, void *ctx);

/*
 * The removed line that added line i replaces: in a run of removed lines
 * followed by a run of added ones, the k-th added pairs with the k-th
 * removed. NULL when there is none.
 */
const struct patch_line *c_replaced(const struct patch *p, size_t i);

/* Columns of s[0..len) with tabs to the next multiple of 8. */
size_t c_columns(const char *s, size_t len);

/* The offset in s[0..len) of the byte after the first columns columns. */
size_t c_offset(const char *s, size_t len, size_t columns);

#endif
