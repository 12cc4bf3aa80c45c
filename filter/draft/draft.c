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
#include "draft/parts.h"

#define WRAP_COLUMNS 72
/* What starts a line patchreview writes for itself: a note, the fingerprints. */
#define OWN_MARK "[patchreview"

/* The body writer: remembers whether a blank line is due before the next text. */
struct writer {
	FILE *out;
	bool gap;		/* a blank line is wanted before the next line */
	bool at_start;		/* nothing written yet */
	bool own;		/* the next line is patchreview's own: it may start with OWN_MARK */
	struct buf scratch;
};

/*
 * One line of the body. 8bit mail allows 998 bytes a line: a longer one is
 * cut there, at a character boundary, and marked.
 */
static void put_raw(struct writer *w, const char *prefix, const char *s, size_t len)
{
	static const char cut[] = " [...]";
	size_t room = DRAFT_MAX_LINE - strlen(prefix);
	bool long_line = len > room;
	if (long_line) {
		len = room - strlen(cut);
		while (len && ((unsigned char)s[len] & 0xc0) == 0x80)
			len--;
	}
	if (w->gap && !w->at_start)
		fputc('\n', w->out);
	w->gap = false;
	w->at_start = false;
	fputs(prefix, w->out);
	fwrite(s, 1, len, w->out);
	if (long_line)
		fputs(cut, w->out);
	fputc('\n', w->out);
}

/*
 * A line of mail or model text. One starting with '>' would pass for a
 * quoted line of the patch, one starting with "From " for an mbox
 * separator (which MTAs mangle), one starting with OWN_MARK for
 * patchreview's own line (which patchreview dismiss trusts): all get a
 * space in front.
 */
