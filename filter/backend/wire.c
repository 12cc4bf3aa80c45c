/* wire.c: finding a backend, and the JSON helpers its protocols share. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "backend/wire.h"
#include "base/msg.h"

const struct wire *wire_find(const char *name)
{
	static const struct wire *const wires[] = {
		&wire_openai, &wire_anthropic, &wire_ollama,
	};
	for (size_t i = 0; i < sizeof(wires) / sizeof(*wires); i++)
		if (!strcmp(wires[i]->name, name))
			return wires[i];
	return NULL;
}

void wire_answer_init(struct wire_answer *a)
{
	*a = (struct wire_answer){ .text = BUF_INIT };
}

void wire_answer_release(struct wire_answer *a)
{
	buf_release(&a->text);
	free(a->error);
	wire_answer_init(a);
}

cJSON *wire_parse(const char *data, size_t len)
{
	return cJSON_ParseWithLength(data, len);
}

const char *wire_string(const cJSON *object, const char *name)
{
	return cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(object, name));
}

long wire_long(const cJSON *object, const char *name)
{
	const cJSON *n = cJSON_GetObjectItemCaseSensitive(object, name);
	return cJSON_IsNumber(n) && n->valuedouble >= 0 && n->valuedouble < 1e12 ?
		(long)n->valuedouble : 0;
}

char *wire_error_message(const char *body, size_t len)
{
	cJSON *root = wire_parse(body, len);
	const cJSON *error = cJSON_GetObjectItemCaseSensitive(root, "error");
	const char *message = cJSON_IsString(error) ? error->valuestring :
		wire_string(error, "message");
	char *copy = message && *message ? xstrdup(message) : NULL;
	cJSON_Delete(root);
	return copy;
}

/* ASCII case-insensitive: is word in s? */
static bool mentions(const char *s, const char *word)
{
	for (size_t n = strlen(word); s && *s; s++)
		if (!strncasecmp(s, word, n))
			return true;
	return false;
}

/*
 * OpenAI names the parameter ("param": "max_tokens", and a message that
 * says to use max_completion_tokens); other servers only say it in the
 * message, so both are read.
 */
enum wire_rejection wire_rejection(const char *body, size_t len)
{
	cJSON *root = wire_parse(body, len);
	const cJSON *error = cJSON_GetObjectItemCaseSensitive(root, "error");
	const char *message = cJSON_IsString(error) ? error->valuestring :
		wire_string(error, "message");
	const char *param = wire_string(error, "param");
	enum wire_rejection r = REJECT_OTHER;
	if (mentions(message, "max_completion_tokens"))
		r = REJECT_MAX_TOKENS;
	else if (mentions(param, "temperature") || mentions(message, "temperature"))
		r = REJECT_TEMPERATURE;
	else if (mentions(param, "format") || mentions(message, "format") ||
		 mentions(message, "schema"))
		r = REJECT_JSON_MODE;
	cJSON_Delete(root);
	return r;
}

static cJSON *message(const char *role, const char *text)
{
	cJSON *m = cJSON_CreateObject();
	cJSON_AddStringToObject(m, "role", role);
	cJSON_AddStringToObject(m, "content", text);
	return m;
}

cJSON *wire_messages(const struct wire_request *rq, const char *system)
{
	cJSON *list = cJSON_CreateArray();
	if (system)
		cJSON_AddItemToArray(list, message("system", system));
	for (size_t i = 0; i < rq->nmessages; i++)
		cJSON_AddItemToArray(list, message(rq->messages[i].role, rq->messages[i].text));
	return list;
}

char *wire_print(cJSON *root)
{
	char *text = cJSON_PrintUnformatted(root);
	cJSON_Delete(root);
	if (!text)
		die_nomem();
	return text;
}
