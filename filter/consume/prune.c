/* prune.c: forgetting old series and seen entries, by age, then by count. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/hash.h"
#include "base/slurp.h"
#include "consume/log.h"
#include "consume/prune.h"
#include "state/read.h"

/* What a folder of the state holds: 64 hex digits, as the worker names series. */
static bool is_key(const char *name)
{
	return strlen(name) == HASH_SHA256_HEX - 1 &&
		strspn(name, "0123456789abcdef") == HASH_SHA256_HEX - 1;
}

/* Removes the folder at path and what is in it (files only; a series holds no more). */
static void remove_folder(const char *path)
{
	struct buf file = BUF_INIT;
	DIR *d = opendir(path);
	struct dirent *e;
	size_t n = 0;
	/* A series holds its messages and a few files: the cap is for a folder no series made. */
	while (d && n++ < 4 * STATE_MAX_SERIES_MSGS && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		buf_reset(&file);
		buf_addf(&file, "%s/%s", path, e->d_name);
		unlink(file.data);
	}
	if (d)
		closedir(d);
	rmdir(path);
	buf_release(&file);
}

/*
 * The series not pending and unchanged since before cutoff go: renamed to
 * ".KEY" (out of the way of the key press and of placing), then removed,
 * with what a killed prune left. Returns the series that stay.
 */
static size_t prune_series(const char *state, time_t cutoff, struct prune_counts *n)
{
	struct buf dir = BUF_INIT, path = BUF_INIT, gone = BUF_INIT;
	struct stat st;
	size_t left = 0;
	buf_addf(&dir, "%s/series", state);
	DIR *d = opendir(dir.data);
	struct dirent *e;
	while (d && (e = readdir(d))) {
		bool key = is_key(e->d_name), dot = e->d_name[0] == '.' && is_key(e->d_name + 1);
		if (!key && !dot)
			continue;
		buf_reset(&path);
		buf_reset(&gone);
		buf_addf(&path, "%s/%s", dir.data, e->d_name);
		buf_addf(&gone, "%s/.%s", dir.data, e->d_name + dot);
		if (!dot) {
			struct buf pending = BUF_INIT;
			buf_addf(&pending, "%s/pending/%s", state, e->d_name);
			bool keep = !access(pending.data, F_OK) || stat(path.data, &st) < 0 ||
				st.st_mtime >= cutoff;
			buf_release(&pending);
			if (keep || rename(path.data, gone.data) < 0) {
				left++;
				continue;
			}
			n->series++;
		}
		remove_folder(gone.data);
	}
	if (d)
		closedir(d);
	buf_release(&dir);
	buf_release(&path);
	buf_release(&gone);
	return left;
}

/* The seen entries not touched since before cutoff go. Returns the entries that stay. */
static size_t prune_seen(const char *state, time_t cutoff, struct prune_counts *n)
{
	struct buf dir = BUF_INIT, path = BUF_INIT;
	struct stat st;
	size_t left = 0;
	buf_addf(&dir, "%s/seen", state);
	DIR *d = opendir(dir.data);
	struct dirent *e;
	while (d && (e = readdir(d))) {
		/* Entries, and the temporary files of writes killed midway; not "." and "..". */
		if (!is_key(e->d_name) && strncmp(e->d_name, ".tmp-", 5))
			continue;
		buf_reset(&path);
		buf_addf(&path, "%s/%s", dir.data, e->d_name);
		if (stat(path.data, &st) == 0 && st.st_mtime < cutoff && unlink(path.data) == 0)
			n->seen++;
		else
			left++;
	}
	if (d)
		closedir(d);
	buf_release(&dir);
	buf_release(&path);
	return left;
}

/* Is it time? Then the time of this prune is written down. */
static bool due(const char *state, time_t now)
{
	struct buf path = BUF_INIT, text = BUF_INIT;
	struct stat st;
	buf_addf(&path, "%s/pruned", state);
	bool ret = stat(path.data, &st) < 0 || now - st.st_mtime >= CONSUME_PRUNE_EVERY ||
		st.st_mtime > now;
	if (ret) {
		buf_addf(&text, "%lld\n", (long long)now);
		if (write_file_atomic(path.data, text.data, text.len) < 0)
			consume_log("cannot write '%s': %s", path.data, strerror(errno));
	}
	buf_release(&path);
	buf_release(&text);
	return ret;
}

void prune_state(const char *state, long keep_days, struct prune_counts *n)
{
	time_t now = time(NULL);
	if (keep_days <= 0 || !due(state, now))
		return;
	/* Over the counts: the oldest go, the age halved each pass (a few dozen at most). */
	time_t age = keep_days > 36500 ? (time_t)36500 * 86400 : (time_t)keep_days * 86400;
	while (prune_series(state, now - age, n) > CONSUME_MAX_SERIES && age > 1)
		age /= 2;
	age = keep_days > 36500 ? (time_t)36500 * 86400 : (time_t)keep_days * 86400;
	while (prune_seen(state, now - age, n) > CONSUME_MAX_SEEN && age > 1)
		age /= 2;
	if (n->series || n->seen)
		consume_log("pruned %zu series and %zu seen entries older than consume_keep (%ld days)",
			    n->series, n->seen, keep_days);
}
