/*
 * wire_openai.c: Chat Completions, POST {url}/chat/completions. Serves
 * OpenAI and the compatible servers (Ollama's /v1, llama.cpp, vLLM,
 * LM Studio, LiteLLM, OpenRouter).
 */
#include <string.h>

#include "backend/wire.h"
#include "base/msg.h"

static char *openai_body(const struct wire_request *rq)
{
	cJSON *root = cJSON_CreateObject();
	cJSON_AddStringToObject(root, "model", rq->model);
	cJSON_AddItemToObject(root, "messages", wire_messages(rq, rq->system));
	/* Reasoning models want max_completion_tokens and their own temperature. */
	cJSON_AddNumberToObject(root, rq->adjust & ADJUST_MAX_COMPLETION_TOKENS ?
				"max_completion_tokens" : "max_tokens", (double)rq->max_tokens);
	if (!(rq->adjust & ADJUST_NO_TEMPERATURE))
		cJSON_AddNumberToObject(root, "temperature", rq->temperature);
	cJSON_AddBoolToObject(root, "stream", 1);
	/* Without this a stream carries no token counts. */
	cJSON_AddBoolToObject(cJSON_AddObjectToObject(root, "stream_options"),
			      "include_usage", 1);
	if (rq->json_mode == JSON_SCHEMA) {
		cJSON *format = cJSON_AddObjectToObject(root, "response_format");
		cJSON_AddStringToObject(format, "type", "json_schema");
		cJSON *schema = cJSON_AddObjectToObject(format, "json_schema");
		cJSON_AddStringToObject(schema, "name", rq->schema_name);
		cJSON_AddBoolToObject(schema, "strict", 1);
		cJSON_AddItemToObject(schema, "schema", cJSON_Duplicate(rq->schema, 1));
	} else if (rq->json_mode == JSON_OBJECT) {
		cJSON_AddStringToObject(cJSON_AddObjectToObject(root, "response_format"),
					"type", "json_object");
	}
	return wire_print(root);
}

/* finish_reason, usage and error: the same in chunks and whole answers. */
static void read_common(struct wire_answer *a, const cJSON *root, const cJSON *choice)
{
	const char *finish = wire_string(choice, "finish_reason");
	if (finish) {
		a->complete = true;
		a->truncated = !strcmp(finish, "length");
	}
	const cJSON *usage = cJSON_GetObjectItemCaseSensitive(root, "usage");
	if (cJSON_IsObject(usage)) {
		a->prompt_tokens = wire_long(usage, "prompt_tokens");
		a->completion_tokens = wire_long(usage, "completion_tokens");
	}
	const cJSON *error = cJSON_GetObjectItemCaseSensitive(root, "error");
	const char *message = wire_string(error, "message");
	if (message && !a->error)
		a->error = xstrdup(message);
}

static const cJSON *first_choice(const cJSON *root)
{
	return cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(root, "choices"), 0);
}

static void openai_event(struct wire_answer *a, const char *data, size_t len)
{
	if (len == 6 && !memcmp(data, "[DONE]", 6)) {
		a->complete = a->ended = true;
		return;
	}
	cJSON *root = wire_parse(data, len);
	const cJSON *choice = first_choice(root);
	const char *text = wire_string(cJSON_GetObjectItemCaseSensitive(choice, "delta"),
				       "content");
	if (text && *text) {
		buf_addstr(&a->text, text);
		a->pieces++;
	}
	read_common(a, root, choice);
	cJSON_Delete(root);
}

static int openai_whole(struct wire_answer *a, const char *body, size_t len)
{
	cJSON *root = wire_parse(body, len);
	const cJSON *choice = first_choice(root);
	const char *text = wire_string(cJSON_GetObjectItemCaseSensitive(choice, "message"),
				       "content");
	if (text)
		buf_addstr(&a->text, text);
	read_common(a, root, choice);
	cJSON_Delete(root);
	return text ? 0 : -1;
}

const struct wire wire_openai = {
	.name = "openai",
	.default_url = "https://api.openai.com/v1",
	.default_key_env = "OPENAI_API_KEY",
	.path = "/chat/completions",
	.key_header = "Authorization: Bearer ",
	.framing = HTTP_SSE,
	.json_modes = JSON_SCHEMA | JSON_OBJECT | JSON_PROMPT,
	.adjusts = ADJUST_MAX_COMPLETION_TOKENS | ADJUST_NO_TEMPERATURE,
	.body = openai_body,
	.event = openai_event,
	.whole = openai_whole,
};
