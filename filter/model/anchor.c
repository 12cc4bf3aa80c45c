/* anchor.c: matching quoted text to patch lines, through an index built once. */
#define _GNU_SOURCE	/* memmem(): two-way search, linear whatever the text */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "base/msg.h"
#include "model/anchor.h"
#include "review/finding.h"

/* Quotes shorter than this match only a whole line, never part of one. */
#define ANCHOR_MIN_PART 8

enum { TIER_NONE, TIER_PART, TIER_EQUAL };

/* s with whitespace runs collapsed to one space and trimmed, appended to out. */
static void normalise(struct buf *out, const char *s, size_t len)
{
	size_t begin = out->len;
	for (size_t i = 0; i < len; i++) {
		if (!isspace((unsigned char)s[i])) {
			buf_addch(out, s[i]);
		} else if (out->len > begin && out->data[out->len - 1] != ' ') {
			buf_addch(out, ' ');
		}
	}
	if (out->len > begin && out->data[out->len - 1] == ' ')
		out->data[--out->len] = '\0';
}

static uint32_t hash(const char *s, size_t len)
{
	uint32_t h = 2166136261u;	/* FNV-1a */
	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

static bool is_code(const struct patch_line *l)
{
	return l->kind == LINE_ADDED || l->kind == LINE_CONTEXT || l->kind == LINE_REMOVED;
}

static size_t candidate_len(const struct anchor_index *ix, size_t k)
{
	return ix->start[k + 1] - ix->start[k] - 1;
}

void anchor_index_init(struct anchor_index *ix, const struct patch *p)
{
	*ix = (struct anchor_index){ .patch = p, .text = BUF_INIT };
	ix->start = xcalloc(p->nlines + 1, sizeof(*ix->start));
	ix->line = xcalloc(p->nlines + 1, sizeof(*ix->line));
	for (size_t i = 0; i < p->nlines; i++) {
		const struct patch_line *l = &p->lines[i];
		bool message = i < p->message_end;
		if (!message && !is_code(l))
			continue;
		/* The diff marker; an empty context line lost it to the mailer. */
		size_t skip = !message && l->len;
		ix->start[ix->n] = ix->text.len;
		ix->line[ix->n++] = i;
		normalise(&ix->text, l->text + skip, l->len - skip);
		buf_addch(&ix->text, '\n');
	}
	ix->start[ix->n] = ix->text.len;
	for (ix->buckets = 16; ix->buckets < 2 * ix->n; ix->buckets *= 2)
		;
	ix->head = xcalloc(ix->buckets, sizeof(*ix->head));
	ix->next = xcalloc(ix->n + 1, sizeof(*ix->next));
	/* Backwards, so that each bucket lists its lines in patch order. */
	for (size_t k = ix->n; k-- > 0;) {
		uint32_t *h = &ix->head[hash(ix->text.data + ix->start[k], candidate_len(ix, k)) &
					(ix->buckets - 1)];
		ix->next[k] = *h;
		*h = (uint32_t)k + 1;
	}
}

void anchor_index_release(struct anchor_index *ix)
{
	buf_release(&ix->text);
	free(ix->start);
	free(ix->line);
	free(ix->head);
	free(ix->next);
	*ix = (struct anchor_index){ .text = BUF_INIT };
}

/* "net/a.c" given as itself, as "b/net/a.c", or by its last components. */
static bool same_file(const char *given, const char *path)
{
	size_t g = strlen(given), n = strlen(path);
	if ((!strncmp(given, "a/", 2) || !strncmp(given, "b/", 2)) && !strcmp(given + 2, path))
		return true;
	return g <= n && !strcmp(path + n - g, given) && (g == n || path[n - g - 1] == '/');
}

static int kind_rank(const struct patch_line *l)
{
	return l->kind == LINE_REMOVED ? 1 : l->kind == LINE_CONTEXT ? 2 : 3;
}

/* One finding's question: which of the patch's files it names. */
struct query {
	const struct anchor_index *ix;
	bool *named;		/* per patch file */
	bool message;		/* file "": the commit message */
};

struct candidate {
	size_t line;
	int tier, score;
};

static void consider(struct candidate *best, const struct query *q, size_t k, int tier)
{
	size_t i = q->ix->line[k];
	const struct patch_line *l = &q->ix->patch->lines[i];
	bool in_file = l->file >= 0 ? q->named[l->file] : q->message;
	int score = (in_file ? 10 : 0) + kind_rank(l);
	if (tier > best->tier || (tier == best->tier && score > best->score))
		*best = (struct candidate){ i, tier, score };
}

/* The candidate whose text holds offset at. */
static size_t candidate_at(const struct anchor_index *ix, size_t at)
{
	size_t lo = 0, hi = ix->n;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (ix->start[mid] <= at)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* The best line for one line of a quote, in normalised form. */
static struct candidate best_line(const struct query *q, const char *quote, size_t len)
{
	const struct anchor_index *ix = q->ix;
	struct candidate best = { FINDING_WHOLE, TIER_NONE, 0 };
	uint32_t k = ix->head[hash(quote, len) & (ix->buckets - 1)];
	for (; k; k = ix->next[k - 1])
		if (candidate_len(ix, k - 1) == len &&
		    !memcmp(ix->text.data + ix->start[k - 1], quote, len))
			consider(&best, q, k - 1, TIER_EQUAL);
	if (best.tier || len < ANCHOR_MIN_PART)
		return best;
	/* Each line is searched once: after a hit the search goes on at the next line. */
	const char *text = ix->text.data, *end = text + ix->text.len, *hit;
	for (const char *s = text; (hit = memmem(s, (size_t)(end - s), quote, len));) {
		size_t c = candidate_at(ix, (size_t)(hit - text));
		consider(&best, q, c, TIER_PART);
		s = text + ix->start[c + 1];
	}
	return best;
}

/* Tries the line as quoted, and without a leading diff marker. */
static struct candidate anchor_line(const struct query *q, struct buf *quote,
				    const char *s, size_t len)
{
	buf_reset(quote);
	normalise(quote, s, len);
	struct candidate best = { FINDING_WHOLE, TIER_NONE, 0 };
	if (quote->len)
		best = best_line(q, quote->data, quote->len);
	if (quote->len > 1 && strchr("+-", quote->data[0])) {
		size_t skip = 1 + (quote->data[1] == ' ');
		struct candidate bare = best_line(q, quote->data + skip, quote->len - skip);
		if (bare.tier > best.tier)
			best = bare;
	}
	return best;
}

size_t anchor_quote(const struct anchor_index *ix, const char *file, const char *quote)
{
	const struct patch *p = ix->patch;
	struct query q = { ix, xcalloc(p->nfiles + 1, sizeof(*q.named)), !file || !*file };
	for (size_t f = 0; !q.message && f < p->nfiles; f++)
		q.named[f] = same_file(file, patch_file_path(&p->files[f]));
	struct candidate best = { FINDING_WHOLE, TIER_NONE, 0 };
	struct buf line = BUF_INIT;
	size_t left = strnlen(quote, ANCHOR_MAX_QUOTE);
	for (size_t n = 0; left && n < ANCHOR_MAX_LINES; n++) {
		const char *nl = memchr(quote, '\n', left);
		size_t len = nl ? (size_t)(nl - quote) : left;
		struct candidate c = anchor_line(&q, &line, quote, len);
		if (c.tier && c.tier >= best.tier)
			best = c;
		quote += len + (nl != NULL);
		left -= len + (nl != NULL);
	}
	buf_release(&line);
	free(q.named);
	return best.line;
}

bool anchor_about_change(const struct patch *p, size_t line)
{
	const struct patch_line *l = &p->lines[line];
	if (l->kind != LINE_CONTEXT || l->hunk < 0)
		return true;
	const struct patch_hunk *h = &p->hunks[l->hunk];
	size_t from = line > h->header_line + ANCHOR_NEAR ? line - ANCHOR_NEAR : h->header_line;
	size_t to = line + ANCHOR_NEAR + 1 < h->end_line ? line + ANCHOR_NEAR + 1 : h->end_line;
	for (size_t i = from; i < to; i++)
		if (p->lines[i].kind == LINE_ADDED || p->lines[i].kind == LINE_REMOVED)
			return true;
	return false;
}
