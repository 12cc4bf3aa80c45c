/*
 * cscan.c: the top-level definitions of a C file, from its tokens. Each
 * top-level statement is watched for the shape of a definition: a
 * parameter list then "{" is a function, "struct NAME {" a type, "= {"
 * or "=" a variable, "typedef ... NAME;" a typedef, a parameter list then
 * ";" a prototype; "#define NAME" is a macro.
 */
#include <stdlib.h>
#include <string.h>

#include "base/msg.h"
#include "csource/clex.h"

/* What one top-level statement has shown so far. */
struct stmt {
	bool open;		/* a token was seen */
	uint32_t first, doc;
	bool is_typedef, is_static, is_extern_c;
	int tokens;		/* before the name candidate */
	enum cdef_kind tag_kind;
	struct tok tag;		/* struct/union/enum NAME, or len 0 */
	bool after_tag_kw;
	struct tok cand;	/* NAME followed by "(" at depth 0, or len 0 */
	uint32_t params;
	bool params_any, params_void, params_variadic;
	bool in_cand_parens;
	bool closed;		/* the block's "}" came; what follows names a typedef */
	bool eq;		/* "=" at depth 0 */
	struct tok before_eq, last, fnptr;	/* identifiers */
	bool fnptr_next;	/* just saw "(" or "( *" */
	bool prev_ident;
	int parens, brackets;
	/* a "{" at depth 0 opened a block of this statement */
	bool block;
	enum cdef_kind block_kind;
	struct tok block_name;
};

struct scanner {
	struct cdefs *out;
	cuse_fn *use;
	void *ctx;
	struct stmt st;
	int depth;		/* braces */
	int transparent;	/* extern "C" { ... } levels */
	uint32_t comment_end;	/* line where the last comment block ended, for doc */
	uint32_t comment_first;
};

static void add(struct scanner *s, enum cdef_kind kind, const struct tok *name,
		uint32_t last)
{
	struct cdefs *d = s->out;
	if (!name->len)
		return;
	if (d->n == d->cap) {
		d->cap = d->cap ? d->cap * 2 : 64;
		d->v = xrealloc(d->v, d->cap * sizeof(*d->v));
	}
	const struct stmt *st = &s->st;
	uint32_t params = st->params_variadic ? CDEF_VARIADIC
		: st->params_void && st->params == 0 ? 0 : st->params_any ? st->params + 1 : 0;
	d->v[d->n++] = (struct cdef){
		.kind = kind, .name = name->s, .name_len = (uint32_t)name->len,
		.doc = st->doc ? st->doc : st->first, .first = st->first, .last = last,
		.params = params, .is_static = st->is_static,
	};
}

static bool is_attribute(const struct tok *t)
{
	static const char *const words[] = {
		"__aligned", "__alloc_size", "__attribute__", "__printf", "__scanf",
		"__section", "__must_hold", "__acquires", "__releases", "__nocfi",
		"__cond_acquires", "__diag_ignore", "__counted_by", "alignas", "_Alignas",
		"__declspec", "__typeof__", "typeof", "sizeof",
	};
	for (size_t i = 0; i < sizeof(words) / sizeof(*words); i++)
		if (tok_is(t, words[i]))
			return true;
	return false;
}

static void stmt_reset(struct scanner *s)
{
	s->st = (struct stmt){ 0 };
}

static bool punct(const struct tok *t, char c)
{
	return t->kind == TOK_PUNCT && t->len == 1 && *t->s == c;
}

/* Parameters of the name candidate: commas at depth 1, "void", "...". */
static void count_param(struct stmt *st, const struct tok *t)
{
	if (punct(t, ','))
		st->params++;
	else if (t->kind == TOK_PUNCT && t->len == 3)
		st->params_variadic = true;
	else if (!st->params_any && tok_is(t, "void"))
		st->params_void = st->params_any = true;
	else
		st->params_void = false, st->params_any = true;
}

static void stmt_identifier(struct stmt *st, const struct tok *t)
{
	if (st->after_tag_kw) {
		st->after_tag_kw = false;
		if (!is_attribute(t) && !tok_is(t, "__packed")) {
			st->tag = *t;
			return;
		}
	}
	if (tok_is(t, "typedef"))
		st->is_typedef = true;
	else if (tok_is(t, "static"))
		st->is_static = true;
	if (st->parens || st->brackets)
		return;
	if (!st->tag.len && (tok_is(t, "struct") || tok_is(t, "union") || tok_is(t, "enum"))) {
		st->tag_kind = *t->s == 's' ? CDEF_STRUCT : *t->s == 'u' ? CDEF_UNION : CDEF_ENUM;
		st->after_tag_kw = true;
	}
	st->last = *t;
	if (!st->cand.len)
		st->tokens++;
}

