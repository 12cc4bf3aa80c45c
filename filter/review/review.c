/* review.c: the findings of a review, its notes and its summary. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/msg.h"
#include "review/review.h"

void review_init(struct review *r)
{
	memset(r, 0, sizeof(*r));
}

void review_release(struct review *r)
{
	for (size_t i = 0; i < r->nfindings; i++)
		free(r->findings[i].text);
	free(r->findings);
	for (size_t i = 0; i < r->nfiltered; i++)
		free(r->filtered[i].finding.text);
	free(r->filtered);
	strvec_clear(&r->notes);
	strvec_clear(&r->summary);
	strvec_clear(&r->less_sure);
	strvec_clear(&r->dismissed);
	strvec_clear(&r->preexisting);
	free(r->disclosure);
	memset(r, 0, sizeof(*r));
}

void review_add(struct review *r, size_t line, enum severity sev,
		const char *source, const char *fmt, ...)
{
	struct buf text = BUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	buf_vaddf(&text, fmt, ap);
	va_end(ap);
	if (r->nfindings == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 16;
		r->findings = xrealloc(r->findings, r->cap * sizeof(*r->findings));
	}
	r->findings[r->nfindings++] = (struct finding){
		.line = line, .severity = sev, .source = source,
		.text = buf_detach(&text, NULL),
	};
}

void review_filtered(struct review *r, size_t line, enum severity sev, const char *filter,
		     double confidence, const char *text)
{
	if (r->nfiltered == r->filtered_cap) {
		r->filtered_cap = r->filtered_cap ? 2 * r->filtered_cap : 16;
		r->filtered = xrealloc(r->filtered, r->filtered_cap * sizeof(*r->filtered));
	}
	r->filtered[r->nfiltered++] = (struct filtered_finding){
		{ .line = line, .severity = sev, .source = filter, .text = xstrdup(text) },
		confidence,
	};
}

void review_note(struct review *r, const char *fmt, ...)
{
	struct buf text = BUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	buf_vaddf(&text, fmt, ap);
	va_end(ap);
	strvec_push_take(&r->notes, buf_detach(&text, NULL));
}

static void note_cut(struct review *r, struct buf *note)
{
	if (note->len) {
		warn("%s", note->data);
		review_note(r, "%s", note->data);
	}
	buf_reset(note);
}

void review_note_cuts(struct review *r, const struct mail *m, const struct patch *p)
{
	struct buf note = BUF_INIT;
	for (unsigned bit = 1; bit && bit <= (m->cuts | p->cuts); bit <<= 1) {
		if (m->cuts & bit)
			mail_cut_note(&note, bit);
		note_cut(r, &note);
		if (p->cuts & bit)
			patch_cut_note(&note, bit);
		note_cut(r, &note);
	}
	buf_release(&note);
}

void review_note_skipped(struct review *r, const struct strvec *skipped)
{
	for (size_t i = 0; skipped && i < skipped->n; i++)
		review_note(r, "%s", skipped->v[i]);
}

void review_summary(struct review *r, const char *text)
{
	strvec_push(&r->summary, text);
}

int review_worst(const struct review *r)
{
	int worst = -1;
	for (size_t i = 0; i < r->nfindings; i++)
		if ((int)r->findings[i].severity > worst)
			worst = (int)r->findings[i].severity;
	return worst;
}

const char *severity_name(enum severity sev)
{
	switch (sev) {
	case SEVERITY_NIT:
		return "nit";
	case SEVERITY_WARNING:
		return "warning";
	case SEVERITY_ERROR:
		return "error";
	}
	return "?";
}

int severity_parse(const char *name, enum severity *sevo)
{
	for (enum severity sev = SEVERITY_NIT; sev <= SEVERITY_ERROR; sev++) {
		if (!strcmp(name, severity_name(sev))) {
			*sevo = sev;
			return 0;
		}
	}
	return -1;
}

void review_dismissed(struct review *r, const struct patch *p, const struct finding *f,
		      const char *fp)
{
	struct buf line = BUF_INIT;
	buf_addf(&line, "[%s] %s", fp, f->source);
	if (f->line < p->nlines && p->lines[f->line].file >= 0) {
		const struct patch_line *l = &p->lines[f->line];
		buf_addf(&line, ", %s:%u", patch_file_path(&p->files[l->file]),
			 l->kind == LINE_REMOVED ? l->old_no : l->new_no);
	}
	buf_addf(&line, ": %s", f->text);
	strvec_push_take(&r->dismissed, buf_detach(&line, NULL));
}
