/*
 * index.h: the symbol index of a tree's C files. For every name it knows
 * the files that define it (function, struct, macro, ...) and the files
 * that call it or name its struct tag; lines are found again by scanning
 * the file when it is read. Built once with the C scanner and kept under
 * ${XDG_CACHE_HOME:-~/.cache}/patchreview/trees/; a later run compares
 * git's list of staged blobs and rescans only the files that changed.
 */
#ifndef INDEX_H
#define INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct tree;
struct symbol_index;

enum ix_kind {
	IX_FUNCTION, IX_PROTOTYPE, IX_STRUCT, IX_UNION, IX_ENUM, IX_TYPEDEF, IX_MACRO,
	IX_VARIABLE,
	IX_CALL,		/* NAME( somewhere in the file */
	IX_TAG,			/* struct NAME, union NAME, enum NAME */
	IX_ENUMERATOR,		/* NAME in an enum's list (the enum is its definition) */
};

#define IX_BIT(k) (1u << (k))
#define IX_DEFINITIONS 0xffu	/* every kind of definition */

/* Larger files are not indexed: generated register headers and tables. */
#define INDEX_MAX_FILE ((size_t)256 << 10)

struct ix_hit {
	const char *path;	/* points into the index */
	enum ix_kind kind;
	bool is_static;
};

/*
 * The index of t's work tree: loaded, brought up to date, or built (with a
 * line on stderr unless t->quiet). NULL when there is none to be had.
 */
struct symbol_index *symbol_index_get(struct tree *t);
void symbol_index_free(struct symbol_index *ix);

/* The index of one file's text alone, as symbol_index_get() would hold it (fuzz_cscan). */
struct symbol_index *symbol_index_of_text(const char *path, const char *text, size_t len);

/* Up to max hits for name of the kinds in mask (IX_BIT()s); returns how many. */
size_t symbol_index_find(const struct symbol_index *ix, const char *name, size_t len,
			 unsigned mask, struct ix_hit *hits, size_t max);

/* Is path one of the indexed files? A binary search: they are in git's order. */
bool symbol_index_has_file(const struct symbol_index *ix, const char *path);

/*
 * Up to max indexed files whose path is suffix or ends in "/suffix" (into
 * out, pointing into the index); returns how many. One pass over the files.
 */
size_t symbol_index_files_ending(const struct symbol_index *ix, const char *suffix,
				 const char **out, size_t max);

#endif
