/* paths.c: XDG directories, "~/" paths, mkdir -p. */
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "base/buf.h"
#include "base/paths.h"

char *xdg_path(const char *var, const char *home_dir, const char *leaf)
{
	const char *xdg = getenv(var), *home = getenv("HOME");
	struct buf path = BUF_INIT;
	if (xdg && *xdg)
		buf_addf(&path, "%s/%s", xdg, leaf);
	else if (home && *home)
		buf_addf(&path, "%s/%s/%s", home, home_dir, leaf);
	else
		return NULL;
	return buf_detach(&path, NULL);
}

char *expand_home(const char *path)
{
	const char *home = getenv("HOME");
	struct buf b = BUF_INIT;
	if (path[0] == '~' && path[1] == '/' && home)
		buf_addf(&b, "%s%s", home, path + 1);
	else
		buf_addstr(&b, path);
	while (b.len > 1 && b.data[b.len - 1] == '/')
		b.data[--b.len] = '\0';
	return buf_detach(&b, NULL);
}

int make_dirs(char *path)
{
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		int ret = mkdir(path, 0700);
		*p = '/';
		if (ret < 0 && errno != EEXIST)
			return -1;
	}
	return mkdir(path, 0700) < 0 && errno != EEXIST ? -1 : 0;
}
