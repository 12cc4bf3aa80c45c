/*
 * folder.c: a Maildir or an mbox walked as raw messages, one at a time,
 * within the caps of folder.h. An mbox is streamed by CHUNK-sized reads;
 * a Maildir's names are listed (and sorted) first, then each file read.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/msg.h"
#include "base/slurp.h"
#include "mail/folder.h"

/* What an mbox is read by: lines longer than this come in pieces. */
#define CHUNK ((size_t)1 << 20)

static size_t limit(size_t want, size_t cap)
{
	return want && want < cap ? want : cap;
}

struct named {
	char *path;
	const char *name;	/* in path, after the directory */
	time_t mtime;
};

static int by_path(const void *a, const void *b)
{
	return strcmp(((const struct named *)a)->path, ((const struct named *)b)->path);
}

static int newest_first(const void *a, const void *b)
{
	const struct named *x = a, *y = b;
	if (x->mtime != y->mtime)
		return x->mtime < y->mtime ? 1 : -1;
	return strcmp(x->path, y->path);
}

/* The files of dir's cur/ and new/, at most MAIL_FOLDER_MAX_MESSAGES, in the walk's order. */
static struct named *list_maildir(const char *dir, enum mail_folder_order order, size_t *no)
{
	static const char *const subs[] = { "cur", "new" };
	struct named *v = NULL;
	size_t n = 0, cap = 0;
	for (size_t k = 0; k < 2; k++) {
		struct buf sub = BUF_INIT;
		buf_addf(&sub, "%s/%s", dir, subs[k]);
		DIR *d = opendir(sub.data);
		struct dirent *e;
		while (d && n < MAIL_FOLDER_MAX_MESSAGES && (e = readdir(d))) {
			struct stat st = { 0 };
			struct buf path = BUF_INIT;
			if (e->d_name[0] == '.')
				continue;
			buf_addf(&path, "%s/%s", sub.data, e->d_name);
			if (order == MAIL_FOLDER_NEWEST &&
			    (stat(path.data, &st) < 0 || !S_ISREG(st.st_mode))) {
				buf_release(&path);
				continue;
			}
			if (n == cap)
				v = xrealloc(v, (cap = cap ? 2 * cap : 256) * sizeof(*v));
			v[n].path = buf_detach(&path, NULL);
			v[n].name = v[n].path + sub.len + 1;
			v[n++].mtime = st.st_mtime;
		}
		if (d)
			closedir(d);
		buf_release(&sub);
	}
	if (n && order != MAIL_FOLDER_LISTED)
		qsort(v, n, sizeof(*v), order == MAIL_FOLDER_NEWEST ? newest_first : by_path);
	*no = n;
	return v;
}

static void walk_maildir(const char *dir, struct mail_folder_walk *w)
{
	size_t n, max = limit(w->max_messages, MAIL_FOLDER_MAX_MESSAGES);
	size_t max_bytes = limit(w->max_bytes, MAIL_FOLDER_MAX_BYTES);
	struct named *v = list_maildir(dir, w->order, &n);
	struct buf text = BUF_INIT;
	w->capped = n == MAIL_FOLDER_MAX_MESSAGES;
	for (size_t i = 0; i < n && !w->stopped; i++) {
		if (w->messages >= max || w->bytes >= max_bytes) {
			w->capped = true;
			break;
		}
		w->messages++;
		if (w->skip && w->skip(w->ctx, v[i].name))
			continue;
		buf_reset(&text);
		/* A larger file, or one that cannot be read, is passed over. */
		int ret = slurp_file(v[i].path, limit(w->max_message, MAIL_FOLDER_MAX_MESSAGE), &text);
		w->bytes += text.len;
		if (ret < 0)
			continue;
		struct mail_folder_msg m = { .data = text.data, .len = text.len, .path = v[i].path };
		w->stopped = w->fn(w->ctx, &m);
	}
	for (size_t i = 0; i < n; i++)
		free(v[i].path);
	free(v);
	buf_release(&text);
}

/* The state of an mbox walk: the message being read, at most max_message of it. */
struct mscan {
	struct mail_folder_walk *w;
	size_t max, max_message;
	struct buf msg;
	off_t at;		/* where it begins */
	size_t from_len;	/* of its "From " line */
	bool open, big;
};

/* Hands the message read so far to fn, unless it was too large or is blank. */
static void finish(struct mscan *s, off_t end)
{
	struct mail_folder_walk *w = s->w;
	bool blank = s->msg.len == strspn(s->msg.data, "\r\n \t");
	if (s->open && !s->big && !blank) {
		struct mail_folder_msg m = { .data = s->msg.data, .len = s->msg.len,
					     .from_len = s->from_len, .at = s->at };
		w->stopped = w->fn(w->ctx, &m);
	}
	if (!w->stopped)
		w->mbox_end = end;
	buf_reset(&s->msg);
	s->open = s->big = false;
}

