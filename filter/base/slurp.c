/* slurp.c: whole-file reads with a size cap. */
#include <errno.h>
#include <fcntl.h>
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
