/* write.h: the review written in the format asked for (not the draft). */
#ifndef OUTPUT_WRITE_H
#define OUTPUT_WRITE_H

#include <stdio.h>

#include "config/config.h"
#include "output/output.h"

/*
 * Writes the n patches to out in format fmt (not OUTPUT_DRAFT). Returns 0,
 * or -1 when writing failed.
 */
int output_write(FILE *out, enum output_format fmt, const struct output_patch *v,
		 size_t n, const struct config *c);

#endif
