/* ctext.c: C lines split into code and prose, in one pass over the patch. */
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/msg.h"
#include "checks/ctext.h"

enum {
	C_ADDED = 1 << 0,
	C_FIRST = 1 << 1,
	C_SLASH = 1 << 2,
	C_BLOCK = 1 << 3,
	C_STORED = 1 << 4,	/* its code and prose are in the arena */
};

#define NO_LINE UINT32_MAX	/* PATCH_MAX_LINES is well below */

struct c_scanned {
	uint32_t index;		/* into patch->lines */
	uint32_t replaced;	/* the removed line an added one replaces, or NO_LINE */
	uint8_t flags;
};

struct c_span {
	size_t line;		/* its first c_scanned */
	size_t arena;		/* where its text starts in the arena */
};

bool c_source(const char *path)
{
	size_t n = path ? strlen(path) : 0;
	return n > 2 && path[n - 2] == '.' && (path[n - 1] == 'c' || path[n - 1] == 'h');
}

static size_t advance(size_t col, char c)
{
	if (c == '\t')
		return (col / 8 + 1) * 8;
	return col + (((unsigned char)c & 0xc0) != 0x80);
}

size_t c_columns(const char *s, size_t len)
{
	size_t col = 0;
	for (size_t i = 0; i < len; i++)
		col = advance(col, s[i]);
	return col;
}

size_t c_offset(const char *s, size_t len, size_t columns)
{
	size_t col = 0, i = 0;
	while (i < len && col < columns)
		col = advance(col, s[i++]);
	return i;
}

/* The bytes of a C identifier, looked up a byte at a time. */
static const bool ident_byte[256] = {
	['0'] = 1, ['1'] = 1, ['2'] = 1, ['3'] = 1, ['4'] = 1, ['5'] = 1, ['6'] = 1, ['7'] = 1,
	['8'] = 1, ['9'] = 1, ['A'] = 1, ['B'] = 1, ['C'] = 1, ['D'] = 1, ['E'] = 1, ['F'] = 1,
	['G'] = 1, ['H'] = 1, ['I'] = 1, ['J'] = 1, ['K'] = 1, ['L'] = 1, ['M'] = 1, ['N'] = 1,
	['O'] = 1, ['P'] = 1, ['Q'] = 1, ['R'] = 1, ['S'] = 1, ['T'] = 1, ['U'] = 1, ['V'] = 1,
	['W'] = 1, ['X'] = 1, ['Y'] = 1, ['Z'] = 1, ['_'] = 1, ['a'] = 1, ['b'] = 1, ['c'] = 1,
	['d'] = 1, ['e'] = 1, ['f'] = 1, ['g'] = 1, ['h'] = 1, ['i'] = 1, ['j'] = 1, ['k'] = 1,
	['l'] = 1, ['m'] = 1, ['n'] = 1, ['o'] = 1, ['p'] = 1, ['q'] = 1, ['r'] = 1, ['s'] = 1,
	['t'] = 1, ['u'] = 1, ['v'] = 1, ['w'] = 1, ['x'] = 1, ['y'] = 1, ['z'] = 1
};

static bool in_first(const struct c_names *names, char c)
{
	unsigned char u = (unsigned char)c;
	return names->first[u >> 6] >> (u & 63) & 1;
}

void c_names_init(struct c_names *names, const char *const *words, size_t n)
{
	*names = (struct c_names){ .words = words, .n = n, .shortest = SIZE_MAX };
	for (size_t k = 0; k < n; k++) {
		unsigned char c = (unsigned char)words[k][0];
		size_t len = strlen(words[k]);
		names->first[c >> 6] |= 1ull << (c & 63);
		names->shortest = len < names->shortest ? len : names->shortest;
		names->longest = len > names->longest ? len : names->longest;
	}
}

uint32_t c_idents(const char *code, const struct c_names *names)
{
	uint32_t seen = 0;
	for (const char *s = code; *s;) {
		if (!ident_byte[(unsigned char)*s]) {
			s++;
			continue;
		}
		const char *begin = s;
		while (ident_byte[(unsigned char)*s])
			s++;
		size_t len = (size_t)(s - begin);
		if (!in_first(names, *begin) || len < names->shortest || len > names->longest)
			continue;
		for (size_t k = 0; k < names->n; k++)
			if (names->words[k][0] == *begin && !strncmp(names->words[k], begin, len) &&
			    !names->words[k][len])
				seen |= 1u << k;
	}
	return seen;
}

