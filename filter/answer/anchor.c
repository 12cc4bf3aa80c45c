/* anchor.c: matching quoted text to patch lines, through an index built once. */
#define _GNU_SOURCE	/* memmem(): two-way search, linear whatever the text */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "answer/anchor.h"
#include "base/hash.h"
#include "base/msg.h"
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
	return hash_fnv32(HASH_FNV32_INIT, s, len);
}

static bool is_code(const struct patch_line *l)
{
	return l->kind == LINE_ADDED || l->kind == LINE_CONTEXT || l->kind == LINE_REMOVED;
}

static size_t candidate_len(const struct anchor_index *ix, size_t k)
{
	return ix->start[k + 1] - ix->start[k] - 1;
}

static bool is_ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* The identifier before the first '(' of s, else its last identifier. */
static struct line_view function_name(const char *s, size_t len)
{
	const char *paren = memchr(s, '(', len);
	const char *end = paren ? paren : s + len;
	while (end > s && !is_ident_char(end[-1]))
		end--;
	const char *begin = end;
	while (begin > s && is_ident_char(begin[-1]))
		begin--;
	return (struct line_view){ begin, (size_t)(end - begin) };
}

/*
 * Does this code line open a function? A line at the left margin that names
 * something and opens a parameter list, is not a statement, and is not a
 * keyword or a label: how C, and most languages patched by mail, look.
 */
static bool opens_function(const char *s, size_t len)
{
	static const char *const keywords[] = { "if", "for", "while", "switch", "return", "else", "do" };
	if (!len || !(isalpha((unsigned char)s[0]) || s[0] == '_') || !memchr(s, '(', len))
		return false;
	while (len && isspace((unsigned char)s[len - 1]))
		len--;
	if (s[len - 1] == ';' || s[len - 1] == ',' || s[len - 1] == ':')
		return false;
	struct line_view name = function_name(s, len);
	for (size_t i = 0; i < sizeof(keywords) / sizeof(*keywords); i++)
		if (name.len == strlen(keywords[i]) && !memcmp(name.s, keywords[i], name.len))
			return false;
	return name.len > 0 && memchr(s, '=', (size_t)(name.s - s)) == NULL;
}

/* What encloses each line: the function opened above it in its hunk, else the hunk's. */
static void index_functions(struct anchor_index *ix)
{
	const struct patch *p = ix->patch;
	ix->function = xcalloc(p->nlines + 1, sizeof(*ix->function));
	struct line_view current = { "", 0 };
	int32_t hunk = -1;
	for (size_t i = p->message_end; i < p->nlines; i++) {
		const struct patch_line *l = &p->lines[i];
		if (l->hunk != hunk) {
			hunk = l->hunk;
			current = (struct line_view){ "", 0 };
			if (hunk >= 0)
				current = function_name(p->hunks[hunk].func, strlen(p->hunks[hunk].func));
		}
		if ((l->kind == LINE_CONTEXT || l->kind == LINE_ADDED) && l->len > 1 &&
		    opens_function(l->text + 1, l->len - 1))
			current = function_name(l->text + 1, l->len - 1);
		ix->function[i] = current;
	}
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
	index_functions(ix);
}

