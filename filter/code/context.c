/*
 * context.c: the definitions a patch changes, whole, and the definitions
 * its added lines use, found in the patch's own files first and then
 * through the symbol index, nearest to the changed file first.
 */
#include <stdlib.h>
#include <string.h>

#include "base/msg.h"
#include "base/str.h"
#include "code/context.h"
#include "code/reach.h"

/* A changed definition longer than this goes in only in its short form. */
#define CHANGED_MAX_LINES 400
/* Longer ones also get a short form: the head and the changes with their surroundings. */
#define SHORT_FROM_LINES 40
#define SHORT_AROUND 6
#define DEF_MAX_LINES 60
#define MAX_NAMES 64
#define MAX_HITS 256

#define TAG_KINDS (IX_BIT(IX_STRUCT) | IX_BIT(IX_UNION) | IX_BIT(IX_ENUM))
#define CALL_KINDS (IX_BIT(IX_FUNCTION) | IX_BIT(IX_MACRO) | IX_BIT(IX_PROTOTYPE))
#define NAME_KINDS (IX_BIT(IX_MACRO) | IX_BIT(IX_TYPEDEF) | IX_BIT(IX_VARIABLE) | \
		    IX_BIT(IX_ENUMERATOR))

bool context_is_c(const char *path)
{
	static const char *const ext[] = { ".c", ".h", ".cc", ".cpp", ".cxx", ".hh", ".hpp" };
	const char *dot = path ? strrchr(path, '.') : NULL;
	for (size_t i = 0; dot && i < sizeof(ext) / sizeof(*ext); i++)
		if (!strcmp(dot, ext[i]))
			return true;
	return false;
}

void context_add(struct tree_review *tr, enum context_kind kind, char *title, char *text,
		 char *short_text)
{
	tr->items = xrealloc(tr->items, (tr->nitems + 1) * sizeof(*tr->items));
	tr->items[tr->nitems++] = (struct context_item){ kind, title, text, short_text };
}

const struct cdef *context_def_at(struct tfile *f, uint32_t line)
{
	const struct cdefs *d = files_defs(f);
	const struct cdef *best = NULL;
	for (size_t i = 0; line && i < d->n; i++) {
		const struct cdef *c = &d->v[i];
		if (c->kind != CDEF_PROTOTYPE && c->first <= line && line <= c->last &&
		    (!best || c->last - c->first > best->last - best->first))
			best = c;
	}
	return best;
}

char *context_def_text(const struct tfile *f, const struct cdef *d, uint32_t max_lines)
{
	size_t len;
	const char *text = tfile_text(f, &len);
	struct buf b = BUF_INIT;
	uint32_t n = d->last - d->doc + 1;
	text_lines(&b, text, len, d->doc, n > max_lines ? d->doc + max_lines - 1 : d->last);
	if (n > max_lines)
		buf_addf(&b, "[... %u more lines]\n", n - max_lines);
	return buf_detach(&b, NULL);
}

char *context_def_title(const struct tfile *f, const struct cdef *d, const char *what)
{
	struct buf b = BUF_INIT;
	bool call = d->kind == CDEF_FUNCTION || d->kind == CDEF_PROTOTYPE || d->function_like;
	buf_addf(&b, "%s:%u-%u: %s %.*s%s, %s", f->path, d->first, d->last,
		 cdef_kind_name(d->kind), (int)d->name_len, d->name, call ? "()" : "", what);
	return buf_detach(&b, NULL);
}

char *context_short_form(const struct tfile *f, const struct cdef *d, const uint32_t *lines,
			 size_t n)
{
	size_t len;
	const char *text = tfile_text(f, &len);
	struct buf b = BUF_INIT;
	uint32_t shown = d->first + 1 < d->last ? d->first + 1 : d->last;
	text_lines(&b, text, len, d->first, shown);
	for (size_t i = 0; i < n; i++) {
		uint32_t from = lines[i] > SHORT_AROUND ? lines[i] - SHORT_AROUND : 1;
		uint32_t to = lines[i] + SHORT_AROUND;
		if (to <= shown)
			continue;
		if (from <= shown)
			from = shown + 1;
		if (to > d->last)
			to = d->last;
		if (from > shown + 1)
			buf_addf(&b, "[... lines %u-%u ...]\n", shown + 1, from - 1);
		if (from <= to)
			text_lines(&b, text, len, from, to);
		shown = to > shown ? to : shown;
	}
	if (shown < d->last) {
		if (shown + 1 < d->last)
			buf_addf(&b, "[... lines %u-%u ...]\n", shown + 1, d->last - 1);
		text_lines(&b, text, len, d->last, d->last);
	}
	return buf_detach(&b, NULL);
}

