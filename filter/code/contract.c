/*
 * contract.c: the callees whose contract the added lines rely on. A wrong
 * comment on a patch most often rests on a guess about a helper: what it
 * does to its out-parameter on failure, what it returns, whether it takes
 * the lock. So a project function the added lines call with "&x", whose
 * result they test, or that takes or drops a lock or a reference goes into
 * the request with its body, ahead of the other definitions.
 */
#include <stdlib.h>
#include <string.h>

#include "base/msg.h"
#include "code/contract.h"

/* Callees shown for one patch. */
#define CONTRACT_MAX 12
/* A callee up to this long goes in whole; a longer one as its head and its returns. */
#define CONTRACT_WHOLE_LINES 40
/* Returns shown around in a long callee. */
#define CONTRACT_MAX_RETURNS 16
/* Names tested in one hunk's conditions that are remembered. */
#define TESTED_MAX 64

enum why { WHY_OUT = 1, WHY_TESTED = 2, WHY_LOCK = 4 };

struct callee {
	char *name;
	size_t len;
	unsigned why;
	struct tfile *from;
};

struct callees {
	struct callee v[CONTRACT_MAX];
	size_t n;
};

/* The identifiers inside if (...) and while (...) conditions of code. */
struct tested {
	struct tok v[TESTED_MAX];
	size_t n;
};

static void find_tested(const char *code, size_t len, struct tested *t)
{
	struct clex lx;
	struct tok k, prev = { 0 };
	int depth = 0;
	bool in_cond = false;
	clex_init(&lx, code, len);
	for (clex_next(&lx, &k); k.kind != TOK_EOF; prev = k, clex_next(&lx, &k)) {
		if (!in_cond && k.kind == TOK_PUNCT && *k.s == '(' &&
		    (tok_is(&prev, "if") || tok_is(&prev, "while"))) {
			in_cond = true;
			depth = 0;
		}
		if (!in_cond)
			continue;
		if (k.kind == TOK_PUNCT && *k.s == '(')
			depth++;
		else if (k.kind == TOK_PUNCT && *k.s == ')' && --depth == 0)
			in_cond = false;
		else if (k.kind == TOK_IDENT && t->n < TESTED_MAX)
			t->v[t->n++] = k;
	}
}

static bool is_tested(const struct tested *t, const struct tok *name)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->v[i].len == name->len && !memcmp(t->v[i].s, name->s, name->len))
			return true;
	return false;
}

/* Does the name say it takes or drops a lock or a reference (a part between '_')? */
static bool lock_or_ref(const char *s, size_t len)
{
	static const char *const words[] = {
		"lock", "unlock", "trylock", "get", "put", "hold", "ref", "unref", "acquire",
		"release", "grab", "pin", "unpin",
	};
	for (size_t i = 0; i < len;) {
		size_t n = 0;
		while (i + n < len && s[i + n] != '_')
			n++;
		for (size_t w = 0; n && w < sizeof(words) / sizeof(*words); w++)
			if (strlen(words[w]) == n && !memcmp(words[w], s + i, n))
				return true;
		i += n + 1;
	}
	return false;
}

static bool punct(const struct tok *t, char c)
{
	return t->kind == TOK_PUNCT && *t->s == c;
}

/* A comparison or a logical operator right after a call's closing parenthesis. */
static bool tests_after(const struct tok *t, const struct tok *next)
{
	return punct(t, '<') || punct(t, '>') || punct(t, '?') ||
		((punct(t, '=') || punct(t, '!')) && punct(next, '=')) ||
		(punct(t, '&') && punct(next, '&')) || (punct(t, '|') && punct(next, '|'));
}

static void callee_add(struct callees *c, struct tfile *from, const struct tok *name,
		       unsigned why)
{
	for (size_t i = 0; i < c->n; i++)
		if (c->v[i].len == name->len && !memcmp(c->v[i].name, name->s, name->len)) {
			c->v[i].why |= why;
			return;
		}
	if (c->n < CONTRACT_MAX)
		c->v[c->n++] = (struct callee){ xstrndup(name->s, name->len), name->len, why, from };
}

/*
 * One call at lx (just past NAME's '('), read to its ')': what the added
 * lines ask of it. before[0..3) are the tokens before NAME, nearest first;
 * tested, the names the hunk's conditions test.
 */
static unsigned call_needs(struct clex *lx, const struct tok *name, const struct tok before[3],
			   const struct tested *tested)
{
	unsigned why = lock_or_ref(name->s, name->len) ? WHY_LOCK : 0;
	struct tok t, prev = { TOK_PUNCT, "(", 1, 0, false }, next;
	int depth = 1;
	/* Its arguments: "&x" at an argument's start is an out-parameter. */
	for (clex_next(lx, &t); t.kind != TOK_EOF && depth; prev = t, clex_next(lx, &t)) {
		depth += punct(&t, '(') - punct(&t, ')');
		if (punct(&t, '&') && (punct(&prev, '(') || punct(&prev, ',')) && depth == 1)
			why |= WHY_OUT;
	}
	next = t;
	struct clex peek = *lx;
	struct tok after;
	clex_next(&peek, &after);
	const struct tok *b = punct(&before[0], '!') ? &before[1] : &before[0];
	if (tests_after(&next, &after) || punct(b, '<') || punct(b, '>') || punct(b, '?') ||
	    (punct(b, '(') && (tok_is(b + 1, "if") || tok_is(b + 1, "while"))) ||
	    (punct(&before[0], '=') && before[1].kind == TOK_PUNCT && strchr("=!<>", *before[1].s)))
		why |= WHY_TESTED;
	else if (punct(&before[0], '=') && before[1].kind == TOK_IDENT && is_tested(tested, &before[1]))
		why |= WHY_TESTED;
	return why;
}

