/*
 * select.c: which lines of the patch the draft quotes: all of them, or the
 * commit message and, for each comment, its file header, hunk header and
 * the lines above it; the rest is cut to "[ ... ]".
 */
#include <stdlib.h>
#include <string.h>

#include "base/msg.h"
#include "draft/parts.h"

/* Lines of a hunk kept above a comment; a shorter head is kept whole. */
#define CONTEXT_LINES 8
#define WHOLE_HEAD_LINES 20
/*
 * trim = auto quotes a diff this short whole, comments or not, and an
 * uncommented one up to the longer limit (a reply quoting 50 MB helps no one).
 */
#define SHORT_DIFF_LINES 30
#define UNCOMMENTED_DIFF_LINES 1000

static void mark(unsigned char *quote, size_t from, size_t to)
{
	for (size_t i = from; i <= to; i++)
		quote[i] = 1;
}

/* Quotes what a comment on line i needs: its file's header, hunk header and context. */
static void mark_context(const struct patch *p, size_t i, unsigned char *quote)
{
	const struct patch_line *l = &p->lines[i];
	if (l->file >= 0) {
		const struct patch_file *f = &p->files[l->file];
		for (size_t k = f->first_line; k < f->end_line &&
		     p->lines[k].kind == LINE_FILE_HEADER; k++)
			quote[k] = 1;
	}
	if (l->hunk >= 0) {
		size_t head = p->hunks[l->hunk].header_line;
		quote[head] = 1;
		mark(quote, i - head <= WHOLE_HEAD_LINES ? head : i - CONTEXT_LINES, i);
	} else if (l->file < 0) {
		size_t floor = i >= p->message_end ? p->message_end : 0;
		mark(quote, i > floor + CONTEXT_LINES ? i - CONTEXT_LINES : floor, i);
	}
	quote[i] = 1;
}

/* Does a comment sit on a line of the diff (not the message, not the top)? */
static bool comments_on_diff(const struct patch *p, const struct review *r)
{
	for (size_t k = 0; k < r->nfindings; k++)
		if (r->findings[k].line >= p->diff_begin && r->findings[k].line < p->nlines)
			return true;
	return false;
}

static bool quote_whole(const struct patch *p, const struct review *r, const char *trim,
			bool reviewed)
{
	if (!reviewed || (trim && !strcmp(trim, "no")))
		return true;
	if (trim && !strcmp(trim, "yes"))
		return false;
	size_t diff = p->nlines - p->diff_begin;
	return diff <= SHORT_DIFF_LINES ||
	       (diff <= UNCOMMENTED_DIFF_LINES && !comments_on_diff(p, r));
}

unsigned char *draft_select_lines(const struct patch *p, const struct review *r,
				  const char *trim, bool reviewed)
{
	unsigned char *quote = xcalloc(p->nlines + 1, 1);
	bool whole = quote_whole(p, r, trim, reviewed);
	size_t end = whole ? p->nlines : p->message_end;
	while (!whole && end > 0 && !p->lines[end - 1].len)
		end--;
	/* The message whole, but not a diff it pastes beside the real patch. */
	for (size_t i = 0; i < end; i++)
		quote[i] = i >= p->diff_begin || p->lines[i].kind != LINE_OTHER;
	if (whole)
		return quote;
	for (size_t k = 0; k < r->nfindings; k++)
		if (r->findings[k].line < p->nlines)
			mark_context(p, r->findings[k].line, quote);
	return quote;
}