/* Adds a line (or a piece of one) to the message being read, if it still fits. */
static void keep(struct mscan *s, const char *line, size_t len)
{
	if (!s->open || s->big)
		return;
	if (s->msg.len + len > s->max_message) {
		s->big = true;
		buf_reset(&s->msg);
	} else {
		buf_add(&s->msg, line, len);
	}
}

/*
 * One line at offset at, or one piece of a line longer than CHUNK (cont:
 * it continues the last). A "From " line after a blank one starts a
 * message. Returns false when the walk stops there.
 */
static bool take_line(struct mscan *s, const char *line, size_t len, off_t at, bool cont,
		      bool *blank)
{
	struct mail_folder_walk *w = s->w;
	if (!cont && *blank && len >= 5 && !memcmp(line, "From ", 5)) {
		finish(s, at);
		if (w->stopped)
			return false;
		if (w->messages >= s->max) {
			w->capped = true;
			return false;
		}
		w->messages++;
		s->open = true;
		s->at = at;
		s->from_len = len;
	}
	keep(s, line, len);
	*blank = !cont && (len == 1 || (len == 2 && line[0] == '\r')) && line[len - 1] == '\n';
	return true;
}

/* Reads fd from off on by lines into s, at most max_bytes; returns whether the walk went to the end. */
static bool read_lines(struct mscan *s, int fd, off_t off, size_t max_bytes, bool cont)
{
	struct mail_folder_walk *w = s->w;
	char *buf = xmalloc(CHUNK);
	size_t have = 0;
	bool blank = !cont, going = true;
	while (going) {
		size_t room = CHUNK - have;
		if (room > max_bytes - w->bytes)
			room = max_bytes - w->bytes;
		ssize_t n = room ? read(fd, buf + have, room) : 0;
		if (n < 0 && errno == EINTR)
			continue;
		bool eof = n <= 0;
		have += n > 0 ? (size_t)n : 0;
		w->bytes += n > 0 ? (size_t)n : 0;
		size_t done = 0;
		while (going && done < have) {
			const char *nl = memchr(buf + done, '\n', have - done);
			size_t end = nl ? (size_t)(nl - buf) + 1 : have;
			if (!nl && !eof && (done || have < CHUNK))
				break;	/* the rest of the line comes with the next read */
			going = take_line(s, buf + done, end - done, off + (off_t)done, cont, &blank);
			cont = !nl;
			done = end;
		}
		memmove(buf, buf + done, have - done);
		have -= done;
		off += (off_t)done;
		if (eof)
			break;
	}
	free(buf);
	return going;
}

static int walk_mbox(int fd, struct mail_folder_walk *w)
{
	struct stat st;
	size_t max_bytes = limit(w->max_bytes, MAIL_FOLDER_MAX_BYTES);
	if (fstat(fd, &st) < 0)
		return -1;
	off_t start = w->mbox_from > 0 && w->mbox_from <= st.st_size ? w->mbox_from : 0;
	if (w->mbox_tail)
		start = (size_t)st.st_size > max_bytes ? st.st_size - (off_t)max_bytes : 0;
	if (lseek(fd, start, SEEK_SET) < 0)
		return -1;
	struct mscan s = { .w = w, .max = limit(w->max_messages, MAIL_FOLDER_MAX_MESSAGES),
			   .max_message = limit(w->max_message, MAIL_FOLDER_MAX_MESSAGE),
			   .msg = BUF_INIT, .at = start };
	/* Read from the middle, the first line is the end of one: no message starts there. */
	bool mid = w->mbox_tail && start > 0;
	s.open = !mid;
	w->mbox_end = start;
	w->capped = mid;
	bool going = read_lines(&s, fd, start, max_bytes, mid);
	/* Stopped by the byte cap before the end: the message read last may be cut short. */
	if (going && w->bytes == max_bytes && start + (off_t)w->bytes < st.st_size)
		w->capped = true;
	else if (going)
		finish(&s, start + (off_t)w->bytes);
	buf_release(&s.msg);
	return 0;
}

int mail_folder_walk(const char *path, struct mail_folder_walk *w)
{
	struct stat st;
	w->maildir = w->capped = false;
	w->messages = w->bytes = 0;
	w->stopped = 0;
	w->mbox_end = 0;
	if (stat(path, &st) < 0)
		return -1;
	w->maildir = S_ISDIR(st.st_mode);
	if (w->maildir) {
		walk_maildir(path, w);
		return 0;
	}
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	int ret = walk_mbox(fd, w);
	int err = errno;
	close(fd);
	errno = err;
	return ret;
}
