/* report.c: tallies of the result files, as text or JSON. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "base/buf.h"
#include "base/msg.h"
#include "base/slurp.h"
#include "base/text.h"
#include "eval/report.h"

#define REPORT_MAX_RESULT ((size_t)16 << 20)
/* Of a comment, what the text report shows; the draft and the JSON have it all. */
#define REPORT_COMMENT 300

/* Filters told apart in a tally; the model reviewer has four. */
#define REPORT_MAX_FILTERS 8

/* What one filter kept out of the drafts. */
struct filter_tally {
	char name[32];
	size_t removed;
	size_t known;		/* the known bug, on its line or in its hunk */
	size_t later_fixed;	/* a later commit whose Fixes: names the case changed the line */
};

struct tally {
	size_t reviewed, failed, deferred, missing;
	size_t bugs, located, line, hunk, found_located;
	size_t findings, clean, clean_findings;
	double prompt, completion, seconds;
	bool estimated;
	struct filter_tally filters[REPORT_MAX_FILTERS];
	size_t nfilters;
};

static const char *str(const cJSON *o, const char *key)
{
	const char *s = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, key));
	return s ? s : "";
}

static double num(const cJSON *o, const char *key)
{
	const cJSON *n = cJSON_GetObjectItemCaseSensitive(o, key);
	return cJSON_IsNumber(n) ? n->valuedouble : 0;
}

static bool flag(const cJSON *o, const char *key)
{
	return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, key));
}

/* The results of one model, one per case in set order (NULL where there is none). */
static cJSON **load_results(const struct eval_run *run, const char *model)
{
	const struct eval_set *s = run->set;
	cJSON **v = xcalloc(s->ncases + 1, sizeof(*v));
	char *dir = run_results_dir(s, model);
	for (size_t i = 0; i < s->ncases; i++) {
		struct buf path = BUF_INIT, data = BUF_INIT;
		buf_addf(&path, "%s/%s.json", dir, s->cases[i].name);
		if (!slurp_file(path.data, REPORT_MAX_RESULT, &data))
			v[i] = cJSON_ParseWithLength(data.data, data.len);
		buf_release(&path);
		buf_release(&data);
	}
	free(dir);
	return v;
}

static void free_results(cJSON **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		cJSON_Delete(v[i]);
	free(v);
}

static struct filter_tally *filter_of(struct tally *t, const char *name)
{
	for (size_t i = 0; i < t->nfilters; i++)
		if (!strcmp(t->filters[i].name, name))
			return &t->filters[i];
	if (t->nfilters == REPORT_MAX_FILTERS || strlen(name) >= sizeof(t->filters[0].name))
		return NULL;
	struct filter_tally *f = &t->filters[t->nfilters++];
	strcpy(f->name, name);
	return f;
}

static void count_filtered(struct tally *t, const cJSON *r)
{
	const cJSON *f;
	cJSON_ArrayForEach(f, cJSON_GetObjectItemCaseSensitive(r, "filtered")) {
		struct filter_tally *ft = filter_of(t, str(f, "filter"));
		if (!ft)
			continue;
		ft->removed++;
		ft->known += *str(f, "match") != '\0';
		ft->later_fixed += flag(f, "later_fixes_this");
	}
}

static void count(struct tally *t, const cJSON *r)
{
	const char *status = str(r, "status");
	if (!r) {
		t->missing++;
		return;
	}
	if (!strcmp(status, "deferred")) {
		t->deferred++;
		return;
	}
	if (strcmp(status, "reviewed")) {
		t->failed++;
		return;
	}
	size_t findings = (size_t)cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(r, "findings"));
	t->reviewed++;
	t->findings += findings;
	t->prompt += num(r, "prompt_tokens");
	t->completion += num(r, "completion_tokens");
	t->seconds += num(r, "seconds");
	t->estimated |= flag(r, "estimated");
	count_filtered(t, r);
	if (strcmp(str(r, "kind"), "bug")) {
		t->clean++;
		t->clean_findings += findings;
		return;
	}
	const char *found = str(r, "found");
	t->bugs++;
	t->located += flag(r, "located");
	t->line += !strcmp(found, "line");
	t->hunk += !strcmp(found, "hunk");
	t->found_located += *found && flag(r, "located");
}

