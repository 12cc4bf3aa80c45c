/* paths.h: where files live (XDG directories, "~/"), and creating directories. */
#ifndef PATHS_H
#define PATHS_H

/*
 * "$var/leaf", or "$HOME/home_dir/leaf" when var is unset or empty, as the
 * XDG base directory rules say; NULL when HOME is unset too. Caller frees.
 */
char *xdg_path(const char *var, const char *home_dir, const char *leaf);

/*
 * "~/x" as "$HOME/x", without trailing slashes: the path may come from a
 * config file, not a shell. Caller frees.
 */
char *expand_home(const char *path);

/*
 * mkdir -p with mode 0700: drafts and cached reviews can hold unpublished
 * patches. Returns 0, or -1 with errno set; path is left as it was.
 */
int make_dirs(char *path);

#endif
