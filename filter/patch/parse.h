/* parse.h: what the files of patch/ share while building struct patch. */
#ifndef PATCH_PARSE_H
#define PATCH_PARSE_H

#include <stdbool.h>
#include <stddef.h>

struct patch;

/* patch.c: does a file's diff start at line i? */
bool patch_starts_file_at(const struct patch *p, size_t i);

/* message.c: in-body "From:" and the trailer block of the commit message. */
void patch_parse_message(struct patch *p, size_t part);

/* diff.c: files and hunks from diff_begin on. */
void patch_parse_diff(struct patch *p);

#endif
