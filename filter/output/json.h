/* json.h: --format json, every finding of every patch with its place, for scripts and CI. */
#ifndef OUTPUT_JSON_H
#define OUTPUT_JSON_H

#include <stdio.h>

#include "config/config.h"
#include "output/output.h"

/* Writes the n patches to out; errors show on the stream. */
void output_json(FILE *out, const struct output_patch *v, size_t n, const struct config *c);

#endif