static int by_line(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

/* One changed definition: the item, whole or short. */
static void add_changed(struct tree_review *tr, struct tfile *f, const struct cdef *d,
			uint32_t *lines, size_t n)
{
	qsort(lines, n, sizeof(*lines), by_line);
	const char *what = f->post ? "as the patch leaves it" :
		"before the patch (its hunks do not fit here)";
	struct buf why = BUF_INIT;
	buf_addf(&why, "changed by the patch, %s", what);
	char *title = context_def_title(f, d, why.data);
	buf_release(&why);
	uint32_t size = d->last - d->doc + 1;
	char *brief = size > SHORT_FROM_LINES ? context_short_form(f, d, lines, n) : NULL;
	if (size > CHANGED_MAX_LINES)
		context_add(tr, CONTEXT_CHANGED, title, brief, NULL);
	else
		context_add(tr, CONTEXT_CHANGED, title, context_def_text(f, d, UINT32_MAX), brief);
}

/* "return x": the line changes what the function gives back ("return;" does not). */
static bool line_has_return(const struct patch_line *l)
{
	for (const char *s = strstr(l->text, "return"); s; s = strstr(s + 6, "return")) {
		if (s > l->text && (s[-1] == '_' || (s[-1] >= 'a' && s[-1] <= 'z') ||
				    (s[-1] >= 'A' && s[-1] <= 'Z') || (s[-1] >= '0' && s[-1] <= '9')))
			continue;
		const char *v = s + 6;
		if (*v != ' ' && *v != '\t' && *v != '(')
			continue;
		while (*v == ' ' || *v == '\t')
			v++;
		if (*v && *v != ';')
			return true;
	}
	return false;
}

/* The definitions holding the changed lines of patch file f, in patch order. */
static void changed_in_file(struct tree_review *tr, struct tfile *f, bool want_context,
			    struct changed_set *set)
{
	const struct patch *p = tr->patch;
	size_t from = set->n;
	uint32_t **lines = NULL;
	size_t *nlines = NULL;
	for (size_t h = 0; h < p->nhunks; h++) {
		if (p->hunks[h].file != f->patch_file)
			continue;
		for (size_t l = p->hunks[h].header_line + 1; l < p->hunks[h].end_line; l++) {
			if (p->lines[l].kind != LINE_ADDED && p->lines[l].kind != LINE_REMOVED)
				continue;
			uint32_t at = files_line_of(f, p, l);
			const struct cdef *d = context_def_at(f, at);
			if (!d)
				continue;
			size_t k = from;
			while (k < set->n && set->v[k].def != d)
				k++;
			if (k == set->n) {
				set->v = xrealloc(set->v, (set->n + 1) * sizeof(*set->v));
				set->v[set->n++] = (struct changed_def){ f, d, false };
				lines = xrealloc(lines, (set->n - from) * sizeof(*lines));
				nlines = xrealloc(nlines, (set->n - from) * sizeof(*nlines));
				lines[k - from] = NULL;
				nlines[k - from] = 0;
			}
			set->v[k].results |= line_has_return(&p->lines[l]);
			lines[k - from] = xrealloc(lines[k - from], (nlines[k - from] + 1) * sizeof(**lines));
			lines[k - from][nlines[k - from]++] = at;
		}
	}
	for (size_t k = from; k < set->n; k++) {
		if (want_context)
			add_changed(tr, f, set->v[k].def, lines[k - from], nlines[k - from]);
		free(lines[k - from]);
	}
	free(lines);
	free(nlines);
}

/* A name the added lines use, and the kinds of definition it may have. */
struct want {
	char *name;
	size_t len;
	unsigned mask;
	struct tfile *from;
};

struct wants {
	struct want v[MAX_NAMES];
	size_t n;
};

static bool skipped_name(const struct tok *t)
{
	static const char *const names[] = {
		"NULL", "true", "false", "bool", "size_t", "ssize_t", "u8", "u16", "u32", "u64",
		"s8", "s16", "s32", "s64", "__u8", "__u16", "__u32", "__u64", "uint8_t",
		"uint16_t", "uint32_t", "uint64_t", "int8_t", "int16_t", "int32_t", "int64_t",
		"uintptr_t", "likely", "unlikely", "EXPORT_SYMBOL", "EXPORT_SYMBOL_GPL",
	};
	for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++)
		if (tok_is(t, names[i]))
			return true;
	return c_reserved(t->s, t->len);
}

