/* reviewers.c: the reviewers, in the order they run, in one table. */
#include <stdbool.h>
#include <stdlib.h>

#include "base/buf.h"
#include "checks/checks.h"
#include "checks/rules.h"
#include "base/msg.h"
#include "model/model.h"
#include "review/suppress.h"
#include "reviewers.h"

static const struct {
	const struct reviewer *reviewer;
	bool builtin;		/* a check: no model, counted in the closing sentence */
} reviewers[] = {
	{ &check_form, true },
	{ &check_message, true },
	{ &check_log, true },
	{ &check_whitespace, true },
	{ &check_kstyle, true },
	{ &check_kcode, true },
	{ &check_spelling, true },
	{ &check_tree, true },
	{ &check_checkpatch, true },
	{ &model_reviewer, false },
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

/* One closing sentence on what the built-in checks found. */
static void summarise_checks(struct review *r)
{
	struct buf s = BUF_INIT;
	size_t n = r->nfindings;
	if (!n)
		buf_addstr(&s, "The built-in checks found nothing to comment on.");
	else
		buf_addf(&s, "The built-in checks left %zu comment%s above.", n, n == 1 ? "" : "s");
	review_summary(r, s.data);
	buf_release(&s);
}

void reviewers_run(const struct review_input *in, struct review *r)
{
	struct suppress_list known;
	suppress_load(&known, in->config);
	size_t dropped = 0;
	/* The checks first, so that their closing sentence precedes the model's summary. */
	for (int checks = 1; checks >= 0; checks--) {
		size_t from = r->nfindings;
		for (size_t i = 0; i < sizeof(reviewers) / sizeof(*reviewers); i++)
			if (reviewers[i].builtin == checks &&
			    reviewers[i].reviewer->run(in, r) < 0 && !checks)
				r->model_failed = true;
		if (checks)
			drop_disabled(in, r);
		dropped += suppress_apply(&known, in, r, from);
		if (checks)
			summarise_checks(r);
	}
	if (dropped && !in->config->quiet)
		warn("%zu known finding%s left out, as %s lists", dropped,
		     dropped == 1 ? "" : "s", known.path);
	suppress_release(&known);
}
