/* queue.c: writing a delivered message into the queue. */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/hash.h"
#include "base/paths.h"
#include "base/slurp.h"
#include "consume/queue.h"

char *queue_dir(const char *state)
{
	struct buf dir = BUF_INIT;
	buf_addf(&dir, "%s/queue", state);
	if (make_dirs(dir.data) < 0) {
		buf_release(&dir);
		return NULL;
	}
	return buf_detach(&dir, NULL);
}

/* Are there max entries or more? Stops counting at max, so a flood costs no more. */
static bool full(const char *dir, long max)
{
	DIR *d = opendir(dir);
	long n = 0;
	struct dirent *e;
	while (d && n < max && (e = readdir(d)))
		n += e->d_name[0] != '.';
	if (d)
		closedir(d);
	return n >= max;
}

size_t queue_trim_separator(const char *raw, size_t len)
{
	return len > 1 && raw[len - 1] == '\n' && raw[len - 2] == '\n' ? len - 1 : len;
}

enum queue_result queue_put(const char *state, const char *raw, size_t len, long max)
{
	char hex[HASH_SHA256_HEX];
	char *dir = queue_dir(state);
	if (!dir)
		return QUEUE_FAILED;
	enum queue_result ret = QUEUE_ADDED;
	struct buf path = BUF_INIT;
	hash_sha256_bytes(hex, raw, len);
	buf_addf(&path, "%s/%s.eml", dir, hex);
	if (full(dir, max))
		ret = QUEUE_FULL;
	else if (write_file_new(path.data, raw, len) < 0)
		ret = errno == EEXIST ? QUEUE_DUPLICATE : QUEUE_FAILED;
	int saved = errno;
	buf_release(&path);
	free(dir);
	errno = saved;
	return ret;
}
