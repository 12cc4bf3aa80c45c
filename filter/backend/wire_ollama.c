/*
 * wire_ollama.c: Ollama's native chat API, POST {url}/api/chat, which
 * streams NDJSON. "stream" is always sent, because Ollama's default is on.
 */
#include <string.h>

#include "backend/wire.h"
#include "base/msg.h"

/*
 * Ollama silently drops the start of a prompt longer than its context
 * window (2048 or 4096 tokens by default), so ask for a window that fits:
 * a pessimistic 3 bytes a token, rounded up to limit model reloads.
 */
static long context_window(const struct wire_request *rq)
{
	size_t bytes = strlen(rq->system);
	for (size_t i = 0; i < rq->nmessages; i++)
		bytes += strlen(rq->messages[i].text);
	long need = (long)(bytes / 3) + rq->max_tokens;
	return (need + 4095) / 4096 * 4096;
}

static char *ollama_body(const struct wire_request *rq)
{
	cJSON *root = cJSON_CreateObject();
	cJSON_AddStringToObject(root, "model", rq->model);
	cJSON_AddItemToObject(root, "messages", wire_messages(rq, rq->system));
	cJSON_AddBoolToObject(root, "stream", 1);
	if (rq->json_mode == JSON_SCHEMA)
		cJSON_AddItemToObject(root, "format", cJSON_Duplicate(rq->schema, 1));
	else if (rq->json_mode == JSON_OBJECT)
		cJSON_AddStringToObject(root, "format", "json");
	cJSON *options = cJSON_AddObjectToObject(root, "options");
	if (!(rq->adjust & ADJUST_NO_TEMPERATURE))
		cJSON_AddNumberToObject(options, "temperature", rq->temperature);
	cJSON_AddNumberToObject(options, "num_predict", (double)rq->max_tokens);
	cJSON_AddNumberToObject(options, "num_ctx", (double)context_window(rq));
	return wire_print(root);
}

/* A stream line and a whole answer have the same shape. */
static int ollama_read(struct wire_answer *a, const char *data, size_t len)
{
	cJSON *root = wire_parse(data, len);
	if (!root)
		return -1;
	const char *text = wire_string(cJSON_GetObjectItemCaseSensitive(root, "message"),
				       "content");
	if (text && *text) {
		buf_addstr(&a->text, text);
		a->pieces++;
	}
	const char *error = wire_string(root, "error");
	if (error && !a->error)
		a->error = xstrdup(error);
	if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(root, "done"))) {
		const char *reason = wire_string(root, "done_reason");
		a->complete = a->ended = true;
		a->truncated = reason && !strcmp(reason, "length");
		a->prompt_tokens = wire_long(root, "prompt_eval_count");
		a->completion_tokens = wire_long(root, "eval_count");
	}
	cJSON_Delete(root);
	return 0;
}

static void ollama_event(struct wire_answer *a, const char *data, size_t len)
{
	ollama_read(a, data, len);
}

const struct wire wire_ollama = {
	.name = "ollama",
	.default_url = "http://localhost:11434",
	.path = "/api/chat",
	.key_header = "Authorization: Bearer ",
	.framing = HTTP_NDJSON,
	.json_modes = JSON_SCHEMA | JSON_OBJECT | JSON_PROMPT,
	.adjusts = ADJUST_NO_TEMPERATURE,
	.body = ollama_body,
	.event = ollama_event,
	.whole = ollama_read,
};
