/*
 * draft.c: writes the reply draft's body: the attribution line, the patch
 * quoted with "> " and trimmed to what is commented on, each comment under
 * the line it is about, and a closing summary.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/buf.h"
#include "base/msg.h"
#include "base/text.h"
#include "draft/draft.h"
#include "draft/headers.h"

#define WRAP_COLUMNS 72
/* Lines of a hunk kept above a comment; a shorter head is kept whole. */
#define CONTEXT_LINES 8
#define WHOLE_HEAD_LINES 20

/* The body writer: remembers whether a blank line is due before the next text. */
struct writer {
	FILE *out;
	bool gap;		/* a blank line is wanted before the next line */
	bool at_start;		/* nothing written yet */
	struct buf scratch;
};

static void put_raw(struct writer *w, const char *prefix, const char *s, size_t len)
{
	if (w->gap && !w->at_start)
		fputc('\n', w->out);
	w->gap = false;
	w->at_start = false;
	fputs(prefix, w->out);
	fwrite(s, 1, len, w->out);
	fputc('\n', w->out);
}

/*
 * A line of mail or model text. One starting with '>' would pass for a
 * quoted line of the patch, one starting with "From " for an mbox
 * separator (which MTAs mangle): both get a space in front.
 */
static void put_line(struct writer *w, const char *s, size_t len)
{
	bool forged = (len && s[0] == '>') || (len >= 5 && !memcmp(s, "From ", 5));
	put_raw(w, forged ? " " : "", s, len);
}

/* A quoted line: "> text", or ">" alone for an empty line. */
static void put_quoted(struct writer *w, const struct patch_line *l)
{
	const char *prefix = l->len ? "> " : ">";
	if (!memchr(l->text, '\r', l->len)) {
		put_raw(w, prefix, l->text, l->len);
		return;
	}
	buf_reset(&w->scratch);
	text_clean(&w->scratch, l->text, l->len, 0);
	put_raw(w, prefix, w->scratch.data, w->scratch.len);
}

/* Writes text as paragraphs wrapped at WRAP_COLUMNS, made safe first. */
static void put_wrapped(struct writer *w, const char *text)
{
	struct buf clean = BUF_INIT, line = BUF_INIT;
	text_clean(&clean, text, strlen(text), 0);
	const char *p = clean.data;
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		size_t width = 0;
		buf_reset(&line);
		/* Words, greedily; a word longer than a line gets one to itself. */
		for (size_t i = 0; i < len;) {
			size_t start = i;
			while (i < len && p[i] != ' ')
				i++;
			size_t wlen = i - start, wwidth = text_width(p + start, wlen);
			if (line.len && width + 1 + wwidth > WRAP_COLUMNS) {
				put_line(w, line.data, line.len);
				buf_reset(&line);
				width = 0;
			}
			if (line.len) {
				buf_addch(&line, ' ');
				width++;
			}
			buf_add(&line, p + start, wlen);
			width += wwidth;
			while (i < len && p[i] == ' ')
				i++;
		}
		if (line.len || !len) {
			while (line.len && line.data[line.len - 1] == ' ')
				line.data[--line.len] = '\0';
			if (line.len)
				put_line(w, line.data, line.len);
			else
				w->gap = true;
		}
		p += len + (nl != NULL);
	}
	buf_release(&clean);
	buf_release(&line);
}

static void put_comment(struct writer *w, const struct finding *f)
{
	w->gap = true;
	if (f->severity == SEVERITY_NIT && strncasecmp(f->text, "nit", 3)) {
		struct buf t = BUF_INIT;
		buf_addf(&t, "nit: %s", f->text);
		put_wrapped(w, t.data);
		buf_release(&t);
	} else {
		put_wrapped(w, f->text);
	}
	w->gap = true;
}

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