static void want_add(struct wants *w, struct tfile *from, const char *s, size_t len,
		     unsigned mask)
{
	for (size_t i = 0; i < w->n; i++)
		if (w->v[i].len == len && !memcmp(w->v[i].name, s, len)) {
			w->v[i].mask |= mask;
			return;
		}
	if (w->n < MAX_NAMES)
		w->v[w->n++] = (struct want){ xstrndup(s, len), len, mask, from };
}


/*
 * The type of variable obj as the code around declares it: "struct T *obj"
 * or "T *obj" (a typedef). Adds it to w.
 */
static void want_type_of(struct wants *w, struct tfile *f, const char *code, size_t len,
			 const struct tok *obj)
{
	struct clex lx;
	struct tok t[4] = { 0 }, cur;	/* the last tokens, stars left out */
	clex_init(&lx, code, len);
	for (clex_next(&lx, &cur); cur.kind != TOK_EOF; clex_next(&lx, &cur)) {
		bool star = cur.kind == TOK_PUNCT && *cur.s == '*';
		if (star)
			continue;
		if (t[0].kind == TOK_IDENT && t[0].len == obj->len && !memcmp(t[0].s, obj->s, obj->len) &&
		    cur.kind == TOK_PUNCT && strchr(";,=)[", *cur.s) && t[1].kind == TOK_IDENT) {
			if (t[2].kind == TOK_IDENT && (tok_is(&t[2], "struct") || tok_is(&t[2], "union")))
				want_add(w, f, t[1].s, t[1].len, TAG_KINDS);
			else if (!c_reserved(t[1].s, t[1].len) && !skipped_name(&t[1]))
				want_add(w, f, t[1].s, t[1].len, IX_BIT(IX_TYPEDEF));
			return;
		}
		memmove(&t[1], &t[0], 3 * sizeof(*t));
		t[0] = cur;
	}
}

static bool type_word(const struct tok *t)
{
	static const char *const words[] = {
		"int", "char", "short", "long", "unsigned", "signed", "void", "float",
		"double", "_Bool", "bool",
	};
	for (size_t i = 0; i < sizeof(words) / sizeof(*words); i++)
		if (tok_is(t, words[i]))
			return true;
	return !c_reserved(t->s, t->len);
}

/* The parameters and locals a function declares: "TYPE [*] NAME" then ; , = ) or [. */
static void declared_names(const char *code, size_t len, struct wants *out)
{
	struct clex lx;
	struct tok prev = { 0 }, t, next;
	clex_init(&lx, code, len);
	clex_next(&lx, &t);
	for (; t.kind != TOK_EOF; prev = t, t = next) {
		clex_next(&lx, &next);
		bool after_type = (prev.kind == TOK_PUNCT && *prev.s == '*') ||
			(prev.kind == TOK_IDENT && type_word(&prev));
		if (t.kind == TOK_IDENT && after_type && next.kind == TOK_PUNCT &&
		    strchr(";,=)[", *next.s))
			want_add(out, NULL, t.s, t.len, 0);
	}
}

static bool declared(const struct wants *locals, const struct tok *t)
{
	for (size_t i = 0; i < locals->n; i++)
		if (locals->v[i].len == t->len && !memcmp(locals->v[i].name, t->s, t->len))
			return true;
	return false;
}

