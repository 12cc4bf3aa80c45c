/*
 * callers.c: who calls a function the patch changes, for the context and
 * for the checks only a tree allows: a signature changed while a caller
 * still passes the old number of arguments, and a definition removed while
 * the tree still uses the name.
 */
#include <stdlib.h>
#include <string.h>

#include "base/msg.h"
#include "base/str.h"
#include "code/context.h"
#include "review/finding.h"

#define CALLERS_SHOWN 5		/* per function, in the context */
#define CALLER_FILES 40		/* files read for the context's callers */
#define CHECK_FILES 400		/* files read for the checks */
#define CHECK_REPORTED 3
#define CALL_AROUND 3
#define REMOVED_CHECKED 16	/* removed names looked up per patch */

struct calls_ctx {
	enum cuse_kind kind;
	const char *name;
	size_t len;
	const char *text, *end;
	struct tfile *file;
	struct call_site *v;
	size_t n, max;
};

static void on_call(void *ctx, enum cuse_kind kind, const char *s, size_t len, uint32_t line)
{
	struct calls_ctx *c = ctx;
	if (kind != c->kind || len != c->len || memcmp(s, c->name, len) || c->n == c->max)
		return;
	const struct cdefs *d = files_defs(c->file);
	for (size_t i = 0; i < d->n; i++)
		if (d->v[i].name == s)
			return;		/* the definition or a prototype, not a call */
	const char *open = s + len;
	while (open < c->end && *open != '(')
		open++;
	const struct cdef *in = context_def_at(c->file, line);
	c->v[c->n++] = (struct call_site){ c->file, line, c->end > open ? c_call_args(open, c->end) : -1,
					   in && in->kind == CDEF_FUNCTION ? in : NULL };
}

static size_t uses_in(struct tfile *f, enum cuse_kind kind, const char *name, size_t len,
		      struct call_site *v, size_t max)
{
	size_t tlen;
	const char *text = tfile_text(f, &tlen);
	if (!text || !context_is_c(f->path))
		return 0;
	struct calls_ctx c = { kind, name, len, text, text + tlen, f, v, 0, max };
	struct cdefs defs = { 0 };
	cscan(text, tlen, &defs, on_call, &c);
	cdefs_release(&defs);
	return c.n;
}

/* Common leading directories: the files nearest to path come first. */
static size_t shared_dirs(const char *a, const char *b)
{
	size_t n = 0;
	for (size_t i = 0; a[i] && a[i] == b[i]; i++)
		n += a[i] == '/';
	return n;
}

struct ranked {
	const char *path;
	size_t near;
	size_t order;
};

static int by_near(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;
	if (x->near != y->near)
		return x->near > y->near ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/*
 * Up to max uses (calls or tag names) of name: in path, then in the
 * patch's other files, then in the files the index names, nearest to path
 * first, at most max_files of them; only in path when is_static. after:
 * the patch's files count only as the patch leaves them (for the checks).
 */
static size_t uses(struct tree_review *tr, struct symbol_index *ix, const char *path,
		   enum cuse_kind kind, const char *name, size_t len, bool is_static, bool after,
		   struct call_site *v, size_t max, size_t max_files)
{
	struct tree_files *fs = tr->files;
	size_t n = 0;
	struct tfile *own = files_get(fs, path);
	if (own && (own->post || !after))
		n += uses_in(own, kind, name, len, v + n, max - n);
	for (size_t i = 0; !is_static && i < fs->n && n < max; i++)
		if (fs->v[i]->patch_file >= 0 && fs->v[i] != own && (fs->v[i]->post || !after))
			n += uses_in(fs->v[i], kind, name, len, v + n, max - n);
	if (is_static || !ix || n >= max)
		return n;
	size_t cap = max_files * 8 + 64;
	struct ix_hit *hits = xcalloc(cap, sizeof(*hits));
	size_t nh = symbol_index_find(ix, name, len, IX_BIT(kind == CUSE_CALL ? IX_CALL : IX_TAG),
				      hits, cap);
	struct ranked *r = xcalloc(nh + 1, sizeof(*r));
	size_t nr = 0;
	for (size_t i = 0; i < nh; i++) {
		struct tfile *f = NULL;
		for (size_t k = 0; k < fs->n && !f; k++)
			if (fs->v[k]->patch_file >= 0 && !strcmp(fs->v[k]->path, hits[i].path))
				f = fs->v[k];
		if (!f)
			r[nr++] = (struct ranked){ hits[i].path, shared_dirs(path, hits[i].path), i };
	}
	qsort(r, nr, sizeof(*r), by_near);
	if (nr > max_files)
		nr = max_files;
	const char **paths = xcalloc(nr + 1, sizeof(*paths));
	for (size_t i = 0; i < nr; i++)
		paths[i] = r[i].path;
	files_prefetch(fs, paths, nr);
	for (size_t i = 0; i < nr && n < max; i++) {
		struct tfile *f = files_get(fs, paths[i]);
		if (f)
			n += uses_in(f, kind, name, len, v + n, max - n);
	}
	free(paths);
	free(r);
	free(hits);
	return n;
}

/* The declaration of d up to its body, blanks collapsed: what callers depend on. */
static void signature(const char *text, size_t len, const struct cdef *d, struct buf *out)
{
	struct buf code = BUF_INIT;
	text_lines(&code, text, len, d->first, d->last);
	const char *brace = strchr(code.data, '{');
	size_t n = brace ? (size_t)(brace - code.data) : code.len;
	bool space = false;
	for (size_t i = 0; i < n; i++) {
		char c = code.data[i];
		if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
			space = out->len > 0;
			continue;
		}
		if (space)
			buf_addch(out, ' ');
		space = false;
		buf_addch(out, c);
	}
	buf_release(&code);
}

