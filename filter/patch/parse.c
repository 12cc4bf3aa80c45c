/*
 * parse.c: splits the text of a patch mail into commit message, notes,
 * diffstat and unified diff, then has each part read by its own file.
 */
#include <stdlib.h>
#include <string.h>

#include "base/msg.h"
#include "patch/diff.h"
#include "patch/facts.h"
#include "patch/message.h"
#include "patch/parse.h"
#include "patch/start.h"

/* Splits text into NUL-terminated lines, in place, up to PATCH_MAX_LINES. */
static void split_lines(struct patch *p, char *text, size_t len)
{
	size_t cap = 64;
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
	patch_parse_facts(p);
}
