/* body.c: where the commit message starts, and its subject. */
#include <string.h>

#include "base/buf.h"
#include "base/str.h"
#include "checks/body.h"
#include "patch/message.h"

static bool blank(const struct patch_line *l)
{
	return strspn(l->text, " \t\r") == l->len;
}

bool body_commit_header(const char *s)
{
	if (starts_with(s, "From ") && strspn(s + 5, "0123456789abcdef") == 40 && s[45] == ' ')
		return true;
	return starts_with(s, "commit ") && strspn(s + 7, "0123456789abcdef") == 40 &&
	       (s[47] == '\0' || s[47] == ' ');
}

/*
 * The last header block in the message: an in-body From: at the top, or a
 * pasted format-patch. What is above git's scissors line is discussion.
 */
static size_t header_block(const struct patch *p, size_t *endo)
{
	size_t block = SIZE_MAX, begin = patch_scissors_end(p);
	for (size_t i = begin; i < p->message_end; i++) {
		const char *s = p->lines[i].text;
		bool header = body_commit_header(s) ||
			(i == begin && (starts_with(s, "From: ") || starts_with(s, "Subject: ") ||
					starts_with(s, "Date: ")));
		if (!header)
			continue;
		block = i;
		while (i < p->message_end && !blank(&p->lines[i]))
			i++;
		begin = i;
		while (begin < p->message_end && blank(&p->lines[begin]))
			begin++;
	}
	*endo = begin;
	return block;
}

size_t body_begin(const struct patch *p)
{
	size_t begin;
	header_block(p, &begin);
	return begin;
}

void body_subject(const struct patch *p, struct subject_prefix *s)
{
	size_t end, i = header_block(p, &end);
	for (; i < end && i < p->message_end && !blank(&p->lines[i]); i++) {
		if (!starts_with(p->lines[i].text, "Subject: "))
			continue;
		struct buf subject = BUF_INIT;
		buf_addstr(&subject, p->lines[i].text + 9);
		while (i + 1 < end && (p->lines[i + 1].text[0] == ' ' || p->lines[i + 1].text[0] == '\t'))
			buf_addstr(&subject, p->lines[++i].text);
		subject_parse(s, subject.data);
		buf_release(&subject);
		return;
	}
	*s = p->subject;
}

void body_subject_release(const struct patch *p, struct subject_prefix *s)
{
	if (s->title != p->subject.title)
		subject_release(s);
}
