/*
 * b4check.c: --format b4-check, the protocol of b4 review's check commands
 * (b4.review-perpatch-check-cmd, b4 0.15 and later): on stdout a JSON list
 * of {"tool", "status": "pass"|"warn"|"fail", "summary", "url", "details"},
 * "[]" when there is nothing to report. b4 keeps one result per message
 * and tool name, so each tool appears once: "patchreview" for the built-in
 * checks and, when a backend is configured, "patchreview-model".
 */
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "base/text.h"
#include "output/b4check.h"
#include "output/output.h"
#include "output/place.h"

struct column {
	const char *tool;
	size_t count[SEVERITY_ERROR + 1];
	int worst;		/* enum severity, or -1 */
	struct buf details;
};

static void add_finding(struct column *col, const struct placed *f)
{
	struct buf *d = &col->details;
	enum severity sev = f->finding->severity;
	col->count[sev]++;
	if ((int)sev > col->worst)
		col->worst = (int)sev;
	struct buf where = BUF_INIT;
	place_where(&where, f);
	buf_addf(d, "%s%s%s%s (%s)\n", d->len ? "\n" : "", where.data, where.len ? ": " : "",
		 severity_name(sev), f->finding->source);
	buf_release(&where);
	if (f->line) {
		buf_addstr(d, "> ");
		text_clean(d, f->line->text, f->line->len, 0);
		buf_addch(d, '\n');
	}
	text_clean(d, f->finding->text, strlen(f->finding->text), 0);
	buf_addch(d, '\n');
}

/* "1 error, 2 nits", or "no comments". */
static void count_summary(struct buf *s, const struct column *col)
{
	static const char *const words[] = { "nit", "warning", "error" };
	size_t start = s->len;
	for (int sev = SEVERITY_ERROR; sev >= SEVERITY_NIT; sev--)
		if (col->count[sev])
			buf_addf(s, "%s%zu %s%s", s->len > start ? ", " : "", col->count[sev],
				 words[sev], col->count[sev] == 1 ? "" : "s");
	if (s->len == start)
		buf_addstr(s, "no comments");
}

static void add_result(cJSON *list, const struct column *col, const char *status,
		       const char *summary)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "tool", col->tool);
	cJSON_AddStringToObject(o, "status", status);
	char *clean = text_clean_dup(summary, TEXT_ONE_LINE);
	cJSON_AddStringToObject(o, "summary", clean);
	free(clean);
	cJSON_AddStringToObject(o, "url", "");
	cJSON_AddStringToObject(o, "details", col->details.data);
	cJSON_AddItemToArray(list, o);
}

static const char *status_of(const struct column *col)
{
	return col->worst == SEVERITY_ERROR ? "fail" : col->worst >= 0 ? "warn" : "pass";
}

static void add_patch(cJSON *list, const struct output_patch *op)
{
	const struct review *r = op->review;
	struct column checks = { "patchreview", { 0 }, -1, BUF_INIT };
	struct column model = { "patchreview-model", { 0 }, -1, BUF_INIT };
	size_t n;
	struct placed *v = place_findings(op, &n);
	for (size_t i = 0; i < n; i++)
		add_finding(place_is_model(&v[i]) ? &model : &checks, &v[i]);
	free(v);
	/* The notes of a reviewed patch are the model's: failed, skipped, not verified. */
	struct column *noted = r->model_ran ? &model : &checks;
	for (size_t i = 0; i < r->notes.n; i++)
		buf_addf(&noted->details, "%s[patchreview: %s]\n", noted->details.len ? "\n" : "",
			 r->notes.v[i]);
	struct buf summary = BUF_INIT;
	count_summary(&summary, &checks);
	add_result(list, &checks, status_of(&checks), summary.data);
	if (r->model_ran) {
		buf_reset(&summary);
		if (r->model_failed && r->notes.n) {
			buf_addstr(&summary, r->notes.v[0]);
		} else {
			count_summary(&summary, &model);
			if (r->cost.cached)
				buf_addstr(&summary, "; cached review");
			else
				buf_addf(&summary, "; %ld + %ld tokens, %.1f s", r->cost.prompt_tokens,
					 r->cost.completion_tokens, r->cost.seconds);
		}
		add_result(list, &model, r->model_failed ? "fail" : status_of(&model), summary.data);
	}
	buf_release(&summary);
	buf_release(&checks.details);
	buf_release(&model.details);
}

void output_b4_check(FILE *out, const struct output_patch *v, size_t n)
{
	cJSON *list = cJSON_CreateArray();
	for (size_t i = 0; i < n; i++)
		if (v[i].reviewed || v[i].review->nfindings)	/* a cover letter: the series' findings */
			add_patch(list, &v[i]);
	output_print_json(out, list, false);
}