static void stmt_token(struct scanner *s, const struct tok *t)
{
	struct stmt *st = &s->st;
	if (!st->open) {
		st->open = true;
		st->first = t->line;
		if (s->comment_end && s->comment_end + 1 >= t->line)
			st->doc = s->comment_first;
	}
	bool was_ident = st->prev_ident, fnptr_next = st->fnptr_next;
	st->prev_ident = t->kind == TOK_IDENT;
	st->fnptr_next = false;
	if (st->in_cand_parens && st->parens == 1 && !punct(t, ')'))
		count_param(st, t);
	if (t->kind == TOK_IDENT) {
		if (fnptr_next && !st->fnptr.len)
			st->fnptr = *t;
		stmt_identifier(st, t);
	} else if (punct(t, '(')) {
		if (!st->parens && !st->brackets && !st->cand.len && !st->eq && was_ident &&
		    !c_reserved(st->last.s, st->last.len) && !is_attribute(&st->last)) {
			st->cand = st->last;
			st->in_cand_parens = true;
		}
		st->parens++;
		st->fnptr_next = true;
	} else if (punct(t, ')')) {
		if (st->parens && !--st->parens)
			st->in_cand_parens = false;
	} else if (punct(t, '*')) {
		st->fnptr_next = fnptr_next;
	} else if (punct(t, '[')) {
		st->brackets++;
	} else if (punct(t, ']')) {
		if (st->brackets)
			st->brackets--;
	} else if (punct(t, '=') && !st->parens && !st->brackets && !st->eq) {
		st->eq = true;
		st->before_eq = st->last;
	}
}

static void open_brace(struct scanner *s, const struct tok *t)
{
	struct stmt *st = &s->st;
	if (!st->open) {
		st->open = true;
		st->first = t->line;
	}
	st->block = true;
	if (st->tag.len && !st->cand.len && !st->eq) {
		st->block_kind = st->tag_kind;
		st->block_name = st->tag;
	} else if (st->cand.len && !st->eq) {
		st->block_kind = CDEF_FUNCTION;
		st->block_name = st->cand;
	} else if (st->eq) {
		st->block_kind = CDEF_VARIABLE;
		st->block_name = st->before_eq;
	} else {
		st->block_name.len = 0;
	}
}

/* The statement ends at ";" (or at the "}" of a function). */
static void end_statement(struct scanner *s, uint32_t line)
{
	struct stmt *st = &s->st;
	if (st->block) {
		add(s, st->block_kind, &st->block_name, line);
		if (st->is_typedef && st->closed)
			add(s, CDEF_TYPEDEF, &st->last, line);
	} else if (st->is_typedef) {
		add(s, CDEF_TYPEDEF, st->fnptr.len ? &st->fnptr : &st->last, line);
	} else if (st->eq) {
		add(s, CDEF_VARIABLE, &st->before_eq, line);
	} else if (st->cand.len && st->tokens > 1) {
		add(s, CDEF_PROTOTYPE, &st->cand, line);
	}
	stmt_reset(s);
}

/* "#define NAME" and "#if 0"; the rest of a directive only reports uses. */
static void directive(struct scanner *s, struct clex *lx, int *skip)
{
	struct tok t, name = { 0 };
	clex_next(lx, &t);
	uint32_t first = t.line;
	bool define = tok_is(&t, "define"), function_like = false;
	bool is_if = tok_is(&t, "if") || tok_is(&t, "ifdef") || tok_is(&t, "ifndef");
	bool is_endif = tok_is(&t, "endif"), is_else = tok_is(&t, "else") || tok_is(&t, "elif");
	if (*skip) {
		if (is_if)
			(*skip)++;
		else if (is_endif || (is_else && *skip == 1))
			(*skip)--;
		while (t.kind != TOK_DIRECTIVE_END && t.kind != TOK_EOF)
			clex_next(lx, &t);
		return;
	}
	if (tok_is(&t, "if")) {
		clex_next(lx, &t);
		if (t.kind == TOK_NUMBER && tok_is(&t, "0"))
			*skip = 1;
	} else if (define) {
		clex_next(lx, &name);
		if (name.kind == TOK_IDENT && name.s + name.len < lx->end && name.s[name.len] == '(')
			function_like = true;
		t = name;
	}
	struct tok prev = t;
	uint32_t last = t.line;
	while (t.kind != TOK_DIRECTIVE_END && t.kind != TOK_EOF) {
		clex_next(lx, &t);
		if (t.kind != TOK_DIRECTIVE_END && t.kind != TOK_EOF)
			last = t.line;
		if (s->use && prev.kind == TOK_IDENT && t.kind == TOK_PUNCT && *t.s == '(' &&
		    prev.s != name.s && !c_reserved(prev.s, prev.len))
			s->use(s->ctx, CUSE_CALL, prev.s, prev.len, prev.line);
		prev = t;
	}
	if (define && name.kind == TOK_IDENT) {
		struct stmt saved = s->st;
		stmt_reset(s);
		s->st.first = first;
		if (s->comment_end && s->comment_end + 1 >= first)
			s->st.doc = s->comment_first;
		add(s, CDEF_MACRO, &name, last);
		s->out->v[s->out->n - 1].function_like = function_like;
		s->st = saved;
	}
}

