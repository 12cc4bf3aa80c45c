/* backend.c: asking the configured model server, and the review cache. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/apikey.h"
#include "backend/backend.h"
#include "backend/offline.h"
#include "base/hash.h"
#include "base/msg.h"
#include "base/text.h"
#include "transport/http.h"

/* Server error messages go into the draft; keep them short. */
#define BACKEND_MAX_MESSAGE 200

static char *endpoint(const char *url, const char *path)
{
	struct buf b = BUF_INIT;
	size_t len = strlen(url), plen = strlen(path);
	while (len && url[len - 1] == '/')
		len--;
	buf_add(&b, url, len);
	/* A url that already names the endpoint is taken as it is. */
	if (len < plen || strncmp(url + len - plen, path, plen))
		buf_addstr(&b, path);
	return buf_detach(&b, NULL);
}

/* The strongest JSON mode the protocol has, from mode down; 0 when none is left. */
static enum json_mode json_mode_from(const struct wire *w, unsigned mode)
{
	for (unsigned m = mode; m <= JSON_PROMPT; m <<= 1)
		if (w->json_modes & m)
			return (enum json_mode)m;
	return 0;
}

int backend_open(struct backend *b, const struct config *c, struct usage *u,
		 struct progress *p, struct buf *why)
{
	*b = (struct backend){ .config = c, .usage = u, .progress = p };
	b->offline = offline_enabled(c);
	if (b->offline)
		return 0;
	b->wire = wire_find(c->backend);
	if (!b->wire) {
		buf_addf(why, "unknown backend '%s' (openai, anthropic or ollama)", c->backend);
		return -1;
	}
	if (!c->model || !*c->model) {
		buf_addstr(why, "no model configured (set model)");
		return -1;
	}
	const char *url = c->url ? c->url : b->wire->default_url;
	b->endpoint = endpoint(url, b->wire->path);
	if (apikey_get(c, b->wire, url, &b->key, why) < 0)
		return -1;
	size_t n = 0;
	for (size_t i = 0; b->wire->headers && b->wire->headers[i]; i++)
		b->headers[n++] = b->wire->headers[i];
	if (b->key) {
		struct buf h = BUF_INIT;
		buf_addf(&h, "%s%s", b->wire->key_header, b->key);
		b->key_header = buf_detach(&h, NULL);
		b->headers[n++] = b->key_header;
	}
	b->headers[n] = NULL;
	b->json_mode = json_mode_from(b->wire, JSON_SCHEMA);
	return 0;
}

void backend_close(struct backend *b)
{
	apikey_free(b->key);
	apikey_free(b->key_header);
	free(b->endpoint);
	*b = (struct backend){ 0 };
}

struct exchange {
	struct backend *b;
	struct wire_answer *answer;
};

static int on_event(void *ctx, const char *data, size_t len)
{
	struct exchange *x = ctx;
	x->b->wire->event(x->answer, data, len);
	progress_tokens(x->b->progress, x->answer->pieces);
	if (x->answer->text.len > HTTP_MAX_BODY)
		return STREAM_TOO_BIG;
	if (x->answer->overloaded)
		return STREAM_RETRY;
	return x->answer->ended ? STREAM_END : STREAM_MORE;
}

/* Another attempt comes: what this one streamed is forgotten. */
static void on_restart(void *ctx)
{
	struct exchange *x = ctx;
	wire_answer_release(x->answer);
}

/* Server text for the draft and stderr: one clean line, never the key. */
static void add_server_message(struct backend *b, struct buf *why, const char *message)
{
	if (!message)
		return;
	char *clean = text_clean_dup(message, TEXT_ONE_LINE);
	if (b->key && strstr(clean, b->key))
		buf_addstr(why, ": (message withheld: it quoted the API key)");
	else
		buf_addf(why, ": %.*s", BACKEND_MAX_MESSAGE, clean);
	free(clean);
}

static void describe_status(struct backend *b, const struct http_response *rs, struct buf *why)
{
	long status = rs->status;
	if (status == 401 || status == 403) {
		/* The message may echo part of the key. */
		buf_addf(why, "HTTP %ld (check the API key)", status);
		return;
	}
	if (status == 429)
		buf_addstr(why, "rate limited (429)");
	else if (status == 404)
		buf_addf(why, "HTTP 404 (check url and model)");
	else
		buf_addf(why, "HTTP %ld", status);
	if (rs->retries)
		buf_addf(why, " after %ld %s", rs->retries, rs->retries == 1 ? "retry" : "retries");
	char *message = wire_error_message(rs->body.data, rs->body.len);
	add_server_message(b, why, message);
	free(message);
}


