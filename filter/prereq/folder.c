/*
 * folder.c: the list folder read as raw messages through mail/folder.h,
 * bounded: a Maildir's newest files, or the messages of an mbox's last
 * FOLDER_MAX_BYTES; and a message found there read again.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/msg.h"
#include "base/paths.h"
#include "base/slurp.h"
#include "mail/folder.h"
#include "prereq/folder.h"

int folder_open(struct folder *f, const char *path, struct buf *why)
{
	struct stat st;
	*f = (struct folder){ .path = expand_home(path), .names = STRVEC_INIT, .fd = -1 };
	if (stat(f->path, &st) < 0) {
		buf_addf(why, "%s", strerror(errno));
		return -1;
	}
	f->maildir = S_ISDIR(st.st_mode);
	if (f->maildir)
		return 0;
	f->fd = open(f->path, O_RDONLY | O_CLOEXEC);
	if (f->fd < 0) {
		buf_addf(why, "%s", strerror(errno));
		return -1;
	}
	return 0;
}

struct scan {
	struct folder *f;
	folder_fn *fn;
	void *ctx;
};

static int on_message(void *ctx, const struct mail_folder_msg *m)
{
	struct scan *s = ctx;
	struct folder_ref ref = { .file = s->f->names.n, .at = m->at + (off_t)m->from_len,
				  .len = m->len - m->from_len };
	if (m->path)
		strvec_push(&s->f->names, m->path);
	s->fn(s->ctx, m->data + m->from_len, ref.len, &ref);
	return 0;
}

void folder_scan(struct folder *f, folder_fn *fn, void *ctx)
{
	struct scan s = { f, fn, ctx };
	struct mail_folder_walk w = {
		.max_messages = FOLDER_MAX_MESSAGES, .max_message = FOLDER_MAX_MESSAGE,
		.max_bytes = FOLDER_MAX_BYTES, .order = MAIL_FOLDER_NEWEST, .mbox_tail = true,
		.fn = on_message, .ctx = &s,
	};
	if (mail_folder_walk(f->path, &w) < 0)
		return;
	f->scanned = w.messages;
	f->bytes = w.bytes;
	f->capped = w.capped;
}

int folder_read(const struct folder *f, const struct folder_ref *ref, struct buf *out)
{
	if (f->maildir)
		return ref->file < f->names.n ?
			slurp_file(f->names.v[ref->file], FOLDER_MAX_MESSAGE, out) : -1;
	if (ref->len > FOLDER_MAX_MESSAGE || f->fd < 0)
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
