/*
 * json.c: --format json, every finding of every patch with its place, for
 * scripts and CI. Documented in doc/b4-and-ci.md and
 * contrib/patchreview.schema.json; "format" changes only when a consumer
 * could misread the new output, so new keys may appear without it.
 */
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "base/msg.h"
#include "base/text.h"
#include "output/json.h"
#include "output/output.h"
#include "output/place.h"

/* Text from the mail or the model, made valid UTF-8 without controls; NULL is null. */
static void add_text(cJSON *o, const char *key, const char *s, unsigned flags)
{
	if (!s) {
		cJSON_AddNullToObject(o, key);
		return;
	}
	char *clean = text_clean_dup(s, flags);
	cJSON_AddStringToObject(o, key, clean);
	free(clean);
}

/* A line number, or null when the line has none on that side. */
static void add_line_no(cJSON *o, const char *key, unsigned long n)
{
	if (n)
		cJSON_AddNumberToObject(o, key, (double)n);
	else
		cJSON_AddNullToObject(o, key);
}

static cJSON *finding_json(const struct placed *f)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "severity", severity_name(f->finding->severity));
	cJSON_AddStringToObject(o, "source", f->finding->source);
	add_text(o, "file", f->file, TEXT_ONE_LINE);
	add_line_no(o, "line", f->new_no);
	add_line_no(o, "old_line", f->old_no);
	add_text(o, "kind", f->kind, 0);
	if (f->line) {
		char *quote = xstrndup(f->line->text, f->line->len);
		add_text(o, "quote", quote, TEXT_KEEP_CR);
		free(quote);
	} else {
		cJSON_AddNullToObject(o, "quote");
	}
	add_text(o, "text", f->finding->text, 0);
	return o;
}

/* What the model review cost, or null when no model reviewer is configured. */
static cJSON *model_json(const struct review *r, const struct config *c)
{
	if (!r->model_ran)
		return cJSON_CreateNull();
	const struct review_cost *cost = &r->cost;
	cJSON *o = cJSON_CreateObject();
	add_text(o, "backend", c->backend, TEXT_ONE_LINE);
	add_text(o, "name", c->model, TEXT_ONE_LINE);
	cJSON_AddBoolToObject(o, "failed", r->model_failed);
	cJSON_AddBoolToObject(o, "cached", cost->cached);
	cJSON_AddBoolToObject(o, "estimated", cost->estimated);
	cJSON_AddNumberToObject(o, "prompt_tokens", (double)cost->prompt_tokens);
	cJSON_AddNumberToObject(o, "completion_tokens", (double)cost->completion_tokens);
	cJSON_AddNumberToObject(o, "seconds", (double)(long)(cost->seconds * 1000 + 0.5) / 1000);
	return o;
}

static cJSON *patch_json(const struct output_patch *op, const struct config *c)
{
	const struct mail *m = op->mail;
	const struct subject_prefix *s = &op->patch->subject;
	cJSON *o = cJSON_CreateObject();
	add_text(o, "message_id", m->message_id, TEXT_ONE_LINE);
	add_text(o, "subject", m->subject, TEXT_ONE_LINE);
	cJSON_AddNumberToObject(o, "index", s->index);
	cJSON_AddNumberToObject(o, "total", s->total);
	cJSON_AddBoolToObject(o, "reviewed", op->reviewed);
	add_text(o, "draft", op->draft_path, TEXT_ONE_LINE);
	cJSON_AddItemToObject(o, "model", model_json(op->review, c));
	cJSON *notes = cJSON_AddArrayToObject(o, "notes");
	for (size_t i = 0; i < op->review->notes.n; i++) {
		char *clean = text_clean_dup(op->review->notes.v[i], TEXT_ONE_LINE);
		cJSON_AddItemToArray(notes, cJSON_CreateString(clean));
		free(clean);
	}
	cJSON *findings = cJSON_AddArrayToObject(o, "findings");
	size_t n;
	struct placed *v = place_findings(op, &n);
	for (size_t i = 0; i < n; i++)
		cJSON_AddItemToArray(findings, finding_json(&v[i]));
	free(v);
	return o;
}

void output_json(FILE *out, const struct output_patch *v, size_t n, const struct config *c)
{
	cJSON *root = cJSON_CreateObject();
	cJSON_AddNumberToObject(root, "format", OUTPUT_JSON_FORMAT);
	cJSON_AddStringToObject(root, "tool", "patchreview");
	cJSON_AddStringToObject(root, "version", PATCHREVIEW_VERSION);
	cJSON *patches = cJSON_AddArrayToObject(root, "patches");
	for (size_t i = 0; i < n; i++)
		cJSON_AddItemToArray(patches, patch_json(&v[i], c));
	output_print_json(out, root, true);
}
