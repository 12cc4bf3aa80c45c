/*
 * slurp.h: reading all of a descriptor or a file into a buffer, bounded;
 * and writing a whole file so that readers never see half of it.
 */
#ifndef SLURP_H
#define SLURP_H

#include <stddef.h>

#include "base/buf.h"

/*
 * Appends everything fd holds, up to max bytes, to *out. Returns 0, or -1
 * with errno set: EFBIG when there was more than max.
 */
int slurp_fd(int fd, size_t max, struct buf *out);

/* The same for the file at path; -1 with errno set when it cannot be opened. */
int slurp_file(const char *path, size_t max, struct buf *out);

/*
 * Writes len bytes to path through a temporary file in the same directory,
 * renamed into place: a reader sees the old file or the new one, never
 * half of either. The file is private (mode 0600). A file that holds
 * those bytes already is left as it is. Returns 0, or -1 with errno set.
 */
int write_file_atomic(const char *path, const char *data, size_t len);

/* The same, but an existing file at path stays: -1 with errno EEXIST. */
int write_file_new(const char *path, const char *data, size_t len);

#endif