static void report_use(struct scanner *s, const struct tok *prev, const struct tok *prev2,
		       const struct tok *t)
{
	if (prev->kind != TOK_IDENT)
		return;
	if (t->kind == TOK_PUNCT && *t->s == '(' && !c_reserved(prev->s, prev->len))
		s->use(s->ctx, CUSE_CALL, prev->s, prev->len, prev->line);
	else if (prev2->kind == TOK_IDENT && (tok_is(prev2, "struct") || tok_is(prev2, "union") ||
					       tok_is(prev2, "enum")))
		s->use(s->ctx, CUSE_TAG, prev->s, prev->len, prev->line);
}

/* Remembers where comments end, for the doc line of the definition below. */
static void note_comments(struct scanner *s, const char *from, const char *to, uint32_t line)
{
	/* Comments between two tokens: find the last one, count back its lines. */
	const char *c = NULL;
	for (const char *p = from; p + 1 < to; p++)
		if (p[0] == '/' && p[1] == '*')
			c = p;
	if (!c)
		return;
	uint32_t first = line;
	for (const char *p = c; p < to; p++)
		if (*p == '\n')
			first--;
	s->comment_first = first;
	s->comment_end = first;
	for (const char *p = c; p + 1 < to && !(p[0] == '*' && p[1] == '/'); p++)
		if (*p == '\n')
			s->comment_end++;
}

void cscan(const char *text, size_t len, struct cdefs *out, cuse_fn *use, void *ctx)
{
	struct scanner s = { .out = out, .use = use, .ctx = ctx };
	struct clex lx;
	struct tok t, prev = { 0 }, prev2 = { 0 };
	int skip = 0;
	const char *last_end = text;
	clex_init(&lx, text, len);
	for (clex_next(&lx, &t); t.kind != TOK_EOF; clex_next(&lx, &t)) {
		if (s.depth == 0 && t.s > last_end + 1)
			note_comments(&s, last_end, t.s, t.line);
		last_end = t.s + t.len;
		if (t.kind == TOK_DIRECTIVE) {
			directive(&s, &lx, &skip);
			last_end = lx.p;
			continue;
		}
		if (skip)
			continue;
		if (use)
			report_use(&s, &prev, &prev2, &t);
		prev2 = prev;
		prev = t;
		if (punct(&t, '{')) {
			if (s.depth == 0 && s.st.tokens == 1 && s.st.is_extern_c) {
				s.transparent++;
				stmt_reset(&s);
				continue;
			}
			/* Kernel style: a body's brace in column 0 ends the declarator. */
			if (t.col0 && s.depth == 0)
				s.st.parens = 0, s.st.in_cand_parens = false;
			/* A brace inside parentheses (a macro's argument) opens no definition. */
			if (s.depth++ == 0 && !s.st.parens)
				open_brace(&s, &t);
			continue;
		}
		if (punct(&t, '}')) {
			if (s.depth == 0) {
				if (s.transparent)
					s.transparent--;
				stmt_reset(&s);
				continue;
			}
			if (t.col0)
				s.depth = 1;	/* resynchronise on kernel style */
			if (--s.depth)
				continue;
			if (s.st.block_kind == CDEF_FUNCTION && s.st.block_name.len) {
				end_statement(&s, t.line);
			} else {
				s.st.closed = true;
				s.st.last = (struct tok){ 0 };
				s.st.prev_ident = false;	/* no name before a '(' now */
			}
			continue;
		}
		/* An enumerator: a name after the "{" or a "," of a top-level enum's list. */
		if (s.depth == 1 && use && t.kind == TOK_IDENT && s.st.block &&
		    s.st.tag_kind == CDEF_ENUM && !s.st.cand.len && !s.st.eq &&
		    (punct(&prev2, '{') || punct(&prev2, ',')))
			use(ctx, CUSE_ENUMERATOR, t.s, t.len, t.line);
		if (s.depth)
			continue;
		if (punct(&t, ';') && !s.st.parens) {
			end_statement(&s, t.line);
			continue;
		}
		if (t.kind == TOK_STRING && s.st.tokens == 1 && tok_is(&s.st.last, "extern")) {
			s.st.is_extern_c = true;
			continue;
		}
		stmt_token(&s, &t);
	}
}

void cdefs_release(struct cdefs *d)
{
	free(d->v);
	*d = (struct cdefs){ 0 };
}

const char *cdef_kind_name(enum cdef_kind k)
{
	static const char *const names[] = {
		"function", "prototype", "struct", "union", "enum", "typedef", "macro", "variable",
	};
	return names[k];
}
