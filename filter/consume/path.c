/*
 * path.c: the messages of a Maildir or an mbox into the queue, the new
 * ones only. An mbox is cut before each "From " line that follows a blank
 * line (or starts it); each piece keeps its "From " line, so it is read
 * back as an mbox of one, its ">From " lines unescaped there. A Maildir's
 * files already seen (state/seen.h) are passed by name, unread; an mbox
 * is read from where the last run stopped, when the bytes before that
 * point are still those it read (an mbox rewritten is read whole, and
 * the Message-IDs already placed are passed when placing).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/hash.h"
#include "base/msg.h"
#include "base/paths.h"
#include "base/slurp.h"
#include "consume/path.h"
#include "consume/queue.h"
#include "state/seen.h"
#include "mail/mail.h"

/* Bytes before the resume point whose hash must match: an mbox rewritten is read whole. */
#define MBOX_TAIL 4096

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

/* The SHA-256 of the MBOX_TAIL bytes (or fewer) before off in fd; "" when unreadable. */
static void tail_hash(int fd, off_t off, char hex[HASH_SHA256_HEX])
{
	char tail[MBOX_TAIL];
	size_t want = off < MBOX_TAIL ? (size_t)off : MBOX_TAIL;
	hex[0] = '\0';
	if (pread(fd, tail, want, off - (off_t)want) == (ssize_t)want)
		hash_sha256_bytes(hex, tail, want);
}

/* The mbox's record in the state: "STATE/seen/H", H of its real path. */
static void mbox_record(struct buf *rec, const char *state, const char *path)
{
	char *real = realpath(path, NULL);
	seen_path(rec, state, "mbox", real ? real : path);
	free(real);
}

/* Where the last run stopped in the mbox open at fd, if its bytes before that are unchanged; else 0. */
static off_t mbox_resume(const char *rec, int fd)
{
	struct buf data = BUF_INIT;
	struct stat st;
	char hex[HASH_SHA256_HEX], kept[HASH_SHA256_HEX];
	long long off = 0;
	if (slurp_file(rec, 256, &data) < 0 || fstat(fd, &st) < 0 ||
	    sscanf(data.data, "%lld %64s", &off, kept) != 2 || off < 0 || off > st.st_size)
		off = 0;
	if (off) {
		tail_hash(fd, (off_t)off, hex);
		if (strcmp(hex, kept))
			off = 0;
	}
	buf_release(&data);
	return (off_t)off;
}

/* Remembers that the mbox at fd was queued up to off. */
static void mbox_remember(const char *rec, int fd, off_t off)
{
	struct buf text = BUF_INIT;
	char hex[HASH_SHA256_HEX];
	tail_hash(fd, off, hex);
	buf_addf(&text, "%lld %s\n", (long long)off, hex[0] ? hex : "-");
	char *slash = strrchr(rec, '/');
	struct buf dir = BUF_INIT;
	buf_add(&dir, rec, (size_t)(slash - rec));
	make_dirs(dir.data);
	if (write_file_atomic(rec, text.data, text.len) < 0)
		warn("consume: cannot write '%s': %s", rec, strerror(errno));
	buf_release(&dir);
	buf_release(&text);
}

static int queue_mbox(const char *state, const char *path, long max, struct path_counts *n)
{
	struct buf data = BUF_INIT, rec = BUF_INIT;
	int ret = 0, fd = open(path, O_RDONLY | O_CLOEXEC);
	off_t from = 0;
	if (fd >= 0) {
		mbox_record(&rec, state, path);
		from = mbox_resume(rec.data, fd);
	}
	if (fd < 0 || lseek(fd, from, SEEK_SET) < 0 || slurp_fd(fd, MAIL_MAX_INPUT, &data) < 0) {
		ret = error("consume: cannot read '%s': %s", path, strerror(errno));
		goto out;
	}
	n->skipped_bytes += (size_t)from;
	/* start: where the first message not queued yet begins, and the next run resumes. */
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
		if (!ret)
			start = i;
	}
	mbox_remember(rec.data, fd, from + (off_t)start);
out:
	if (fd >= 0)
		close(fd);
	buf_release(&data);
	buf_release(&rec);
	return ret;
}

/* The part of a Maildir file's name that names it for good: up to the flags (":2,..."). */
static void unique_name(char *out, size_t size, const char *name)
{
	snprintf(out, size, "%.*s", (int)strcspn(name, ":"), name);
}

/* The files of DIR/sub, each a message; those seen already are passed unread. */
static int queue_maildir_part(const char *state, const char *dir, const char *sub, long max,
			      struct path_counts *n)
{
	struct buf path = BUF_INIT, data = BUF_INIT;
	char unique[NAME_MAX + 1];
	size_t count = 0;
	int ret = 0;
	buf_addf(&path, "%s/%s", dir, sub);
	DIR *d = opendir(path.data);
	struct dirent *e;
	while (d && !ret && count++ < CONSUME_MAX_PATH_MSGS && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		unique_name(unique, sizeof(unique), e->d_name);
		if (seen_touch(state, "maildir", unique)) {
			n->seen++;
			continue;
		}
		buf_reset(&path);
		buf_addf(&path, "%s/%s/%s", dir, sub, e->d_name);
		buf_reset(&data);
		if (slurp_file(path.data, MAIL_MAX_INPUT, &data) < 0)
			continue;
		ret = put(state, data.data, data.len, max, n);
		/* Queued: the next run passes it. Killed before this, it is queued again (one entry). */
		if (!ret && seen_mark(state, "maildir", unique) < 0)
			warn("consume: cannot write '%s/seen': %s", state, strerror(errno));
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
