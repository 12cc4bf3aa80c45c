/* clex.c: tokens of C text, without comments, strings' insides or continuations. */
#include <stdlib.h>
#include <string.h>

#include "csource/clex.h"

void clex_init(struct clex *lx, const char *text, size_t len)
{
	*lx = (struct clex){ text, text, text + len, 1, true, false };
}

static bool ident_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool ident_char(char c)
{
	return ident_start(c) || (c >= '0' && c <= '9');
}

/* Skips blanks, comments and backslash-newlines; stops at a newline that counts. */
static void skip_space(struct clex *lx)
{
	const char *p = lx->p, *end = lx->end;
	while (p < end) {
		if (*p == ' ' || *p == '\t' || *p == '\f' || *p == '\v' || *p == '\r') {
			p++;
		} else if (*p == '\\' && p + 1 < end && (p[1] == '\n' || p[1] == '\r')) {
			p += p[1] == '\r' && p + 2 < end && p[2] == '\n' ? 3 : 2;
			lx->line++;
		} else if (*p == '\n') {
			if (lx->in_directive)
				break;
			p++;
			lx->line++;
			lx->line_start = true;
		} else if (*p == '/' && p + 1 < end && p[1] == '/') {
			while (p < end && *p != '\n') {
				if (*p == '\\' && p + 1 < end && p[1] == '\n')
					p++, lx->line++;
				p++;
			}
		} else if (*p == '/' && p + 1 < end && p[1] == '*') {
			p += 2;
			while (p < end && !(*p == '*' && p + 1 < end && p[1] == '/'))
				if (*p++ == '\n')
					lx->line++;
			p = p < end ? p + 2 : end;
		} else {
			break;
		}
	}
	lx->p = p;
}

/* A string or character literal; an unclosed one ends at the end of its line. */
static const char *skip_literal(const char *p, const char *end, uint32_t *line)
{
	char quote = *p++;
	while (p < end && *p != quote && *p != '\n') {
		if (*p == '\\' && p + 1 < end) {
			if (p[1] == '\n')
				(*line)++;
			p++;
		}
		p++;
	}
	return p < end && *p == quote ? p + 1 : p;
}

void clex_next(struct clex *lx, struct tok *t)
{
	skip_space(lx);
	const char *p = lx->p, *end = lx->end;
	bool first = lx->line_start;
	*t = (struct tok){ TOK_EOF, p, 0, lx->line, false };
	if (p >= end) {
		if (lx->in_directive) {
			lx->in_directive = false;
			t->kind = TOK_DIRECTIVE_END;
		}
		return;
	}
	t->col0 = p == lx->start || p[-1] == '\n';
	lx->line_start = false;
	if (*p == '\n') {	/* only in a directive */
		lx->in_directive = false;
		lx->line_start = true;
		lx->line++;
		lx->p = p + 1;
		t->kind = TOK_DIRECTIVE_END;
		return;
	}
	if (*p == '#' && first && !lx->in_directive) {
		lx->in_directive = true;
		t->kind = TOK_DIRECTIVE;
		t->len = 1;
		lx->p = p + 1;
		return;
	}
	if (ident_start(*p)) {
		const char *q = p;
		while (q < end && ident_char(*q))
			q++;
		/* L"...", u8"...": a prefixed literal is one string */
		if (q < end && (*q == '"' || *q == '\'') && q - p <= 2) {
			q = skip_literal(q, end, &lx->line);
			t->kind = TOK_STRING;
		} else {
			t->kind = TOK_IDENT;
		}
		t->len = (size_t)(q - p);
	} else if ((*p >= '0' && *p <= '9') || (*p == '.' && p + 1 < end && p[1] >= '0' && p[1] <= '9')) {
		const char *q = p + 1;
		while (q < end && (ident_char(*q) || *q == '.' ||
				   ((*q == '+' || *q == '-') && (q[-1] == 'e' || q[-1] == 'E' ||
								 q[-1] == 'p' || q[-1] == 'P'))))
			q++;
		t->kind = TOK_NUMBER;
		t->len = (size_t)(q - p);
	} else if (*p == '"' || *p == '\'') {
		uint32_t line = lx->line;
		const char *q = skip_literal(p, end, &lx->line);
		t->kind = TOK_STRING;
		t->len = (size_t)(q - p);
		t->line = line;
	} else {
		t->kind = TOK_PUNCT;
		t->len = 1;
		if (*p == '.' && p + 2 < end && p[1] == '.' && p[2] == '.')
			t->len = 3;
		else if (*p == '-' && p + 1 < end && p[1] == '>')
			t->len = 2;
	}
	lx->p = p + t->len;
}

struct word {
	const char *s;
	size_t len;
};

static int by_word(const void *key, const void *elem)
{
	const struct word *w = key;
	const char *e = *(const char *const *)elem;
	int c = strncmp(w->s, e, w->len);
	return c ? c : e[w->len] ? -1 : 0;
}

bool c_reserved(const char *s, size_t len)
{
	static const char *const words[] = {	/* sorted, for bsearch */
		"_Alignas", "_Alignof", "_Atomic", "_Bool", "_Generic", "_Static_assert",
		"__asm__", "__attribute__", "__typeof__", "asm", "auto", "break", "case", "char",
		"const", "continue", "default", "defined", "do", "double", "else", "enum",
		"extern", "float", "for", "goto", "if", "inline", "int", "long", "register",
		"restrict", "return", "short", "signed", "sizeof", "static", "struct",
		"switch", "typedef", "typeof", "union", "unsigned", "void", "volatile", "while",
	};
	struct word key = { s, len };
	return bsearch(&key, words, sizeof(words) / sizeof(*words), sizeof(*words), by_word) != NULL;
}

int c_call_args(const char *open, const char *end)
{
	struct clex lx;
	struct tok t;
	int depth = 0, commas = 0;
	bool any = false;
	clex_init(&lx, open, (size_t)(end - open));
	for (clex_next(&lx, &t); t.kind != TOK_EOF; clex_next(&lx, &t)) {
		if (t.kind == TOK_PUNCT && (*t.s == '(' || *t.s == '[' || *t.s == '{')) {
			if (depth++ && !any)
				any = true;
			continue;
		}
		if (t.kind == TOK_PUNCT && (*t.s == ')' || *t.s == ']' || *t.s == '}')) {
			if (--depth == 0)
				return any ? commas + 1 : 0;
			continue;
		}
		if (depth == 1 && t.kind == TOK_PUNCT && *t.s == ',')
			commas++;
		else if (depth >= 1)
			any = true;
	}
	return -1;
}
