/*
 * context.h: inside code/: gathering the context items and the tree's
 * findings for one review, and the helpers they share.
 */
#ifndef CONTEXT_H
#define CONTEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "code/index.h"
#include "code/outcome.h"
#include "repo/files.h"

/* Is path C (or C++) by its name? Only such files are scanned. */
bool context_is_c(const char *path);

/* Appends an item; title and text are taken (owned by the review from now on). */
void context_add(struct tree_review *tr, enum context_kind kind, char *title, char *text,
		 char *short_text);

/* The widest definition of f (not a prototype) holding line, or NULL. */
const struct cdef *context_def_at(struct tfile *f, uint32_t line);

/* A definition's code from its doc comment on, at most max_lines (with a note of the rest). */
char *context_def_text(const struct tfile *f, const struct cdef *d, uint32_t max_lines);

/* "path:first-last: function name(), what": an item's title. Caller frees. */
char *context_def_title(const struct tfile *f, const struct cdef *d, const char *what);

/*
 * The definition's head, and the lines[0..n) (sorted) with 6 lines on each
 * side, the rest marked as left out, and its last line. Caller frees.
 */
char *context_short_form(const struct tfile *f, const struct cdef *d, const uint32_t *lines,
			 size_t n);

/* A definition the patch changes, for the callers. */
struct changed_def {
	struct tfile *file;
	const struct cdef *def;
	bool results;		/* a changed line holds "return" */
};

struct changed_set {
	struct changed_def *v;
	size_t n;
};

/*
 * Finds the definitions the patch changes (into *set) and, with
 * want_context, adds them whole.
 */
void context_changed(struct tree_review *tr, bool want_context, struct changed_set *set);

/*
 * Adds the definitions the added lines use, each once, the nearest (the
 * project's helpers) first; not those in set or contracts (code/contract.h).
 */
void context_used(struct tree_review *tr, struct symbol_index *ix,
		  const struct changed_set *set, const struct changed_set *contracts);

/*
 * The definition of name (of the kinds in mask) nearest to the file from,
 * in the patch's files or through the index; NULL if none. *fo is its file.
 */
const struct cdef *context_find_def(struct tree_review *tr, struct symbol_index *ix,
				    const char *from, const char *name, size_t len,
				    unsigned mask, struct tfile **fo);

/* A call of a function, or a use of a struct tag. */
struct call_site {
	struct tfile *file;
	uint32_t line;
	int args;		/* or -1 */
	const struct cdef *in;	/* the function it is in, or NULL */
};

/* Callers of the functions whose signature or results change; the two tree checks. */
void context_callers(struct tree_review *tr, struct symbol_index *ix,
		     const struct changed_set *set, bool want_context);

#endif