/*
 * An HTTP 400 that names what the server rejected adjusts the next
 * request: a weaker JSON mode, max_completion_tokens, no temperature, each
 * once. A request sent before another one's rejection adjusted the
 * backend is sent again as it now stands. Returns true when rq should be
 * sent again.
 */
static bool adjust_to_rejection(struct backend *b, const struct wire_request *rq,
				const struct http_response *rs)
{
	enum wire_rejection r = wire_rejection(rs->body.data, rs->body.len);
	unsigned fix = r == REJECT_MAX_TOKENS ? ADJUST_MAX_COMPLETION_TOKENS :
		r == REJECT_TEMPERATURE ? ADJUST_NO_TEMPERATURE : 0;
	if (fix && (b->wire->adjusts & fix) && !(rq->adjust & fix)) {
		b->adjust |= fix;
		return true;
	}
	if (r != REJECT_JSON_MODE)
		return false;
	if (rq->json_mode != b->json_mode)
		return true;
	enum json_mode weaker = json_mode_from(b->wire, b->json_mode << 1);
	if (weaker)
		b->json_mode = weaker;
	return weaker != 0;
}

/* One request on its way: its body, its answer, and what came back. */
struct sent {
	struct wire_answer answer;
	struct exchange x;
	char *body;
	struct http_response rs;
	int ret;
};

static void prepare(struct backend *b, struct backend_ask *q, struct sent *s,
		    struct http_request *hr)
{
	wire_answer_init(&s->answer);
	s->x = (struct exchange){ b, &s->answer };
	q->rq->json_mode = b->json_mode;
	q->rq->adjust = b->adjust;
	s->body = b->wire->body(q->rq);
	*hr = (struct http_request){
		.url = b->endpoint, .headers = b->headers, .body = s->body,
		.timeout = b->config->timeout, .retries = b->config->retries,
		.framing = b->wire->framing, .on_event = on_event, .on_restart = on_restart,
		.ctx = &s->x, .progress = b->progress,
	};
}

/* What came back for q. Returns 0, 1 to send it again adjusted, or -1 with q->why set. */
static int finish(struct backend *b, struct backend_ask *q, struct sent *s)
{
	struct wire_answer *a = &s->answer;
	struct http_response *rs = &s->rs;
	struct buf *why = q->why;
	int ret = -1;
	q->usage->requests += 1 + (int)rs->retries;
	bool readable = s->ret < 0 || rs->streamed || !b->wire->whole(a, rs->body.data, rs->body.len);
	q->usage->prompt_tokens += a->prompt_tokens;
	q->usage->completion_tokens += a->completion_tokens;
	if (s->ret < 0 && rs->error) {
		buf_addstr(why, rs->error);
	} else if (s->ret < 0 && rs->status == 400 && adjust_to_rejection(b, q->rq, rs)) {
		ret = 1;
	} else if (s->ret < 0) {
		describe_status(b, rs, why);
	} else if (a->error) {
		buf_addstr(why, "the server reported an error");
		if (rs->retries)
			buf_addf(why, " after %ld %s", rs->retries, rs->retries == 1 ? "retry" : "retries");
		add_server_message(b, why, a->error);
	} else if (!readable) {
		buf_addstr(why, "the server's answer was unreadable");
	} else if (a->truncated) {
		buf_addstr(why, "answer truncated (max_tokens)");
	} else if (!a->complete) {
		buf_addstr(why, "answer cut off (the stream ended early)");
	} else {
		buf_add(q->text, a->text.data, a->text.len);
		ret = 0;
	}
	http_response_release(rs);
	wire_answer_release(a);
	free(s->body);
	return ret;
}

