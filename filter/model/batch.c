/* batch.c: answering the review requests of a run. */
#include <stdlib.h>
#include <string.h>

#include "base/msg.h"
#include "model/batch.h"
#include "model/cache.h"

/* Of an invalid answer, how much goes back with the repair request. */
#define BATCH_MAX_ECHO 8192

static const char review_schema[] =
	"{\"type\":\"object\",\"additionalProperties\":false,"
	"\"required\":[\"summary\",\"findings\"],\"properties\":{"
	"\"summary\":{\"type\":\"string\"},"
	"\"findings\":{\"type\":\"array\",\"items\":{\"type\":\"object\","
	"\"additionalProperties\":false,"
	"\"required\":[\"file\",\"function\",\"quote\",\"severity\",\"confidence\",\"comment\"],"
	"\"properties\":{\"file\":{\"type\":\"string\"},\"function\":{\"type\":\"string\"},"
	"\"quote\":{\"type\":\"string\"},"
	"\"severity\":{\"type\":\"string\",\"enum\":[\"error\",\"warning\",\"nit\"]},"
	"\"confidence\":{\"type\":\"number\"},\"comment\":{\"type\":\"string\"}}}}}}";

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

/* Asks again, showing the model its invalid answer. */
static int repair(struct backend *b, struct model_request *q, const struct wire_request *rq,
		  struct buf *text)
{
	size_t len = text->len < BATCH_MAX_ECHO ? text->len : BATCH_MAX_ECHO;
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
	int ret = backend_ask(b, &again, text, &q->why);
	if (!ret && take_answer(q, text->data) < 0) {
		buf_addstr(&q->why, "answer was not valid JSON");
		buf_add(&q->raw, text->data, text->len);
		ret = -1;
	}
	free(echo);
	return ret;
}

/* One request: the cache, else the model with one repair retry. */
static void answer_one(struct backend *b, struct model_request *q, const cJSON *schema)
{
	const struct config *c = b->config;
	struct wire_message message = { "user", q->prompt.user };
	struct wire_request rq = {
		.model = c->model, .system = q->prompt.system,
		.messages = &message, .nmessages = 1,
		.schema_name = "patch_review", .schema = schema,
		.max_tokens = c->max_tokens, .temperature = c->temperature,
	};
	char key[CACHE_KEY_SIZE];
	struct buf text = BUF_INIT;
	b->usage = q->usage;
	backend_cache_key(b, &rq, key);
	if (!backend_recall(b, key, &text) && !take_answer(q, text.data)) {
		q->answered = true;
		buf_release(&text);
		return;
	}
	buf_reset(&text);
	long prompt = q->usage->prompt_tokens, completion = q->usage->completion_tokens;
	int ret = backend_ask(b, &rq, &text, &q->why);
	if (!ret && take_answer(q, text.data) < 0)
		ret = repair(b, q, &rq, &text);
	if (!ret)
		backend_remember(b, key, text.data, q->usage->prompt_tokens - prompt,
				 q->usage->completion_tokens - completion);
	q->answered = !ret;
	buf_release(&text);
}

void batch_answer(struct backend *b, struct model_request *v, size_t n)
{
	cJSON *schema = cJSON_Parse(review_schema);
	for (size_t i = 0; i < n; i++)
		answer_one(b, &v[i], schema);
	cJSON_Delete(schema);
}
