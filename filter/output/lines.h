/* lines.h: --format lines, the lines that b4 prep --check and b4 am --check read. */
#ifndef OUTPUT_LINES_H
#define OUTPUT_LINES_H

#include <stdio.h>

#include "output/output.h"

/* Writes the n patches to out; errors show on the stream. */
void output_lines(FILE *out, const struct output_patch *v, size_t n);

#endif
