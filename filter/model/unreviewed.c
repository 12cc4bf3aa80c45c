/* unreviewed.c: the draft's note on what the model did not review. */
#include "backend/budget.h"
#include "backend/offline.h"
#include "model/unreviewed.h"

/* Why a request was left out: the budget, or a line too large. */
typedef bool fate_fn(const struct prompt_plan *pl, const struct model_request *v, size_t k);

static bool over_budget(const struct prompt_plan *pl, const struct model_request *v, size_t k)
{
	(void)pl;
	return !v[k].answered && v[k].over_budget;
}

static bool too_large(const struct prompt_plan *pl, const struct model_request *v, size_t k)
{
	return !v[k].answered && prompt_plan_too_large(pl, k);
}

bool unreviewed_left_out(const struct prompt_plan *pl, const struct model_request *q, size_t k)
{
	return !q->answered && (q->over_budget || prompt_plan_too_large(pl, k));
}

/* "the model did not review this patch" or "... 27 of the 31 parts of this patch". */
static size_t did_not_review(struct buf *b, const struct prompt_plan *pl,
			     const struct model_request *v, fate_fn *fate, long *tokens)
{
	size_t n = 0;
	for (size_t k = 0; k < pl->count; k++)
		if (fate(pl, v, k)) {
			n++;
			*tokens += tokens_of(v[k].bytes);
		}
	if (!n)
		return 0;
	if (pl->count == 1)
		buf_addstr(b, "the model did not review this patch");
	else
		buf_addf(b, "the model did not review %zu of the %zu parts of this patch", n,
			 pl->count);
	return n;
}

/* The files and hunks of those requests, each run of them described once. */
static void describe(struct buf *b, const struct prompt_plan *pl, const struct model_request *v,
		     fate_fn *fate)
{
	if (pl->count == 1)
		return;
	buf_addstr(b, ". Not reviewed: ");
	for (size_t k = 0, runs = 0; k < pl->count; k++) {
		if (!fate(pl, v, k))
			continue;
		size_t end = k + 1;
		while (end < pl->count && fate(pl, v, end))
			end++;
		if (runs++)
			buf_addstr(b, "; ");
		prompt_plan_describe(pl, k, end, b);
		k = end;
	}
}

void unreviewed_note(struct review *r, const struct prompt_plan *pl,
		     const struct model_request *v, const struct config *c)
{
	struct buf s = BUF_INIT;
	long tokens = 0;
	size_t n = did_not_review(&s, pl, v, over_budget, &tokens);
	if (n) {
		buf_addf(&s, ": token_budget (%ld) was spent", c->token_budget);
		describe(&s, pl, v, over_budget);
		buf_addf(&s, ". To review %s (about %ld tokens more), ", n > 1 ? "them" : "it", tokens);
		if (c->cache && !offline_enabled(c))
			buf_addstr(&s, "run patchreview on the mail again: what was reviewed comes "
				   "from the cache, so the budget goes to the rest; or raise token_budget");
		else
			buf_addstr(&s, "raise token_budget by that much");
		review_note(r, "%s", s.data);
	}
	buf_reset(&s);
	if (did_not_review(&s, pl, v, too_large, &tokens)) {
		buf_addstr(&s, ": it holds a line larger than any request may be (context_tokens)");
		describe(&s, pl, v, too_large);
		review_note(r, "%s", s.data);
	}
	buf_release(&s);
}
