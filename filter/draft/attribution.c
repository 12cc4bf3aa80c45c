/*
 * attribution.c: the line above the quote ("On <date>, <author> wrote:"),
 * from a format with mutt-like escapes.
 */
#include <string.h>

#include "base/msg.h"
#include "draft/parts.h"

#define UNDATED_FORMAT "%f wrote:"
#define ESCAPES "dfnas%"

/* The Date as sent, with its runs of blanks (" 1 Dec", "Tue,  1") made one. */
static void add_date(struct buf *out, const char *date)
{
	for (const char *p = date; *p; p++)
		if (*p != ' ' || (p[1] != ' ' && p[1]))
			buf_addch(out, *p);
}

static void add_escape(struct buf *out, char c, const struct mail *m)
{
	const struct address *a = mail_author(m);
	const char *name = a ? (a->name ? a->name : a->addr) : "you";
	switch (c) {
	case 'd': add_date(out, m->date ? m->date : ""); break;
	case 'f':
		if (a && a->name)
			buf_addf(out, "%s <%s>", a->name, a->addr);
		else
			buf_addstr(out, name);
		break;
	case 'n': buf_addstr(out, name); break;
	case 'a': buf_addstr(out, a ? a->addr : ""); break;
	case 's': buf_addstr(out, m->subject); break;
	default: buf_addch(out, c); break;
	}
}

void draft_attribution(struct buf *out, const struct mail *m, const char *format)
{
	/* A mail without a Date has nothing for %d to say. */
	const char *f = !m->date && strstr(format, "%d") ? UNDATED_FORMAT : format;
	size_t start = out->len;
	for (const char *p = f; *p; p++) {
		if (*p == '%' && p[1])
			add_escape(out, *++p, m);
		else
			buf_addch(out, *p);
	}
	/* "you wrote:" opening the line is a sentence of its own. */
	if (!mail_author(m) && !strncmp(out->data + start, "you ", 4))
		out->data[start] = 'Y';
}

int draft_check_attribution(const char *format, const char *origin)
{
	for (const char *p = format; p && *p; p++) {
		if (*p != '%')
			continue;
		if (!p[1] || !strchr(ESCAPES, p[1]))
			return error("%s: 'attribution': '%%%.1s' is no escape (%%d date, %%f author, "
				     "%%n name, %%a address, %%s subject, %%%% a %%)", origin, p + 1);
		p++;
	}
	return 0;
}