/* Is the signature "... void NAME(...)": no result for callers to depend on? */
static bool returns_void(const struct buf *sig, const struct cdef *d)
{
	for (const char *s = strstr(sig->data, "void"); s; s = strstr(s + 4, "void")) {
		const char *after = s + 4;
		while (*after == ' ')
			after++;
		if ((s == sig->data || s[-1] == ' ') && !strncmp(after, d->name, d->name_len) &&
		    after[d->name_len] == '(')
			return true;
	}
	return false;
}

/* The same function at the base, when the file had it. */
static const struct cdef *before(const struct tfile *f, const struct cdefs *base,
				 const struct cdef *d)
{
	for (size_t i = 0; f->base && i < base->n; i++)
		if (base->v[i].kind == d->kind && base->v[i].name_len == d->name_len &&
		    !memcmp(base->v[i].name, d->name, d->name_len))
			return &base->v[i];
	return NULL;
}

static char *call_text(const struct call_site *c)
{
	size_t len;
	const char *text = tfile_text(c->file, &len);
	uint32_t from = c->line > CALL_AROUND ? c->line - CALL_AROUND : 1, to = c->line + CALL_AROUND;
	if (c->in && from < c->in->first)
		from = c->in->first;
	if (c->in && to > c->in->last)
		to = c->in->last;
	struct buf b = BUF_INIT;
	text_lines(&b, text, len, from, to);
	return buf_detach(&b, NULL);
}

static void add_callers(struct tree_review *tr, const struct cdef *d, const char *why,
			const struct call_site *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct buf title = BUF_INIT;
		buf_addf(&title, "%s:%u", v[i].file->path, v[i].line);
		if (v[i].in)
			buf_addf(&title, ", in %.*s()", (int)v[i].in->name_len, v[i].in->name);
		buf_addf(&title, ": a call of %.*s(), whose %s the patch changes", (int)d->name_len,
			 d->name, why);
		context_add(tr, CONTEXT_CALLER, buf_detach(&title, NULL), call_text(&v[i]), NULL);
	}
}

static void add_finding(struct tree_review *tr, enum tree_finding_kind kind, size_t line,
			char *text)
{
	tr->findings = xrealloc(tr->findings, (tr->nfindings + 1) * sizeof(*tr->findings));
	tr->findings[tr->nfindings++] = (struct tree_finding){ kind, line, text };
}

