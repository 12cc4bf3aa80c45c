/*
 * truth.h: what a bug case's fixing commits say about the bug. From each
 * fix's diff: the lines of the bug commit that it changes or removes, and
 * those right beside a place where it only inserts (git blame finds which
 * of them the bug commit wrote, and where they were in it); and the
 * functions its hunks are in. Kept as a small TSV file beside the case.
 */
#ifndef EVALSET_TRUTH_H
#define EVALSET_TRUTH_H

#include <stddef.h>

#include "base/buf.h"
#include "base/strvec.h"

struct truth_line {
	char *path;		/* in the bug commit */
	long line;		/* in the bug commit's version of path */
};

struct truth_func {
	char *path;
	char *name;		/* "foo" of "static int foo(void)" */
};

struct truth {
	struct strvec fixes;	/* the fixing commits' ids */
	struct truth_line *lines;
	size_t nlines;
	struct truth_func *funcs;
	size_t nfuncs;
};

/*
 * Appends to *tsv the "line" and "func" records of what the commit fix
 * (with a parent) says about the commit bug. Returns 0, or -1 after one
 * line on stderr.
 */
int truth_from_fix(const char *repo, const char *bug, const char *fix, struct buf *tsv);

/* Reads a truth file. Returns 0, or -1 after one line on stderr. */
int truth_load(struct truth *t, const char *path);
void truth_release(struct truth *t);

#endif
