/*
 * wire_anthropic.c: the Messages API, POST {url}/v1/messages. The static
 * instructions go in a system block marked cacheable, so that repeated
 * reviews with the same guides are billed at the cached rate.
 */
#include <string.h>

#include "backend/wire.h"
#include "base/msg.h"

static char *anthropic_body(const struct wire_request *rq)
{
	cJSON *root = cJSON_CreateObject();
	cJSON_AddStringToObject(root, "model", rq->model);
	cJSON_AddNumberToObject(root, "max_tokens", (double)rq->max_tokens);
	if (!(rq->adjust & ADJUST_NO_TEMPERATURE))
		cJSON_AddNumberToObject(root, "temperature", rq->temperature);
	cJSON_AddBoolToObject(root, "stream", 1);
	cJSON *block = cJSON_CreateObject();
	cJSON_AddStringToObject(block, "type", "text");
	cJSON_AddStringToObject(block, "text", rq->system);
	cJSON_AddStringToObject(cJSON_AddObjectToObject(block, "cache_control"),
				"type", "ephemeral");
	cJSON_AddItemToArray(cJSON_AddArrayToObject(root, "system"), block);
	cJSON_AddItemToObject(root, "messages", wire_messages(rq, NULL));
	return wire_print(root);
}

/* Cached and cache-writing input tokens are prompt tokens too. */
static void read_usage(struct wire_answer *a, const cJSON *usage)
{
	if (!cJSON_IsObject(usage))
		return;
	long input = wire_long(usage, "input_tokens") +
		wire_long(usage, "cache_creation_input_tokens") +
		wire_long(usage, "cache_read_input_tokens");
	if (input)
		a->prompt_tokens = input;
	if (cJSON_GetObjectItemCaseSensitive(usage, "output_tokens"))
		a->completion_tokens = wire_long(usage, "output_tokens");
}

static void read_stop(struct wire_answer *a, const char *reason)
{
	if (reason)
		a->truncated = !strcmp(reason, "max_tokens");
}

static void anthropic_event(struct wire_answer *a, const char *data, size_t len)
{
	cJSON *root = wire_parse(data, len);
	const char *type = wire_string(root, "type");
	const cJSON *delta = cJSON_GetObjectItemCaseSensitive(root, "delta");
	if (!type) {
		;
	} else if (!strcmp(type, "message_start")) {
		read_usage(a, cJSON_GetObjectItemCaseSensitive(
				      cJSON_GetObjectItemCaseSensitive(root, "message"), "usage"));
	} else if (!strcmp(type, "content_block_delta")) {
		const char *text = wire_string(delta, "text");
		if (text && *text) {
			buf_addstr(&a->text, text);
			a->pieces++;
		}
	} else if (!strcmp(type, "message_delta")) {
		read_stop(a, wire_string(delta, "stop_reason"));
		read_usage(a, cJSON_GetObjectItemCaseSensitive(root, "usage"));
	} else if (!strcmp(type, "message_stop")) {
		a->complete = a->ended = true;
	} else if (!strcmp(type, "error") && !a->error) {
		const cJSON *error = cJSON_GetObjectItemCaseSensitive(root, "error");
		const char *message = wire_string(error, "message"), *kind = wire_string(error, "type");
		a->error = xstrdup(message ? message : "error event");
		/* What HTTP 529 says, said inside the stream. */
		a->overloaded = kind && !strcmp(kind, "overloaded_error");
	}
	cJSON_Delete(root);
}

static int anthropic_whole(struct wire_answer *a, const char *body, size_t len)
{
	cJSON *root = wire_parse(body, len);
	const cJSON *content = cJSON_GetObjectItemCaseSensitive(root, "content"), *block;
	cJSON_ArrayForEach(block, content) {
		const char *type = wire_string(block, "type"), *text = wire_string(block, "text");
		if (type && !strcmp(type, "text") && text)
			buf_addstr(&a->text, text);
	}
	read_stop(a, wire_string(root, "stop_reason"));
	read_usage(a, cJSON_GetObjectItemCaseSensitive(root, "usage"));
	a->complete = true;
	int ret = cJSON_IsArray(content) ? 0 : -1;
	cJSON_Delete(root);
	return ret;
}

static const char *const anthropic_headers[] = {
	"anthropic-version: 2023-06-01",
	NULL,
};

const struct wire wire_anthropic = {
	.name = "anthropic",
	.default_url = "https://api.anthropic.com",
	.default_key_env = "ANTHROPIC_API_KEY",
	.path = "/v1/messages",
	.key_header = "x-api-key: ",
	.headers = anthropic_headers,
	.framing = HTTP_SSE,
	.json_modes = JSON_PROMPT,
	.adjusts = ADJUST_NO_TEMPERATURE,
	.body = anthropic_body,
	.event = anthropic_event,
	.whole = anthropic_whole,
};