static double per(double a, size_t n)
{
	return n ? a / (double)n : 0;
}

static cJSON *tally_json(const struct tally *t)
{
	cJSON *o = cJSON_CreateObject();
	size_t found = t->line + t->hunk;
	cJSON_AddNumberToObject(o, "reviewed", (double)t->reviewed);
	cJSON_AddNumberToObject(o, "failed", (double)t->failed);
	cJSON_AddNumberToObject(o, "pending", (double)(t->deferred + t->missing));
	cJSON_AddNumberToObject(o, "bugs", (double)t->bugs);
	cJSON_AddNumberToObject(o, "found", (double)found);
	cJSON_AddNumberToObject(o, "found_on_line", (double)t->line);
	cJSON_AddNumberToObject(o, "found_in_hunk", (double)t->hunk);
	cJSON_AddNumberToObject(o, "recall", per((double)found, t->bugs));
	cJSON_AddNumberToObject(o, "located", (double)t->located);
	cJSON_AddNumberToObject(o, "recall_located", per((double)t->found_located, t->located));
	cJSON_AddNumberToObject(o, "findings", (double)t->findings);
	cJSON_AddNumberToObject(o, "findings_per_patch", per((double)t->findings, t->reviewed));
	cJSON_AddNumberToObject(o, "findings_per_clean_patch", per((double)t->clean_findings, t->clean));
	cJSON_AddNumberToObject(o, "prompt_tokens_per_patch", per(t->prompt, t->reviewed));
	cJSON_AddNumberToObject(o, "completion_tokens_per_patch", per(t->completion, t->reviewed));
	cJSON_AddBoolToObject(o, "tokens_estimated", t->estimated);
	cJSON_AddNumberToObject(o, "seconds_per_patch", per(t->seconds, t->reviewed));
	cJSON *filters = cJSON_AddObjectToObject(o, "filtered");
	for (size_t i = 0; i < t->nfilters; i++) {
		const struct filter_tally *f = &t->filters[i];
		cJSON *one = cJSON_AddObjectToObject(filters, f->name);
		cJSON_AddNumberToObject(one, "removed", (double)f->removed);
		cJSON_AddNumberToObject(one, "known", (double)f->known);
		cJSON_AddNumberToObject(one, "later_fixed", (double)f->later_fixed);
	}
	return o;
}

#define SUMMARY_HEAD "%-24s %7s %6s %5s %5s %9s %9s %9s %9s %8s %7s %8s\n"

static void summary_row(FILE *out, const char *model, const struct tally *t)
{
	size_t found = t->line + t->hunk;
	char *name = text_clean_dup(model, TEXT_ONE_LINE);
	fprintf(out, "%-24s %3zu/%-3zu %5.0f%% %5zu %5zu %4zu/%-4zu %9.2f %9.2f %8.0f%s %8.1f %7zu %8zu\n",
		name, found, t->bugs, 100 * per((double)found, t->bugs), t->line, t->hunk,
		t->found_located, t->located, per((double)t->findings, t->reviewed),
		per((double)t->clean_findings, t->clean), per(t->prompt + t->completion, t->reviewed),
		t->estimated ? "~" : " ", per(t->seconds, t->reviewed), t->failed,
		t->deferred + t->missing);
	free(name);
}

/* Prints s cleaned, on one line, cut after max bytes. */
static void put_clean(FILE *out, const char *s, size_t max)
{
	char *clean = text_clean_dup(s, TEXT_ONE_LINE);
	size_t len = strlen(clean);
	if (len > max) {
		while (max && ((unsigned char)clean[max] & 0xc0) == 0x80)
			max--;
		fprintf(out, "%.*s...", (int)max, clean);
	} else {
		fputs(clean, out);
	}
	free(clean);
}

#define CASE_HEAD "  %-8s %-5s %-6s %8s %15s %8s  %s\n"

