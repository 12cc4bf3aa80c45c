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
/* Patches of the series listed around the one to review; the diffs come from these only. */
#define SERIES_NEAREST 20
/* Of a subject listed, at most this much. */
#define TITLE_MAX 200

/* The window of SERIES_NEAREST numbers around patch k's, [*lo, *hi] within 1..total. */
static void series_window(const struct series *s, size_t k, unsigned *lo, unsigned *hi)
{
	unsigned long long at = s->patches[k]->patch.subject.index, total = s->total;
	unsigned long long n = SERIES_NEAREST, l = at > n / 2 ? at - n / 2 : 1;
	if (total <= n)
		l = 1;
	else if (l + n - 1 > total)
		l = total - n + 1;
	*lo = (unsigned)l;
	*hi = (unsigned)(l + n - 1 < total ? l + n - 1 : total);
}

/* A title's length as listed: whole, or cut at TITLE_MAX on a character's start. */
static size_t title_length(const char *title)
{
	size_t len = strlen(title);
	if (len <= TITLE_MAX)
		return len;
	len = TITLE_MAX;
	while (len && ((unsigned char)title[len] & 0xc0) == 0x80)
		len--;
	return len;
}

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

/*
 * The subjects of the patches nearest to patch k: at most SERIES_NEAREST
 * numbers of the series around its own, the rest counted.
 */
static void add_subjects(struct buf *b, const struct series *s, size_t k)
{
	unsigned lo, hi;
	series_window(s, k, &lo, &hi);
	buf_addstr(b, "The patches of the series:\n");
	if (lo > 1)
		buf_addf(b, "  ... and %u more before these\n", lo - 1);
	size_t next = k;
	while (next > 0 && s->patches[next - 1]->patch.subject.index >= lo)
		next--;
	for (unsigned want = lo; want && want <= hi; want++) {
		if (next < s->npatches && s->patches[next]->patch.subject.index == want) {
			const char *title = s->patches[next]->patch.subject.title;
			buf_addf(b, "  %u/%u %.*s%s%s\n", want, s->total, (int)title_length(title),
				 title, title[title_length(title)] ? " [...]" : "",
				 next == k ? "   <- the patch to review" : "");
			next++;
		} else {
			buf_addf(b, "  %u/%u (not available)\n", want, s->total);
		}
	}
	if (hi < s->total)
		buf_addf(b, "  ... and %u more after these\n", s->total - hi);
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

/*
 * The diffs of the others listed, nearest first: the one before, the one
 * after, two before... as long as they fit in budget; the others listed
 * are named.
 */
static void add_diffs(struct buf *b, const struct series *s, size_t k, size_t budget)
{
	struct buf left = BUF_INIT;
	size_t used = 0;
	unsigned lo, hi;
	series_window(s, k, &lo, &hi);
	for (size_t d = 1; d < s->npatches && d <= SERIES_NEAREST; d++) {
		for (int side = 0; side < 2; side++) {
			size_t j = side ? k + d : k - d;
			if ((side ? k + d >= s->npatches : d > k))
				continue;
			const struct series_msg *m = s->patches[j];
			if (m->patch.subject.index < lo || m->patch.subject.index > hi)
				continue;
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