static void wants_release(struct wants *w)
{
	for (size_t i = 0; i < w->n; i++)
		free(w->v[i].name);
	w->n = 0;
}

/* The names the added lines of one hunk use, less the function's own parameters and locals. */
static void wants_of_hunk(struct wants *w, struct tree_review *tr, struct tfile *f, size_t h)
{
	const struct patch *p = tr->patch;
	struct buf code = BUF_INIT, body = BUF_INIT;
	struct wants *locals = xcalloc(1, sizeof(*locals));
	uint32_t at = 0;
	for (size_t l = p->hunks[h].header_line + 1; l < p->hunks[h].end_line; l++)
		if (p->lines[l].kind == LINE_ADDED) {
			buf_add(&code, p->lines[l].text + 1, p->lines[l].len - 1);
			buf_addch(&code, '\n');
			if (!at)
				at = files_line_of(f, p, l);
		}
	const struct cdef *around = context_def_at(f, at);
	if (around) {
		size_t len;
		const char *text = tfile_text(f, &len);
		text_lines(&body, text, len, around->first, around->last);
		declared_names(body.data, body.len, locals);
		want_add(locals, NULL, around->name, around->name_len, 0);
	}
	struct tok prev = { 0 }, t, next;
	struct clex lx;
	clex_init(&lx, code.data, code.len);
	clex_next(&lx, &t);
	for (; t.kind != TOK_EOF; prev = t, t = next) {
		clex_next(&lx, &next);
		if (t.kind != TOK_IDENT || skipped_name(&t) ||
		    (prev.kind == TOK_PUNCT && (*prev.s == '.' || tok_is(&prev, "->"))))
			continue;
		bool call = next.kind == TOK_PUNCT && *next.s == '(';
		if (prev.kind == TOK_IDENT && (tok_is(&prev, "struct") || tok_is(&prev, "union") ||
					       tok_is(&prev, "enum")))
			want_add(w, f, t.s, t.len, TAG_KINDS);
		else if (call || !declared(locals, &t))
			want_add(w, f, t.s, t.len, call ? CALL_KINDS : NAME_KINDS);
		if (around && next.kind == TOK_PUNCT && (*next.s == '.' || tok_is(&next, "->")))
			want_type_of(w, f, body.data, body.len, &t);
	}
	wants_release(locals);
	free(locals);
	buf_release(&code);
	buf_release(&body);
}

/*
 * The tiers of nearness (code/reach.h): a definition in the file itself,
 * in a header it reaches through #include (the fewer steps the nearer), in
 * its directory, elsewhere. Within a tier, more shared directories are nearer.
 */
#define NEAR_OWN 100000
#define NEAR_INCLUDED 50000
#define NEAR_INCLUDE_STEP 5000
#define NEAR_DIR 10000
#define NEAR_MAX_SHARED 50

/*
 * Is path in from's directory or below it, or below its parent when that
 * is still a driver's own ("drivers/staging/foo/" for ".../foo/core/a.c")?
 */
static bool near_dir(const char *from, const char *path)
{
	const char *slash = strrchr(from, '/');
	size_t dir = slash ? (size_t)(slash - from) + 1 : 0, up = dir ? dir - 1 : 0, depth = 0;
	while (up && from[up - 1] != '/')
		up--;
	for (size_t i = 0; i < up; i++)
		depth += from[i] == '/';
	return !strncmp(path, from, depth >= 3 ? up : dir);
}

/* How near a definition in path is to code in from: higher is nearer. */
static long nearness(struct tree_review *tr, struct symbol_index *ix, const struct tfile *from,
		     const char *path)
{
	if (!strcmp(path, from->path))
		return NEAR_OWN;
	long score = 0, shared = 0;
	for (size_t i = 0; path[i] && path[i] == from->path[i]; i++)
		shared += path[i] == '/';
	score += 10 * (shared < NEAR_MAX_SHARED ? shared : NEAR_MAX_SHARED);
	unsigned depth = reach_depth(tr, ix, from, path);
	if (depth)
		return score + NEAR_INCLUDED - NEAR_INCLUDE_STEP * (long)depth;
	if (near_dir(from->path, path))
		return score + NEAR_DIR;
	size_t n = strlen(path);
	if (n > 2 && !strcmp(path + n - 2, ".h"))
		score += 5;
	if (starts_with(path, "arch/"))
		score -= starts_with(path, "arch/x86/") ? 20 : 40;
	if (starts_with(path, "tools/") && !starts_with(from->path, "tools/"))
		score -= 100;
	return score;
}

