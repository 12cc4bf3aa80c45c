/* log.c: consume's log lines. */
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/buf.h"
#include "consume/log.h"

int consume_log_open(const char *state)
{
	struct buf path = BUF_INIT, old = BUF_INIT;
	struct stat st;
	buf_addf(&path, "%s/log", state);
	buf_addf(&old, "%s/log.old", state);
	if (stat(path.data, &st) == 0 && st.st_size > CONSUME_LOG_MAX)
		rename(path.data, old.data);
	int fd = open(path.data, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
	buf_release(&path);
	buf_release(&old);
	if (fd < 0)
		return -1;
	fflush(stderr);
	int ret = dup2(fd, 2) < 0 ? -1 : 0;
	close(fd);
	return ret;
}

void consume_log(const char *fmt, ...)
{
	char when[32];
	time_t now = time(NULL);
	struct tm tm;
	struct buf line = BUF_INIT;
	va_list ap;
	gmtime_r(&now, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	va_start(ap, fmt);
	buf_vaddf(&line, fmt, ap);
	va_end(ap);
	fprintf(stderr, "%s consume: %s\n", when, line.data);
	fflush(stderr);
	buf_release(&line);
}
