/* model.c: the model review, from prompt to findings in the draft. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/msg.h"
#include "base/text.h"
#include "model/anchor.h"
#include "model/answer.h"
#include "model/backend.h"
#include "model/http.h"
#include "model/model.h"
#include "model/offline.h"
#include "model/prompt.h"
#include "model/verify.h"

/* Of an invalid answer: how much goes back with the repair request, and into the draft. */
#define LLM_MAX_ECHO 8192
#define LLM_MAX_RAW 2000
#define LLM_DEFAULT_DISCLOSURE "Assisted-by: patchreview (%s)"

static const char review_schema[] =
	"{\"type\":\"object\",\"additionalProperties\":false,"
	"\"required\":[\"summary\",\"findings\"],\"properties\":{"
	"\"summary\":{\"type\":\"string\"},"
	"\"findings\":{\"type\":\"array\",\"items\":{\"type\":\"object\","
	"\"additionalProperties\":false,"
	"\"required\":[\"file\",\"quote\",\"severity\",\"confidence\",\"comment\"],"
	"\"properties\":{\"file\":{\"type\":\"string\"},\"quote\":{\"type\":\"string\"},"
	"\"severity\":{\"type\":\"string\",\"enum\":[\"error\",\"warning\",\"nit\"]},"
	"\"confidence\":{\"type\":\"number\"},\"comment\":{\"type\":\"string\"}}}}}}";

static const char repair_request[] =
	"That answer was not the JSON object the instructions ask for. Answer again "
	"with only that JSON object: no other text, no code fences.";

struct model_run {
	const struct review_input *in;
	struct review *r;
	struct backend backend;
	struct usage usage;
	struct progress progress;
	struct prompt prompt;
	struct model_answer answer;
	struct buf why;		/* the reason of a failure */
	struct buf raw;		/* an answer that never became JSON */
	double start;
	size_t unsure, off_change;	/* findings dropped by those rules */
	int refuted;		/* by the verify pass */
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

static void fail(struct model_run *m)
{
	/* A request written for offline answering is not a failure: the run stops there. */
	if (m->usage.written)
		warn("%s", m->why.data);
	else
		tell(m->r, "model review failed: %s", m->why.data);
	m->failed = true;
}

/* The model named in the draft and on stderr; offline answers may come unnamed. */
static const char *model_name(const struct config *c)
{
	return c->model ? c->model : "offline";
}

/* Asks again, showing the model its invalid answer. */
static int repair(struct model_run *m, const struct wire_request *rq, struct buf *text)
{
	size_t len = text->len < LLM_MAX_ECHO ? text->len : LLM_MAX_ECHO;
	while (len < text->len && ((unsigned char)text->data[len] & 0xc0) == 0x80)
		len--;	/* keep whole UTF-8 sequences */
	char *echo = xstrndup(text->data, len);
	struct wire_message messages[] = {
		rq->messages[0], { "assistant", echo }, { "user", repair_request },
	};
	struct wire_request again = *rq;
	again.messages = messages;
	again.nmessages = 3;
	buf_reset(text);
	int ret = backend_ask(&m->backend, &again, text, &m->why);
	if (!ret && answer_parse(&m->answer, text->data) < 0) {
		buf_addstr(&m->why, "answer was not valid JSON");
		buf_add(&m->raw, text->data, text->len);
		ret = -1;
	}
	free(echo);
	return ret;
}

/* The review from the cache, or from the model with one repair retry. */
static int ask_review(struct model_run *m)
{
	const struct config *c = m->in->config;
	cJSON *schema = cJSON_Parse(review_schema);
	struct wire_message message = { "user", m->prompt.user };
	struct wire_request rq = {
		.model = c->model, .system = m->prompt.system,
		.messages = &message, .nmessages = 1,
		.schema_name = "patch_review", .schema = schema,
		.max_tokens = c->max_tokens, .temperature = c->temperature,
	};
	char key[CACHE_KEY_SIZE];
	struct buf text = BUF_INIT;
	int ret = 0;
	backend_cache_key(&m->backend, &rq, key);
	if (!backend_recall(&m->backend, key, &text) && !answer_parse(&m->answer, text.data))
		goto out;
	answer_release(&m->answer);
	buf_reset(&text);
	ret = backend_ask(&m->backend, &rq, &text, &m->why);
	if (!ret && answer_parse(&m->answer, text.data) < 0) {
		answer_release(&m->answer);
		ret = repair(m, &rq, &text);
	}
	if (!ret)
		backend_remember(&m->backend, key, text.data, m->usage.prompt_tokens,
				 m->usage.completion_tokens);
out:
	buf_release(&text);
	cJSON_Delete(schema);
	return ret;
}

/* Anchors the findings, dropping unsure ones and those about untouched code. */
static size_t place_findings(struct model_run *m, struct placed_finding *v)
{
	const struct patch *p = m->in->patch;
	size_t n = 0;
	for (size_t i = 0; i < m->answer.nfindings; i++) {
		const struct model_finding *f = &m->answer.findings[i];
		if (f->confidence < m->in->config->min_confidence) {
			m->unsure++;
			continue;
		}
		size_t line = anchor_quote(p, f->file, f->quote);
		if (line != FINDING_WHOLE && !anchor_about_change(p, line)) {
			m->off_change++;
			continue;
		}
		v[n++] = (struct placed_finding){ line, f };
	}
	return n;
}

static void add_findings(struct model_run *m)
{
	struct placed_finding *v = xcalloc(m->answer.nfindings + 1, sizeof(*v));
	size_t n = place_findings(m, v);
	if (m->in->config->verify && n) {
		struct buf why = BUF_INIT;
		m->refuted = verify_findings(&m->backend, m->in->patch, m->in->tree, v, &n, &why);
		progress_done(&m->progress);
		if (m->refuted < 0 && m->usage.written)
			warn("%s", why.data);
		else if (m->refuted < 0)
			tell(m->r, "model findings not verified: %s", why.data);
		buf_release(&why);
	}
	for (size_t i = 0; i < n; i++)
		review_add(m->r, v[i].line, v[i].finding->severity, "model", "%s",
			   v[i].finding->comment);
	if (m->answer.summary)
		review_summary(m->r, m->answer.summary);
	free(v);
}

/* The closing line naming the model; "none" turns it off. */
static void disclose(struct model_run *m)
{
	const char *format = m->in->config->disclosure ? m->in->config->disclosure
		: LLM_DEFAULT_DISCLOSURE;
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
static void record_cost(struct model_run *m)
{
	const struct usage *u = &m->usage;
	struct review_cost *cost = &m->r->cost;
	cost->cached = u->recalled && !u->requests && !u->answered;
	cost->estimated = u->answered > 0;
	cost->prompt_tokens = cost->cached ? u->recalled_prompt_tokens : u->prompt_tokens;
	cost->completion_tokens = cost->cached ? u->recalled_completion_tokens
		: u->completion_tokens;
	cost->seconds = clock_now() - m->start;
}

/* One stderr line per review: what it cost and what was filtered. */
static void report(struct model_run *m)
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
			 model, u->prompt_tokens, u->completion_tokens, clock_now() - m->start);
	if (m->unsure)
		buf_addf(&line, "; %zu below min_confidence", m->unsure);
	if (m->off_change)
		buf_addf(&line, "; %zu about unchanged code", m->off_change);
	if (m->refuted > 0)
		buf_addf(&line, "; verify dropped %d", m->refuted);
	warn("%s", line.data);
	buf_release(&line);
	free(model);
}