static const struct cdef *def_in(struct tfile *f, const char *name, size_t len, unsigned mask)
{
	const struct cdefs *d = files_defs(f);
	const struct cdef *best = NULL;
	for (size_t i = 0; i < d->n; i++) {
		const struct cdef *c = &d->v[i];
		if (c->name_len == len && !memcmp(c->name, name, len) && (mask & IX_BIT(c->kind)) &&
		    (!best || (best->kind == CDEF_PROTOTYPE && c->kind != CDEF_PROTOTYPE)))
			best = c;
	}
	/* An enumerator's definition is its enum (or the typedef holding it). */
	for (size_t i = 0; !best && (mask & IX_BIT(IX_ENUMERATOR)) && i < f->enumerators.n; i++) {
		const struct cdef *c = &f->enumerators.v[i];
		if (c->name_len == len && !memcmp(c->name, name, len))
			best = context_def_at(f, c->first);
	}
	return best;
}

static bool has_lower(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (s[i] >= 'a' && s[i] <= 'z')
			return true;
	return false;
}

/*
 * May a definition found in path be the one code in from means? A static
 * one only in its own file. A name that is no call or tag (a macro, a
 * variable, a typedef) could be anybody's: only from a header from
 * reaches or from its directory, or, in upper case (a macro), from the
 * tree's shared include/linux/, include/uapi/ or include/asm-generic/.
 */
static bool plausible(const struct tfile *from, const char *path, bool is_static,
		      const char *name, size_t len, unsigned mask, long score)
{
	if (is_static && strcmp(path, from->path))
		return false;
	if (mask & (IX_BIT(IX_FUNCTION) | IX_BIT(IX_PROTOTYPE) | TAG_KINDS))
		return true;
	if (score >= NEAR_DIR)
		return true;
	return !has_lower(name, len) && (starts_with(path, "include/linux/") ||
					 starts_with(path, "include/uapi/") ||
					 starts_with(path, "include/asm-generic/"));
}

/* A prototype is the last resort: a definition anywhere says more. */
#define NEAR_PROTOTYPE 200000

/* The best two files the index names for a definition of name, best first, with their scores. */
static size_t candidates(struct tree_review *tr, struct symbol_index *ix,
			 const struct tfile *from, const char *name, size_t len, unsigned mask,
			 const char *out[2], long score[2])
{
	struct ix_hit hits[MAX_HITS];
	size_t n = ix ? symbol_index_find(ix, name, len, mask, hits, MAX_HITS) : 0, k = 0;
	for (size_t i = 0; i < n; i++) {
		if ((k > 0 && !strcmp(out[0], hits[i].path)) || (k > 1 && !strcmp(out[1], hits[i].path)))
			continue;
		long s = nearness(tr, ix, from, hits[i].path) -
			(hits[i].kind == IX_PROTOTYPE ? NEAR_PROTOTYPE : 0);
		if (!plausible(from, hits[i].path, hits[i].is_static, name, len, mask, s))
			continue;
		if (k < 2) {
			out[k] = hits[i].path;
			score[k++] = s;
		} else if (s > score[1]) {
			out[1] = hits[i].path;
			score[1] = s;
		}
		if (k == 2 && score[1] > score[0]) {
			const char *p = out[0];
			long t = score[0];
			out[0] = out[1], score[0] = score[1];
			out[1] = p, score[1] = t;
		}
	}
	return k;
}

