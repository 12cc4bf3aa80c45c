/*
 * maildir.c: the draft goes to tmp/ and is renamed into new/ only when
 * complete, so a mail client never sees half a draft.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/msg.h"
#include "base/paths.h"
#include "draft/maildir.h"

/* The Maildir itself (mkdir -p), then its three subdirectories. */
static int make_maildir(const char *dir)
{
	static const char *const subdirs[] = { "", "/tmp", "/new", "/cur" };
	struct buf path = BUF_INIT;
	int ret = 0;
	for (size_t i = 0; !ret && i < 4; i++) {
		buf_reset(&path);
		buf_addf(&path, "%s%s", dir, subdirs[i]);
		if (make_dirs(path.data) < 0)
			ret = error("cannot create '%s': %s", path.data, strerror(errno));
	}
	buf_release(&path);
	return ret;
}

int maildir_open(struct maildir_file *m, const char *dir_arg, const char *name)
{
	memset(m, 0, sizeof(*m));
	char *dir = expand_home(dir_arg);
	if (make_maildir(dir) < 0) {
		free(dir);
		return -1;
	}
	char host[256] = "localhost";
	gethostname(host, sizeof(host) - 1);
	for (char *h = host; *h; h++)
		if (*h == '/' || *h == ':')
			*h = '_';
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	struct buf tmp = BUF_INIT, new = BUF_INIT;
	/* time.M<usec>P<pid>Q<n>.host: unique, as Maildir wants, for every draft of a series. */
	static unsigned delivered;
	buf_addf(&tmp, "%s/tmp/%lld.M%ldP%ldQ%u.%s", dir, (long long)ts.tv_sec,
		 ts.tv_nsec / 1000, (long)getpid(), ++delivered, host);
	buf_addf(&new, "%s/new/%s", dir, name ? name : strrchr(tmp.data, '/') + 1);
	free(dir);
	int fd = open(tmp.data, O_WRONLY | O_CREAT | O_EXCL, 0600);
	if (fd < 0 || !(m->f = fdopen(fd, "w"))) {
		error("cannot create '%s': %s", tmp.data, strerror(errno));
		if (fd >= 0)
			close(fd);
		buf_release(&tmp);
		buf_release(&new);
		return -1;
	}
	m->tmp_path = buf_detach(&tmp, NULL);
	m->new_path = buf_detach(&new, NULL);
	return 0;
}

static void maildir_release(struct maildir_file *m)
{
	free(m->tmp_path);
	free(m->new_path);
	memset(m, 0, sizeof(*m));
}

int maildir_commit(struct maildir_file *m)
{
	int ret = 0;
	if (fflush(m->f) || fsync(fileno(m->f)) < 0)
		ret = error("cannot write '%s': %s", m->tmp_path, strerror(errno));
	if (fclose(m->f) && !ret)
		ret = error("cannot write '%s': %s", m->tmp_path, strerror(errno));
	if (!ret && rename(m->tmp_path, m->new_path) < 0)
		ret = error("cannot move the draft into '%s': %s", m->new_path, strerror(errno));
	if (ret)
		unlink(m->tmp_path);
	maildir_release(m);
	return ret;
}

void maildir_abort(struct maildir_file *m)
{
	fclose(m->f);
	unlink(m->tmp_path);
	maildir_release(m);
}

/* Moves every message of dir/SUB (new or cur) into old/SUB. Returns the count, or -1. */
static int archive_sub(const char *dir, const char *old, const char *sub)
{
	struct buf from = BUF_INIT, to = BUF_INIT;
	int moved = 0;
	buf_addf(&from, "%s/%s", dir, sub);
	DIR *d = opendir(from.data);
	if (!d) {
		buf_release(&from);
		return errno == ENOENT ? 0 : error("cannot read '%s': %s", dir, strerror(errno));
	}
	struct dirent *e;
	while (moved >= 0 && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		buf_reset(&from);
		buf_reset(&to);
		buf_addf(&from, "%s/%s/%s", dir, sub, e->d_name);
		buf_addf(&to, "%s/%s/%s", old, sub, e->d_name);
		if (rename(from.data, to.data) < 0)
			moved = error("cannot move '%s' into '%s': %s", from.data, old,
				      strerror(errno));
		else
			moved++;
	}
	closedir(d);
	buf_release(&from);
	buf_release(&to);
	return moved;
}

int maildir_archive(const char *dir_arg)
{
	char *dir = expand_home(dir_arg);
	size_t len = strlen(dir);
	while (len > 1 && dir[len - 1] == '/')
		dir[--len] = '\0';
	struct buf old = BUF_INIT;
	buf_addf(&old, "%s-old", dir);
	int ret = 0;
	struct stat st;
	/* Nothing to keep, nothing created. */
	if (stat(dir, &st) < 0)
		goto out;
	if (make_maildir(old.data) < 0 || archive_sub(dir, old.data, "new") < 0 ||
	    archive_sub(dir, old.data, "cur") < 0)
		ret = -1;
out:
	free(dir);
	buf_release(&old);
	return ret;
}
