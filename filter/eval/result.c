/* result.c: one case's review as JSON, scored, with hints for the rest. */
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/text.h"
#include "eval/result.h"
#include "eval/score.h"
#include "evalset/hints.h"

/* Where a finding is: the commit message, a side of the diff, or the whole patch. */
static const char *side_of(const struct patch *p, size_t line)
{
	if (line == FINDING_WHOLE || line >= p->nlines)
		return "whole";
	if (line < p->message_end)
		return "message";
	switch (p->lines[line].kind) {
	case LINE_ADDED:
	case LINE_CONTEXT:
		return "new";
	case LINE_REMOVED:
		return "old";
	}
	return "other";
}

static long number_of(const struct patch *p, size_t line, const char *side)
{
	if (!strcmp(side, "new"))
		return p->lines[line].new_no;
	if (!strcmp(side, "old"))
		return p->lines[line].old_no;
	return strcmp(side, "whole") ? (long)line + 1 : 0;
}

/* The previous run's finding (kept or filtered) on the same line that has a hint, or NULL. */
static const cJSON *previous_hint(const cJSON *previous, const char *file, long line)
{
	static const char *const lists[] = { "findings", "filtered" };
	const cJSON *f;
	for (size_t i = 0; i < 2; i++)
		cJSON_ArrayForEach(f, cJSON_GetObjectItemCaseSensitive(previous, lists[i])) {
			const char *pf = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(f, "file"));
			const cJSON *pl = cJSON_GetObjectItemCaseSensitive(f, "line");
			if (pf && !strcmp(pf, file) && cJSON_IsNumber(pl) &&
			    (long)pl->valuedouble == line && cJSON_GetObjectItemCaseSensitive(f, "later"))
				return f;
		}
	return NULL;
}

/* "later": "unchanged", or the commit that changed the line next, and whether it fixes this one. */
static void add_hint(cJSON *f, const struct eval_set *s, const struct eval_case *k,
		     const char *file, long line, const cJSON *previous)
{
	static const char *const keys[] = { "later", "later_subject", "later_fixes_this" };
	const cJSON *old = previous_hint(previous, file, line);
	if (old) {
		for (size_t i = 0; i < 3; i++) {
			const cJSON *v = cJSON_GetObjectItemCaseSensitive(old, keys[i]);
			if (v)
				cJSON_AddItemToObject(f, keys[i], cJSON_Duplicate(v, 1));
		}
		return;
	}
	struct hint h;
	if (hint_for_line(s->repo, k->sha, s->head, file, line, &h) < 0)
		return;
	if (h.commit) {
		char *subject = text_clean_dup(h.subject, TEXT_ONE_LINE);
		cJSON_AddStringToObject(f, "later", h.commit);
		cJSON_AddStringToObject(f, "later_subject", subject);
		cJSON_AddBoolToObject(f, "later_fixes_this", h.fixes);
		free(subject);
	} else {
		cJSON_AddStringToObject(f, "later", "unchanged");
	}
	hint_release(&h);
}

/* The finding as JSON, scored against t (NULL for a clean case); *mo is its match. */
static cJSON *finding_json(const struct eval_set *s, const struct eval_case *k,
			   const struct patch *p, const struct finding *fd,
			   const struct truth *t, const cJSON *previous, enum match *mo)
{
	const char *side = side_of(p, fd->line);
	bool code = !strcmp(side, "new") || !strcmp(side, "old");
	const char *file = code && p->lines[fd->line].file >= 0 ?
		patch_file_path(&p->files[p->lines[fd->line].file]) : "";
	long number = number_of(p, fd->line, side);
	enum match m = t ? score_finding(p, t, fd->line) : MATCH_NONE;
	cJSON *f = cJSON_CreateObject();
	struct buf func = BUF_INIT;
	cJSON_AddStringToObject(f, "match", match_name(m));
	cJSON_AddStringToObject(f, "file", file);
	cJSON_AddStringToObject(f, "side", side);
	cJSON_AddNumberToObject(f, "line", (double)number);
	if (code && score_function_at(p, fd->line, &func))
		cJSON_AddStringToObject(f, "function", func.data);
	cJSON_AddStringToObject(f, "severity", severity_name(fd->severity));
	cJSON_AddStringToObject(f, "comment", fd->text);
	if (strcmp(side, "whole")) {
		char *text = text_clean_dup(p->lines[fd->line].text, TEXT_ONE_LINE);
		cJSON_AddStringToObject(f, "code", text);
		free(text);
	}
	if (m == MATCH_NONE && !strcmp(side, "new"))
		add_hint(f, s, k, file, number, previous);
	buf_release(&func);
	*mo = m;
	return f;
}

