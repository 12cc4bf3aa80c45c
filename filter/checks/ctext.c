/* ctext.c: C lines split into code and prose, hunk by hunk. */
#include <string.h>

#include "base/buf.h"
#include "checks/ctext.h"

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

const struct patch_line *c_replaced(const struct patch *p, size_t i)
{
	size_t k = 0, added = i;
	while (added > 0 && p->lines[added - 1].kind == LINE_ADDED)
		added--, k++;
	size_t removed = added;
	while (removed > 0 && p->lines[removed - 1].kind == LINE_REMOVED)
		removed--;
	return removed + k < added ? &p->lines[removed + k] : NULL;
}

struct scan {
	bool in_comment;
	struct buf code, prose;
};

/* Fills l->code and l->prose from l->raw, carrying the comment state on. */
static void scan_line(struct scan *st, struct c_line *l)
{
	const char *s = l->raw;
	size_t len = l->len;
	char quote = 0;
	buf_reset(&st->code);
	buf_reset(&st->prose);
	l->slash_comment = l->block_comment = false;
	for (size_t i = 0; i < len; i++) {
		char c = s[i], next = i + 1 < len ? s[i + 1] : '\0';
		char code = c, prose = ' ';
		if (st->in_comment) {
			l->block_comment = true;
			if (c == '*' && next == '/') {
				st->in_comment = false;
				buf_addstr(&st->code, "  ");
				buf_addstr(&st->prose, "  ");
				i++;
				continue;
			}
			code = ' ', prose = c;
		} else if (quote) {
			if (c == '\\' && i + 1 < len) {
				buf_addstr(&st->code, "XX");
				buf_add(&st->prose, s + i, 2);
				i++;
				continue;
			}
			if (c == quote)
				quote = 0;
			else
				code = 'X', prose = c;
		} else if (c == '/' && next == '*') {
			st->in_comment = l->block_comment = true;
			buf_addstr(&st->code, "  ");
			buf_addstr(&st->prose, "  ");
			i++;
			continue;
		} else if (c == '/' && next == '/') {
			l->slash_comment = true;
			for (; i < len; i++) {
				buf_addch(&st->code, ' ');
				buf_addch(&st->prose, s[i]);
			}
			break;
		} else if (c == '"' || c == '\'') {
			quote = c;
		}
		buf_addch(&st->code, code);
		buf_addch(&st->prose, prose);
	}
	l->code = st->code.data;
	l->prose = st->prose.data;
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

void c_walk(const struct patch *p, const struct patch_file *f, c_line_fn *fn, void *ctx)
{
	struct scan st = { false, BUF_INIT, BUF_INIT };
	int32_t file = (int32_t)(f - p->files);
	for (size_t k = 0; k < p->nhunks; k++) {
		const struct patch_hunk *h = &p->hunks[k];
		if (h->file != file)
			continue;
		st.in_comment = starts_in_comment(p, h);
		bool first = true;
		for (size_t i = h->header_line + 1; i < h->end_line; i++) {
			const struct patch_line *pl = &p->lines[i];
			if (pl->kind != LINE_CONTEXT && pl->kind != LINE_ADDED)
				continue;
			struct c_line l = {
				.index = i, .raw = pl->len ? pl->text + 1 : "",
				.len = pl->len ? pl->len - 1 : 0,
				.added = pl->kind == LINE_ADDED, .first = first,
			};
			scan_line(&st, &l);
			fn(&l, ctx);
			first = false;
		}
	}
	buf_release(&st.code);
	buf_release(&st.prose);
}
