/*
 * bookkeeping.c: what a draft tells the maintainer alone: the notes (the
 * model failed, the tree, the thread, the limits), the closing summaries
 * (what the checks and the model found, a series' digest) and the
 * findings' fingerprints. By default they are X-Patchreview-* header
 * fields: mutt and neomutt show them with edit_headers, patchreview
 * learn and dismiss read them back, and the send hook removes them, so
 * what goes out is the quote, the comments and the maintainer's words.
 */
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/text.h"
#include "draft/parts.h"
#include "review/fingerprint.h"

/* Fingerprints named in a draft: 60 of them fit in an 8bit mail line. */
#define FINGERPRINTS_MAX 60

bool draft_notes_in_body(const struct config *c)
{
	return c->notes && !strcmp(c->notes, "body");
}

bool draft_fingerprints_as(const struct config *c, const char *where)
{
	return !strcmp(c->fingerprints ? c->fingerprints : "header", where);
}

void draft_fingerprints(struct buf *out, const struct patch *p, const struct review *r)
{
	for (size_t i = 0; i < r->nfindings && i < FINGERPRINTS_MAX; i++) {
		char fp[FINGERPRINT_LEN + 1];
		finding_fingerprint(p, &r->findings[i], fp);
		buf_addf(out, "%s%s", i ? " " : "", fp);
	}
	if (r->nfindings > FINGERPRINTS_MAX)
		buf_addstr(out, " ...");
}

/* One field a line of text: a paragraph's lines, or a note, each on its own. */
static void put_fields(FILE *out, const char *name, const char *text)
{
	struct buf clean = BUF_INIT;
	for (const char *s = text; *s;) {
		size_t n = strcspn(s, "\n");
		buf_reset(&clean);
		text_clean(&clean, s, n, TEXT_ONE_LINE);
		if (clean.len) {
			char *field = mail_format_text(name, clean.data);
			fputs(field, out);
			free(field);
		}
		s += n + (s[n] == '\n');
	}
	buf_release(&clean);
}

void draft_bookkeeping_headers(FILE *out, const struct patch *p, const struct review *r,
			       const struct config *c)
{
	if (!draft_notes_in_body(c)) {
		for (size_t i = 0; i < r->notes.n; i++)
			put_fields(out, "X-Patchreview-Note", r->notes.v[i]);
		for (size_t i = 0; i < r->summary.n; i++)
			put_fields(out, "X-Patchreview-Summary", r->summary.v[i]);
	}
	if (r->nfindings && draft_fingerprints_as(c, "header")) {
		struct buf fps = BUF_INIT;
		draft_fingerprints(&fps, p, r);
		put_fields(out, MAIL_FINGERPRINTS_HEADER, fps.data);
		buf_release(&fps);
	}
}
