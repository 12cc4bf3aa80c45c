/*
 * ctext.h: the lines of a C file's hunks as code and as prose, so that a
 * rule about code never looks into a comment or a string, and the
 * spelling rule looks nowhere else. The patch is scanned once, on first
 * use, and every check that reads C walks the result.
 */
#ifndef CTEXT_H
#define CTEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "patch/patch.h"

struct c_line {
	size_t index;		/* into patch->lines */
	const char *raw;	/* the text after the diff marker */
	size_t len;		/* of raw, code and prose alike */
	const char *code;	/* comments blanked, literal contents as 'X' */
	const char *prose;	/* comment text and literal contents, the rest blanked */
	/* The removed line an added one replaces, or NULL: in a run of removed
	 * lines followed by a run of added ones, the k-th added pairs with the
	 * k-th removed. */
	const struct patch_line *replaced;
	bool added;		/* an added line, else context */
	bool first;		/* the first context or added line of its hunk */
	bool slash_comment;	/* holds a // comment */
	bool block_comment;	/* holds some of a block comment */
	bool plain;		/* no comment, no literal: code is raw, prose is blank */
};

typedef void c_line_fn(const struct c_line *l, void *ctx);

/*
 * The scanned C lines of one patch. A line is kept in 12 bytes; only the
 * lines with a comment or a literal keep their code and prose (in arena,
 * in line order), since elsewhere the code is the line itself and the
 * prose is blank. Memory: 12 bytes a line, and twice the bytes of the
 * lines with comments or literals.
 */
struct c_text {
	const struct patch *patch;
	bool scanned;
	struct c_scanned *lines;	/* of every C file, file by file */
	struct c_span *files;		/* per file, and one past the last */
	char *arena;			/* code, NUL, prose, NUL of the lines that need them */
	char *blanks;			/* as many spaces as the longest line, and a NUL */
	size_t longest;
};

/* Is this a C source or header file (.c, .h)? */
bool c_source(const char *path);

/* An empty c_text for patch p; nothing is scanned until c_walk() asks. */
void c_text_init(struct c_text *ct, const struct patch *p);
void c_text_release(struct c_text *ct);

/*
 * Calls fn for every context and added line of file f's hunks, in order;
 * removed lines are not in the new file and are skipped. f must be a C
 * source (c_source()) that is not binary. The first call scans every such
 * file of the patch, in one pass over its lines. Whether a hunk starts
 * inside a block comment is guessed from its first lines, as checkpatch
 * does: a "*" opening the first line, or a "*" "/" before any "/" "*".
 */
void c_walk(struct c_text *ct, const struct patch_file *f, c_line_fn *fn, void *ctx);

/* The names a check looks for in every line, with what passes most identifiers by. */
struct c_names {
	const char *const *words;
	size_t n;
	uint64_t first[4];	/* bit c: a word starts with byte c */
	size_t shortest, longest;
};

/* The names words[0..n) (n <= 32), once for all the lines of a check. */
void c_names_init(struct c_names *names, const char *const *words, size_t n);

/*
 * Which of the names appear in code as whole identifiers: bit k for
 * words[k]. One pass, so that a rule about a name reads only the lines
 * that hold it.
 */
uint32_t c_idents(const char *code, const struct c_names *names);

/* Columns of s[0..len) with tabs to the next multiple of 8. */
size_t c_columns(const char *s, size_t len);

/* The offset in s[0..len) of the byte after the first columns columns. */
size_t c_offset(const char *s, size_t len, size_t columns);

#endif
