/*
 * model.c: the model review, from prompts to findings in the drafts. Each
 * patch gets one request, or one per part when it is large; the requests
 * of all patches are answered together (model/batch.h), then each patch's
 * findings are anchored, merged, verified and added to its review.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "answer/anchor.h"
#include "backend/offline.h"
#include "base/clock.h"
#include "base/msg.h"
#include "base/text.h"
#include "model/batch.h"
#include "model/model.h"
#include "model/verify.h"
#include "prompt/parts.h"
#include "prompt/prompt.h"
#include "transport/http.h"

/* Of an invalid answer, how much goes into the draft. */
#define LLM_MAX_RAW 2000

/* The model review of one patch. */
struct model_run {
	const struct review_input *in;
	struct review *r;
	struct usage usage;
	struct model_request *requests;	/* its own, in the run's array */
	size_t nrequests;
	struct buf why;		/* a failure before any request was made */
	double start;
	size_t unsure, off_change;	/* findings dropped by those rules */
	int refuted;		/* by the verify pass */
	size_t verified_low;	/* below min_confidence, kept by the verify pass */
	bool failed;
};

/* The same line at the top of the draft and on stderr. */
static void tell(struct review *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void tell(struct review *r, const char *fmt, ...)
{
	struct buf line = BUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	buf_vaddf(&line, fmt, ap);
	va_end(ap);
	review_note(r, "%s", line.data);
	warn("%s", line.data);
	buf_release(&line);
}

static void fail(struct model_run *m, const char *why)
{
	/* A request written for offline answering is not a failure: the run stops there. */
	if (m->usage.written)
		warn("%s", why);
	else
		tell(m->r, "model review failed: %s", why);
	m->failed = true;
}

/* The model named in the draft and on stderr; offline answers may come unnamed. */
static const char *model_name(const struct config *c)
{
	return c->model ? c->model : "offline";
}

bool model_configured(const struct config *c)
{
	return offline_enabled(c) || (c->backend && strcmp(c->backend, "none"));
}

/* The same comment on the same line, from two parts. */
static bool seen(const struct placed_finding *v, size_t n, const struct placed_finding *f)
{
	for (size_t i = 0; i < n; i++)
		if (v[i].line == f->line && !strcmp(v[i].finding->comment, f->finding->comment))
			return true;
	return false;
}

/* With mode "section", the finding goes in a list at the end of the draft, unplaced. */
static void list_at_end(const char *mode, struct strvec *list, const struct model_finding *f)
{
	if (!mode || strcmp(mode, "section"))
		return;
	struct buf item = BUF_INIT;
	buf_addf(&item, "- %s: %s", *f->file ? f->file : "the commit message", f->comment);
	strvec_push_take(list, text_clean_dup(item.data, 0));
	buf_release(&item);
}

/* low_confidence = section: a finding below min_confidence. */
static void list_less_sure(struct model_run *m, const struct model_finding *f)
{
	list_at_end(m->in->config->low_confidence, &m->r->less_sure, f);
}

/* preexisting = section: a finding about code the patch does not touch. */
static void list_preexisting(struct model_run *m, const struct model_finding *f)
{
	list_at_end(m->in->config->preexisting, &m->r->preexisting, f);
}

/* Did an earlier part answer with the same summary? The model often repeats itself. */
static bool said_before(const struct model_run *m, size_t k)
{
	const char *summary = m->requests[k].answer.summary;
	for (size_t j = 0; j < k; j++)
		if (m->requests[j].answered && m->requests[j].answer.summary &&
		    !strcmp(m->requests[j].answer.summary, summary))
			return true;
	return false;
}

/*
 * The model's summary may speak of points that min_confidence dropped
 * (measured: 7 drafts of 51); say that they were left out, and how to see them.
 */
static void tell_left_out(struct model_run *m)
{
	const char *mode = m->in->config->low_confidence;
	if (!m->unsure || (mode && !strcmp(mode, "section")))
		return;
	struct buf s = BUF_INIT;
	buf_addf(&s, "The model also raised %zu point%s it was less sure of, left out "
		 "here (below min_confidence; low_confidence = section lists them).",
		 m->unsure, m->unsure == 1 ? "" : "s");
	review_summary(m->r, s.data);
	buf_release(&s);
}

/* A model finding kept out of the draft by filter, for patchreview eval. */
static void filtered(struct model_run *m, size_t line, const struct model_finding *f,
		     const char *filter)
{
	review_filtered(m->r, line, f->severity, filter, f->confidence, f->comment);
}

static bool verify_is(const struct model_run *m, const char *mode)
{
	return !strcmp(m->in->config->verify, mode);
}

/*
 * Anchors the findings of answer a into v. Those about untouched code are
 * left out, unless they say the patch does not do what it claims; those
 * below min_confidence are dropped, or with verify marked low.
 */
static size_t place_findings(struct model_run *m, const struct anchor_index *ix,
			     const struct model_answer *a, struct placed_finding *v, size_t n)
{
	const struct patch *p = m->in->patch;
	if (a->beyond)
		tell(m->r, "the model gave %zu findings; only the first %d were read",
		     a->nfindings + a->beyond, ANSWER_MAX_FINDINGS);
	for (size_t i = 0; i < a->nfindings; i++) {
		const struct model_finding *f = &a->findings[i];
		struct anchor_hint hint = { f->file, f->quote, f->function, f->comment };
		size_t line = anchor_finding(ix, &hint);
		bool low = f->confidence < m->in->config->min_confidence;
		if (low && verify_is(m, "no")) {
			m->unsure++;
			list_less_sure(m, f);
			filtered(m, line, f, "min_confidence");
			continue;
		}
		bool untouched = line != FINDING_WHOLE && !anchor_about_change(p, line);
		if (!f->incomplete_fix && (f->preexisting || untouched)) {
			m->off_change++;
			list_preexisting(m, f);
			filtered(m, line, f, f->preexisting ? "preexisting" : "unchanged-code");
			continue;
		}
		struct placed_finding placed = { line, f, low };
		if (!seen(v, n, &placed))
			v[n++] = placed;
	}
	return n;
}

/*
 * The verify pass over v: every finding with verify = yes, the low ones
 * with verify = low. Refuted findings leave v; when the pass fails, the
 * low ones leave it as min_confidence would have dropped them.
 */
static size_t verify_placed(struct model_run *m, struct backend *b, struct progress *progress,
			    struct placed_finding *v, size_t n)
{
	struct placed_finding *ask = xcalloc(n + 1, sizeof(*ask));
	size_t *at = xcalloc(n + 1, sizeof(*at)), nask = 0, kept = 0;
	bool *refuted = xcalloc(n + 1, sizeof(*refuted)), *drop = xcalloc(n + 1, sizeof(*drop));
	for (size_t i = 0; i < n; i++)
		if (v[i].low || verify_is(m, "yes")) {
			at[nask] = i;
			ask[nask++] = v[i];
		}
	struct buf why = BUF_INIT;
	int ret = 0;
	if (nask) {
		b->usage = &m->usage;
		ret = verify_findings(b, m->in->patch, m->in->tree, ask, nask, refuted, &why);
		progress_done(progress);
	}
	if (ret < 0 && m->usage.written)
		warn("%s", why.data);
	else if (ret < 0)
		tell(m->r, "model findings not verified: %s", why.data);
	m->refuted = ret;
	for (size_t k = 0; k < nask; k++) {
		const struct placed_finding *f = &ask[k];
		drop[at[k]] = refuted[k] || (ret < 0 && f->low);
		if (refuted[k])
			filtered(m, f->line, f->finding, "verify");
		else if (ret < 0 && f->low)
			filtered(m, f->line, f->finding, "min_confidence");
		m->unsure += ret < 0 && f->low;
		m->verified_low += ret >= 0 && f->low && !refuted[k];
	}
	for (size_t i = 0; i < n; i++)
		if (!drop[i])
			v[kept++] = v[i];
	buf_release(&why);
	free(ask);
	free(at);
	free(refuted);
	free(drop);
	return kept;
}

static void add_findings(struct model_run *m, struct backend *b, struct progress *progress)
{
	size_t cap = 1;
	for (size_t k = 0; k < m->nrequests; k++)
		cap += m->requests[k].answer.nfindings;
	struct placed_finding *v = xcalloc(cap, sizeof(*v));
	struct anchor_index ix;
	size_t n = 0;
	anchor_index_init(&ix, m->in->patch);
	for (size_t k = 0; k < m->nrequests; k++)
		if (m->requests[k].answered)
			n = place_findings(m, &ix, &m->requests[k].answer, v, n);
	anchor_index_release(&ix);
	if (!verify_is(m, "no") && n)
		n = verify_placed(m, b, progress, v, n);
	for (size_t i = 0; i < n; i++)
		review_add(m->r, v[i].line, v[i].finding->severity, FINDING_MODEL, "%s",
			   v[i].finding->comment);
	for (size_t k = 0; k < m->nrequests; k++) {
		const struct model_request *q = &m->requests[k];
		if (!q->answered || !q->answer.summary || said_before(m, k))
			continue;
		if (m->nrequests == 1) {
			review_summary(m->r, q->answer.summary);
			continue;
		}
		struct buf s = BUF_INIT;
		buf_addf(&s, "Part %zu of %zu: %s", k + 1, m->nrequests, q->answer.summary);
		review_summary(m->r, s.data);
		buf_release(&s);
	}
	tell_left_out(m);
	free(v);
}

/* The closing line naming the model; "none" turns it off. */
static void disclose(struct model_run *m)
{
	const char *format = m->in->config->disclosure;
	if (!strcmp(format, "none"))
		return;
	const char *at = strstr(format, "%s");
	struct buf line = BUF_INIT;
	if (at) {
		buf_add(&line, format, (size_t)(at - format));
		buf_addstr(&line, model_name(m->in->config));
		buf_addstr(&line, at + 2);
	} else {
		buf_addstr(&line, format);
	}
	free(m->r->disclosure);
	m->r->disclosure = text_clean_dup(line.data, TEXT_ONE_LINE);
	buf_release(&line);
}

/* What the review cost, for patchreview eval. */
static void record_cost(struct model_run *m, double end)
{
	const struct usage *u = &m->usage;
	struct review_cost *cost = &m->r->cost;
	cost->cached = u->recalled && !u->requests && !u->answered;
	cost->estimated = u->answered > 0;
	cost->prompt_tokens = cost->cached ? u->recalled_prompt_tokens : u->prompt_tokens;
	cost->completion_tokens = cost->cached ? u->recalled_completion_tokens
		: u->completion_tokens;
	cost->seconds = end - m->start;
}

/* One stderr line per review: what it cost and what was filtered. */
static void report(struct model_run *m, double end)
{
	const struct usage *u = &m->usage;
	char *model = text_clean_dup(model_name(m->in->config), TEXT_ONE_LINE);
	struct buf line = BUF_INIT;
	if (u->answered)
		buf_addf(&line, "model %s: answered from files, about %ld prompt + %ld "
			 "completion tokens (estimated from bytes)", model, u->prompt_tokens,
			 u->completion_tokens);
	else if (!u->requests)
		buf_addf(&line, "model %s: cached review, no request sent "
			 "(it cost %ld prompt + %ld completion tokens)", model,
			 u->recalled_prompt_tokens, u->recalled_completion_tokens);
	else
		buf_addf(&line, "model %s: %ld prompt + %ld completion tokens, %.1f s",
			 model, u->prompt_tokens, u->completion_tokens, end - m->start);
	if (m->nrequests > 1)
		buf_addf(&line, "; in %zu parts", m->nrequests);
	if (m->unsure)
		buf_addf(&line, "; %zu below min_confidence", m->unsure);
	if (m->off_change)
		buf_addf(&line, "; %zu about unchanged code", m->off_change);
	if (m->refuted > 0)
		buf_addf(&line, "; verify dropped %d", m->refuted);
	if (m->verified_low)
		buf_addf(&line, "; verify kept %zu below min_confidence", m->verified_low);
	warn("%s", line.data);
	buf_release(&line);
	free(model);
}

/* A request that failed: the note, and an answer that never became JSON as a comment. */
static void report_failure(struct model_run *m, const struct model_request *q, size_t k)
{
	struct buf why = BUF_INIT;
	if (m->nrequests > 1)
		buf_addf(&why, "part %zu of %zu: ", k + 1, m->nrequests);
	buf_addstr(&why, q->why.data);
	fail(m, why.data);
	buf_release(&why);
	if (q->raw.len) {
		char *raw = answer_clean(q->raw.data, LLM_MAX_RAW);
		review_add(m->r, FINDING_WHOLE, SEVERITY_WARNING, FINDING_MODEL,
			   "The model's answer, which was not in the expected form:\n\n%s", raw);
		free(raw);
	}
}

/* After the requests: what each patch's review found, and what it cost. */
static void finish(struct model_run *m, struct backend *b, struct progress *progress)
{
	bool any = false, raw = false;
	for (size_t k = 0; k < m->nrequests; k++) {
		const struct model_request *q = &m->requests[k];
		if (!q->answered)
			report_failure(m, q, k);
		any |= q->answered;
		raw |= q->raw.len > 0;
	}
	if (any)
		add_findings(m, b, progress);
	if (any || raw)
		disclose(m);
	double end = clock_now();
	record_cost(m, end);
	if (m->usage.recalled || m->usage.prompt_tokens || m->usage.completion_tokens)
		report(m, end);
}

/* The requests for m's patch: one, or one per part. Returns how many it added to v. */
static size_t plan(struct model_run *m, struct model_request *v)
{
	const struct config *c = m->in->config;
	struct prompt_part *parts;
	size_t nparts = prompt_parts(m->in->patch, (size_t)c->part_bytes, &parts), n = 0;
	for (size_t k = 0; k < nparts && !m->failed; k++) {
		struct model_request *q = &v[n];
		model_request_init(q, &m->usage);
		if (prompt_build(&q->prompt, m->in, &parts[k], &m->why) < 0) {
			fail(m, m->why.data);
		} else if (c->max_prompt_bytes && q->prompt.bytes > (size_t)c->max_prompt_bytes) {
			tell(m->r, "model review skipped: the prompt%s is %zu bytes, over "
			     "max_prompt_bytes (%ld)", nparts > 1 ? " of a part" : "",
			     q->prompt.bytes, c->max_prompt_bytes);
		} else {
			n++;
			continue;
		}
		model_request_release(q);
	}
	free(parts);
	return n;
}

/* Answers all requests on one backend; a backend that cannot open fails them all. */
static void ask_all(struct model_run *runs, size_t nruns, struct model_request *v, size_t n,
		    const struct config *c)
{
	struct backend b;
	struct progress progress;
	struct buf why = BUF_INIT;
	struct usage opening = { 0 };
	progress_start(&progress, isatty(2) && !c->quiet, "waiting for the model");
	if (backend_open(&b, c, &opening, &progress, &why) == 0)
		batch_answer(&b, v, n);
	progress_done(&progress);
	for (size_t i = 0; !why.len && i < nruns; i++)
		if (runs[i].nrequests)
			finish(&runs[i], &b, &progress);
	backend_close(&b);
	/* libcurl was loaded only if a request was really sent. */
	http_global_cleanup();
	for (size_t i = 0; why.len && i < nruns; i++)
		if (runs[i].nrequests)
			fail(&runs[i], why.data);
	buf_release(&why);
}

void model_review(const struct review_input *ins, struct review *rs, size_t n)
{
	struct model_run *runs = xcalloc(n + 1, sizeof(*runs));
	size_t cap = 1, nreq = 0;
	for (size_t i = 0; i < n; i++)
		cap += ins[i].patch->nfiles;
	struct model_request *v = xcalloc(cap, sizeof(*v));
	for (size_t i = 0; i < n; i++) {
		struct model_run *m = &runs[i];
		*m = (struct model_run){ .in = &ins[i], .r = &rs[i], .why = BUF_INIT,
					 .start = clock_now() };
		if (!model_configured(ins[i].config) || !patch_has_diff(ins[i].patch))
			continue;
		rs[i].model_ran = true;
		m->requests = &v[nreq];
		m->nrequests = plan(m, m->requests);
		nreq += m->nrequests;
	}
	if (nreq)
		ask_all(runs, n, v, nreq, ins[0].config);
	for (size_t i = 0; i < n; i++) {
		rs[i].model_failed |= runs[i].failed;
		rs[i].model_deferred |= runs[i].usage.written > 0;
		buf_release(&runs[i].why);
	}
	for (size_t k = 0; k < nreq; k++)
		model_request_release(&v[k]);
	free(v);
	free(runs);
}

int model_explain_prompt(const struct review_input *in, FILE *out)
{
	return prompt_explain(in, out);
}

int model_list_prompts(const struct config *c, FILE *out)
{
	return prompt_list(c, out);
}
