/* seen.c: the entries of STATE/seen/, each an empty file named by a hash. */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <string.h>
#include <unistd.h>

#include "base/hash.h"
#include "base/paths.h"
#include "state/seen.h"

void seen_path(struct buf *path, const char *state, const char *kind, const char *name)
{
	char hex[HASH_SHA256_HEX];
	const char *parts[] = { "seen", kind, name };
	hash_sha256_strings(hex, parts, 3);
	buf_addf(path, "%s/seen/%s", state, hex);
}

bool seen_touch(const char *state, const char *kind, const char *name)
{
	struct buf path = BUF_INIT;
	seen_path(&path, state, kind, name);
	bool ret = utimensat(AT_FDCWD, path.data, NULL, 0) == 0;
	buf_release(&path);
	return ret;
}

int seen_mark(const char *state, const char *kind, const char *name)
{
	struct buf path = BUF_INIT;
	seen_path(&path, state, kind, name);
	int fd = open(path.data, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0 && errno == ENOENT) {
		/* The folder, the first time. */
		char *slash = strrchr(path.data, '/');
		*slash = '\0';
		make_dirs(path.data);
		*slash = '/';
		fd = open(path.data, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
	}
	buf_release(&path);
	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}
