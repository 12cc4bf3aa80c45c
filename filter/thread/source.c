/*
 * source.c: the thread named by --thread, a Maildir (its cur/ and new/
 * files, in name order) or an mbox file, read into parsed messages.
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
#include "base/strvec.h"
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
	free(more->v);
	*more = (struct mail_list){ 0 };
}

static int read_file(struct mail_list *all, const char *path)
{
	struct mail_list more;
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return error("--thread: cannot open '%s': %s", path, strerror(errno));
	int ret = mail_read_all(fd, &more);
	close(fd);
	if (ret < 0)
		return error("--thread: cannot read '%s'", path);
	take_mails(all, &more);
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The files of a Maildir's cur/ and new/, in name order, bounded. */
static void maildir_files(const char *dir, struct strvec *files)
{
	static const char *const subs[] = { "cur", "new" };
	for (size_t k = 0; k < 2; k++) {
		struct buf sub = BUF_INIT;
		buf_addf(&sub, "%s/%s", dir, subs[k]);
		DIR *d = opendir(sub.data);
		struct dirent *e;
		while (d && (e = readdir(d)) && files->n < THREAD_MAX_MESSAGES) {
			if (e->d_name[0] == '.')
				continue;
			struct buf path = BUF_INIT;
			buf_addf(&path, "%s/%s", sub.data, e->d_name);
			strvec_push_take(files, buf_detach(&path, NULL));
		}
		if (d)
			closedir(d);
		buf_release(&sub);
	}
	if (files->n)
		qsort(files->v, files->n, sizeof(*files->v), by_name);
}

static int read_maildir(struct mail_list *all, const char *dir)
{
	struct strvec files = STRVEC_INIT;
	maildir_files(dir, &files);
	if (!files.n)
		error("--thread: '%s' is a directory but no Maildir with mail in cur/ or new/", dir);
	/* A message that cannot be read is left out; the others still count. */
	for (size_t i = 0; i < files.n && all->n < THREAD_MAX_MESSAGES; i++)
		(void)read_file(all, files.v[i]);
	int ret = files.n ? 0 : -1;
	strvec_clear(&files);
	return ret;
}

int thread_source_load(struct thread_source *src, const char *path)
{
	struct stat st;
	*src = (struct thread_source){ 0 };
	if (stat(path, &st) < 0)
		return error("--thread: cannot open '%s': %s", path, strerror(errno));
	int ret = S_ISDIR(st.st_mode) ? read_maildir(&src->mails, path)
		: read_file(&src->mails, path);
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