static void review_with_backend(struct model_run *m)
{
	const struct config *c = m->in->config;
	progress_start(&m->progress, isatty(2) && !c->quiet, "waiting for the model");
	if (backend_open(&m->backend, c, &m->usage, &m->progress, &m->why) < 0) {
		fail(m);
		return;
	}
	int ret = ask_review(m);
	progress_done(&m->progress);
	if (ret < 0) {
		fail(m);
		if (m->raw.len) {
			char *raw = answer_clean(m->raw.data, LLM_MAX_RAW);
			review_add(m->r, FINDING_WHOLE, SEVERITY_WARNING, "model",
				   "The model's answer, which was not in the expected form:\n\n%s", raw);
			free(raw);
			disclose(m);
		}
	} else {
		add_findings(m);
		disclose(m);
	}
	record_cost(m);
	if (m->usage.recalled || m->usage.prompt_tokens || m->usage.completion_tokens)
		report(m);
}

static int model_run(const struct review_input *in, struct review *r)
{
	struct model_run m = {
		.in = in, .r = r, .why = BUF_INIT, .raw = BUF_INIT, .start = clock_now(),
	};
	const char *backend = in->config->backend;
	bool offline = offline_enabled(in->config);
	if ((!offline && (!backend || !strcmp(backend, "none"))) || !patch_has_diff(in->patch))
		return 0;
	r->model_ran = true;
	if (prompt_build(&m.prompt, in, &m.why) < 0) {
		fail(&m);
	} else if (in->config->max_prompt_bytes &&
		   m.prompt.bytes > (size_t)in->config->max_prompt_bytes) {
		tell(r, "model review skipped: the prompt is %zu bytes, over max_prompt_bytes (%ld)",
		     m.prompt.bytes, in->config->max_prompt_bytes);
	} else if (!offline && http_global_init() < 0) {
		buf_addstr(&m.why, "libcurl could not be loaded");
		fail(&m);
	} else {
		review_with_backend(&m);
		backend_close(&m.backend);
		if (!offline)
			http_global_cleanup();
	}
	r->model_deferred = m.usage.written > 0;
	answer_release(&m.answer);
	prompt_release(&m.prompt);
	buf_release(&m.why);
	buf_release(&m.raw);
	return m.failed ? -1 : 0;
}

const struct reviewer model_reviewer = { "model", model_run };