/* Which lines to quote: all of them, or the message and what comments need. */
static unsigned char *select_lines(const struct patch *p, const struct review *r,
				   bool everything)
{
	unsigned char *quote = xcalloc(p->nlines + 1, 1);
	if (everything) {
		memset(quote, 1, p->nlines);
		return quote;
	}
	size_t end = p->message_end;
	while (end > 0 && !p->lines[end - 1].len)
		end--;
	/* The message whole, but not a diff it pastes beside the real patch. */
	for (size_t i = 0; i < end; i++)
		quote[i] = p->lines[i].kind != LINE_OTHER;
	for (size_t k = 0; k < r->nfindings; k++)
		if (r->findings[k].line < p->nlines)
			mark_context(p, r->findings[k].line, quote);
	return quote;
}

static int by_line(const void *a, const void *b)
{
	const struct finding *x = *(const struct finding *const *)a;
	const struct finding *y = *(const struct finding *const *)b;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return x < y ? -1 : x > y;
}

static void put_attribution(struct writer *w, const struct mail *m)
{
	const struct address *a = mail_author(m);
	struct buf s = BUF_INIT;
	if (m->date)
		buf_addf(&s, "On %s, ", m->date);
	if (a && a->name)
		buf_addf(&s, "%s <%s> wrote:", a->name, a->addr);
	else if (a)
		buf_addf(&s, "%s wrote:", a->addr);
	else
		buf_addstr(&s, "you wrote:");
	if (!m->date && s.data[0] >= 'a' && s.data[0] <= 'z')
		s.data[0] = (char)(s.data[0] - 'a' + 'A');
	put_line(w, s.data, s.len);
	buf_release(&s);
}

static void put_body(struct writer *w, const struct mail *m, const struct patch *p,
		     const struct review *r, bool everything)
{
	for (size_t i = 0; i < r->notes.n; i++) {
		struct buf note = BUF_INIT;
		buf_addf(&note, "[patchreview: %s]", r->notes.v[i]);
		put_wrapped(w, note.data);
		buf_release(&note);
	}
	w->gap = r->notes.n > 0;
	put_attribution(w, m);

	const struct finding **sorted = xcalloc(r->nfindings + 1, sizeof(*sorted));
	for (size_t k = 0; k < r->nfindings; k++)
		sorted[k] = &r->findings[k];
	qsort(sorted, r->nfindings, sizeof(*sorted), by_line);
	size_t next = 0;
	for (size_t k = 0; k < r->nfindings; k++)
		if (sorted[k]->line >= p->nlines)
			put_comment(w, sorted[k]);

	unsigned char *quote = select_lines(p, r, everything);
	bool trimmed = false;
	for (size_t i = 0; i < p->nlines; i++) {
		if (!quote[i]) {
			trimmed |= p->lines[i].len > 0;
			continue;
		}
		if (trimmed) {
			w->gap = true;
			put_line(w, "[ ... ]", 7);
			w->gap = true;
			trimmed = false;
		}
		put_quoted(w, &p->lines[i]);
		while (next < r->nfindings && sorted[next]->line == i)
			put_comment(w, sorted[next++]);
	}
	if (trimmed) {
		w->gap = true;
		put_line(w, "[ ... ]", 7);
	}
	free(quote);
	free(sorted);

	for (size_t i = 0; i < r->summary.n; i++) {
		w->gap = true;
		put_wrapped(w, r->summary.v[i]);
	}
	if (r->disclosure) {
		w->gap = true;
		put_wrapped(w, r->disclosure);
	}
}

int draft_write(FILE *out, const struct mail *m, const struct patch *p,
		const struct review *r, const struct config *c, bool reviewed)
{
	struct writer w = { .out = out, .at_start = true, .scratch = BUF_INIT };
	draft_headers(out, m, c);
	put_body(&w, m, p, r, c->full || !reviewed);
	buf_release(&w.scratch);
	if (fflush(out) || ferror(out))
		return error("cannot write the draft");
	return 0;
}
