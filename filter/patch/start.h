/*
 * start.h: where the diff of one file starts. The parser walks the lines
 * of a patch with it, and mail/ uses it to find the part that carries
 * the patch, so both agree on what a diff is.
 */
#ifndef PATCH_START_H
#define PATCH_START_H

#include <stdbool.h>
#include <stddef.h>

#include "patch/patch.h"

/*
 * Does a diff of one file start at v[0]? v holds that line and the n - 1
 * lines after it (n >= 1; up to three are read). A file starts at
 * "diff --git", at "diff -u" output (the next line opens with "--- "), at
 * diff -r's "Binary files x and y differ", at "Index:" followed by "===="
 * (svn, cvs), or at a bare "---", "+++", "@@" triple.
 */
bool patch_starts_file(const struct line_view *v, size_t n);

/* The same for line i of p and the lines after it. */
bool patch_starts_file_at(const struct patch *p, size_t i);

#endif
