/* prune.c: forgetting old series, threads and seen entries, by age, then by count. */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/hash.h"
#include "base/slurp.h"
#include "state/prune.h"
#include "state/read.h"

/* What a folder or entry of the state is named: 64 hex digits. */
static bool is_key(const char *name)
{
	return strlen(name) == HASH_SHA256_HEX - 1 &&
		strspn(name, "0123456789abcdef") == HASH_SHA256_HEX - 1;
}

/*
 * Removes the folder at path and what is in it: files, and with depth a
 * folder of files (a series' thread/). The cap is for a folder no series
 * made: a series holds its messages, the replies in view and a few files.
 */
static void remove_folder(const char *path, int depth)
{
	struct buf file = BUF_INIT;
	DIR *d = opendir(path);
	struct dirent *e;
	size_t n = 0;
	while (d && n++ < 8 * STATE_MAX_SERIES_MSGS && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		buf_reset(&file);
		buf_addf(&file, "%s/%s", path, e->d_name);
		if (unlink(file.data) < 0 && (errno == EISDIR || errno == EPERM) && depth > 0)
			remove_folder(file.data, depth - 1);
	}
	if (d)
		closedir(d);
	rmdir(path);
	buf_release(&file);
}

/*
 * The folders of STATE/sub unchanged since before cutoff go (with
 * pending, not those STATE/pending names): renamed to ".KEY", then
 * removed, with what a killed prune left. Returns the folders that stay.
 */
static size_t prune_folders(const char *state, const char *sub, bool pending, time_t cutoff,
			    size_t *removed)
{
	struct buf dir = BUF_INIT, path = BUF_INIT, gone = BUF_INIT, mark = BUF_INIT;
	struct stat st;
	size_t left = 0;
	buf_addf(&dir, "%s/%s", state, sub);
	DIR *d = opendir(dir.data);
	struct dirent *e;
	while (d && (e = readdir(d))) {
		bool dot = e->d_name[0] == '.' && is_key(e->d_name + 1);
		if (!dot && !is_key(e->d_name))
			continue;
		buf_reset(&path);
		buf_reset(&gone);
		buf_addf(&path, "%s/%s", dir.data, e->d_name);
		buf_addf(&gone, "%s/.%s", dir.data, e->d_name + dot);
		if (!dot) {
			buf_reset(&mark);
			buf_addf(&mark, "%s/pending/%s", state, e->d_name);
			bool keep = (pending && !access(mark.data, F_OK)) || stat(path.data, &st) < 0 ||
				st.st_mtime >= cutoff;
			if (keep || rename(path.data, gone.data) < 0) {
				left++;
				continue;
			}
			(*removed)++;
		}
		remove_folder(gone.data, 1);
	}
	if (d)
		closedir(d);
	buf_release(&dir);
	buf_release(&path);
	buf_release(&gone);
	buf_release(&mark);
	return left;
}

/* The seen entries not touched since before cutoff go. Returns the entries that stay. */
static size_t prune_seen(const char *state, time_t cutoff, size_t *removed)
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
			(*removed)++;
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
	bool ret = stat(path.data, &st) < 0 || now - st.st_mtime >= STATE_PRUNE_EVERY ||
		st.st_mtime > now;
	if (ret) {
		buf_addf(&text, "%lld\n", (long long)now);
		write_file_atomic(path.data, text.data, text.len);
	}
	buf_release(&path);
	buf_release(&text);
	return ret;
}

int prune_state(const char *state, long keep_days, struct prune_counts *n)
{
	time_t now = time(NULL);
	if (keep_days <= 0 || !due(state, now))
		return 0;
	/* A century at most, so the seconds fit; over the counts, the age halved each pass. */
	time_t keep = (time_t)(keep_days > 36500 ? 36500 : keep_days) * 86400, age;
	for (age = keep; prune_folders(state, "series", true, now - age, &n->series) >
	     STATE_MAX_SERIES && age > 1;)
		age /= 2;
	for (age = keep; prune_folders(state, "thread", false, now - age, &n->threads) >
	     STATE_MAX_SERIES && age > 1;)
		age /= 2;
	for (age = keep; prune_seen(state, now - age, &n->seen) > STATE_MAX_SEEN && age > 1;)
		age /= 2;
	return 1;
}
