/*
 * summary.c: the cover letter's closing paragraph: what the review of each
 * patch found, in the order of the series, and what the input lacks.
 */
#include <string.h>

#include "base/buf.h"
#include "series/summary.h"

/* The first line of the most severe finding, shortened. */
static void add_worst(struct buf *b, const struct review *r)
{
	const struct finding *worst = NULL;
	for (size_t i = 0; i < r->nfindings; i++)
		if (!worst || r->findings[i].severity > worst->severity)
			worst = &r->findings[i];
	if (!worst)
		return;
	size_t len = strcspn(worst->text, "\n");
	if (len > SUMMARY_QUOTE) {
		len = SUMMARY_QUOTE;
		while (len && worst->text[len] != ' ')
			len--;	/* whole words */
		while (len && worst->text[len - 1] == ' ')
			len--;
		if (!len)
			len = SUMMARY_QUOTE;
		while (len && ((unsigned char)worst->text[len] & 0xc0) == 0x80)
			len--;	/* whole UTF-8 sequences */
	}
	buf_addf(b, "; %s: \"%.*s%s\"", severity_name(worst->severity), (int)len,
		 worst->text, worst->text[len] && worst->text[len] != '\n' ? "..." : "");
}

static void summarise_patch(struct buf *b, const struct series *s, size_t k,
			    const struct review *r)
{
	char label[24];
	const struct series_msg *m = s->patches[k];
	series_label(s, m, label);
	buf_addf(b, "\n- %s%s%s: ", label, *label ? " " : "", m->patch.subject.title);
	if (!r->nfindings)
		buf_addstr(b, "nothing to comment on");
	else
		buf_addf(b, "%zu comment%s", r->nfindings, r->nfindings == 1 ? "" : "s");
	add_worst(b, r);
	if (r->model_failed)
		buf_addstr(b, " (the model review failed)");
	buf_addch(b, '.');
}

void series_summarise(struct review *cover, const struct series *s, const struct review *rs)
{
	if (!s->npatches)
		return;
	struct buf b = BUF_INIT;
	buf_addstr(&b, "What patchreview found in each patch:");
	for (size_t k = 0; k < s->npatches; k++)
		summarise_patch(&b, s, k, &rs[k]);
	if (s->nmissing) {
		buf_addstr(&b, "\n- Not in the input, not reviewed: ");
		series_list_missing(s, &b);
		buf_addch(&b, '.');
	}
	if (s->facts && s->facts->base_commit)
		buf_addf(&b, "\n\nThe series is based on %s.", s->facts->base_commit);
	review_summary(cover, b.data);
	buf_release(&b);
}
