/* b4check.h: --format b4-check, the JSON list that b4 review's check commands read. */
#ifndef OUTPUT_B4CHECK_H
#define OUTPUT_B4CHECK_H

#include <stdio.h>

#include "output/output.h"

/* Writes the n patches to out; errors show on the stream. */
void output_b4_check(FILE *out, const struct output_patch *v, size_t n);

#endif