static void case_row(FILE *out, const struct eval_case *k, const cJSON *r)
{
	const char *status = r ? str(r, "status") : "pending";
	const char *found = str(r, "found");
	fprintf(out, "  %-8s %-5s ", k->name, k->kind == CASE_BUG ? "bug" : "clean");
	if (!strcmp(status, "reviewed"))
		fprintf(out, "%-6s %8d %7.0f+%-6.0f%s %8.1f  ",
			k->kind == CASE_BUG ? (*found ? found : "missed") : "-",
			cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(r, "findings")),
			num(r, "prompt_tokens"), num(r, "completion_tokens"),
			flag(r, "estimated") ? "~" : " ", num(r, "seconds"));
	else
		fprintf(out, "%-41s", !strcmp(status, "deferred") ? "pending" : status);
	put_clean(out, k->subject, 60);
	fputc('\n', out);
}

/* One finding of case name: where, what, and the hint from later history. */
static void put_finding(FILE *out, const char *name, const cJSON *f)
{
	fprintf(out, "  %s %s ", name, str(f, "severity"));
	put_clean(out, *str(f, "file") ? str(f, "file") : str(f, "side"), 200);
	if (num(f, "line"))
		fprintf(out, ":%.0f", num(f, "line"));
	if (*str(f, "function"))
		fprintf(out, " in %s()", str(f, "function"));
	if (*str(f, "filter")) {
		fprintf(out, ", removed by %s (confidence %.2f)", str(f, "filter"), num(f, "confidence"));
		if (*str(f, "match"))
			fprintf(out, ", the known bug (%s)", str(f, "match"));
	}
	fputs("\n      ", out);
	put_clean(out, str(f, "comment"), REPORT_COMMENT);
	if (!strcmp(str(f, "later"), "unchanged")) {
		fputs("\n      later: the line is unchanged", out);
	} else if (*str(f, "later")) {
		fprintf(out, "\n      later: changed by %.12s \"", str(f, "later"));
		put_clean(out, str(f, "later_subject"), 100);
		fputs(flag(f, "later_fixes_this") ? "\", whose Fixes: names this commit" : "\"", out);
	}
	fputc('\n', out);
}

/*
 * The findings of list ("findings" or "filtered") for a person to judge,
 * with their hints: of the findings, those other than the known bug; of
 * the filtered ones, all, since a filter that removes the known bug costs.
 */
static void to_judge(FILE *out, const struct eval_set *s, cJSON *const *results,
		     const char *list, const char *title)
{
	bool any = false, all = !strcmp(list, "filtered");
	for (size_t i = 0; i < s->ncases; i++) {
		const cJSON *f;
		if (strcmp(str(results[i], "status"), "reviewed"))
			continue;
		cJSON_ArrayForEach(f, cJSON_GetObjectItemCaseSensitive(results[i], list)) {
			if (*str(f, "match") && !all)
				continue;
			if (!any)
				fprintf(out, "\n  %s:\n", title);
			any = true;
			put_finding(out, s->cases[i].name, f);
		}
	}
}

/* One line per filter: what it kept out of the drafts, and how much of that was real. */
static void filter_lines(FILE *out, const struct tally *t)
{
	for (size_t i = 0; i < t->nfilters; i++) {
		const struct filter_tally *f = &t->filters[i];
		fprintf(out, "  filter %-16s removed %zu finding%s: %zu the known bug, %zu on a line "
			"a later fix of the commit changed\n", f->name, f->removed,
			f->removed == 1 ? "" : "s", f->known, f->later_fixed);
	}
}

static void text_model(FILE *out, const struct eval_run *run, const char *model,
		       const struct tally *t, cJSON *const *results)
{
	const struct eval_set *s = run->set;
	char *name = text_clean_dup(model, TEXT_ONE_LINE);
	fprintf(out, "\nmodel %s\n", name);
	filter_lines(out, t);
	fprintf(out, CASE_HEAD, "case", "kind", "found", "findings", "tokens", "seconds", "subject");
	for (size_t i = 0; i < s->ncases; i++)
		case_row(out, &s->cases[i], results[i]);
	to_judge(out, s, results, "findings", "to judge (findings other than the known bug)");
	to_judge(out, s, results, "filtered", "removed by the filters, to judge the filters by");
	free(name);
}