static void put_line(struct writer *w, const char *s, size_t len)
{
	size_t mark = strlen(OWN_MARK);
	bool forged = (len && s[0] == '>') || (len >= 5 && !memcmp(s, "From ", 5)) ||
		(!w->own && len >= mark && !memcmp(s, OWN_MARK, mark));
	w->own = false;
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

static int by_line(const void *a, const void *b)
{
	const struct finding *x = *(const struct finding *const *)a;
	const struct finding *y = *(const struct finding *const *)b;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return x < y ? -1 : x > y;
}

static void put_attribution(struct writer *w, const struct mail *m, const struct config *c)
{
	struct buf s = BUF_INIT;
	draft_attribution(&s, m, c->attribution);
	put_line(w, s.data, s.len);
	buf_release(&s);
}

/* The signature after "-- " (unless mutt's $sig_dashes is unset), as mutt writes it. */
static void put_signature(struct writer *w, const struct config *c)
{
	struct buf s = BUF_INIT;
	if (c->signature && !draft_signature(&s, c->signature) && s.len) {
		w->gap = true;
		if (!c->sig_nodashes)
			put_raw(w, "", "-- ", 3);
		for (const char *p = s.data; *p;) {
			size_t n = strcspn(p, "\n");
			put_raw(w, "", p, n);
			p += n + (p[n] == '\n');
		}
	}
	buf_release(&s);
}

/* A list at the end of the draft under its heading, when it has anything. */
static void put_section(struct writer *w, const struct strvec *items, const char *heading)
{
	if (!items->n)
		return;
	w->gap = true;
	put_wrapped(w, heading);
	for (size_t i = 0; i < items->n; i++) {
		w->gap = true;
		put_wrapped(w, items->v[i]);
	}
}

/*
 * fingerprints = line: the findings' fingerprints, for patchreview
 * dismiss, on one line the maintainer deletes before sending.
 */
static void put_fingerprints(struct writer *w, const struct patch *p, const struct review *r,
			     const struct config *c)
{
	if (!r->nfindings || !draft_fingerprints_as(c, "line"))
		return;
	struct buf line = BUF_INIT;
	buf_addstr(&line, MAIL_FINGERPRINTS_LINE " ");
	draft_fingerprints(&line, p, r);
	buf_addch(&line, ']');
	w->gap = true;
	put_raw(w, "", line.data, line.len);
	buf_release(&line);
}

/* notes = body: the notes at the top, each "[patchreview: ...]". */
static void put_notes(struct writer *w, const struct review *r, const struct config *c)
{
	if (!draft_notes_in_body(c))
		return;
	for (size_t i = 0; i < r->notes.n; i++) {
		struct buf note = BUF_INIT;
		buf_addf(&note, OWN_MARK ": %s]", r->notes.v[i]);
		w->own = true;
		put_wrapped(w, note.data);
		buf_release(&note);
	}
	w->gap = r->notes.n > 0;
}

/*
 * The disclosure goes with model text in the mail: a model comment or a
 * section of them, or with notes = body the model's summary.
 */
static bool model_text_in_body(const struct review *r, const struct config *c)
{
	for (size_t i = 0; i < r->nfindings; i++)
		if (!strcmp(r->findings[i].source, "model"))
			return true;
	return r->less_sure.n || r->preexisting.n || draft_notes_in_body(c);
}

/* Quotes the lines [0, end) that draft_select_lines() picks, each comment under its line. */
static void put_body(struct writer *w, const struct mail *m, const struct patch *p,
		     const struct review *r, const struct config *c, bool reviewed, size_t end)
{
	put_notes(w, r, c);
	put_attribution(w, m, c);

	const struct finding **sorted = xcalloc(r->nfindings + 1, sizeof(*sorted));
	for (size_t k = 0; k < r->nfindings; k++)
		sorted[k] = &r->findings[k];
	qsort(sorted, r->nfindings, sizeof(*sorted), by_line);
	size_t next = 0;
	for (size_t k = 0; k < r->nfindings; k++)
		if (sorted[k]->line >= p->nlines)
			put_comment(w, sorted[k]);

	unsigned char *quote = draft_select_lines(p, r, c->trim, reviewed);
	bool trimmed = false;
	for (size_t i = 0; i < end; i++) {
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

	for (size_t i = 0; draft_notes_in_body(c) && i < r->summary.n; i++) {
		w->gap = true;
		put_wrapped(w, r->summary.v[i]);
	}
	put_section(w, &r->less_sure, "Less sure, and not checked: the model gave these a "
		    "confidence below min_confidence.");
	put_section(w, &r->preexisting, "Not about this patch: the model found these in code "
		    "the patch does not change.");
	put_section(w, &r->dismissed, "Dismissed earlier, and left out above (show_dismissed):");
	put_fingerprints(w, p, r, c);
	if (c->tag) {
		struct buf tag = BUF_INIT;
		draft_tag(&tag, c->tag, c->from);
		w->gap = true;
		put_line(w, tag.data, tag.len);
		buf_release(&tag);
	}
	if (r->disclosure && model_text_in_body(r, c)) {
		w->gap = true;
		put_wrapped(w, r->disclosure);
	}
	put_signature(w, c);
}

int draft_check_config(const struct config *c)
{
	if (draft_check_attribution(c->attribution, config_origin(c, "attribution")) < 0)
		return -1;
	return draft_check_tag(c->tag, c->from);
}

int draft_write(FILE *out, const struct mail *m, const struct patch *p,
		const struct review *r, const struct config *c, bool reviewed, time_t when)
{
	struct writer w = { .out = out, .at_start = true, .scratch = BUF_INIT };
	/* A mail quoted whole loses its signature and the list's footer, unless trim = no. */
	bool cut = !reviewed && !(c->trim && !strcmp(c->trim, "no"));
	size_t end = cut ? patch_footer(p) : p->nlines;
	while (cut && end > 0 && !p->lines[end - 1].len)
		end--;
	draft_headers(out, m, c, when);
	draft_bookkeeping_headers(out, p, r, c);
	draft_headers_end(out);
	put_body(&w, m, p, r, c, reviewed, end);
	buf_release(&w.scratch);
	if (fflush(out) || ferror(out))
		return error("cannot write the draft");
	return 0;
}
