/*
 * parts.h: a patch too large for one request is reviewed in parts, each a
 * group of whole files with the commit message. A model given a 40-file
 * patch at once misses bugs it finds when shown a few files at a time,
 * and a small local model cannot take the whole patch at all.
 */
#ifndef PARTS_H
#define PARTS_H

#include <stddef.h>

#include "patch/patch.h"

struct prompt_part {
	size_t index, count;		/* part index + 1 of count; count 1 is the whole patch */
	size_t first_file, end_file;	/* the files [first, end) it holds */
};

/*
 * The parts of p: one when its diff is at most budget bytes (or budget is
 * 0), else consecutive groups of files of at most budget bytes each,
 * where no single file is larger. Returns their number (at least 1); the
 * caller frees *partso.
 */
size_t prompt_parts(const struct patch *p, size_t budget, struct prompt_part **partso);

#endif