/*
 * Fills code[0..len] and prose[0..len] (NUL-terminated) from s[0..len),
 * carrying the comment state on. Returns C_SLASH, C_BLOCK and C_STORED:
 * whether the line holds a comment or a literal, so differs from itself
 * as code or from blanks as prose.
 */
static uint8_t scan_line(bool *in_comment, const char *s, size_t len, char *code, char *prose)
{
	uint8_t flags = 0;
	char quote = 0;
	for (size_t i = 0; i < len; i++) {
		char c = s[i], next = i + 1 < len ? s[i + 1] : '\0';
		code[i] = c;
		prose[i] = ' ';
		if (*in_comment) {
			flags |= C_BLOCK;
			if (c == '*' && next == '/') {
				*in_comment = false;
				code[i] = code[i + 1] = prose[i + 1] = ' ';
				i++;
			} else {
				code[i] = ' ';
				prose[i] = c;
			}
		} else if (quote) {
			flags |= C_STORED;
			if (c == '\\' && i + 1 < len) {
				code[i] = code[i + 1] = 'X';
				prose[i] = c;
				prose[i + 1] = next;
				i++;
			} else if (c == quote) {
				quote = 0;
			} else {
				code[i] = 'X';
				prose[i] = c;
			}
		} else if (c == '/' && next == '*') {
			*in_comment = true;
			flags |= C_BLOCK;
			code[i] = code[i + 1] = prose[i + 1] = ' ';
			i++;
		} else if (c == '/' && next == '/') {
			flags |= C_SLASH;
			memset(code + i, ' ', len - i);
			memcpy(prose + i, s + i, len - i);
			break;
		} else if (c == '"' || c == '\'') {
			quote = c;
		}
	}
	code[len] = prose[len] = '\0';
	return flags ? flags | C_STORED : 0;
}

/* Does the hunk open inside a block comment? (see ctext.h) */
static bool starts_in_comment(const struct patch *p, const struct patch_hunk *h)
{
	bool first = true;
	for (size_t i = h->header_line + 1; i < h->end_line; i++) {
		const struct patch_line *pl = &p->lines[i];
		if (pl->kind != LINE_CONTEXT && pl->kind != LINE_ADDED)
			continue;
		const char *s = pl->len ? pl->text + 1 : "";
		if (first) {
			const char *t = s + strspn(s, " \t");
			if (t[0] == '*' && (t[1] == ' ' || t[1] == '\0' || t[1] == '/'))
				return true;
			first = false;
		}
		const char *open = strstr(s, "/*"), *close = strstr(s, "*/");
		if (strchr(s, '"') && (open || close))
			continue;	/* a marker in a string, perhaps */
		if (close && (!open || close < open))
			return true;
		if (open)
			return false;
	}
	return false;
}

/* What one pass over the patch carries from line to line. */
struct scan {
	struct c_text *ct;
	size_t n;		/* lines kept */
	struct buf arena;
	char *scratch;		/* a line's code and prose, before they are kept */
	size_t scratch_cap;
};

static void keep_line(struct scan *sc, size_t i, uint32_t replaced, uint8_t flags,
		      bool *in_comment)
{
	const struct patch_line *pl = &sc->ct->patch->lines[i];
	const char *raw = pl->len ? pl->text + 1 : "";
	size_t len = pl->len ? pl->len - 1 : 0;
	if (2 * len + 2 > sc->scratch_cap) {
		sc->scratch_cap = 2 * len + 2 > 2 * sc->scratch_cap ? 2 * len + 2 : 2 * sc->scratch_cap;
		sc->scratch = xrealloc(sc->scratch, sc->scratch_cap);
	}
	/* Most lines hold no comment and no literal: nothing to blank or copy. */
	if (*in_comment || strcspn(raw, "/\"'") < len)
		flags |= scan_line(in_comment, raw, len, sc->scratch, sc->scratch + len + 1);
	if (flags & C_STORED)
		buf_add(&sc->arena, sc->scratch, 2 * len + 2);
	if (len > sc->ct->longest)
		sc->ct->longest = len;
	sc->ct->lines[sc->n++] = (struct c_scanned){ (uint32_t)i, replaced, flags };
}