/* In from, else the nearest in the patch's other files (as it leaves them) or the index. */
const struct cdef *context_find_def(struct tree_review *tr, struct symbol_index *ix,
				    const char *from, const char *name, size_t len,
				    unsigned mask, struct tfile **fo)
{
	struct tfile *f = files_get(tr->files, from), *best = NULL;
	const struct cdef *d = f ? def_in(f, name, len, mask) : NULL;
	long best_score = 0;
	*fo = d ? f : NULL;
	if (d || !f)
		return d;
	for (size_t i = 0; i < tr->files->n; i++) {
		struct tfile *g = tr->files->v[i];
		const struct cdef *c;
		if (g == f || g->patch_file < 0 || !context_is_c(g->path) ||
		    !(c = def_in(g, name, len, mask & ~IX_BIT(IX_PROTOTYPE))))
			continue;
		long s = nearness(tr, ix, f, g->path);
		if (plausible(f, g->path, c->is_static, name, len, mask, s) &&
		    (!d || s > best_score)) {
			d = c;
			best = g;
			best_score = s;
		}
	}
	const char *paths[2];
	long score[2];
	size_t n = candidates(tr, ix, f, name, len, mask, paths, score);
	if (n)
		files_prefetch(tr->files, paths, n);
	for (size_t i = 0; i < n && (!d || score[i] > best_score); i++) {
		struct tfile *c = files_get(tr->files, paths[i]);
		const struct cdef *cd = c ? def_in(c, name, len, mask) : NULL;
		if (cd) {
			d = cd;
			best = c;
			break;
		}
	}
	*fo = d ? best : NULL;
	return d;
}

struct found {
	struct tfile *file;
	const struct cdef *def;
	long near;
	size_t order;		/* of first use, for equal nearness */
};

static int by_nearness(const void *a, const void *b)
{
	const struct found *x = a, *y = b;
	if (x->near != y->near)
		return x->near > y->near ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static bool in_set(const struct changed_set *s, const struct cdef *d)
{
	for (size_t k = 0; k < s->n; k++)
		if (s->v[k].def == d)
			return true;
	return false;
}

void context_used(struct tree_review *tr, struct symbol_index *ix,
		  const struct changed_set *set, const struct changed_set *contracts)
{
	const struct patch *p = tr->patch;
	struct wants w = { .n = 0 };
	for (size_t i = 0; i < tr->files->n; i++) {
		struct tfile *f = tr->files->v[i];
		for (size_t h = 0; f->patch_file >= 0 && context_is_c(f->path) && h < p->nhunks; h++)
			if (p->hunks[h].file == f->patch_file)
				wants_of_hunk(&w, tr, f, h);
	}
	/* One read for every file the index points to. */
	const char **paths = xcalloc(2 * w.n + 1, sizeof(*paths));
	size_t np = 0;
	long scores[2];
	for (size_t i = 0; i < w.n; i++)
		np += candidates(tr, ix, w.v[i].from, w.v[i].name, w.v[i].len, w.v[i].mask,
				 paths + np, scores);
	files_prefetch(tr->files, paths, np);
	free(paths);
	struct found *found = xcalloc(w.n + 1, sizeof(*found));
	size_t nfound = 0;
	for (size_t i = 0; i < w.n; i++) {
		struct tfile *f;
		const struct cdef *d = context_find_def(tr, ix, w.v[i].from->path, w.v[i].name,
							w.v[i].len, w.v[i].mask, &f);
		bool dup = d && (in_set(set, d) || in_set(contracts, d));
		for (size_t k = 0; d && k < nfound; k++)
			dup |= found[k].def == d;
		if (d && !dup && !strstr(f->path, "errno"))
			found[nfound++] = (struct found){ f, d, nearness(tr, ix, w.v[i].from, f->path), i };
		free(w.v[i].name);
	}
	qsort(found, nfound, sizeof(*found), by_nearness);
	for (size_t i = 0; i < nfound; i++)
		context_add(tr, CONTEXT_DEFINITION, context_def_title(found[i].file, found[i].def,
							      "used by the added lines"),
			    context_def_text(found[i].file, found[i].def, DEF_MAX_LINES), NULL);
	free(found);
}

void context_changed(struct tree_review *tr, bool want_context, struct changed_set *set)
{
	for (size_t i = 0; i < tr->files->n; i++) {
		struct tfile *f = tr->files->v[i];
		if (f->patch_file >= 0 && context_is_c(f->path) && (f->post || f->base))
			changed_in_file(tr, f, want_context, set);
	}
}
