/*
 * source.c: the thread named by --thread, a Maildir (its cur/ and new/
 * files, in name order) or an mbox file, read by mail/folder.h into
 * parsed messages.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/msg.h"
#include "base/strvec.h"
#include "mail/folder.h"
#include "patch/parse.h"
#include "thread/thread.h"

/* Moves the messages of more onto the end of all, up to THREAD_MAX_MESSAGES. */
static void take_mails(struct mail_list *all, struct mail_list *more)
{
	size_t room = THREAD_MAX_MESSAGES - all->n, n = more->n < room ? more->n : room;
	all->v = xrealloc(all->v, (all->n + n + 1) * sizeof(*all->v));
	memcpy(all->v + all->n, more->v, n * sizeof(*more->v));
	all->n += n;
	for (size_t i = n; i < more->n; i++)
		mail_release(&more->v[i]);
	strvec_clear(&more->skipped);
	free(more->v);
	*more = (struct mail_list){ 0 };
}

/* The messages of one Maildir file, or of the whole mbox, read as mail_read_all() reads stdin. */
static int parse(struct mail_list *all, const char *data, size_t len, const char *path)
{
	struct mail_list more;
	if (mail_read_bytes(data, len, &more) < 0)
		return error("--thread: cannot read '%s'", path);
	take_mails(all, &more);
	return 0;
}

struct load {
	struct mail_list *all;
	struct buf mbox;	/* the mbox's messages, joined again: GMime's rules see it whole */
};

static int on_message(void *ctx, const struct mail_folder_msg *m)
{
	struct load *l = ctx;
	if (!m->path) {
		buf_add(&l->mbox, m->data, m->len);
		return 0;
	}
	/* A message that cannot be read is left out; the others still count. */
	(void)parse(l->all, m->data, m->len, m->path);
	return l->all->n >= THREAD_MAX_MESSAGES;
}

int thread_source_load(struct thread_source *src, const char *path)
{
	struct load l = { &src->mails, BUF_INIT };
	struct mail_folder_walk w = {
		.max_messages = THREAD_MAX_MESSAGES, .max_bytes = MAIL_MAX_INPUT,
		.order = MAIL_FOLDER_BY_NAME, .fn = on_message, .ctx = &l,
	};
	int ret = 0;
	*src = (struct thread_source){ 0 };
	if (mail_folder_walk(path, &w) < 0)
		ret = error("--thread: cannot open '%s': %s", path, strerror(errno));
	else if (w.maildir && !w.messages)
		ret = error("--thread: '%s' is a directory but no Maildir with mail in cur/ or new/",
			    path);
	else if (!w.maildir)
		ret = parse(&src->mails, l.mbox.data, l.mbox.len, path);
	buf_release(&l.mbox);
	if (ret < 0) {
		thread_source_release(src);
		return -1;
	}
	src->n = src->mails.n;
	src->patches = xcalloc(src->n + 1, sizeof(*src->patches));
	src->msgs = xcalloc(src->n + 1, sizeof(*src->msgs));
	for (size_t i = 0; i < src->n; i++) {
		struct mail *m = &src->mails.v[i];
		char *text = m->text;
		m->text = NULL;
		patch_parse(&src->patches[i], m->subject, text, m->text_len, m->patch_offset);
		src->msgs[i] = (struct thread_msg){ m, &src->patches[i] };
	}
	return 0;
}

void thread_source_release(struct thread_source *src)
{
	for (size_t i = 0; src->patches && i < src->n; i++)
		patch_release(&src->patches[i]);
	free(src->patches);
	free(src->msgs);
	mail_list_release(&src->mails);
	*src = (struct thread_source){ 0 };
}
