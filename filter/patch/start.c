/* start.c: where the diff of one file starts: the one rule for the parser and for mail/. */
#include <string.h>

#include "patch/start.h"

static bool view_starts(const struct line_view *v, const char *prefix)
{
	size_t n = strlen(prefix);
	return v->len >= n && !memcmp(v->s, prefix, n);
}

/* Does the line hold s at or after byte from? */
static bool view_has(const struct line_view *v, size_t from, const char *s)
{
	size_t n = strlen(s);
	for (size_t i = from; i + n <= v->len; i++)
		if (!memcmp(v->s + i, s, n))
			return true;
	return false;
}

bool patch_starts_file(const struct line_view *v, size_t n)
{
	if (view_starts(&v[0], "diff --git "))
		return true;
	/* "diff -u a b" output goes on with "--- a"; prose about diff -u does not. */
	if (view_starts(&v[0], "diff -"))
		return n > 1 && view_starts(&v[1], "--- ");
	/* diff -r says this of a binary file, with no header before it. */
	if (view_starts(&v[0], "Binary files "))
		return v[0].len > 25 && view_has(&v[0], 13, " and ") &&
		       !memcmp(v[0].s + v[0].len - 7, " differ", 7);
	if (view_starts(&v[0], "Index: "))
		return n > 1 && view_starts(&v[1], "====");
	return n > 2 && view_starts(&v[0], "--- ") && view_starts(&v[1], "+++ ") &&
		view_starts(&v[2], "@@ ");
}

bool patch_starts_file_at(const struct patch *p, size_t i)
{
	struct line_view v[3];
	size_t n = 0;
	for (; n < 3 && i + n < p->nlines; n++)
		v[n] = (struct line_view){ p->lines[i + n].text, p->lines[i + n].len };
	return patch_starts_file(v, n);
}
