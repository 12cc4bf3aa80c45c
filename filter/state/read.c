/* read.c: reading the messages of a folder of the consume state. */
#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/msg.h"
#include "state/read.h"
#include "base/hash.h"

/* A message's name: 64 hex digits and ".eml". */
static bool is_message_name(const char *name)
{
	size_t len = strlen(name);
	return len == HASH_SHA256_HEX - 1 + 4 && !strcmp(name + len - 4, ".eml") &&
		strspn(name, "0123456789abcdef") == HASH_SHA256_HEX - 1;
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int state_list_messages(const char *dir, size_t max, struct strvec *names)
{
	DIR *d = opendir(dir);
	if (!d)
		return -1;
	struct dirent *e;
	/* The directory is read to its end, but at most max names are kept. */
	while ((e = readdir(d)))
		if (is_message_name(e->d_name) && names->n < max)
			strvec_push(names, e->d_name);
	closedir(d);
	if (names->n)
		qsort(names->v, names->n, sizeof(*names->v), compare_names);
	return 0;
}

/* The messages of the file at path, moved to the end of *list. */
static void read_one(const char *path, struct mail_list *list)
{
	struct mail_list one = { 0 };
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	if (mail_read_all(fd, &one) == 0) {
		list->v = xrealloc(list->v, (list->n + one.n) * sizeof(*list->v));
		memcpy(list->v + list->n, one.v, one.n * sizeof(*one.v));
		list->n += one.n;
		free(one.v);
		one.v = NULL;
		one.n = 0;
	}
	mail_list_release(&one);
	close(fd);
}

/* The messages of the folder dir, at most max, in name order, to the end of *list. */
static int read_folder(const char *dir, size_t max, struct mail_list *list)
{
	struct strvec names = STRVEC_INIT;
	struct buf path = BUF_INIT;
	if (state_list_messages(dir, max, &names) < 0)
		return -1;
	for (size_t i = 0; i < names.n; i++) {
		buf_reset(&path);
		buf_addf(&path, "%s/%s", dir, names.v[i]);
		read_one(path.data, list);
	}
	buf_release(&path);
	strvec_clear(&names);
	return 0;
}

int state_read_series(const char *dir, struct mail_list *list)
{
	struct buf thread = BUF_INIT;
	if (read_folder(dir, STATE_MAX_SERIES_MSGS, list) < 0)
		return -1;
	if (list->n) {
		buf_addf(&thread, "%s/thread", dir);
		read_folder(thread.data, STATE_MAX_THREAD_MSGS, list);
		buf_release(&thread);
	}
	return list->n ? 0 : -1;
}
