/* reviewers.c: the reviewers, in the order they run, in one table. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "checks/checks.h"
#include "checks/ctext.h"
#include "checks/rules.h"
#include "base/msg.h"
#include "model/model.h"
#include "review/suppress.h"
#include "run/reviewers.h"
#include "series/checks.h"
#include "thread/thread.h"

/*
 * The built-in checks, in the order they run; the model reviewer comes
 * after them, and the tree's checkpatch.pl runs beside both.
 */
static const struct reviewer *const checks[] = {
	&check_form, &check_message, &check_log, &check_whitespace, &check_kstyle,
	&check_kcode, &check_spelling, &check_tree,
};

/*
 * Drops the findings of rules that do not apply: outside the profile, or
 * turned off (skip_checks). The checks report freely; this decides.
 */
static void drop_disabled(const struct review_input *in, struct review *r)
{
	enum profile profile = rules_profile(in);
	size_t kept = 0;
	for (size_t i = 0; i < r->nfindings; i++) {
		if (rule_enabled(in, profile, r->findings[i].source))
			r->findings[kept++] = r->findings[i];
		else
			free(r->findings[i].text);
	}
	r->nfindings = kept;
}

/* One closing sentence on what the built-in checks found: their n comments. */
static char *checks_sentence(size_t n)
{
	struct buf s = BUF_INIT;
	if (!n)
		buf_addstr(&s, "The built-in checks found nothing to comment on.");
	else
		buf_addf(&s, "The built-in checks made %zu comment%s.", n, n == 1 ? "" : "s");
	return buf_detach(&s, NULL);
}

/*
 * Puts the findings from mid on (checkpatch.pl's) before those from start
 * to mid (the model's): the checks' findings come first, as they ran first.
 */
static void rotate_findings(struct review *r, size_t start, size_t mid)
{
	size_t a = mid - start, b = r->nfindings - mid;
	if (!a || !b)
		return;
	struct finding *tmp = xcalloc(a, sizeof(*tmp));
	memcpy(tmp, r->findings + start, a * sizeof(*tmp));
	memmove(r->findings + start, r->findings + mid, b * sizeof(*tmp));
	memcpy(r->findings + start + b, tmp, a * sizeof(*tmp));
	free(tmp);
}

/* Of the findings from start on, those checkpatch.pl made. */
static size_t count_checkpatch(const struct review *r, size_t start)
{
	size_t n = 0;
	for (size_t i = start; i < r->nfindings; i++)
		n += !strcmp(r->findings[i].source, rule_id(RULE_CHECKPATCH));
	return n;
}

static void tell_dropped(const struct suppress_list *known, size_t dropped,
			 const struct config *c)
{
	if (dropped && !c->quiet)
		warn("%zu known finding%s left out, as %s lists", dropped,
		     dropped == 1 ? "" : "s", known->path);
}

/* Of one patch, the findings the thread had already made, and who made them. */
struct raised {
	size_t n;		/* findings dropped: the thread made them */
	struct strvec who;	/* by whom */
};

void reviewers_run_all(const struct review_input *ins, struct review *rs, size_t n)
{
	struct suppress_list known;
	suppress_load(&known, ins[0].config);
	size_t dropped = 0, *from = xcalloc(n + 1, sizeof(*from));
	size_t *sentence = xcalloc(n + 1, sizeof(*sentence));
	struct raised *raised = xcalloc(n + 1, sizeof(*raised));
	/* checkpatch.pl first: it runs in the background while the checks and the model do. */
	struct checkpatch_job *cp = checks_checkpatch_start(ins, rs, n);
	/* The checks first, so that their closing sentence precedes the model's summary. */
	for (size_t i = 0; i < n; i++) {
		size_t start = rs[i].nfindings;
		thread_note_addressed(ins[i].thread, ins[i].patch, &rs[i]);
		struct c_text c_text;
		struct review_input in = ins[i];
		c_text_init(&c_text, in.patch);
		in.c_text = &c_text;
		for (size_t k = 0; k < sizeof(checks) / sizeof(*checks); k++)
			checks[k]->run(&in, &rs[i]);
		c_text_release(&c_text);
		drop_disabled(&ins[i], &rs[i]);
		dropped += suppress_apply(&known, &ins[i], &rs[i], start);
		raised[i].n = thread_drop(ins[i].thread, ins[i].patch, &rs[i], start, &raised[i].who);
		sentence[i] = rs[i].summary.n;
		review_summary(&rs[i], "");
		from[i] = rs[i].nfindings;
	}
	model_review(ins, rs, n);
	size_t *model_end = xcalloc(n + 1, sizeof(*model_end));
	for (size_t i = 0; i < n; i++)
		model_end[i] = rs[i].nfindings;
	checks_checkpatch_finish(cp, ins, rs, n);
	for (size_t i = 0; i < n; i++) {
		rotate_findings(&rs[i], from[i], model_end[i]);
		dropped += suppress_apply(&known, &ins[i], &rs[i], from[i]);
		raised[i].n += thread_drop(ins[i].thread, ins[i].patch, &rs[i], from[i],
					   &raised[i].who);
		thread_note_dropped(&rs[i], raised[i].n, &raised[i].who);
		strvec_clear(&raised[i].who);
		/* The sentence's place was kept: checkpatch.pl's findings came in since. */
		free(rs[i].summary.v[sentence[i]]);
		rs[i].summary.v[sentence[i]] =
			checks_sentence(from[i] + count_checkpatch(&rs[i], from[i]));
	}
	free(raised);
	tell_dropped(&known, dropped, ins[0].config);
	suppress_release(&known);
	free(model_end);
	free(sentence);
	free(from);
}

void reviewers_run(const struct review_input *in, struct review *r)
{
	reviewers_run_all(in, r, 1);
}

void reviewers_run_series(const struct review_input *in, const struct series *s,
			  struct review *r)
{
	struct suppress_list known;
	suppress_load(&known, in->config);
	size_t from = r->nfindings;
	series_check(s, r);
	drop_disabled(in, r);
	tell_dropped(&known, suppress_apply(&known, in, r, from), in->config);
	suppress_release(&known);
}