void anchor_index_release(struct anchor_index *ix)
{
	buf_release(&ix->text);
	free(ix->start);
	free(ix->line);
	free(ix->head);
	free(ix->next);
	free(ix->function);
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

/* One finding's question, with what it says about where it belongs. */
struct query {
	const struct anchor_index *ix;
	bool *named;		/* per patch file */
	bool message;		/* file "": the commit message */
	struct line_view function;	/* the function the model named, or empty */
	struct line_view idents[ANCHOR_MAX_IDENTS];	/* identifiers its comment names */
	size_t nidents;
};

struct candidate {
	size_t line;
	int tier, score;
};

static bool ident_eq(struct line_view a, struct line_view b)
{
	return a.len && a.len == b.len && !memcmp(a.s, b.s, a.len);
}

/* How many of the comment's identifiers appear on the line or near it, in its hunk. */
static int ident_hits(const struct query *q, size_t i)
{
	const struct patch *p = q->ix->patch;
	const struct patch_line *l = &p->lines[i];
	if (!q->nidents || l->hunk < 0)
		return 0;
	const struct patch_hunk *h = &p->hunks[l->hunk];
	size_t from = i > h->header_line + ANCHOR_NEAR ? i - ANCHOR_NEAR : h->header_line + 1;
	size_t to = i + ANCHOR_NEAR + 1 < h->end_line ? i + ANCHOR_NEAR + 1 : h->end_line;
	int hits = 0;
	for (size_t k = 0; k < q->nidents; k++)
		for (size_t j = from; j < to; j++)
			if (memmem(p->lines[j].text, p->lines[j].len, q->idents[k].s, q->idents[k].len)) {
				hits++;
				break;
			}
	return hits;
}

/*
 * Among lines that match equally well: the named file, then the function
 * the model named, then the identifiers its comment names, then added over
 * context over removed, then the earlier line.
 */
static int score_of(const struct query *q, size_t i)
{
	const struct patch_line *l = &q->ix->patch->lines[i];
	bool in_file = l->file >= 0 ? q->named[l->file] : q->message;
	bool in_function = i >= q->ix->patch->message_end && ident_eq(q->function, q->ix->function[i]);
	int hits = ident_hits(q, i);
	return (in_file ? 1000 : 0) + (in_function ? 200 : 0) +
		10 * (hits < 9 ? hits : 9) + kind_rank(l);
}

static void consider(struct candidate *best, const struct query *q, size_t i, int tier)
{
	int score = score_of(q, i);
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

/* Does candidate k's text equal, or contain, the normalised quote line? */
static int tier_at(const struct anchor_index *ix, size_t k, const char *quote, size_t len)
{
	const char *text = ix->text.data + ix->start[k];
	size_t n = candidate_len(ix, k);
	if (n == len && !memcmp(text, quote, len))
		return TIER_EQUAL;
	if (len >= ANCHOR_MIN_PART && memmem(text, n, quote, len))
		return TIER_PART;
	return TIER_NONE;
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
			consider(&best, q, ix->line[k - 1], TIER_EQUAL);
	if (best.tier || len < ANCHOR_MIN_PART)
		return best;
	/* Each line is searched once: after a hit the search goes on at the next line. */
	const char *text = ix->text.data, *end = text + ix->text.len, *hit;
	for (const char *s = text; (hit = memmem(s, (size_t)(end - s), quote, len));) {
		size_t c = candidate_at(ix, (size_t)(hit - text));
		consider(&best, q, ix->line[c], TIER_PART);
		s = text + ix->start[c + 1];
	}
	return best;
}

/* One line of a quote, normalised, without a leading diff marker the model kept. */
struct quote_line {
	const char *s;		/* into the query's buffer */
	size_t len;
	struct candidate best;
};

static void normalise_quote_line(struct buf *out, const char *s, size_t len)
{
	size_t begin = out->len;
	normalise(out, s, len);
	const char *q = out->data + begin;
	size_t n = out->len - begin;
	if (n > 1 && strchr("+-", q[0]) && q[1] != q[0]) {
		size_t skip = 1 + (q[1] == ' ');
		memmove(out->data + begin, q + skip, n - skip);
		out->len -= skip;
		out->data[out->len] = '\0';
	}
}

/*
 * A quote of several lines as a block: its lines, in order, on lines of one
 * hunk (or of the commit message), each a few lines at most after the one
 * before, since the quote may leave out the other side's lines. Returns the
 * block's last line, or FINDING_WHOLE; of several blocks the best scored.
 */
static size_t find_block(const struct query *q, const struct quote_line *ql, size_t n)
{
	const struct anchor_index *ix = q->ix;
	const struct patch *p = ix->patch;
	struct candidate best = { FINDING_WHOLE, TIER_NONE, 0 };
	for (size_t k = 0; k < ix->n; k++) {
		if (!tier_at(ix, k, ql[0].s, ql[0].len))
			continue;
		size_t at = k, matched = 1;
		int32_t hunk = p->lines[ix->line[k]].hunk;
		bool message = ix->line[k] < p->message_end;
		for (size_t j = 1; j < n; j++) {
			size_t next = at + 1, limit = at + 1 + ANCHOR_BLOCK_GAP;
			for (; next < ix->n && next <= limit; next++) {
				const struct patch_line *l = &p->lines[ix->line[next]];
				if (l->hunk != hunk || (ix->line[next] < p->message_end) != message)
					break;
				if (tier_at(ix, next, ql[j].s, ql[j].len))
					break;
			}
			if (next >= ix->n || next > limit || !tier_at(ix, next, ql[j].s, ql[j].len) ||
			    p->lines[ix->line[next]].hunk != hunk)
				break;
			at = next;
			matched++;
		}
		if (matched == n)
			consider(&best, q, ix->line[at], TIER_EQUAL);
	}
	return best.line;
}

/*
 * A line of the quote that says where it is: the one with a match that
 * is longest, not a brace or a bare return that could be anywhere.
 */
static size_t most_distinctive(const struct quote_line *ql, size_t n)
{
	size_t pick = SIZE_MAX;
	for (size_t j = 0; j < n; j++) {
		if (!ql[j].best.tier)
			continue;
		if (pick == SIZE_MAX || ql[j].best.tier > ql[pick].best.tier ||
		    (ql[j].best.tier == ql[pick].best.tier && ql[j].len >= ql[pick].len))
			pick = j;
	}
	return pick == SIZE_MAX ? FINDING_WHOLE : ql[pick].best.line;
}

/* A removed line that comes back changed as an added line: the comment goes on the new one. */
static size_t prefer_added(const struct query *q, size_t line, const struct quote_line *ql)
{
	const struct patch *p = q->ix->patch;
	const struct patch_line *l = &p->lines[line];
	if (l->kind != LINE_REMOVED || l->hunk < 0 || ql->len < ANCHOR_MIN_PART)
		return line;
	const struct patch_hunk *h = &p->hunks[l->hunk];
	struct buf text = BUF_INIT;
	size_t pick = line;
	for (size_t i = line + 1; i < h->end_line && pick == line; i++) {
		if (p->lines[i].kind != LINE_ADDED)
			continue;
		buf_reset(&text);
		normalise(&text, p->lines[i].text + 1, p->lines[i].len - 1);
		if (memmem(text.data, text.len, ql->s, ql->len))
			pick = i;
	}
	buf_release(&text);
	return pick;
}

/* Identifiers of the comment that look like code: with '_', a digit, or a '(' after. */
static void comment_idents(struct query *q, const char *comment)
{
	for (const char *s = comment; *s && q->nidents < ANCHOR_MAX_IDENTS;) {
		if (!is_ident_char(*s) || (s > comment && is_ident_char(s[-1]))) {
			s++;
			continue;
		}
		const char *e = s;
		bool code = false;
		while (is_ident_char(*e)) {
			code |= *e == '_' || isdigit((unsigned char)*e);
			e++;
		}
		code |= *e == '(' || (*e == '-' && e[1] == '>');
		if (code && e - s >= 3 && !isdigit((unsigned char)*s))
			q->idents[q->nidents++] = (struct line_view){ s, (size_t)(e - s) };
		s = e;
	}
}

size_t anchor_finding(const struct anchor_index *ix, const struct anchor_hint *h)
{
	const struct patch *p = ix->patch;
	const char *file = h->file ? h->file : "";
	struct query q = {
		.ix = ix, .named = xcalloc(p->nfiles + 1, sizeof(*q.named)), .message = !*file,
	};
	for (size_t f = 0; !q.message && f < p->nfiles; f++)
		q.named[f] = same_file(file, patch_file_path(&p->files[f]));
	if (h->function)
		q.function = function_name(h->function, strlen(h->function));
	if (h->comment)
		comment_idents(&q, h->comment);

	struct quote_line ql[ANCHOR_MAX_LINES];
	size_t offsets[ANCHOR_MAX_LINES], n = 0;
	struct buf lines = BUF_INIT;
	const char *quote = h->quote ? h->quote : "";
	size_t left = strnlen(quote, ANCHOR_MAX_QUOTE);
	while (left && n < ANCHOR_MAX_LINES) {
		const char *nl = memchr(quote, '\n', left);
		size_t len = nl ? (size_t)(nl - quote) : left;
		size_t before = lines.len;
		normalise_quote_line(&lines, quote, len);
		if (lines.len > before) {
			offsets[n] = before;
			ql[n++].len = lines.len - before;
		}
		quote += len + (nl != NULL);
		left -= len + (nl != NULL);
	}
	for (size_t j = 0; j < n; j++) {
		ql[j].s = lines.data + offsets[j];
		ql[j].best = best_line(&q, ql[j].s, ql[j].len);
	}
	size_t line = n > 1 ? find_block(&q, ql, n) : FINDING_WHOLE;
	if (line == FINDING_WHOLE)
		line = most_distinctive(ql, n);
	if (line != FINDING_WHOLE && n == 1)
		line = prefer_added(&q, line, &ql[0]);
	buf_release(&lines);
	free(q.named);
	return line;
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
