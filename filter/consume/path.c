/*
 * path.c: the messages of a Maildir or an mbox, as mail/folder.h walks
 * them, into the queue, the new ones only. Each piece of an mbox keeps its
 * "From " line, so it is read back as an mbox of one, its ">From " lines
 * unescaped there. A Maildir's
 * files already seen (state/seen.h) are passed by name, unread; an mbox
 * is read from where the last run stopped, when the bytes before that
 * point are still those it read (an mbox rewritten is read whole, and
 * the Message-IDs already placed are passed when placing).
 */
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
#include "mail/folder.h"
#include "state/seen.h"

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

/* The part of a Maildir file's name that names it for good: up to the flags (":2,..."). */
static void unique_name(char *out, size_t size, const char *name)
{
	snprintf(out, size, "%.*s", (int)strcspn(name, ":"), name);
}

struct walk {
	const char *state;
	long max;
	struct path_counts *n;
	int ret;
};

static int on_message(void *ctx, const struct mail_folder_msg *m)
{
	struct walk *w = ctx;
	w->ret = put(w->state, m->data, m->path ? m->len : queue_trim_separator(m->data, m->len),
		     w->max, w->n);
	if (w->ret || !m->path)
		return w->ret;
	/* Queued: the next run passes it. Killed before this, it is queued again (one entry). */
	char unique[NAME_MAX + 1];
	unique_name(unique, sizeof(unique), strrchr(m->path, '/') + 1);
	if (seen_mark(w->state, "maildir", unique) < 0)
		warn("consume: cannot write '%s/seen': %s", w->state, strerror(errno));
	return 0;
}

/* A Maildir file queued by an earlier run is passed by name, unread. */
static bool seen(void *ctx, const char *name)
{
	struct walk *w = ctx;
	char unique[NAME_MAX + 1];
	unique_name(unique, sizeof(unique), name);
	if (!seen_touch(w->state, "maildir", unique))
		return false;
	w->n->seen++;
	return true;
}

static int queue_mbox(struct walk *w, const char *path)
{
	struct buf rec = BUF_INIT;
	struct mail_folder_walk fw = { .max_messages = CONSUME_MAX_PATH_MSGS, .fn = on_message,
				       .ctx = w };
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		mbox_record(&rec, w->state, path);
		fw.mbox_from = mbox_resume(rec.data, fd);
	}
	if (fd < 0 || mail_folder_walk(path, &fw) < 0) {
		w->ret = error("consume: cannot read '%s': %s", path, strerror(errno));
	} else {
		w->n->skipped_bytes += (size_t)fw.mbox_from;
		mbox_remember(rec.data, fd, fw.mbox_end);
	}
	if (fd >= 0)
		close(fd);
	buf_release(&rec);
	return w->ret;
}

int path_queue(const char *state, const char *path, long max, struct path_counts *n)
{
	struct stat st;
	struct walk w = { state, max, n, 0 };
	if (stat(path, &st) < 0)
		return error("consume: cannot read '%s': %s", path, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return queue_mbox(&w, path);
	struct mail_folder_walk fw = { .max_messages = CONSUME_MAX_PATH_MSGS, .fn = on_message,
				       .skip = seen, .ctx = &w };
	(void)mail_folder_walk(path, &fw);
	return w.ret;
}
