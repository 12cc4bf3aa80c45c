/*
 * context.c: the series around one patch, as text for the model: which
 * patch this is, the cover letter, every subject, the base, and the diffs
 * of the other patches, nearest first, within a byte budget. A model that
 * sees one patch alone flags what a later patch completes, and blames a
 * bug on the wrong patch.
 */
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/msg.h"
#include "series/context.h"

/* Most of a cover letter passed on; the rest is cut. */
#define COVER_MAX 8000

static void add_cover(struct buf *b, const struct series *s)
{
	const struct patch *p = &s->cover->patch;
	size_t end = patch_footer(p), start = b->len;
	while (end > 0 && !p->lines[end - 1].len)
		end--;
	char label[24];
	series_label(s, s->cover, label);
	buf_addf(b, "The cover letter (%s), \"%s\":\n", label, s->cover->mail->subject);
	for (size_t i = 0; i < end; i++) {
		if (b->len - start > COVER_MAX) {
			buf_addstr(b, "[... the rest of the cover letter is left out]\n");
			break;
		}
		buf_add(b, p->lines[i].text, p->lines[i].len);
		buf_addch(b, '\n');
	}
	buf_addch(b, '\n');
}

static void add_subjects(struct buf *b, const struct series *s, size_t k)
{
	buf_addstr(b, "The patches of the series:\n");
	size_t next = 0;
	for (unsigned want = 1; want <= s->total; want++) {
		if (next < s->npatches && s->patches[next]->patch.subject.index == want) {
			const struct series_msg *m = s->patches[next];
			buf_addf(b, "  %u/%u %s%s\n", want, s->total, m->patch.subject.title,
				 next == k ? "   <- the patch to review" : "");
			next++;
		} else {
			buf_addf(b, "  %u/%u (not available)\n", want, s->total);
		}
	}
	const struct patch *facts = s->facts;
	if (facts && facts->base_commit)
		buf_addf(b, "Based on commit %s.\n", facts->base_commit);
	for (size_t i = 0; facts && i < facts->prerequisite_ids.n; i++)
		buf_addf(b, "Needs the patch with patch-id %s applied first.\n",
			 facts->prerequisite_ids.v[i]);
	buf_addch(b, '\n');
}

static bool is_diff_line(const struct patch_line *l)
{
	return l->kind == LINE_FILE_HEADER || l->kind == LINE_HUNK_HEADER ||
		l->kind == LINE_CONTEXT || l->kind == LINE_ADDED ||
		l->kind == LINE_REMOVED || l->kind == LINE_NO_NEWLINE;
}

static size_t diff_bytes(const struct patch *p)
{
	size_t n = 0;
	for (size_t i = p->diff_begin; i < p->nlines; i++)
		if (is_diff_line(&p->lines[i]))
			n += p->lines[i].len + 1;
	return n;
}

/* The diffs of the others, nearest first: the one before, the one after, two before... */
static void add_diffs(struct buf *b, const struct series *s, size_t k, size_t budget)
{
	struct buf left = BUF_INIT;
	size_t used = 0;
	for (size_t d = 1; d < s->npatches; d++) {
		for (int side = 0; side < 2; side++) {
			size_t j = side ? k + d : k - d;
			if ((side ? k + d >= s->npatches : d > k))
				continue;
			const struct series_msg *m = s->patches[j];
			char label[24];
			series_label(s, m, label);
			size_t bytes = diff_bytes(&m->patch);
			if (used + bytes > budget) {
				buf_addf(&left, "%s%s", left.len ? ", " : "", label);
				continue;
			}
			used += bytes;
			buf_addf(b, "The diff of %s, \"%s\":\n", label, m->patch.subject.title);
			for (size_t i = m->patch.diff_begin; i < m->patch.nlines; i++)
				if (is_diff_line(&m->patch.lines[i])) {
					buf_add(b, m->patch.lines[i].text, m->patch.lines[i].len);
					buf_addch(b, '\n');
				}
			buf_addch(b, '\n');
		}
	}
	if (left.len)
		buf_addf(b, "The diffs of %s are left out for size.\n", left.data);
	buf_release(&left);
}

char *series_context(const struct series *s, size_t k, size_t budget)
{
	struct buf b = BUF_INIT;
	char label[24];
	series_label(s, s->patches[k], label);
	buf_addf(&b, "The patch to review is %s of a series of %u (v%u).\n\n", label,
		 s->total, s->version);
	if (s->cover)
		add_cover(&b, s);
	add_subjects(&b, s, k);
	add_diffs(&b, s, k, budget);
	return buf_detach(&b, NULL);
}