static void text_header(FILE *out, const struct eval_set *s)
{
	size_t bugs = 0;
	for (size_t i = 0; i < s->ncases; i++)
		bugs += s->cases[i].kind == CASE_BUG;
	fputs("patchreview eval: ", out);
	put_clean(out, s->repo, 200);
	fprintf(out, " at %.12s: %zu cases, %zu with a known bug, %zu clean\nrun directory: ",
		s->head, s->ncases, bugs, s->ncases - bugs);
	put_clean(out, s->dir, 200);
	fputs("\n\n", out);
	fprintf(out, SUMMARY_HEAD, "model", "found", "recall", "line", "hunk", "located",
		"findings", "in clean", "tokens", "seconds", "failed", "pending");
}

struct report {
	const struct eval_run *run;
	cJSON ***results;	/* per model, per case */
	struct tally *tallies;	/* per model */
};

struct report *report_open(const struct eval_run *run)
{
	const struct eval_set *s = run->set;
	struct report *r = xcalloc(1, sizeof(*r));
	r->run = run;
	r->results = xcalloc(run->models->n + 1, sizeof(*r->results));
	r->tallies = xcalloc(run->models->n + 1, sizeof(*r->tallies));
	for (size_t m = 0; m < run->models->n; m++) {
		r->results[m] = load_results(run, run->models->v[m]);
		for (size_t i = 0; i < s->ncases; i++)
			count(&r->tallies[m], r->results[m][i]);
	}
	return r;
}

void report_close(struct report *r)
{
	if (!r)
		return;
	for (size_t m = 0; m < r->run->models->n; m++)
		free_results(r->results[m], r->run->set->ncases);
	free(r->results);
	free(r->tallies);
	free(r);
}

size_t report_answered(const struct report *r)
{
	size_t n = 0;
	for (size_t m = 0; m < r->run->models->n; m++)
		n += r->tallies[m].reviewed + r->tallies[m].failed;
	return n;
}

size_t report_pending(const struct report *r)
{
	size_t n = 0;
	for (size_t m = 0; m < r->run->models->n; m++)
		n += r->tallies[m].deferred + r->tallies[m].missing;
	return n;
}

static void write_json(FILE *out, const struct report *r)
{
	const struct eval_set *s = r->run->set;
	cJSON *root = cJSON_CreateObject(), *models = cJSON_CreateArray();
	cJSON_AddStringToObject(root, "repo", s->repo);
	cJSON_AddStringToObject(root, "head", s->head);
	cJSON_AddStringToObject(root, "dir", s->dir);
	for (size_t m = 0; m < r->run->models->n; m++) {
		cJSON *o = cJSON_CreateObject(), *list = cJSON_CreateArray();
		cJSON_AddStringToObject(o, "model", r->run->models->v[m]);
		cJSON_AddItemToObject(o, "summary", tally_json(&r->tallies[m]));
		for (size_t i = 0; i < s->ncases; i++)
			cJSON_AddItemToArray(list, r->results[m][i] ?
					     cJSON_Duplicate(r->results[m][i], 1) : cJSON_CreateNull());
		cJSON_AddItemToObject(o, "cases", list);
		cJSON_AddItemToArray(models, o);
	}
	cJSON_AddItemToObject(root, "models", models);
	char *json = cJSON_Print(root);
	if (!json)
		die_nomem();
	fprintf(out, "%s\n", json);
	free(json);
	cJSON_Delete(root);
}

int report_write(FILE *out, const struct report *r, enum report_format format)
{
	const struct strvec *models = r->run->models;
	if (format == REPORT_JSON) {
		write_json(out, r);
	} else {
		text_header(out, r->run->set);
		for (size_t m = 0; m < models->n; m++)
			summary_row(out, models->v[m], &r->tallies[m]);
		fputs("\nfound: known bugs found, on a line the fix changes or in its hunk and function;\n"
		      "located: of the bugs with such a line in the diff; findings (in clean patches),\n"
		      "tokens and seconds: per patch reviewed; ~: tokens estimated from bytes.\n", out);
		for (size_t m = 0; m < models->n; m++)
			text_model(out, r->run, models->v[m], &r->tallies[m], r->results[m]);
	}
	return fflush(out) || ferror(out) ? error("cannot write the report") : 0;
}
