/* dirs.h: creating directory trees. */
#ifndef DIRS_H
#define DIRS_H

/*
 * mkdir -p with mode 0700: drafts and cached reviews can hold unpublished
 * patches. Returns 0, or -1 with errno set; path is left as it was.
 */
int make_dirs(char *path);

#endif