/* The context and added lines of file f, hunk by hunk, with the line each replaces. */
static void scan_file(struct scan *sc, const struct patch_file *f)
{
	const struct patch *p = sc->ct->patch;
	bool in_comment = false, first = false;
	uint32_t removed = 0, nremoved = 0, nadded = 0;
	uint8_t prev = LINE_OTHER;
	for (size_t i = f->first_line; i < f->end_line; prev = p->lines[i++].kind) {
		uint8_t kind = p->lines[i].kind;
		if (kind == LINE_HUNK_HEADER) {
			in_comment = starts_in_comment(p, &p->hunks[p->lines[i].hunk]);
			first = true;
			continue;
		}
		if (kind == LINE_REMOVED) {
			if (prev != LINE_REMOVED)
				removed = (uint32_t)i, nremoved = 0;
			nremoved++;
		}
		if (kind != LINE_ADDED && kind != LINE_CONTEXT)
			continue;
		uint32_t replaced = NO_LINE;
		if (kind == LINE_ADDED) {
			if (prev != LINE_ADDED)
				nadded = 0;
			if (prev != LINE_ADDED && prev != LINE_REMOVED)
				nremoved = 0;
			replaced = nadded < nremoved ? removed + nadded : NO_LINE;
			nadded++;
		}
		keep_line(sc, i, replaced, (kind == LINE_ADDED ? C_ADDED : 0) | (first ? C_FIRST : 0),
			  &in_comment);
		first = false;
	}
}

static bool wanted(const struct patch_file *f)
{
	return !(f->flags & FILE_BINARY) && c_source(patch_file_path(f));
}

static void scan_patch(struct c_text *ct)
{
	const struct patch *p = ct->patch;
	size_t most = 0;
	for (size_t k = 0; k < p->nfiles; k++)
		if (wanted(&p->files[k]))
			most += p->files[k].end_line - p->files[k].first_line;
	struct scan sc = { .ct = ct, .arena = BUF_INIT };
	ct->lines = xmalloc((most ? most : 1) * sizeof(*ct->lines));
	ct->files = xmalloc((p->nfiles + 1) * sizeof(*ct->files));
	for (size_t k = 0; k < p->nfiles; k++) {
		ct->files[k] = (struct c_span){ sc.n, sc.arena.len };
		if (wanted(&p->files[k]))
			scan_file(&sc, &p->files[k]);
	}
	ct->files[p->nfiles] = (struct c_span){ sc.n, sc.arena.len };
	ct->arena = buf_detach(&sc.arena, NULL);
	ct->blanks = xmalloc(ct->longest + 1);
	memset(ct->blanks, ' ', ct->longest);
	ct->blanks[ct->longest] = '\0';
	free(sc.scratch);
	ct->scanned = true;
}

void c_text_init(struct c_text *ct, const struct patch *p)
{
	memset(ct, 0, sizeof(*ct));
	ct->patch = p;
}

void c_text_release(struct c_text *ct)
{
	if (!ct)
		return;
	free(ct->lines);
	free(ct->files);
	free(ct->arena);
	free(ct->blanks);
	c_text_init(ct, NULL);
}

void c_walk(struct c_text *ct, const struct patch_file *f, c_line_fn *fn, void *ctx)
{
	if (!ct->scanned)
		scan_patch(ct);
	const struct patch *p = ct->patch;
	size_t k = (size_t)(f - p->files);
	const char *text = ct->arena + ct->files[k].arena;
	for (size_t j = ct->files[k].line; j < ct->files[k + 1].line; j++) {
		const struct c_scanned *s = &ct->lines[j];
		const struct patch_line *pl = &p->lines[s->index];
		struct c_line l = {
			.index = s->index, .raw = pl->len ? pl->text + 1 : "",
			.len = pl->len ? pl->len - 1 : 0,
			.replaced = s->replaced == NO_LINE ? NULL : &p->lines[s->replaced],
			.added = s->flags & C_ADDED, .first = s->flags & C_FIRST,
			.slash_comment = s->flags & C_SLASH, .block_comment = s->flags & C_BLOCK,
		};
		l.plain = !(s->flags & C_STORED);
		if (!l.plain) {
			l.code = text;
			l.prose = text + l.len + 1;
			text += 2 * l.len + 2;
		} else {
			l.code = l.raw;
			l.prose = ct->blanks + ct->longest - l.len;
		}
		fn(&l, ctx);
	}
}
