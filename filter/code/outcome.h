/* outcome.h: what reviewing a patch against the tree gives: context and findings. */
#ifndef CODE_OUTCOME_H
#define CODE_OUTCOME_H

#include <stdbool.h>
#include <stddef.h>

#include "patch/patch.h"

/* The kinds of context, in the order the budget takes them. */
enum context_kind {
	CONTEXT_CHANGED,	/* a function or definition the patch changes, whole */
	CONTEXT_CONTRACT,	/* a function whose contract the added lines depend on */
	CONTEXT_DEFINITION,	/* a struct, macro, function... the added lines use */
	CONTEXT_CALLER,		/* a call of a function whose signature or results change */
};

struct context_item {
	enum context_kind kind;
	char *title;		/* one line: what, where, which version */
	char *text;		/* the code, lines as in the file */
	char *short_text;	/* a shorter form when text does not fit, or NULL */
};

/* What only the tree can show; checks/tree.c reports each under its rule. */
enum tree_finding_kind {
	TREE_OLD_CALLERS,	/* callers still pass what a changed signature no longer takes */
	TREE_STILL_USED,	/* a removed function, macro or struct is still used */
};

struct tree_finding {
	enum tree_finding_kind kind;
	size_t line;		/* index into the patch's lines */
	char *text;
};

struct tree_files;
struct reach_cache;

struct tree_review {
	struct tree *tree;
	const struct patch *patch;
	char *base;		/* the commit read from, or NULL for the work tree */
	char *note;		/* one line for the top of the draft: base, applies or not */
	char *head_note;	/* when the base is not HEAD: does it apply there? Or NULL */
	bool applies;
	struct context_item *items;
	size_t nitems;
	struct tree_finding *findings;
	size_t nfindings;
	double seconds;		/* spent gathering all this */
	struct tree_files *files;	/* the files read, kept for later look-ups */
	struct reach_cache *reach;	/* the headers each changed file includes (code/reach.h) */
};

#endif