/* The calls of hunk h's added lines that rely on a contract. */
static void calls_of_hunk(struct callees *c, const struct patch *p, struct tfile *f, size_t h)
{
	struct buf added = BUF_INIT, after = BUF_INIT;
	for (size_t l = p->hunks[h].header_line + 1; l < p->hunks[h].end_line; l++) {
		const struct patch_line *pl = &p->lines[l];
		if (pl->kind == LINE_REMOVED)
			continue;
		buf_add(&after, pl->text + 1, pl->len - 1);
		buf_addch(&after, '\n');
		if (pl->kind == LINE_ADDED) {
			buf_add(&added, pl->text + 1, pl->len - 1);
			buf_addch(&added, '\n');
		}
	}
	struct tested *tested = xcalloc(1, sizeof(*tested));
	find_tested(after.data, after.len, tested);
	struct clex lx;
	struct tok before[3] = { { 0 } }, t, next;
	clex_init(&lx, added.data, added.len);
	for (clex_next(&lx, &t); t.kind != TOK_EOF; t = next) {
		struct clex peek = lx;
		clex_next(&peek, &next);
		if (t.kind == TOK_IDENT && punct(&next, '(') && !c_reserved(t.s, t.len) &&
		    !(before[0].kind == TOK_PUNCT && (*before[0].s == '.' || tok_is(&before[0], "->")))) {
			lx = peek;
			unsigned why = call_needs(&lx, &t, before, tested);
			if (why)
				callee_add(c, f, &t, why);
		}
		memmove(&before[1], &before[0], 2 * sizeof(*before));
		before[0] = t;
		clex_next(&lx, &next);
	}
	free(tested);
	buf_release(&added);
	buf_release(&after);
}

/* Why it is shown, for the item's title. */
static const char *why_text(unsigned why)
{
	if (why & WHY_OUT)
		return "called by the added lines with an out-parameter";
	if (why & WHY_TESTED)
		return "whose result the added lines test";
	return "which takes or drops a lock or a reference for the added lines";
}

/* The callee's text: whole when short, else its head and the lines around its returns. */
static char *contract_text(const struct tfile *f, const struct cdef *d)
{
	if (d->last - d->doc + 1 <= CONTRACT_WHOLE_LINES)
		return context_def_text(f, d, CONTRACT_WHOLE_LINES);
	size_t len;
	const char *text = tfile_text(f, &len);
	uint32_t lines[CONTRACT_MAX_RETURNS], n = 0;
	struct clex lx;
	struct tok t;
	/* The lexer counts lines from the start of the text it is given. */
	clex_init(&lx, text, len);
	for (clex_next(&lx, &t); t.kind != TOK_EOF && t.line <= d->last &&
	     n < CONTRACT_MAX_RETURNS; clex_next(&lx, &t))
		if (t.line > d->first && (tok_is(&t, "return") || tok_is(&t, "goto")) &&
		    (!n || lines[n - 1] != t.line))
			lines[n++] = t.line;
	return context_short_form(f, d, lines, n);
}

void context_contracts(struct tree_review *tr, struct symbol_index *ix,
		       const struct changed_set *changed, struct changed_set *out)
{
	const struct patch *p = tr->patch;
	struct callees *c = xcalloc(1, sizeof(*c));
	for (size_t i = 0; i < tr->files->n; i++) {
		struct tfile *f = tr->files->v[i];
		for (size_t h = 0; f->patch_file >= 0 && context_is_c(f->path) && h < p->nhunks; h++)
			if (p->hunks[h].file == f->patch_file)
				calls_of_hunk(c, p, f, h);
	}
	out->v = xcalloc(c->n + 1, sizeof(*out->v));
	for (size_t i = 0; i < c->n; i++) {
		struct tfile *f;
		const struct cdef *d = context_find_def(tr, ix, c->v[i].from->path, c->v[i].name,
							c->v[i].len, IX_BIT(IX_FUNCTION), &f);
		bool dup = !d;
		for (size_t k = 0; d && k < changed->n; k++)
			dup |= changed->v[k].def == d;
		for (size_t k = 0; d && k < out->n; k++)
			dup |= out->v[k].def == d;
		if (dup || d->kind != CDEF_FUNCTION)
			continue;
		out->v[out->n++] = (struct changed_def){ f, d, false };
		context_add(tr, CONTEXT_CONTRACT, context_def_title(f, d, why_text(c->v[i].why)),
			    contract_text(f, d), NULL);
	}
	for (size_t i = 0; i < c->n; i++)
		free(c->v[i].name);
	free(c);
}
