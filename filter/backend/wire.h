/*
 * wire.h: the model protocols. Each backend (wire_openai.c,
 * wire_anthropic.c, wire_ollama.c) is one struct wire: how to build the
 * request body, which headers carry the key, and how to read the answer,
 * streamed or whole. Transport is http.c's job; what to ask is llm.c's.
 */
#ifndef WIRE_H
#define WIRE_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "base/buf.h"
#include "transport/http.h"

/* Ways to ask for JSON, strongest first; a backend falls back when a 400 rejects one. */
enum json_mode {
	JSON_SCHEMA = 1 << 0,	/* the answer must follow a JSON schema */
	JSON_OBJECT = 1 << 1,	/* the answer must be some JSON object */
	JSON_PROMPT = 1 << 2,	/* only the prompt asks for JSON */
};

/*
 * Adjustments for models that reject a parameter with HTTP 400, made once
 * each when the server's error names it.
 */
enum wire_adjust {
	ADJUST_MAX_COMPLETION_TOKENS = 1 << 0,	/* max_completion_tokens, not max_tokens */
	ADJUST_NO_TEMPERATURE = 1 << 1,		/* no temperature: the model's default */
};

/* What the error body of an HTTP 400 says was rejected. */
enum wire_rejection {
	REJECT_OTHER,		/* nothing to adjust: report it */
	REJECT_MAX_TOKENS,	/* max_tokens; the server names max_completion_tokens */
	REJECT_TEMPERATURE,
	REJECT_JSON_MODE,	/* response_format, format, a schema */
};

struct wire_message {
	const char *role;	/* "user" or "assistant" */
	const char *text;
};

struct wire_request {
	const char *model;
	const char *system;	/* the static instructions */
	const struct wire_message *messages;
	size_t nmessages;
	const char *schema_name;
	const cJSON *schema;	/* used with JSON_SCHEMA */
	enum json_mode json_mode;
	long max_tokens;
	double temperature;
	unsigned adjust;	/* enum wire_adjust bits, set by the backend */
};

struct wire_answer {
	struct buf text;
	long prompt_tokens, completion_tokens;
	long pieces;		/* text pieces received while streaming */
	bool complete;		/* the server said the answer is finished */
	bool ended;		/* the stream's last event came: nothing more will */
	bool truncated;		/* it stopped at max_tokens */
	bool overloaded;	/* the error inside the stream says: try again later */
	char *error;		/* an error the server sent inside a stream */
};

struct wire {
	const char *name;
	const char *default_url;
	const char *default_key_env;	/* NULL: no key by default */
	const char *path;		/* appended to the configured url */
	const char *key_header;		/* the key follows this, e.g. "x-api-key: " */
	const char *const *headers;	/* fixed headers, NULL-terminated */
	enum http_framing framing;	/* how a streamed answer arrives */
	unsigned json_modes;		/* enum json_mode bits it can ask for */
	unsigned adjusts;		/* enum wire_adjust bits its body can make */
	/* The streaming request body; caller frees. */
	char *(*body)(const struct wire_request *rq);
	/* Reads one SSE event or NDJSON line; unreadable events are skipped. */
	void (*event)(struct wire_answer *a, const char *data, size_t len);
	/* Reads a whole (non-streamed) answer. Returns 0, or -1 if unreadable. */
	int (*whole)(struct wire_answer *a, const char *body, size_t len);
};

extern const struct wire wire_openai, wire_anthropic, wire_ollama;

/* The backend called name, or NULL. */
const struct wire *wire_find(const char *name);

void wire_answer_init(struct wire_answer *a);
void wire_answer_release(struct wire_answer *a);

/*
 * The message in an error body, {"error": {"message": "..."}} or
 * {"error": "..."}, as in all three protocols; caller frees. NULL if none.
 */
char *wire_error_message(const char *body, size_t len);

/* What an HTTP 400 error body, in any of the three protocols, rejects. */
enum wire_rejection wire_rejection(const char *body, size_t len);

/* Shared by the protocols. */
cJSON *wire_parse(const char *data, size_t len);
/* The messages array, opened by a system message when system is not NULL. */
cJSON *wire_messages(const struct wire_request *rq, const char *system);
/* Prints and frees root; caller frees the result. */
char *wire_print(cJSON *root);
const char *wire_string(const cJSON *object, const char *name);
long wire_long(const cJSON *object, const char *name);

#endif
