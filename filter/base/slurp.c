/* slurp.c: whole-file reads with a size cap, and atomic whole-file writes. */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/slurp.h"

#define SLURP_CHUNK 65536

int slurp_fd(int fd, size_t max, struct buf *out)
{
	size_t start = out->len;
	for (;;) {
		if (out->len - start > max) {
			errno = EFBIG;
			return -1;
		}
		buf_grow(out, SLURP_CHUNK);
		ssize_t n = read(fd, out->data + out->len, SLURP_CHUNK);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			return 0;
		out->len += (size_t)n;
		out->data[out->len] = '\0';
	}
}

int slurp_file(const char *path, size_t max, struct buf *out)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	int ret = slurp_fd(fd, max, out);
	int saved = errno;
	close(fd);
	errno = saved;
	return ret;
}

/*
 * Writes data to a new temporary file beside path, then moves it to path:
 * by rename(), or by link() when an existing file must stay (link fails
 * where rename would replace).
 */
static int write_file_via_temp(const char *path, const char *data, size_t len, bool replace)
{
	struct buf tmp = BUF_INIT;
	const char *slash = strrchr(path, '/');
	if (slash)
		buf_add(&tmp, path, (size_t)(slash - path + 1));
	buf_addstr(&tmp, ".tmp-XXXXXX");
	int fd = mkstemp(tmp.data), ret = fd < 0 ? -1 : 0;
	for (size_t done = 0; !ret && done < len;) {
		ssize_t n = write(fd, data + done, len - done);
		if (n < 0 && errno != EINTR)
			ret = -1;
		else if (n > 0)
			done += (size_t)n;
	}
	if (fd >= 0 && close(fd) < 0)
		ret = -1;
	if (!ret && (replace ? rename(tmp.data, path) : link(tmp.data, path)) < 0)
		ret = -1;
	if (!ret && !replace)
		unlink(tmp.data);
	if (ret && fd >= 0) {
		int saved = errno;
		unlink(tmp.data);
		errno = saved;
	}
	buf_release(&tmp);
	return ret;
}

/*
 * Does the file at path hold data[0..len) already? Read a page at a time,
 * up to the first difference, so that the check costs no more memory than
 * a page and no more reading than the file.
 */
static bool holds(const char *path, const char *data, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	char page[4096];
	size_t done = 0;
	bool same;
	for (;;) {
		ssize_t n = read(fd, page, sizeof(page));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			same = n == 0 && done == len;
			break;
		}
		if ((size_t)n > len - done || memcmp(page, data + done, (size_t)n)) {
			same = false;
			break;
		}
		done += (size_t)n;
	}
	close(fd);
	return same;
}

int write_file_atomic(const char *path, const char *data, size_t len)
{
	/*
	 * Replacing a file by rename() makes ext4 write the new one out at
	 * once (auto_da_alloc): 2 ms of a key press for a draft's record that
	 * the same review wrote last time.
	 */
	if (holds(path, data, len))
		return 0;
	return write_file_via_temp(path, data, len, true);
}

int write_file_new(const char *path, const char *data, size_t len)
{
	return write_file_via_temp(path, data, len, false);
}
