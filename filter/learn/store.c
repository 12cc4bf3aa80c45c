/* store.c: the dismissed list and the learned log, appended to a line at a time. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/msg.h"
#include "base/paths.h"
#include "base/slurp.h"
#include "base/text.h"
#include "learn/record.h"
#include "learn/store.h"
#include "review/suppress.h"

int store_config(struct config *c, int *argc, char **argv)
{
	const char *path = NULL;
	int out = 1;
	for (int i = 1; i < *argc; i++) {
		if ((!strcmp(argv[i], "-c") || !strcmp(argv[i], "--config")) && i + 1 < *argc)
			path = argv[++i];
		else
			argv[out++] = argv[i];
	}
	*argc = out;
	argv[out] = NULL;
	config_init(c);
	return config_load(c, path);
}

/* The key of a log line: its verdict and its fingerprint (or hash), tab between. */
static void log_key(struct buf *b, const char *verdict, const char *key)
{
	buf_reset(b);
	buf_addf(b, "%s\t%s", verdict, key);
}

void store_open(struct store *s, const struct config *c)
{
	*s = (struct store){ c, KEYS_INIT, KEYS_INIT };
	struct suppress_list l;
	suppress_load(&l, c);
	for (size_t i = 0; i < l.n; i++)
		if (l.v[i].fp)
			keys_add(&s->dismissed, l.v[i].fp, strlen(l.v[i].fp), 1);
	suppress_release(&l);
	/* The log: each line counted by what starts it, "VERDICT<TAB>KEY". */
	char *path = learn_path("learned");
	struct buf log = BUF_INIT;
	if (path && !slurp_file(path, STORE_LOG_MAX, &log))
		for (const char *l = log.data; *l;) {
			size_t len = strcspn(l, "\n");
			const char *tab = memchr(l, '\t', len);
			const char *tab2 = tab ? memchr(tab + 1, '\t', len - (size_t)(tab + 1 - l)) : NULL;
			if (tab2)
				keys_add(&s->log, l, (size_t)(tab2 - l), 1);
			l += len + (l[len] == '\n');
		}
	buf_release(&log);
	free(path);
}

void store_close(struct store *s)
{
	keys_release(&s->dismissed);
	keys_release(&s->log);
}

bool store_is_dismissed(const struct store *s, const char *fp)
{
	return keys_get(&s->dismissed, fp, strlen(fp)) > 0;
}

static void store_today(char out[11])
{
	time_t now = time(NULL);
	struct tm tm;
	if (!gmtime_r(&now, &tm) || !strftime(out, 11, "%Y-%m-%d", &tm))
		strcpy(out, "?");
}

/* Appends line to the file at path, creating it and its directory. */
static int append(char *path, const char *line, size_t len)
{
	char *slash = strrchr(path, '/');
	if (slash) {
		*slash = '\0';
		int ret = make_dirs(path);
		*slash = '/';
		if (ret < 0)
			return -1;
	}
	int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0)
		return -1;
	ssize_t n = write(fd, line, len);
	int err = errno;
	if (close(fd) < 0 && n == (ssize_t)len)
		return -1;
	errno = err;
	return n == (ssize_t)len ? 0 : -1;
}

int store_dismiss(struct store *s, const char *source, const char *fp,
		  const char *list, const char *why, const char *file, const char *text)
{
	const struct config *c = s->config;
	char today[11];
	store_today(today);
	struct buf comment = BUF_INIT, line = BUF_INIT;
	buf_addf(&comment, "%s (%s)", why, today);
	if (file && strcmp(file, "-"))
		buf_addf(&comment, ": %s", file);
	if (text)
		buf_addf(&comment, ": %s", text);
	const struct suppress_entry e = {
		.rule = (char *)source, .fp = (char *)fp, .list = (char *)list,
	};
	suppress_format(&line, &e, comment.data);
	buf_release(&comment);
	char *path = suppress_path(c);
	int ret = 0;
	if (!path)
		ret = error("HOME is not set; nowhere to keep dismissed findings");
	else if (append(path, line.data, line.len) < 0)
		ret = error("cannot write '%s': %s", path, strerror(errno));
	else
		keys_add(&s->dismissed, fp, strlen(fp), 1);
	free(path);
	buf_release(&line);
	return ret;
}

int store_log(struct store *s, const char *verdict, const char *fp, const char *source)
{
	char today[11];
	store_today(today);
	struct buf line = BUF_INIT;
	buf_addf(&line, "%s\t%s\t", verdict, fp);
	text_clean(&line, source, strlen(source), TEXT_ONE_LINE);
	buf_addf(&line, "\t%s\n", today);
	char *path = learn_path("learned");
	int ret = 0;
	if (!path || append(path, line.data, line.len) < 0) {
		ret = error("cannot write the learned log '%s': %s", path ? path : "(no HOME)",
			    strerror(errno));
	} else {
		log_key(&line, verdict, fp);
		keys_add(&s->log, line.data, line.len, 1);
	}
	free(path);
	buf_release(&line);
	return ret;
}

/* Lines of the learned log that start "VERDICT<TAB>KEY<TAB>". */
static long count_lines(const struct store *s, const char *verdict, const char *key)
{
	struct buf start = BUF_INIT;
	log_key(&start, verdict, key);
	long n = keys_get(&s->log, start.data, start.len);
	buf_release(&start);
	return n;
}

long store_deletions(const struct store *s, const char *fp)
{
	return count_lines(s, "deleted", fp);
}

int store_log_skipped(struct store *s, const char *msgid)
{
	char key[RECORD_KEY_LEN + 1] = "-";
	if (msgid) {
		record_key(msgid, key);
		if (count_lines(s, "skipped", key))
			return 0;
	}
	return store_log(s, "skipped", key, "-") < 0 ? -1 : 1;
}
