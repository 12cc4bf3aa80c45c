/* diff.h: the unified diff of a patch: its files and hunks. */
#ifndef PATCH_DIFF_H
#define PATCH_DIFF_H

#include "patch/patch.h"

/* Files and hunks from p->diff_begin on, each line given its kind. */
void patch_parse_diff(struct patch *p);

#endif
