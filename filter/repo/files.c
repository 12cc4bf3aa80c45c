/* files.c: reading the files a review needs, and the patch applied in memory. */
#include <stdlib.h>
#include <string.h>

#include "base/msg.h"
#include "repo/files.h"

struct line_vec {
	const char **s;
	uint32_t *len;
	size_t n;
};

static void split_lines(struct line_vec *v, const char *text, size_t len)
{
	size_t cap = 16;
	*v = (struct line_vec){ xmalloc(cap * sizeof(char *)), xmalloc(cap * sizeof(uint32_t)), 0 };
	for (const char *p = text, *end = text + len; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *stop = nl ? nl : end;
		if (v->n == cap) {
			cap *= 2;
			v->s = xrealloc(v->s, cap * sizeof(char *));
			v->len = xrealloc(v->len, cap * sizeof(uint32_t));
		}
		v->s[v->n] = p;
		v->len[v->n++] = (uint32_t)(stop - p);
		p = nl ? nl + 1 : end;
	}
}

static bool same_line(const char *a, size_t alen, const char *b, size_t blen)
{
	if (alen && a[alen - 1] == '\r')
		alen--;
	if (blen && b[blen - 1] == '\r')
		blen--;
	return alen == blen && !memcmp(a, b, alen);
}

/* A hunk line without its ' ', '-' or '+' (a context line may have lost its space). */
static void body(const struct patch_line *l, const char **s, size_t *len)
{
	*s = l->len ? l->text + 1 : l->text;
	*len = l->len ? l->len - 1 : 0;
}

/*
 * The line comparisons one files_apply() may make: a hunk tried at every
 * line of a file of like lines costs their product, so past a small
 * multiple of the lines involved its hunks are taken not to fit.
 */
struct search {
	size_t work, budget;
};

static bool old_fits(const struct patch *p, const struct patch_hunk *h, const struct line_vec *v,
		     size_t at, struct search *sr)
{
	size_t k = at;
	for (size_t i = h->header_line + 1; i < h->end_line; i++) {
		const struct patch_line *l = &p->lines[i];
		if (l->kind != LINE_CONTEXT && l->kind != LINE_REMOVED)
			continue;
		const char *s;
		size_t len;
		body(l, &s, &len);
		if (++sr->work > sr->budget || k >= v->n || !same_line(v->s[k], v->len[k], s, len))
			return false;
		k++;
	}
	return true;
}

/*
 * Where the hunk's old lines are, at from or after, nearest to where its
 * header says first; -1 if nowhere. Only the distances at which a line
 * lies are tried, however far off the header points.
 */
static long find_hunk(const struct patch *p, const struct patch_hunk *h,
		      const struct line_vec *v, size_t from, long offset, struct search *sr)
{
	long want = (long)(h->old_start ? h->old_start - 1 : 0) + offset;
	long lo = (long)from, hi = (long)v->n - (long)h->old_count;
	if (hi < lo)
		return -1;
	long nearest = want < lo ? lo : want > hi ? hi : want;
	long farthest = want - lo > hi - want ? want - lo : hi - want;
	for (long d = labs(nearest - want); d <= farthest && sr->work <= sr->budget; d++) {
		long at[2] = { want - d, want + d };
		for (int k = 0; k < (d ? 2 : 1); k++)
			if (at[k] >= lo && at[k] <= hi && old_fits(p, h, v, (size_t)at[k], sr))
				return at[k];
	}
	return -1;
}

static void add_line(struct buf *out, const char *s, size_t len)
{
	buf_add(out, s, len);
	buf_addch(out, '\n');
}

bool files_apply(const char *text, size_t len, const struct patch *p, size_t fi,
		 int32_t *delta, struct buf *out)
{
	struct line_vec v;
	split_lines(&v, text ? text : "", text ? len : 0);
	size_t cursor = 0, out_lines = 0, hunk_lines = 0;
	long offset = 0;
	bool ok = true;
	for (size_t hi = 0; hi < p->nhunks; hi++)
		if (p->hunks[hi].file == (int32_t)fi)
			hunk_lines += p->hunks[hi].end_line - p->hunks[hi].header_line;
	struct search sr = { 0, 16 * (v.n + hunk_lines) + 65536 };
	for (size_t hi = 0; ok && hi < p->nhunks; hi++) {
		const struct patch_hunk *h = &p->hunks[hi];
		if (h->file != (int32_t)fi)
			continue;
		long at = find_hunk(p, h, &v, cursor, offset, &sr);
		if (at < 0) {
			ok = false;
			break;
		}
		offset = at - (long)(h->old_start ? h->old_start - 1 : 0);
		for (; cursor < (size_t)at; cursor++, out_lines++)
			add_line(out, v.s[cursor], v.len[cursor]);
		uint32_t header_new = h->new_count ? h->new_start : h->new_start + 1;
		if (delta)
			delta[hi] = (int32_t)((long)out_lines + 1 - (long)header_new);
		for (size_t i = h->header_line + 1; i < h->end_line; i++) {
			const struct patch_line *l = &p->lines[i];
			const char *s;
			size_t len;
			body(l, &s, &len);
			if (l->kind == LINE_CONTEXT || l->kind == LINE_ADDED)
				add_line(out, s, len), out_lines++;
			if (l->kind == LINE_CONTEXT || l->kind == LINE_REMOVED)
				cursor++;
		}
	}
	for (; ok && cursor < v.n; cursor++)
		add_line(out, v.s[cursor], v.len[cursor]);
	free(v.s);
	free(v.len);
	return ok;
}