/* What the filters kept out of the draft, each with its filter and the model's confidence. */
static void add_filtered(cJSON *root, const struct eval_set *s, const struct eval_case *k,
			 const struct patch *p, const struct review *r, const struct truth *t,
			 const cJSON *previous)
{
	cJSON *list = cJSON_AddArrayToObject(root, "filtered");
	for (size_t i = 0; i < r->nfiltered; i++) {
		enum match m;
		const struct filtered_finding *ff = &r->filtered[i];
		cJSON *f = finding_json(s, k, p, &ff->finding, t, previous, &m);
		cJSON_AddStringToObject(f, "filter", ff->finding.source);
		cJSON_AddNumberToObject(f, "confidence", ff->confidence);
		cJSON_AddItemToArray(list, f);
	}
}

static void add_cost(cJSON *root, const struct review *r, const cJSON *previous)
{
	const struct review_cost *c = &r->cost;
	double seconds = c->seconds;
	const cJSON *was = cJSON_GetObjectItemCaseSensitive(previous, "seconds");
	/* A cached review took no time now; what it took is the time of the run that asked. */
	if (c->cached && cJSON_IsNumber(was) &&
	    !cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(previous, "cached")))
		seconds = was->valuedouble;
	cJSON_AddNumberToObject(root, "prompt_tokens", (double)c->prompt_tokens);
	cJSON_AddNumberToObject(root, "completion_tokens", (double)c->completion_tokens);
	cJSON_AddBoolToObject(root, "estimated", c->estimated);
	cJSON_AddBoolToObject(root, "cached", c->cached);
	cJSON_AddNumberToObject(root, "seconds", (double)(long)(seconds * 1000) / 1000);
}

cJSON *result_build(const struct eval_set *s, const struct eval_case *k, const char *model,
		    const struct patch *p, const struct review *r, const struct truth *t,
		    const cJSON *previous)
{
	cJSON *root = cJSON_CreateObject();
	cJSON_AddStringToObject(root, "case", k->name);
	cJSON_AddStringToObject(root, "sha", k->sha);
	cJSON_AddStringToObject(root, "kind", k->kind == CASE_BUG ? "bug" : "clean");
	cJSON_AddStringToObject(root, "model", model);
	cJSON_AddStringToObject(root, "status", r->model_deferred ? "deferred" :
				r->model_failed ? "failed" : "reviewed");
	cJSON *notes = cJSON_AddArrayToObject(root, "notes");
	for (size_t i = 0; i < r->notes.n; i++)
		cJSON_AddItemToArray(notes, cJSON_CreateString(r->notes.v[i]));
	add_cost(root, r, previous);
	cJSON *list = cJSON_CreateArray();
	enum match found = MATCH_NONE;
	for (size_t i = 0; i < r->nfindings; i++) {
		if (strcmp(r->findings[i].source, FINDING_MODEL))
			continue;
		enum match m;
		cJSON_AddItemToArray(list, finding_json(s, k, p, &r->findings[i], t, previous, &m));
		found = m > found ? m : found;
	}
	if (t) {
		cJSON_AddBoolToObject(root, "located", score_located(p, t));
		cJSON_AddStringToObject(root, "found", match_name(found));
		cJSON *fixes = cJSON_AddArrayToObject(root, "fixes");
		for (size_t i = 0; i < t->fixes.n; i++)
			cJSON_AddItemToArray(fixes, cJSON_CreateString(t->fixes.v[i]));
	}
	cJSON_AddItemToObject(root, "findings", list);
	add_filtered(root, s, k, p, r, t, previous);
	return root;
}
