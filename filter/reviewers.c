/* reviewers.c: the reviewers, in the order they run, in one table. */
#include <stdbool.h>
#include <stdlib.h>

#include "base/buf.h"
#include "checks/checks.h"
#include "model/model.h"
#include "reviewers.h"

static const struct {
	const struct reviewer *reviewer;
	bool builtin;		/* a check: no model, counted in the closing sentence */
} reviewers[] = {
	{ &check_form, true },
	{ &check_message, true },
	{ &check_whitespace, true },
	{ &model_reviewer, false },
};

/* Drops the findings of the checks the user turned off (skip_checks). */
static void drop_skipped(struct review *r, const char *skip)
{
	struct strvec names = STRVEC_INIT;
	strvec_split(&names, skip ? skip : "", ", ");
	size_t kept = 0;
	for (size_t i = 0; i < r->nfindings; i++) {
		if (strvec_has(&names, r->findings[i].source))
			free(r->findings[i].text);
		else
			r->findings[kept++] = r->findings[i];
	}
	r->nfindings = kept;
	strvec_clear(&names);
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
	/* The checks first, so that their closing sentence precedes the model's summary. */
	for (int checks = 1; checks >= 0; checks--) {
		for (size_t i = 0; i < sizeof(reviewers) / sizeof(*reviewers); i++)
			if (reviewers[i].builtin == checks &&
			    reviewers[i].reviewer->run(in, r) < 0 && !checks)
				r->model_failed = true;
		if (checks) {
			drop_skipped(r, in->config->skip_checks);
			summarise_checks(r);
		}
	}
}
