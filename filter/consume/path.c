/*
 * path.c: the messages of a Maildir or an mbox into the queue. An mbox is
 * cut before each "From " line that follows a blank line (or starts it);
 * each piece keeps its "From " line, so it is read back as an mbox of
 * one, its ">From " lines unescaped there.
 */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>

#include "base/buf.h"
#include "base/msg.h"
#include "base/slurp.h"
#include "consume/path.h"
#include "consume/queue.h"
#include "mail/mail.h"

/* Counts what queue_put() did; -1 when the queue is full or cannot be written. */
static int put(const char *state, const char *raw, size_t len, long max, struct path_counts *n)
{
	switch (queue_put(state, raw, len, max)) {
	case QUEUE_ADDED: n->queued++; return 0;
	case QUEUE_DUPLICATE: n->known++; return 0;
	case QUEUE_FULL: return error("consume: the queue holds consume_queue (%ld) messages; "
				      "the rest wait for the next run", max);
	case QUEUE_FAILED: break;
	}
	return error("consume: cannot write the queue: %s", strerror(errno));
}

static int queue_mbox(const char *state, const char *path, long max, struct path_counts *n)
{
	struct buf data = BUF_INIT;
	int ret = 0;
	if (slurp_file(path, MAIL_MAX_INPUT, &data) < 0) {
		ret = error("consume: cannot read '%s': %s", path, strerror(errno));
		goto out;
	}
	size_t start = 0, count = 0;
	for (size_t i = 0; !ret && i <= data.len; i++) {
		bool cut = i == data.len || (i > 1 && data.data[i - 1] == '\n' &&
			data.data[i - 2] == '\n' && !strncmp(data.data + i, "From ", 5));
		if (!cut || i == start)
			continue;
		if (++count > CONSUME_MAX_PATH_MSGS)
			break;
		ret = put(state, data.data + start, queue_trim_separator(data.data + start, i - start),
			  max, n);
		start = i;
	}
out:
	buf_release(&data);
	return ret;
}

/* The files of DIR/sub, each a message. */
static int queue_maildir_part(const char *state, const char *dir, const char *sub, long max,
			      struct path_counts *n)
{
	struct buf path = BUF_INIT, data = BUF_INIT;
	size_t count = 0;
	int ret = 0;
	buf_addf(&path, "%s/%s", dir, sub);
	DIR *d = opendir(path.data);
	struct dirent *e;
	while (d && !ret && count++ < CONSUME_MAX_PATH_MSGS && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		buf_reset(&path);
		buf_addf(&path, "%s/%s/%s", dir, sub, e->d_name);
		buf_reset(&data);
		if (slurp_file(path.data, MAIL_MAX_INPUT, &data) == 0)
			ret = put(state, data.data, data.len, max, n);
	}
	if (d)
		closedir(d);
	buf_release(&path);
	buf_release(&data);
	return ret;
}

int path_queue(const char *state, const char *path, long max, struct path_counts *n)
{
	struct stat st;
	if (stat(path, &st) < 0)
		return error("consume: cannot read '%s': %s", path, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return queue_mbox(state, path, max, n);
	if (queue_maildir_part(state, path, "cur", max, n) < 0)
		return -1;
	return queue_maildir_part(state, path, "new", max, n);
}