/* Applies the hunks of patch file fi to f->base into f->post; leaves post NULL if one does not fit. */
static void apply_file(struct tfile *f, const struct patch *p, size_t fi)
{
	struct buf out = BUF_INIT;
	if (files_apply(f->base, f->base_len, p, fi, f->delta, &out) &&
	    !(p->files[fi].flags & FILE_DELETED))
		f->post = buf_detach(&out, &f->post_len);
	buf_release(&out);
}

/*
 * The earlier patches of the series, applied in memory to the text read
 * at the base for path (NULL: not there), so that the file is read as
 * they leave it. A file they create starts empty; one they delete ends
 * NULL. When a hunk does not fit, the base's text stays.
 */
static void bring_forward(const struct tree_files *fs, const char *path, char **data,
			  size_t *len)
{
	char *text = *data ? xstrndup(*data, *len) : NULL;
	size_t n = *len;
	bool touched = false;
	for (size_t k = 0; k < fs->nearlier; k++) {
		const struct patch *p = fs->earlier[k];
		for (size_t i = 0; i < p->nfiles; i++) {
			const struct patch_file *pf = &p->files[i];
			if ((pf->flags & FILE_BINARY) || !pf->new_path || strcmp(pf->new_path, path) ||
			    (pf->old_path && strcmp(pf->old_path, path) && !(pf->flags & FILE_NEW)))
				continue;
			struct buf out = BUF_INIT;
			if (!files_apply(text, text ? n : 0, p, i, NULL, &out)) {
				buf_release(&out);
				free(text);
				return;
			}
			free(text);
			text = buf_detach(&out, &n);
			touched = true;
		}
		for (size_t i = 0; text && i < p->nfiles; i++)
			if ((p->files[i].flags & FILE_DELETED) && p->files[i].old_path &&
			    !strcmp(p->files[i].old_path, path)) {
				free(text);
				text = NULL;
				touched = true;
			}
	}
	if (!touched) {
		free(text);
		return;
	}
	free(*data);
	*data = text;
	*len = text ? n : 0;
}

static struct tfile *add_file(struct tree_files *fs, const char *path)
{
	if (fs->n == fs->cap) {
		fs->cap = fs->cap ? fs->cap * 2 : 16;
		fs->v = xrealloc(fs->v, fs->cap * sizeof(*fs->v));
	}
	struct tfile *f = xcalloc(1, sizeof(*f));
	*f = (struct tfile){ .path = xstrdup(path), .patch_file = -1 };
	fs->v[fs->n++] = f;
	return f;
}

void files_load_patch(struct tree_files *fs, const struct patch *p)
{
	const char **paths = xcalloc(p->nfiles + 1, sizeof(*paths));
	size_t n = 0;
	for (size_t i = 0; i < p->nfiles; i++)
		if (p->files[i].old_path && !(p->files[i].flags & (FILE_NEW | FILE_BINARY)))
			paths[n++] = p->files[i].old_path;
	struct repo_file *read = xcalloc(n + 1, sizeof(*read));
	struct buf why = BUF_INIT;
	if (n && repo_read(fs->tree, fs->commit, paths, n, &fs->budget, read, &why) < 0)
		warn("tree: %s", why.data);
	for (size_t k = 0; k < n; k++)
		fs->capped |= read[k].over_budget;
	for (size_t i = 0, k = 0; i < p->nfiles; i++) {
		const struct patch_file *pf = &p->files[i];
		if (pf->flags & FILE_BINARY)
			continue;
		struct tfile *f = add_file(fs, patch_file_path(pf));
		f->patch_file = (int32_t)i;
		f->delta = xcalloc(p->nhunks + 1, sizeof(*f->delta));
		if (pf->old_path && !(pf->flags & FILE_NEW)) {
			f->base = read[k].data;
			f->base_len = read[k].len;
			read[k].data = NULL;
			k++;
			bring_forward(fs, pf->old_path, &f->base, &f->base_len);
		}
		if (f->base || (pf->flags & FILE_NEW))
			apply_file(f, p, i);
	}
	for (size_t k = 0; k < n; k++)
		repo_file_release(&read[k]);
	free(read);
	free(paths);
	buf_release(&why);
}