static bool ident_char(char c)
{
	return c == '_' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* The first line of kind in f's hunks that names name (NUL-terminated), or FINDING_WHOLE. */
static size_t line_naming(const struct tree_review *tr, const struct tfile *f,
			  enum line_kind kind, const char *name)
{
	const struct patch *p = tr->patch;
	size_t len = strlen(name);
	for (size_t h = 0; h < p->nhunks; h++) {
		if (p->hunks[h].file != f->patch_file)
			continue;
		for (size_t l = p->hunks[h].header_line + 1; l < p->hunks[h].end_line; l++) {
			const char *text = p->lines[l].text;
			for (const char *s = p->lines[l].kind == kind ? strstr(text, name) : NULL; s;
			     s = strstr(s + len, name))
				if ((s == text || !ident_char(s[-1])) && !ident_char(s[len]))
					return l;
		}
	}
	return FINDING_WHOLE;
}

/* The added line naming d, else the first added line inside d (a declarator over lines). */
static size_t line_in(const struct tree_review *tr, const struct tfile *f, const struct cdef *d,
		      const char *name)
{
	size_t l = line_naming(tr, f, LINE_ADDED, name);
	const struct patch *p = tr->patch;
	for (size_t i = 0; l == FINDING_WHOLE && i < p->nlines; i++) {
		uint32_t at = p->lines[i].kind == LINE_ADDED && p->lines[i].file == f->patch_file ?
			files_line_of(f, p, i) : 0;
		if (at >= d->first && at <= d->last)
			l = i;
	}
	return l;
}

/* "a.c:12 (in foo()), b.c:3 and 2 more": up to CHECK_REPORTED sites, and how many more. */
static void list_sites(struct buf *b, const struct call_site *v, size_t n)
{
	size_t shown = n < CHECK_REPORTED ? n : CHECK_REPORTED;
	for (size_t i = 0; i < shown; i++) {
		bool last = i + 1 == shown && n == shown;
		buf_addf(b, "%s%s:%u", !i ? "" : last ? " and " : ", ", v[i].file->path, v[i].line);
		if (v[i].in)
			buf_addf(b, " (in %.*s())", (int)v[i].in->name_len, v[i].in->name);
	}
	if (n > shown)
		buf_addf(b, " and %zu more", n - shown);
}

/* A caller the patch leaves passing the old number of arguments. */
static void check_arity(struct tree_review *tr, struct symbol_index *ix, struct tfile *f,
			const struct cdef *old, const struct cdef *now, const char *name)
{
	if (old->params == now->params || old->params == CDEF_VARIADIC ||
	    now->params == CDEF_VARIADIC)
		return;
	struct call_site *v = xcalloc(256, sizeof(*v)), *bad = xcalloc(256, sizeof(*bad));
	size_t n = uses(tr, ix, f->path, CUSE_CALL, now->name, now->name_len, now->is_static, true,
			v, 256, CHECK_FILES), nbad = 0;
	for (size_t i = 0; i < n; i++)
		if (v[i].args == (int)old->params)
			bad[nbad++] = v[i];
	if (nbad) {
		struct buf b = BUF_INIT;
		buf_addf(&b, "%s() now takes %u argument%s instead of %u, but ", name, now->params,
			 now->params == 1 ? "" : "s", old->params);
		list_sites(&b, bad, nbad);
		buf_addf(&b, " still pass%s %u: the patch leaves %s unchanged.", nbad == 1 ? "es" : "",
			 old->params, nbad == 1 ? "that caller" : "those callers");
		add_finding(tr, TREE_OLD_CALLERS, line_in(tr, f, now, name), buf_detach(&b, NULL));
	}
	free(v);
	free(bad);
}

static bool defined_in(struct tfile *f, const char *name, size_t len)
{
	const struct cdefs *d = files_defs(f);
	for (size_t i = 0; i < d->n; i++)
		if (d->v[i].name_len == len && !memcmp(d->v[i].name, name, len) &&
		    d->v[i].kind != CDEF_PROTOTYPE)
			return true;
	return false;
}

/* Is name still defined after the patch: in its files, or in a file it does not touch? */
static bool still_defined(struct tree_review *tr, struct symbol_index *ix, const char *name,
			  size_t len)
{
	for (size_t i = 0; i < tr->files->n; i++) {
		struct tfile *f = tr->files->v[i];
		if (f->patch_file >= 0 && f->post && context_is_c(f->path) && defined_in(f, name, len))
			return true;
	}
	struct ix_hit hits[64];
	size_t n = ix ? symbol_index_find(ix, name, len, IX_DEFINITIONS & ~IX_BIT(IX_PROTOTYPE),
					  hits, 64) : 0;
	for (size_t i = 0; i < n; i++) {
		bool patched = false;
		for (size_t k = 0; k < tr->files->n && !patched; k++)
			patched = tr->files->v[k]->patch_file >= 0 &&
				!strcmp(tr->files->v[k]->path, hits[i].path);
		if (!patched && !hits[i].is_static)
			return true;
	}
	return false;
}

/*
 * A definition the patch removes while the tree still calls it or names
 * its tag. Returns whether it was looked up.
 */
static bool check_removed(struct tree_review *tr, struct symbol_index *ix, struct tfile *f,
			  const struct cdef *d)
{
	bool call = d->kind == CDEF_FUNCTION || d->function_like;
	bool tag = d->kind == CDEF_STRUCT || d->kind == CDEF_UNION || d->kind == CDEF_ENUM;
	if (!call && !tag)
		return false;
	if (still_defined(tr, ix, d->name, d->name_len))
		return true;
	struct call_site v[CHECK_REPORTED + 1];
	size_t n = uses(tr, ix, f->path, call ? CUSE_CALL : CUSE_TAG, d->name, d->name_len,
			d->is_static, true, v, CHECK_REPORTED + 1, CHECK_FILES);
	if (!n)
		return true;
	char *name = xstrndup(d->name, d->name_len);
	struct buf b = BUF_INIT;
	buf_addf(&b, "This removes %s %s%s, but ", tag ? cdef_kind_name(d->kind) : "", name,
		 call ? "()" : "");
	list_sites(&b, v, n);
	buf_addf(&b, " still %s it.", call ? "call" : "use");
	add_finding(tr, TREE_STILL_USED, line_naming(tr, f, LINE_REMOVED, name),
		    buf_detach(&b, NULL));
	free(name);
	return true;
}

/* The definitions at the base of patch file f that no longer exist after the patch. */
static void removed_in(struct tree_review *tr, struct symbol_index *ix, struct tfile *f,
		       const struct cdefs *base, size_t *checked)
{
	for (size_t i = 0; i < base->n && *checked < REMOVED_CHECKED; i++) {
		const struct cdef *d = &base->v[i];
		bool dup = false;
		for (size_t k = 0; k < i && !dup; k++)
			dup = base->v[k].name_len == d->name_len &&
				!memcmp(base->v[k].name, d->name, d->name_len);
		if (!dup && d->kind != CDEF_PROTOTYPE && !(f->post && defined_in(f, d->name, d->name_len)))
			*checked += check_removed(tr, ix, f, d);
	}
}

void context_callers(struct tree_review *tr, struct symbol_index *ix,
		     const struct changed_set *set, bool want_context)
{
	struct tfile *scanned = NULL;
	struct cdefs base = { 0 };
	for (size_t i = 0; i < set->n; i++) {
		struct tfile *f = set->v[i].file;
		const struct cdef *d = set->v[i].def;
		if (f != scanned) {
			cdefs_release(&base);
			if (f->base)
				cscan(f->base, f->base_len, &base, NULL, NULL);
			scanned = f;
		}
		const struct cdef *old = d->kind == CDEF_FUNCTION ? before(f, &base, d) : NULL;
		size_t len;
		const char *text = tfile_text(f, &len);
		struct buf was = BUF_INIT, now = BUF_INIT;
		if (old) {
			signature(f->base, f->base_len, old, &was);
			signature(text, len, d, &now);
		}
		bool changed = old && strcmp(was.data, now.data);
		bool results = old && set->v[i].results && !returns_void(&now, d);
		buf_release(&was);
		buf_release(&now);
		if (!changed && !results)
			continue;
		char *name = xstrndup(d->name, d->name_len);
		if (want_context) {
			struct call_site v[CALLERS_SHOWN];
			size_t n = uses(tr, ix, f->path, CUSE_CALL, d->name, d->name_len, d->is_static,
					false, v, CALLERS_SHOWN, CALLER_FILES);
			add_callers(tr, d, changed ? "signature" : "results", v, n);
		}
		if (changed && tr->applies)
			check_arity(tr, ix, f, old, d, name);
		free(name);
	}
	cdefs_release(&base);
	if (!tr->applies)
		return;
	size_t checked = 0;
	for (size_t i = 0; i < tr->files->n; i++) {
		struct tfile *f = tr->files->v[i];
		if (f->patch_file < 0 || !f->base || !context_is_c(f->path))
			continue;
		struct cdefs defs = { 0 };
		cscan(f->base, f->base_len, &defs, NULL, NULL);
		removed_in(tr, ix, f, &defs, &checked);
		cdefs_release(&defs);
	}
}
