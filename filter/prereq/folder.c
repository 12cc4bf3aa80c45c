/*
 * folder.c: the list folder read as raw messages, bounded: a Maildir's
 * newest files, or the messages of an mbox's last FOLDER_MAX_BYTES, one
 * at a time.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/msg.h"
#include "base/paths.h"
#include "base/slurp.h"
#include "prereq/folder.h"

/* What the mbox is read by: lines longer than this come in pieces. */
#define CHUNK ((size_t)1 << 20)

struct named {
	char *path;
	time_t mtime;
};

static int newest_first(const void *a, const void *b)
{
	const struct named *x = a, *y = b;
	if (x->mtime != y->mtime)
		return x->mtime < y->mtime ? 1 : -1;
	return strcmp(x->path, y->path);
}

/* The files of cur/ and new/, at most FOLDER_MAX_NAMES, newest first. */
static void list_maildir(struct folder *f)
{
	static const char *const subs[] = { "cur", "new" };
	struct named *v = NULL;
	size_t n = 0, cap = 0;
	for (size_t k = 0; k < 2; k++) {
		struct buf sub = BUF_INIT;
		buf_addf(&sub, "%s/%s", f->path, subs[k]);
		DIR *d = opendir(sub.data);
		struct dirent *e;
		while (d && n < FOLDER_MAX_NAMES && (e = readdir(d))) {
			struct stat st;
			struct buf path = BUF_INIT;
			if (e->d_name[0] == '.')
				continue;
			buf_addf(&path, "%s/%s", sub.data, e->d_name);
			if (stat(path.data, &st) < 0 || !S_ISREG(st.st_mode)) {
				buf_release(&path);
				continue;
			}
			if (n == cap)
				v = xrealloc(v, (cap = cap ? 2 * cap : 256) * sizeof(*v));
			v[n++] = (struct named){ buf_detach(&path, NULL), st.st_mtime };
		}
		if (d)
			closedir(d);
		buf_release(&sub);
	}
	f->capped = n == FOLDER_MAX_NAMES;
	if (n)
		qsort(v, n, sizeof(*v), newest_first);
	for (size_t i = 0; i < n; i++)
		strvec_push_take(&f->names, v[i].path);
	free(v);
}

int folder_open(struct folder *f, const char *path, struct buf *why)
{
	struct stat st;
	*f = (struct folder){ .path = expand_home(path), .names = STRVEC_INIT, .fd = -1 };
	if (stat(f->path, &st) < 0) {
		buf_addf(why, "%s", strerror(errno));
		return -1;
	}
	f->maildir = S_ISDIR(st.st_mode);
	if (f->maildir) {
		list_maildir(f);
		return 0;
	}
	f->fd = open(f->path, O_RDONLY);
	if (f->fd < 0) {
		buf_addf(why, "%s", strerror(errno));
		return -1;
	}
	return 0;
}

static void scan_maildir(struct folder *f, folder_fn *fn, void *ctx)
{
	struct buf text = BUF_INIT;
	for (size_t i = 0; i < f->names.n; i++) {
		if (f->scanned >= FOLDER_MAX_MESSAGES || f->bytes >= FOLDER_MAX_BYTES) {
			f->capped = true;
			break;
		}
		f->scanned++;
		buf_reset(&text);
		/* A larger file is passed over: slurp stops at the bound. */
		if (slurp_file(f->names.v[i], FOLDER_MAX_MESSAGE, &text) < 0) {
			f->bytes += text.len;
			continue;
		}
		f->bytes += text.len;
		struct folder_ref ref = { .file = i, .len = text.len };
		fn(ctx, text.data, text.len, &ref);
	}
	buf_release(&text);
}

/* The state of an mbox scan: the message being read, at most FOLDER_MAX_MESSAGE of it. */
struct mscan {
	struct folder *f;
	folder_fn *fn;
	void *ctx;
	struct buf msg;
	off_t at;		/* where its text begins */
	bool open, big;
};

