/* read.c: the files a run reads from the tree, through a cache of what was read. */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/msg.h"
#include "repo/read.h"
#include "repo/repo.h"
#include "repo/tracked.h"

/* One file as read: "COMMIT:PATH", or ":PATH" for the work tree. */
struct cached {
	char *key;
	char *data;		/* NULL: missing, untracked, too large or unsafe */
	size_t len;
	struct cached *next;	/* in its bucket */
	struct cached *newer;	/* in the order they were read */
};

struct read_cache {
	struct cached **buckets;
	size_t nbuckets, n, bytes;
	struct cached *oldest, *newest;
};

struct read_cache *read_cache_new(void)
{
	return xcalloc(1, sizeof(struct read_cache));
}

void read_cache_free(struct read_cache *c)
{
	if (!c)
		return;
	for (struct cached *e = c->oldest, *next; e; e = next) {
		next = e->newer;
		free(e->key);
		free(e->data);
		free(e);
	}
	free(c->buckets);
	free(c);
}

static uint64_t hash(const char *s)
{
	uint64_t h = 14695981039346656037ull;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

static char *make_key(const char *commit, const char *path)
{
	struct buf b = BUF_INIT;
	buf_addf(&b, "%s:%s", commit ? commit : "", path);
	return buf_detach(&b, NULL);
}

static struct cached *lookup(const struct read_cache *c, const char *key)
{
	if (!c->nbuckets)
		return NULL;
	struct cached *e = c->buckets[hash(key) % c->nbuckets];
	while (e && strcmp(e->key, key))
		e = e->next;
	return e;
}

static void grow(struct read_cache *c)
{
	size_t nb = c->nbuckets ? 2 * c->nbuckets : 64;
	struct cached **b = xcalloc(nb, sizeof(*b));
	for (struct cached *e = c->oldest; e; e = e->newer) {
		size_t k = hash(e->key) % nb;
		e->next = b[k];
		b[k] = e;
	}
	free(c->buckets);
	c->buckets = b;
	c->nbuckets = nb;
}

/* Takes key and data. */
static struct cached *insert(struct read_cache *c, char *key, char *data, size_t len)
{
	if (c->n >= c->nbuckets)
		grow(c);
	struct cached *e = xcalloc(1, sizeof(*e));
	*e = (struct cached){ .key = key, .data = data, .len = data ? len : 0 };
	size_t k = hash(key) % c->nbuckets;
	e->next = c->buckets[k];
	c->buckets[k] = e;
	if (c->newest)
		c->newest->newer = e;
	else
		c->oldest = e;
	c->newest = e;
	c->n++;
	c->bytes += e->len;
	return e;
}

/* Drops the oldest files until the cache is within READ_CACHE_BYTES. */
static void trim(struct read_cache *c)
{
	while (c->bytes > READ_CACHE_BYTES && c->oldest) {
		struct cached *e = c->oldest, **p = &c->buckets[hash(e->key) % c->nbuckets];
		while (*p != e)
			p = &(*p)->next;
		*p = e->next;
		c->oldest = e->newer;
		if (!c->oldest)
			c->newest = NULL;
		c->n--;
		c->bytes -= e->len;
		free(e->key);
		free(e->data);
		free(e);
	}
}

/* A file of the work tree into the cache; NULL when it is over what is left of the budget. */
static struct cached *read_work(const struct tree *t, const char *key, const char *path,
				size_t budget)
{
	struct buf text = BUF_INIT;
	size_t max = budget < REPO_MAX_FILE ? budget : REPO_MAX_FILE;
	if (tracked_read(t, path, max, &text) < 0) {
		buf_release(&text);
		if (errno == EFBIG && max < REPO_MAX_FILE)
			return NULL;
		return insert(t->reads, xstrdup(key), NULL, 0);
	}
	size_t len;
	char *data = buf_detach(&text, &len);
	return insert(t->reads, xstrdup(key), data, len);
}

static int by_path(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* "git cat-file --batch[-check]" of "COMMIT:PATH" lines; an unsafe path asks for "/". */
static int cat_file(const struct tree *t, const char *mode, const char *commit,
		    const char **paths, size_t n, size_t max_out, struct buf *out, struct buf *why)
{
	struct buf req = BUF_INIT;
	for (size_t i = 0; i < n; i++)
		buf_addf(&req, "%s:%s\n", commit, repo_path_ok(paths[i]) ? paths[i] : "/");
	char *in = repo_scratch_write(t, "cat-file", req.data, req.len);
	const char *const args[] = { "cat-file", mode, NULL };
	int ret = -1;
	if (!in)
		buf_addf(why, "cannot write into %s: %s", t->scratch, strerror(errno));
	else if ((ret = repo_git(t, args, in, NULL, max_out, out, NULL, why)) > 0)
		buf_addf(why, "git cat-file failed (status %d)", ret);
	free(in);
	buf_release(&req);
	return ret ? -1 : 0;
}

/* One "<id> <type> <size>" line at *p: a blob's size, or -1 (missing, other types). */
static long long batch_line(const char **p, const char *end)
{
	const char *nl = memchr(*p, '\n', (size_t)(end - *p));
	char type[16];
	unsigned long long size;
	char *line = xstrndup(*p, nl ? (size_t)(nl - *p) : (size_t)(end - *p));
	int got = sscanf(line, "%*s %15s %llu", type, &size);
	free(line);
	*p = nl ? nl + 1 : end;
	return got == 2 && !strcmp(type, "blob") && size <= LLONG_MAX ? (long long)size : -1;
}

/*
 * Reads the files at commit that the cache lacks, one git run to learn
 * their sizes and one for the blobs, within budget bytes: what does not
 * fit is left out of the cache, what is missing or too large goes in as
 * NULL.
 */
static int fetch_at_commit(const struct tree *t, const char *commit, const char *const *paths,
			   size_t n, size_t budget, struct buf *why)
{
	const char **miss = xcalloc(n + 1, sizeof(*miss));
	size_t m = 0, k = 0;
	for (size_t i = 0; i < n; i++) {
		char *key = make_key(commit, paths[i]);
		if (!lookup(t->reads, key))
			miss[m++] = paths[i];
		free(key);
	}
	qsort(miss, m, sizeof(*miss), by_path);
	for (size_t i = 0; i < m; i++)
		if (!k || strcmp(miss[k - 1], miss[i]))
			miss[k++] = miss[i];
	struct buf sizes = BUF_INIT, blobs = BUF_INIT;
	const char **want = xcalloc(k + 1, sizeof(*want));
	size_t nwant = 0, total = 0, echo = 4096;
	for (size_t i = 0; i < k; i++)
		echo += strlen(miss[i]) + 128;	/* "<id> blob <size>", or the request and "missing" */
	int ret = k ? cat_file(t, "--batch-check", commit, miss, k, echo, &sizes, why) : 0;
	const char *p = sizes.data, *end = sizes.data + sizes.len;
	for (size_t i = 0; !ret && i < k; i++) {
		long long size = p < end ? batch_line(&p, end) : -1;
		if (size < 0 || (size_t)size > REPO_MAX_FILE)
			insert(t->reads, make_key(commit, miss[i]), NULL, 0);
		else if (total + (size_t)size <= budget)
			want[nwant++] = miss[i], total += (size_t)size;
	}
	if (!ret && nwant)
		ret = cat_file(t, "--batch", commit, want, nwant, total + echo, &blobs, why);
	p = blobs.data, end = blobs.data + blobs.len;
	for (size_t i = 0; !ret && i < nwant && p < end; i++) {
		long long size = batch_line(&p, end);
		if (size < 0 || (size_t)size > (size_t)(end - p))
			break;
		insert(t->reads, make_key(commit, want[i]), xstrndup(p, (size_t)size), (size_t)size);
		p += size + 1;
	}
	buf_release(&sizes);
	buf_release(&blobs);
	free(want);
	free(miss);
	return ret;
}

int repo_read(const struct tree *t, const char *commit, const char *const *paths, size_t n,
	      size_t *budget, struct repo_file *files, struct buf *why)
{
	int ret = commit ? fetch_at_commit(t, commit, paths, n, *budget, why) : 0;
	for (size_t i = 0; i < n; i++) {
		files[i] = (struct repo_file){ .path = xstrdup(paths[i]) };
		char *key = make_key(commit, paths[i]);
		struct cached *e = lookup(t->reads, key);
		if (!e && !commit)
			e = read_work(t, key, paths[i], *budget);
		free(key);
		if (!e)
			files[i].over_budget = !ret;
		else if (e->data && e->len > *budget)
			files[i].over_budget = true;
		else if (e->data)
			files[i].data = xstrndup(e->data, e->len), files[i].len = e->len,
				*budget -= e->len;
	}
	trim(t->reads);
	return ret;
}

void repo_file_release(struct repo_file *f)
{
	free(f->path);
	free(f->data);
	*f = (struct repo_file){ 0 };
}
