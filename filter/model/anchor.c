/* anchor.c: matching quoted text to patch lines. */
#include <ctype.h>
#include <string.h>

#include "base/buf.h"
#include "model/anchor.h"
#include "review/finding.h"

/* Quotes shorter than this match only a whole line, never part of one. */
#define ANCHOR_MIN_PART 8

enum { TIER_NONE, TIER_PART, TIER_EQUAL };

/* s with whitespace runs collapsed to one space and trimmed. */
static void normalise(struct buf *out, const char *s, size_t len)
{
	buf_reset(out);
	for (size_t i = 0; i < len; i++) {
		if (!isspace((unsigned char)s[i])) {
			buf_addch(out, s[i]);
		} else if (out->len && out->data[out->len - 1] != ' ') {
			buf_addch(out, ' ');
		}
	}
	if (out->len && out->data[out->len - 1] == ' ')
		out->data[--out->len] = '\0';
}

static bool is_code(const struct patch_line *l)
{
	return l->kind == LINE_ADDED || l->kind == LINE_CONTEXT || l->kind == LINE_REMOVED;
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

struct candidate {
	size_t line;
	int tier, score;
};

static void consider(struct candidate *best, const struct patch *p, size_t i,
		     const char *file, int tier)
{
	const struct patch_line *l = &p->lines[i];
	bool in_file = l->file >= 0 ? *file && same_file(file, patch_file_path(&p->files[l->file]))
		: !*file;
	int score = (in_file ? 10 : 0) + kind_rank(l);
	if (tier > best->tier || (tier == best->tier && score > best->score))
		*best = (struct candidate){ i, tier, score };
}

static int tier_of(const char *line, const char *quote)
{
	if (!strcmp(line, quote))
		return TIER_EQUAL;
	if (strlen(quote) >= ANCHOR_MIN_PART && strstr(line, quote))
		return TIER_PART;
	return TIER_NONE;
}

/* The best line for one line of a quote, in normalised form. */
static struct candidate best_line(const struct patch *p, const char *file, const char *quote)
{
	struct candidate best = { FINDING_WHOLE, TIER_NONE, 0 };
	struct buf text = BUF_INIT;
	for (size_t i = 0; i < p->nlines; i++) {
		const struct patch_line *l = &p->lines[i];
		bool message = i < p->message_end;
		if (!message && !is_code(l))
			continue;
		/* The diff marker; an empty context line lost it to the mailer. */
		size_t skip = !message && l->len;
		normalise(&text, l->text + skip, l->len - skip);
		int tier = tier_of(text.data, quote);
		if (tier)
			consider(&best, p, i, file, tier);
	}
	buf_release(&text);
	return best;
}

/* Tries the line as quoted, and without a leading diff marker. */
static struct candidate anchor_line(const struct patch *p, const char *file,
				    const char *s, size_t len)
{
	struct buf quote = BUF_INIT;
	normalise(&quote, s, len);
	struct candidate best = { FINDING_WHOLE, TIER_NONE, 0 };
	if (quote.len)
		best = best_line(p, file, quote.data);
	if (quote.len > 1 && strchr("+-", quote.data[0])) {
		struct candidate bare = best_line(p, file, quote.data + 1 + (quote.data[1] == ' '));
		if (bare.tier > best.tier)
			best = bare;
	}
	buf_release(&quote);
	return best;
}

size_t anchor_quote(const struct patch *p, const char *file, const char *quote)
{
	struct candidate best = { FINDING_WHOLE, TIER_NONE, 0 };
	if (!file)
		file = "";
	for (const char *s = quote; *s;) {
		size_t len = strcspn(s, "\n");
		struct candidate c = anchor_line(p, file, s, len);
		if (c.tier && c.tier >= best.tier)
			best = c;
		s += len + (s[len] == '\n');
	}
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
