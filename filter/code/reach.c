/* reach.c: the headers a changed file reaches through #include, breadth first. */
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/msg.h"
#include "base/str.h"
#include "code/reach.h"

/* Changed files whose headers are kept; a review past them ranks by directory alone. */
#define REACH_MAX_FROM 32
/* An include name longer than this is no header of the tree. */
#define NAME_MAX_LEN 255

struct reached {
	const char *path;
	unsigned depth;
};

struct reach {
	char *from;
	char **paths;		/* nearest first */
	unsigned *depth;
	bool *local;		/* named with "" (the project's own, expanded first) */
	size_t n;
	struct reached *sorted;	/* the same in strcmp order, for look-ups */
	size_t scans;
};

struct reach_cache {
	struct reach v[REACH_MAX_FROM];
	size_t n;
};

/* dir (ending in '/', or empty) + name with "." and ".." resolved into out; false if it climbs out. */
static bool join(const char *dir, size_t dlen, const char *name, struct buf *out)
{
	buf_reset(out);
	buf_add(out, dir, dlen);
	for (const char *s = name; *s;) {
		size_t n = strcspn(s, "/");
		if (n == 2 && !strncmp(s, "..", 2)) {
			if (!out->len)
				return false;
			out->len--;	/* its '/' */
			while (out->len && out->data[out->len - 1] != '/')
				out->len--;
			out->data[out->len] = '\0';
		} else if (n && !(n == 1 && *s == '.')) {
			buf_add(out, s, n);
			if (s[n])
				buf_addch(out, '/');
		}
		s += n + (s[n] == '/');
	}
	return out->len && out->data[out->len - 1] != '/';
}

static bool exists(struct tree_review *tr, struct symbol_index *ix, const char *path)
{
	if (ix && symbol_index_has_file(ix, path))
		return true;
	for (size_t i = 0; i < tr->files->n; i++)
		if (tr->files->v[i]->patch_file >= 0 && !strcmp(tr->files->v[i]->path, path))
			return tr->files->v[i]->post || tr->files->v[i]->base;
	return false;
}

static size_t shared_dirs(const char *a, const char *b)
{
	size_t n = 0;
	for (size_t i = 0; a[i] && a[i] == b[i]; i++)
		n += a[i] == '/';
	return n;
}

/* Where the compiler would most likely find name included from path (into out). */
static bool resolve(struct tree_review *tr, struct symbol_index *ix, struct reach *r,
		    const char *path, const char *name, bool quoted, struct buf *out)
{
	const char *slash = strrchr(path, '/');
	size_t dir = slash ? (size_t)(slash - path) + 1 : 0;
	if (*name == '/')
		return false;
	if (quoted && join(path, dir, name, out) && exists(tr, ix, out->data))
		return true;
	struct buf sub = BUF_INIT;
	buf_addf(&sub, "include/%s", name);
	bool found = false;
	for (int pass = 0; pass < 2 && !found; pass++)
		for (size_t a = dir;; a--) {
			if (a && path[a - 1] != '/')
				continue;
			if (join(path, a, pass ? name : sub.data, out) && exists(tr, ix, out->data)) {
				found = true;
				break;
			}
			if (!a)
				break;
		}
	buf_release(&sub);
	if (found || !ix || !strchr(name, '/') || r->scans >= REACH_MAX_SCANS)
		return found;
	r->scans++;
	const char *hits[8];
	size_t n = symbol_index_files_ending(ix, name, hits, 8), best = 0;
	for (size_t i = 1; i < n; i++)
		if (shared_dirs(hits[i], path) > shared_dirs(hits[best], path))
			best = i;
	if (n) {
		buf_reset(out);
		buf_addstr(out, hits[best]);
	}
	return n > 0;
}

static bool has(const struct reach *r, const char *path)
{
	for (size_t i = 0; i < r->n; i++)
		if (!strcmp(r->paths[i], path))
			return true;
	return false;
}