/* Hands the message read so far to fn, unless it was too large. */
static void finish(struct mscan *s)
{
	if (s->open && !s->big && s->msg.len) {
		struct folder_ref ref = { .at = s->at, .len = s->msg.len };
		s->fn(s->ctx, s->msg.data, s->msg.len, &ref);
	}
	buf_reset(&s->msg);
	s->open = s->big = false;
}

/*
 * One line, or one piece of a line longer than CHUNK (cont: it continues
 * the last). A "From " line after a blank one starts a message; returns
 * false once FOLDER_MAX_MESSAGES have been started.
 */
static bool take_line(struct mscan *s, const char *line, size_t len, off_t end, bool cont,
		      bool *blank)
{
	if (!cont && *blank && len >= 5 && !memcmp(line, "From ", 5)) {
		finish(s);
		if (s->f->scanned >= FOLDER_MAX_MESSAGES) {
			s->f->capped = true;
			return false;
		}
		s->f->scanned++;
		s->open = true;
		s->at = end;
	} else if (s->open && !s->big) {
		if (s->msg.len + len > FOLDER_MAX_MESSAGE) {
			s->big = true;
			buf_reset(&s->msg);
		} else {
			buf_add(&s->msg, line, len);
		}
	}
	*blank = !cont && (len == 1 || (len == 2 && line[0] == '\r')) && line[len - 1] == '\n';
	return true;
}

static void scan_mbox(struct folder *f, folder_fn *fn, void *ctx)
{
	struct stat st;
	if (fstat(f->fd, &st) < 0)
		return;
	off_t start = (size_t)st.st_size > FOLDER_MAX_BYTES ? st.st_size - (off_t)FOLDER_MAX_BYTES : 0;
	if (lseek(f->fd, start, SEEK_SET) < 0)
		return;
	f->capped = start > 0;
	struct mscan s = { .f = f, .fn = fn, .ctx = ctx, .msg = BUF_INIT };
	char *buf = xmalloc(CHUNK);
	size_t have = 0;
	off_t off = start;	/* of buf[0] */
	/* Read from the middle, the first line is the end of one: no message starts there. */
	bool cont = start > 0, blank = start == 0, going = true;
	while (going) {
		ssize_t n = read(f->fd, buf + have, CHUNK - have);
		if (n < 0 && errno == EINTR)
			continue;
		bool eof = n <= 0;
		have += n > 0 ? (size_t)n : 0;
		f->bytes += n > 0 ? (size_t)n : 0;
		size_t done = 0;
		while (going && done < have) {
			const char *nl = memchr(buf + done, '\n', have - done);
			size_t end = nl ? (size_t)(nl - buf) + 1 : have;
			if (!nl && !eof && (done || have < CHUNK))
				break;	/* the rest of the line comes with the next read */
			going = take_line(&s, buf + done, end - done, off + (off_t)end, cont, &blank);
			cont = !nl;
			done = end;
		}
		memmove(buf, buf + done, have - done);
		have -= done;
		off += (off_t)done;
		if (eof)
			break;
	}
	if (going)
		finish(&s);
	free(buf);
	buf_release(&s.msg);
}

void folder_scan(struct folder *f, folder_fn *fn, void *ctx)
{
	if (f->maildir)
		scan_maildir(f, fn, ctx);
	else if (f->fd >= 0)
		scan_mbox(f, fn, ctx);
}

int folder_read(const struct folder *f, const struct folder_ref *ref, struct buf *out)
{
	if (f->maildir)
		return ref->file < f->names.n ?
			slurp_file(f->names.v[ref->file], FOLDER_MAX_MESSAGE, out) : -1;
	if (ref->len > FOLDER_MAX_MESSAGE)
		return -1;
	size_t got = 0;
	buf_grow(out, ref->len);
	while (got < ref->len) {
		ssize_t n = pread(f->fd, out->data + out->len + got, ref->len - got,
				  ref->at + (off_t)got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		got += (size_t)n;
	}
	out->len += got;
	out->data[out->len] = '\0';
	return 0;
}

void folder_close(struct folder *f)
{
	if (f->fd >= 0)
		close(f->fd);
	strvec_clear(&f->names);
	free(f->path);
	*f = (struct folder){ .fd = -1 };
}
