/*
 * clex.h: just enough of C to find things: a lexer that skips comments,
 * strings and line continuations, and a scanner that lists the top-level
 * definitions of a file (functions, structs, unions, enums, typedefs,
 * macros, variables, prototypes) with their line ranges. It is a heuristic
 * for real-world code, not a parser: no preprocessing beyond "#if 0",
 * and a closing brace in column 0 always ends a top-level block.
 */
#ifndef CLEX_H
#define CLEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

enum tok_kind {
	TOK_EOF,
	TOK_IDENT,
	TOK_NUMBER,
	TOK_STRING,		/* "..." or '...' */
	TOK_PUNCT,		/* one character, or "..." and "->" */
	TOK_DIRECTIVE,		/* the "#" opening a preprocessor line */
	TOK_DIRECTIVE_END,	/* the end of that line */
};

struct tok {
	enum tok_kind kind;
	const char *s;
	size_t len;
	uint32_t line;		/* 1-based */
	bool col0;		/* starts in column 0 */
};

struct clex {
	const char *start, *p, *end;
	uint32_t line;
	bool line_start;	/* only blanks so far on this line */
	bool in_directive;
};

void clex_init(struct clex *lx, const char *text, size_t len);
/* The next token; TOK_EOF at the end (and for ever after). */
void clex_next(struct clex *lx, struct tok *t);

static inline bool tok_is(const struct tok *t, const char *s)
{
	size_t n = strlen(s);
	return t->len == n && !memcmp(t->s, s, n);
}

/* C keywords and the attribute-like words that are never a definition's name. */
bool c_reserved(const char *s, size_t len);

enum cdef_kind {
	CDEF_FUNCTION,
	CDEF_PROTOTYPE,
	CDEF_STRUCT,
	CDEF_UNION,
	CDEF_ENUM,
	CDEF_TYPEDEF,
	CDEF_MACRO,
	CDEF_VARIABLE,
};

#define CDEF_VARIADIC UINT32_MAX

struct cdef {
	enum cdef_kind kind;
	const char *name;	/* points into the text */
	uint32_t name_len;
	uint32_t doc;		/* first line of the comment right above, or first */
	uint32_t first, last;	/* lines, inclusive */
	uint32_t params;	/* functions and prototypes: count, or CDEF_VARIADIC */
	bool is_static;
	bool function_like;	/* macros: NAME( */
};

struct cdefs {
	struct cdef *v;
	size_t n, cap;
};

enum cuse_kind {
	CUSE_CALL,		/* NAME ( */
	CUSE_TAG,		/* struct NAME, union NAME, enum NAME */
	CUSE_ENUMERATOR,	/* NAME in the list of a top-level enum */
};

/* Called for each use; s points into the text at the name. */
typedef void cuse_fn(void *ctx, enum cuse_kind kind, const char *s, size_t len, uint32_t line);

/* Appends the top-level definitions of text to *out; reports uses to use (may be NULL). */
void cscan(const char *text, size_t len, struct cdefs *out, cuse_fn *use, void *ctx);
void cdefs_release(struct cdefs *d);

const char *cdef_kind_name(enum cdef_kind k);

/*
 * The arguments of the call whose "(" is at open: their count, or -1 when
 * the parentheses do not close before end.
 */
int c_call_args(const char *open, const char *end);

#endif
