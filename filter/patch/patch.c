/*
 * patch.c: splits the text of a patch mail into commit message, notes,
 * diffstat and unified diff, and holds the rule for where a diff starts.
 */
#include <stdlib.h>
#include <string.h>

#include "base/msg.h"
#include "patch/parse.h"
#include "patch/patch.h"

/* Splits text into NUL-terminated lines, in place, up to PATCH_MAX_LINES. */
static void split_lines(struct patch *p, char *text, size_t len)
{
	size_t cap = 16;
	p->lines = xmalloc(cap * sizeof(*p->lines));
	char *s = text, *end = text + len;
	while (s < end) {
		char *nl = memchr(s, '\n', (size_t)(end - s));
		char *e = nl ? nl : end;
		if (p->nlines == PATCH_MAX_LINES) {
			p->cuts |= PATCH_CUT_LINES;
			break;
		}
		if (p->nlines == cap) {
			cap *= 2;
			p->lines = xrealloc(p->lines, cap * sizeof(*p->lines));
		}
		*e = '\0';
		p->lines[p->nlines++] = (struct patch_line){
			.text = s, .len = (uint32_t)(e - s), .file = -1, .hunk = -1,
			.kind = LINE_MESSAGE,
		};
		s = e + 1;
	}
}

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

static bool is_separator(const struct patch_line *l)
{
	return patch_line_starts(l, "---") && strspn(l->text + 3, " \t\r") == l->len - 3;
}

/* Lines between "---" and the diff: the diffstat, and notes around it. */
static void classify_notes(struct patch *p)
{
	if (p->separator == SIZE_MAX)
		return;
	p->lines[p->separator].kind = LINE_SEPARATOR;
	for (size_t i = p->separator + 1; i < p->diff_begin; i++) {
		struct patch_line *l = &p->lines[i];
		bool stat = (l->text[0] == ' ' && strstr(l->text, " | ")) ||
			    (l->text[0] == ' ' && strstr(l->text, " changed,")) ||
			    (l->text[0] == ' ' && strstr(l->text, " changed\r")) ||
			    (l->text[0] == ' ' && strstr(l->text, " mode ")) ||
			    (l->text[0] == ' ' && strstr(l->text, " => "));
		l->kind = stat ? LINE_DIFFSTAT : LINE_NOTES;
	}
}

/*
 * A diff in the text before the part that carries the patch (an older
 * version a reply pastes, or the patch pasted and damaged beside its
 * clean attachment) is not the patch: its lines, to the part, are other.
 */
static void mark_pasted_diff(struct patch *p, size_t first)
{
	size_t i = 0;
	while (i < first && !patch_starts_file_at(p, i))
		i++;
	for (; i < first; i++)
		p->lines[i].kind = LINE_OTHER;
}

void patch_parse(struct patch *p, const char *subject, char *text, size_t len,
		 size_t from)
{
	memset(p, 0, sizeof(*p));
	p->text = text;
	p->separator = SIZE_MAX;
	subject_parse(&p->subject, subject);
	split_lines(p, text, len);
	p->diff_begin = p->nlines;
	size_t first = 0;
	while (first < p->nlines && (size_t)(p->lines[first].text - text) < from)
		first++;
	mark_pasted_diff(p, first);
	for (size_t i = first; i < p->nlines; i++) {
		bool names_follow = i + 1 < p->nlines && patch_line_starts(&p->lines[i + 1], "+++ ");
		if (p->separator == SIZE_MAX && is_separator(&p->lines[i]) && !names_follow) {
			p->separator = i;
		} else if (patch_starts_file_at(p, i)) {
			p->diff_begin = i;
			break;
		}
	}
	if (p->diff_begin == p->nlines)
		p->separator = SIZE_MAX;	/* no diff: a "---" is just text */
	p->message_end = p->separator != SIZE_MAX ? p->separator : p->diff_begin;
	patch_parse_message(p, first);
	classify_notes(p);
	patch_parse_diff(p);
}

void patch_release(struct patch *p)
{
	for (size_t i = 0; i < p->nfiles; i++) {
		free(p->files[i].old_path);
		free(p->files[i].new_path);
		free(p->files[i].old_mode);
		free(p->files[i].new_mode);
	}
	for (size_t i = 0; i < p->ntrailers; i++) {
		free(p->trailers[i].key);
		free(p->trailers[i].value);
	}
	free(p->files);
	free(p->hunks);
	free(p->trailers);
	free(p->lines);
	free(p->inbody_from);
	free(p->text);
	subject_release(&p->subject);
	memset(p, 0, sizeof(*p));
}

size_t patch_footer(const struct patch *p)
{
	/* In a patch, "-- " in the commit message is text; git's signature follows the diff. */
	for (size_t i = patch_has_diff(p) ? p->diff_begin : 0; i < p->nlines; i++) {
		const struct patch_line *l = &p->lines[i];
		if (l->kind != LINE_MESSAGE && l->kind != LINE_NOTES && l->kind != LINE_OTHER)
			continue;
		bool sig = l->len == 3 && !memcmp(l->text, "-- ", 3);
		bool rule = l->len >= 5 && strspn(l->text, "_") == l->len;
		if (sig || rule)
			return i;
	}
	return p->nlines;
}

const char *patch_file_path(const struct patch_file *f)
{
	return f->new_path ? f->new_path : f->old_path;
}

void patch_cut_note(struct buf *out, unsigned cut)
{
	if (cut == PATCH_CUT_LINES)
		buf_addf(out, "the mail text has more than %d lines; the rest was not read",
			 PATCH_MAX_LINES);
	else if (cut == PATCH_CUT_FILES)
		buf_addf(out, "the patch changes more than %d files; the rest was not read",
			 PATCH_MAX_FILES);
	else if (cut == PATCH_CUT_HUNKS)
		buf_addf(out, "the patch has more than %d hunks; the rest was not read",
			 PATCH_MAX_HUNKS);
}