/* Adds the headers text includes, at depth, as resolved from path. Linear in text. */
static void expand(struct tree_review *tr, struct symbol_index *ix, struct reach *r,
		   const char *path, const char *text, size_t len, unsigned depth)
{
	struct buf name = BUF_INIT, found = BUF_INIT;
	for (const char *p = text, *end = text + len; p && p < end && r->n < REACH_MAX_FILES;) {
		const char *line = p;
		p = memchr(p, '\n', (size_t)(end - p));
		p = p ? p + 1 : NULL;
		const char *stop = p ? p - 1 : end;
		while (line < stop && (*line == ' ' || *line == '\t'))
			line++;
		if (line >= stop || *line++ != '#')
			continue;
		while (line < stop && (*line == ' ' || *line == '\t'))
			line++;
		if ((size_t)(stop - line) < 10 || strncmp(line, "include", 7))
			continue;
		line += 7;
		while (line < stop && (*line == ' ' || *line == '\t'))
			line++;
		char open = *line++, close = open == '"' ? '"' : '>';
		const char *q = memchr(line, close, (size_t)(stop - line));
		if ((open != '"' && open != '<') || !q || q == line || q - line > NAME_MAX_LEN ||
		    memchr(line, '\0', (size_t)(q - line)))
			continue;
		buf_reset(&name);
		buf_add(&name, line, (size_t)(q - line));
		if (resolve(tr, ix, r, path, name.data, open == '"', &found) &&
		    strcmp(found.data, r->from) && !has(r, found.data)) {
			r->paths = xrealloc(r->paths, (r->n + 1) * sizeof(*r->paths));
			r->depth = xrealloc(r->depth, (r->n + 1) * sizeof(*r->depth));
			r->local = xrealloc(r->local, (r->n + 1) * sizeof(*r->local));
			r->paths[r->n] = xstrdup(found.data);
			r->depth[r->n] = depth;
			r->local[r->n++] = open == '"';
		}
	}
	buf_release(&name);
	buf_release(&found);
}

/* Within [from, r->n), the project's own headers ("") first, in their order. */
static void locals_first(struct reach *r, size_t from)
{
	size_t k = from;
	for (size_t pass = 0; pass < 2; pass++)
		for (size_t i = k; i < r->n; i++)
			if (r->local[i] == !pass) {
				char *p = r->paths[i];
				bool l = r->local[i];
				memmove(r->paths + k + 1, r->paths + k, (i - k) * sizeof(*r->paths));
				memmove(r->local + k + 1, r->local + k, (i - k) * sizeof(*r->local));
				r->paths[k] = p;
				r->local[k++] = l;
			}
}

static int by_path(const void *a, const void *b)
{
	return strcmp(((const struct reached *)a)->path, ((const struct reached *)b)->path);
}

static void build(struct tree_review *tr, struct symbol_index *ix, struct reach *r,
		  const struct tfile *from)
{
	size_t len;
	const char *text = tfile_text(from, &len);
	r->from = xstrdup(from->path);
	if (text)
		expand(tr, ix, r, from->path, text, len, 1);
	size_t next = 0, reads = 0;
	while (next < r->n && reads < REACH_MAX_READ && r->depth[next] < REACH_MAX_DEPTH) {
		/* A level: ordered, read in one go, then each expanded into the next. */
		size_t level_end = next;
		while (level_end < r->n && r->depth[level_end] == r->depth[next])
			level_end++;
		locals_first(r, next);
		size_t want = level_end - next;
		if (want > REACH_MAX_READ - reads)
			want = REACH_MAX_READ - reads;
		files_prefetch(tr->files, (const char *const *)r->paths + next, want);
		for (size_t i = next; i < next + want; i++) {
			struct tfile *f = files_get(tr->files, r->paths[i]);
			const char *t = f ? tfile_text(f, &len) : NULL;
			if (t)
				expand(tr, ix, r, r->paths[i], t, len, r->depth[i] + 1);
		}
		reads += want;
		next = level_end;
	}
	r->sorted = xcalloc(r->n + 1, sizeof(*r->sorted));
	for (size_t i = 0; i < r->n; i++)
		r->sorted[i] = (struct reached){ r->paths[i], r->depth[i] };
	qsort(r->sorted, r->n, sizeof(*r->sorted), by_path);
}

unsigned reach_depth(struct tree_review *tr, struct symbol_index *ix,
		     const struct tfile *from, const char *path)
{
	if (!tr->reach)
		tr->reach = xcalloc(1, sizeof(*tr->reach));
	struct reach_cache *c = tr->reach;
	struct reach *r = NULL;
	for (size_t i = 0; !r && i < c->n; i++)
		if (!strcmp(c->v[i].from, from->path))
			r = &c->v[i];
	if (!r && c->n == REACH_MAX_FROM)
		return 0;
	if (!r) {
		r = &c->v[c->n++];
		build(tr, ix, r, from);
	}
	size_t lo = 0, hi = r->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int cmp = strcmp(r->sorted[mid].path, path);
		if (!cmp)
			return r->sorted[mid].depth;
		if (cmp < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

void reach_free(struct reach_cache *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->n; i++) {
		struct reach *r = &c->v[i];
		for (size_t k = 0; k < r->n; k++)
			free(r->paths[k]);
		free(r->paths);
		free(r->depth);
		free(r->local);
		free(r->sorted);
		free(r->from);
	}
	free(c);
}