/* One round: every request of todo at once; those to send again adjusted stay in todo. */
static size_t send_round(struct backend *b, struct backend_ask *v, size_t *todo, size_t n)
{
	struct sent *s = xcalloc(n + 1, sizeof(*s));
	struct http_request *hr = xcalloc(n + 1, sizeof(*hr));
	struct http_response *rs = xcalloc(n + 1, sizeof(*rs));
	int *rets = xcalloc(n + 1, sizeof(*rets));
	for (size_t k = 0; k < n; k++)
		prepare(b, &v[todo[k]], &s[k], &hr[k]);
	http_post_all(hr, rs, rets, n, b->config->jobs);
	size_t again = 0;
	for (size_t k = 0; k < n; k++) {
		s[k].rs = rs[k];
		s[k].ret = rets[k];
		int ret = finish(b, &v[todo[k]], &s[k]);
		if (ret > 0)
			todo[again++] = todo[k];
		else
			v[todo[k]].ret = ret;
	}
	free(rets);
	free(rs);
	free(hr);
	free(s);
	return again;
}

/* Does q fit the model's context and the run's budget? If not, q fails saying why. */
static bool may_send(struct backend *b, struct backend_ask *q)
{
	const struct config *c = b->config;
	size_t bytes = wire_request_bytes(q->rq);
	q->ret = -1;
	if (bytes > budget_request_bytes(c)) {
		buf_addf(q->why, "the request is about %ld tokens, over context_tokens (%ld) "
			 "with max_tokens (%ld) kept for the answer", tokens_of(bytes),
			 c->context_tokens, c->max_tokens);
		return false;
	}
	if (b->budget && !budget_take(b->budget, bytes)) {
		buf_addf(q->why, "token_budget (%ld) spent", c->token_budget);
		q->over_budget = true;
		return false;
	}
	return true;
}

void backend_ask_all(struct backend *b, struct backend_ask *v, size_t n)
{
	size_t *todo = xcalloc(n + 1, sizeof(*todo)), left = 0;
	for (size_t i = 0; i < n; i++)
		if (may_send(b, &v[i]))
			todo[left++] = i;
	for (size_t k = 0; b->offline && k < left; k++) {
		struct backend_ask *q = &v[todo[k]];
		q->ret = offline_ask(b->config, q->rq, n > 1 ? todo[k] + 1 : 0, q->text, q->why,
				     q->usage);
	}
	while (!b->offline && left)
		left = send_round(b, v, todo, left);
	free(todo);
}

int backend_ask(struct backend *b, struct wire_request *rq, struct buf *text, struct buf *why)
{
	struct backend_ask q = { rq, text, why, b->usage, -1, false };
	backend_ask_all(b, &q, 1);
	return q.ret;
}

void backend_cache_key(const struct backend *b, const struct wire_request *rq,
		       char key[CACHE_KEY_SIZE])
{
	char numbers[64];
	snprintf(numbers, sizeof(numbers), "%ld %.3f", rq->max_tokens, rq->temperature);
	size_t n = 0, max = 7 + 2 * rq->nmessages;
	const char **parts = xmalloc(max * sizeof(*parts));
	parts[n++] = "patchreview cache 1";
	parts[n++] = b->offline ? "offline" : b->wire->name;
	parts[n++] = b->offline ? "" : b->endpoint;
	parts[n++] = rq->model ? rq->model : "";
	parts[n++] = numbers;
	parts[n++] = rq->schema_name;
	parts[n++] = rq->system;
	for (size_t i = 0; i < rq->nmessages; i++) {
		parts[n++] = rq->messages[i].role;
		parts[n++] = rq->messages[i].text;
	}
	hash_sha256_strings(key, parts, n);
	free(parts);
}

int backend_recall(struct backend *b, const char *key, struct buf *text)
{
	struct cache_entry e;
	/* Answers from files are neither mixed with a server's nor kept. */
	if (b->offline || !b->config->cache || cache_get(key, &e) < 0)
		return -1;
	buf_addstr(text, e.text);
	b->usage->recalled++;
	b->usage->recalled_prompt_tokens += e.prompt_tokens;
	b->usage->recalled_completion_tokens += e.completion_tokens;
	cache_entry_release(&e);
	return 0;
}

void backend_remember(struct backend *b, const char *key, const char *text,
		      long prompt_tokens, long completion_tokens)
{
	if (b->offline || !b->config->cache)
		return;
	struct cache_entry e = {
		.text = (char *)text, .prompt_tokens = prompt_tokens,
		.completion_tokens = completion_tokens,
	};
	cache_put(key, &e);
}
