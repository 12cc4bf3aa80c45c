/* dirs.c: mkdir -p, shared by the Maildir delivery and the review cache. */
#include <errno.h>
#include <sys/stat.h>

#include "dirs.h"

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