static struct tfile *find(struct tree_files *fs, const char *path)
{
	for (size_t i = 0; i < fs->n; i++)
		if (!strcmp(fs->v[i]->path, path))
			return fs->v[i];
	return NULL;
}

void files_prefetch(struct tree_files *fs, const char *const *paths, size_t n)
{
	const char **want = xcalloc(n + 1, sizeof(*want));
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		bool dup = find(fs, paths[i]) != NULL;
		for (size_t j = 0; !dup && j < k; j++)
			dup = !strcmp(want[j], paths[i]);
		if (!dup)
			want[k++] = paths[i];
	}
	struct repo_file *read = xcalloc(k + 1, sizeof(*read));
	struct buf why = BUF_INIT;
	if (k && repo_read(fs->tree, fs->commit, want, k, &fs->budget, read, &why) < 0)
		warn("tree: %s", why.data);
	for (size_t i = 0; i < k; i++)
		fs->capped |= read[i].over_budget;
	for (size_t i = 0; i < k; i++) {
		struct tfile *f = add_file(fs, want[i]);
		f->base = read[i].data;
		f->base_len = read[i].len;
		read[i].data = NULL;
		bring_forward(fs, want[i], &f->base, &f->base_len);
		repo_file_release(&read[i]);
	}
	free(read);
	free(want);
	buf_release(&why);
}

struct tfile *files_get(struct tree_files *fs, const char *path)
{
	struct tfile *f = find(fs, path);
	if (!f) {
		files_prefetch(fs, &path, 1);
		f = find(fs, path);
	}
	return f;
}

static void on_enumerator(void *ctx, enum cuse_kind kind, const char *s, size_t len,
			  uint32_t line)
{
	struct cdefs *d = ctx;
	if (kind != CUSE_ENUMERATOR)
		return;
	if (d->n == d->cap) {
		d->cap = d->cap ? d->cap * 2 : 16;
		d->v = xrealloc(d->v, d->cap * sizeof(*d->v));
	}
	d->v[d->n++] = (struct cdef){ .kind = CDEF_ENUM, .name = s, .name_len = (uint32_t)len,
				      .doc = line, .first = line, .last = line };
}

const struct cdefs *files_defs(struct tfile *f)
{
	if (!f->scanned) {
		size_t len;
		const char *text = tfile_text(f, &len);
		if (text)
			cscan(text, len, &f->defs, on_enumerator, &f->enumerators);
		f->scanned = true;
	}
	return &f->defs;
}

uint32_t files_line_of(const struct tfile *f, const struct patch *p, size_t l)
{
	const struct patch_line *pl = &p->lines[l];
	if (pl->hunk < 0)
		return 0;
	const struct patch_hunk *h = &p->hunks[pl->hunk];
	if (!f->post) {
		/* The base as it is: old numbers, an added line at its old neighbour. */
		for (size_t i = l + 1; i-- > h->header_line + 1;)
			if (p->lines[i].kind == LINE_CONTEXT || p->lines[i].kind == LINE_REMOVED)
				return p->lines[i].old_no;
		return h->old_start;
	}
	int32_t delta = f->delta[pl->hunk];
	for (size_t i = l; i < h->end_line; i++)
		if (p->lines[i].kind == LINE_CONTEXT || p->lines[i].kind == LINE_ADDED)
			return (uint32_t)((int64_t)p->lines[i].new_no + delta);
	for (size_t i = l; i-- > h->header_line + 1;)
		if (p->lines[i].kind == LINE_CONTEXT || p->lines[i].kind == LINE_ADDED)
			return (uint32_t)((int64_t)p->lines[i].new_no + delta);
	return 0;
}

void files_release(struct tree_files *fs)
{
	for (size_t i = 0; i < fs->n; i++) {
		struct tfile *f = fs->v[i];
		free(f->path);
		free(f->base);
		free(f->post);
		free(f->delta);
		cdefs_release(&f->defs);
		cdefs_release(&f->enumerators);
		free(f);
	}
	free(fs->v);
	*fs = (struct tree_files){ 0 };
}

void text_lines(struct buf *out, const char *text, size_t len, uint32_t first, uint32_t last)
{
	uint32_t n = 1;
	for (const char *p = text, *end = text + len; p < end && n <= last; n++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *stop = nl ? nl : end;
		if (n >= first)
			add_line(out, p, (size_t)(stop - p));
		p = nl ? nl + 1 : end;
	}
}
