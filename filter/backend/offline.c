/* offline.c: requests written to files, answers read from files. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "backend/budget.h"
#include "backend/offline.h"
#include "backend/usage.h"
#include "base/hash.h"
#include "base/msg.h"
#include "base/paths.h"
#include "base/slurp.h"
#include "transport/http.h"

/* The review's own schema; other requests (verify) add theirs to the name. */
#define OFFLINE_REVIEW_SCHEMA "patch_review"
#define OFFLINE_MAX_NAME 128

/* A name safe as a file name: letters, digits, '.', '_', '-' and '+'. */
static void add_safe(struct buf *b, const char *s)
{
	for (size_t i = 0; s[i] && i < OFFLINE_MAX_NAME; i++) {
		char ch = s[i];
		bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
			(ch >= '0' && ch <= '9') || strchr("._+-", ch);
		buf_addch(b, ok && !(i == 0 && ch == '.') ? ch : '_');
	}
}

/*
 * NAME, or "req-" and 16 hex digits of the request text; then the
 * suffixes: ".partN" for the Nth request of several asked together (the
 * parts of a patch, the patches of a series), which one NAME would
 * otherwise give one file.
 */
static void request_name(struct buf *name, const struct config *c,
			 const struct wire_request *rq, size_t part)
{
	if (c->request_name && *c->request_name) {
		add_safe(name, c->request_name);
	} else {
		char key[HASH_SHA256_HEX];
		const char *parts[] = { rq->system, rq->messages[0].text };
		hash_sha256_strings(key, parts, 2);
		buf_addf(name, "req-%.16s", key);
	}
	if (part)
		buf_addf(name, ".part%zu", part);
	if (strcmp(rq->schema_name, OFFLINE_REVIEW_SCHEMA)) {
		buf_addch(name, '.');
		add_safe(name, rq->schema_name);
	}
	if (rq->nmessages > 1)
		buf_addstr(name, ".repair");
}

static char *request_json(const struct wire_request *rq, const char *name)
{
	struct buf answer = BUF_INIT;
	buf_addf(&answer, "%s.json", name);
	cJSON *root = cJSON_CreateObject();
	cJSON_AddStringToObject(root, "name", name);
	cJSON_AddStringToObject(root, "answer_file", answer.data);
	cJSON_AddStringToObject(root, "how_to_answer",
		"Do what the system text asks, using only this request, and write the "
		"answer exactly as the model would give it (the JSON object that "
		"follows the schema, nothing else) to answer_file in the answers directory.");
	if (rq->model)
		cJSON_AddStringToObject(root, "model", rq->model);
	else
		cJSON_AddNullToObject(root, "model");
	cJSON_AddNumberToObject(root, "max_tokens", (double)rq->max_tokens);
	cJSON_AddNumberToObject(root, "temperature", rq->temperature);
	cJSON_AddStringToObject(root, "system", rq->system);
	cJSON *messages = cJSON_AddArrayToObject(root, "messages");
	for (size_t i = 0; i < rq->nmessages; i++) {
		cJSON *m = cJSON_CreateObject();
		cJSON_AddStringToObject(m, "role", rq->messages[i].role);
		cJSON_AddStringToObject(m, "content", rq->messages[i].text);
		cJSON_AddItemToArray(messages, m);
	}
	cJSON_AddStringToObject(root, "schema_name", rq->schema_name);
	cJSON_AddItemToObject(root, "schema", cJSON_Duplicate(rq->schema, 1));
	char *json = cJSON_Print(root);
	cJSON_Delete(root);
	buf_release(&answer);
	if (!json)
		die_nomem();
	return json;
}

static int write_request(const char *dir, const struct wire_request *rq,
			 const char *name, struct buf *why)
{
	struct buf path = BUF_INIT;
	char *json = request_json(rq, name);
	char *d = xstrdup(dir);
	buf_addf(&path, "%s/%s.json", dir, name);
	int ret = make_dirs(d) < 0 ? -1 : write_file_atomic(path.data, json, strlen(json));
	if (ret < 0)
		buf_addf(why, "cannot write the request '%s': %s", path.data, strerror(errno));
	else
		buf_addf(why, "request written to '%s'", path.data);
	free(d);
	free(json);
	buf_release(&path);
	return ret;
}

int offline_ask(const struct config *c, const struct wire_request *rq, size_t part,
		struct buf *text, struct buf *why, struct usage *u)
{
	struct buf name = BUF_INIT, path = BUF_INIT, answer = BUF_INIT;
	int ret = -1;
	request_name(&name, c, rq, part);
	if (c->answers) {
		buf_addf(&path, "%s/%s.json", c->answers, name.data);
		ret = slurp_file(path.data, HTTP_MAX_BODY, &answer);
	}
	if (!ret) {
		buf_add(text, answer.data, answer.len);
		u->answered++;
		u->prompt_tokens += tokens_of(wire_request_bytes(rq));
		u->completion_tokens += tokens_of(answer.len);
	} else if (c->answers && errno != ENOENT) {
		buf_addf(why, "cannot read the answer '%s': %s", path.data,
			 errno == EFBIG ? "too large" : strerror(errno));
	} else if (c->requests_out) {
		if (!write_request(c->requests_out, rq, name.data, why))
			u->written++;
	} else if (rq->nmessages > 1) {
		buf_addf(why, "the answer was not the JSON asked for, and there is no '%s'",
			 path.data);
	} else {
		buf_addf(why, "no answer file '%s'", path.data);
	}
	buf_release(&name);
	buf_release(&path);
	buf_release(&answer);
	return ret;
}
