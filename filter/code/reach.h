/*
 * reach.h: inside code/: the headers a changed C file reaches through
 * #include, its own and theirs, nearest first, so that of two definitions
 * of a name the one the compiler would see is preferred. There is no
 * build system to ask, so a name is resolved as most trees lay out their
 * headers: "x.h" beside the including file, then include/x.h in that
 * directory or one above it up to the top, then x.h from such a directory
 * (a tree built with -I.), and for a name with a directory
 * ("ext2fs/ext2fs.h") the one file of the tree ending so that shares the
 * most directories with the including file. Only files the symbol index
 * or the patch holds count.
 */
#ifndef REACH_H
#define REACH_H

#include "code/index.h"
#include "code/outcome.h"
#include "repo/files.h"

/* How deep the includes are followed: the file's own are 1. */
#define REACH_MAX_DEPTH 4
/* Headers resolved for one file, and of them, those read for their own includes. */
#define REACH_MAX_FILES 256
#define REACH_MAX_READ 64
/* Passes over the index's files for a name not found by its directories. */
#define REACH_MAX_SCANS 16

/*
 * How many #include steps from the file from takes to reach path: 1 for a
 * header from includes, 2 for one of those includes, ...; 0 when path is
 * not reached (or is from itself). The headers of from are resolved and
 * read (at the review's base) on the first call for from, and kept in tr.
 */
unsigned reach_depth(struct tree_review *tr, struct symbol_index *ix,
		     const struct tfile *from, const char *path);

/* What reach_depth() kept in tr. */
void reach_free(struct reach_cache *c);

#endif
