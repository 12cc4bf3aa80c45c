/* batch.c: answering the review requests of a run. */
#include <stdlib.h>
#include <string.h>

#include "backend/cache.h"
#include "base/msg.h"
#include "model/batch.h"

/* Of an invalid answer, how much goes back with the repair request. */
#define BATCH_MAX_ECHO 8192

static const char review_schema[] =
	"{\"type\":\"object\",\"additionalProperties\":false,"
	"\"required\":[\"summary\",\"findings\"],\"properties\":{"
	"\"summary\":{\"type\":\"string\"},"
	"\"findings\":{\"type\":\"array\",\"items\":{\"type\":\"object\","
	"\"additionalProperties\":false,"
	"\"required\":[\"file\",\"function\",\"quote\",\"severity\",\"confidence\",\"comment\","
	"\"preexisting\",\"incomplete_fix\"],"
	"\"properties\":{\"file\":{\"type\":\"string\"},\"function\":{\"type\":\"string\"},"
	"\"quote\":{\"type\":\"string\"},"
	"\"severity\":{\"type\":\"string\",\"enum\":[\"error\",\"warning\",\"nit\"]},"
	"\"confidence\":{\"type\":\"number\"},\"comment\":{\"type\":\"string\"},"
	"\"preexisting\":{\"type\":\"boolean\"},\"incomplete_fix\":{\"type\":\"boolean\"}}}}}}";

static const char repair_request[] =
	"That answer was not the JSON object the instructions ask for. Answer again "
	"with only that JSON object: no other text, no code fences.";

void model_request_init(struct model_request *q, struct usage *u)
{
	*q = (struct model_request){ .usage = u, .why = BUF_INIT, .raw = BUF_INIT };
}

void model_request_release(struct model_request *q)
{
	prompt_release(&q->prompt);
	answer_release(&q->answer);
	buf_release(&q->why);
	buf_release(&q->raw);
}

/* The text as an answer: 0, or -1 (answer released) when it is not one. */
static int take_answer(struct model_request *q, const char *text)
{
	if (!answer_parse(&q->answer, text))
		return 0;
	answer_release(&q->answer);
	return -1;
}

/* The request of q: its prompt, one user message (or three for the repair). */
struct ask_state {
	struct wire_message messages[3];
	struct wire_request rq;
	char key[CACHE_KEY_SIZE];
	char *echo;		/* the invalid answer shown back in the repair */
	struct buf text;
	struct usage own;	/* what this request cost, for its cache entry */
	bool asked;		/* not answered from the cache */
};

static void state_init(struct ask_state *st, const struct model_request *q,
		       const struct config *c, const cJSON *schema)
{
	*st = (struct ask_state){ .text = BUF_INIT };
	st->messages[0] = (struct wire_message){ "user", q->prompt.user };
	st->rq = (struct wire_request){
		.model = c->model, .system = q->prompt.system,
		.messages = st->messages, .nmessages = 1,
		.schema_name = "patch_review", .schema = schema,
		.max_tokens = c->max_tokens, .temperature = c->temperature,
	};
}

/* Turns the request into the repair request, showing the model its invalid answer. */
static void make_repair(struct ask_state *st)
{
	size_t len = st->text.len < BATCH_MAX_ECHO ? st->text.len : BATCH_MAX_ECHO;
	while (len < st->text.len && ((unsigned char)st->text.data[len] & 0xc0) == 0x80)
		len--;	/* keep whole UTF-8 sequences */
	st->echo = xstrndup(st->text.data, len);
	st->messages[1] = (struct wire_message){ "assistant", st->echo };
	st->messages[2] = (struct wire_message){ "user", repair_request };
	st->rq.nmessages = 3;
	buf_reset(&st->text);
}

/* Sends the requests picked by want together; returns how many there were. */
static size_t ask_some(struct backend *b, struct model_request *v, struct ask_state *st,
		       size_t n, bool (*want)(const struct model_request *, const struct ask_state *))
{
	struct backend_ask *asks = xcalloc(n + 1, sizeof(*asks));
	size_t *which = xcalloc(n + 1, sizeof(*which)), m = 0;
	for (size_t i = 0; i < n; i++)
		if (want(&v[i], &st[i])) {
			asks[m] = (struct backend_ask){ &st[i].rq, &st[i].text, &v[i].why, &st[i].own, -1 };
			which[m++] = i;
		}
	if (m)
		backend_ask_all(b, asks, m);
	for (size_t k = 0; k < m; k++) {
		size_t i = which[k];
		st[i].asked = true;
		if (asks[k].ret < 0)
			continue;
		if (!take_answer(&v[i], st[i].text.data)) {
			v[i].answered = true;
		} else if (st[i].rq.nmessages > 1) {
			buf_addstr(&v[i].why, "answer was not valid JSON");
			buf_add(&v[i].raw, st[i].text.data, st[i].text.len);
		}
	}
	free(which);
	free(asks);
	return m;
}

static bool first_round(const struct model_request *q, const struct ask_state *st)
{
	(void)st;
	return !q->answered;
}

static bool repair_round(const struct model_request *q, const struct ask_state *st)
{
	(void)q;
	return st->rq.nmessages > 1;
}

static void add_usage(struct usage *to, const struct usage *u)
{
	to->prompt_tokens += u->prompt_tokens;
	to->completion_tokens += u->completion_tokens;
	to->requests += u->requests;
	to->recalled += u->recalled;
	to->recalled_prompt_tokens += u->recalled_prompt_tokens;
	to->recalled_completion_tokens += u->recalled_completion_tokens;
	to->answered += u->answered;
	to->written += u->written;
}

/*
 * From the cache where it can; then all the others at once; then, at
 * once again, one repair request for each answer that was not the JSON
 * asked for.
 */
void batch_answer(struct backend *b, struct model_request *v, size_t n)
{
	cJSON *schema = cJSON_Parse(review_schema);
	struct ask_state *st = xcalloc(n + 1, sizeof(*st));
	for (size_t i = 0; i < n; i++) {
		state_init(&st[i], &v[i], b->config, schema);
		b->usage = &st[i].own;
		backend_cache_key(b, &st[i].rq, st[i].key);
		if (!backend_recall(b, st[i].key, &st[i].text) && !take_answer(&v[i], st[i].text.data))
			v[i].answered = true;
		buf_reset(&st[i].text);
	}
	ask_some(b, v, st, n, first_round);
	for (size_t i = 0; i < n; i++)
		if (!v[i].answered && !v[i].why.len)
			make_repair(&st[i]);
	ask_some(b, v, st, n, repair_round);
	for (size_t i = 0; i < n; i++) {
		if (v[i].answered && st[i].asked)
			backend_remember(b, st[i].key, st[i].text.data, st[i].own.prompt_tokens,
					 st[i].own.completion_tokens);
		add_usage(v[i].usage, &st[i].own);
		free(st[i].echo);
		buf_release(&st[i].text);
	}
	free(st);
	cJSON_Delete(schema);
}
