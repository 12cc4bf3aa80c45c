/*
 * backend.h: a conversation with the configured model server. The
 * connection holds the wire protocol, endpoint and key, falls back to a
 * weaker JSON mode or adjusts a parameter when an HTTP 400 rejects one,
 * and turns failures into short reasons; what the requests cost goes into
 * the run's accounting, and the run's display is ticked while waiting. It
 * answers from the cache when it can, and from files instead of a server
 * when asked to.
 */
#ifndef BACKEND_H
#define BACKEND_H

#include <stdbool.h>

#include "backend/cache.h"
#include "backend/usage.h"
#include "backend/wire.h"
#include "base/buf.h"
#include "config/config.h"
#include "transport/progress.h"

/* The connection. */
struct backend {
	const struct config *config;
	const struct wire *wire;
	char *endpoint;
	char *key;		/* NULL when the server needs none */
	char *key_header;	/* e.g. "x-api-key: ..."; NULL without a key */
	const char *headers[8];	/* for http_post_all(), NULL-terminated */
	enum json_mode json_mode;	/* the strongest mode not yet rejected */
	unsigned adjust;	/* enum wire_adjust bits a 400 asked for */
	struct usage *usage;	/* the run's accounting */
	struct progress *progress;	/* the run's display */
	bool offline;		/* files answer (backend/offline.h), not a server */
};

/*
 * Opens the connection for config c, counting into *u and ticking *p.
 * Returns 0, or -1 with the reason in *why. Close b either way.
 */
int backend_open(struct backend *b, const struct config *c, struct usage *u,
		 struct progress *p, struct buf *why);
void backend_close(struct backend *b);

/*
 * Sends rq (its json_mode is set here) and appends the answer text to
 * *text. Returns 0, or -1 with a short reason in *why, such as
 * "HTTP 401 (check the API key)" or "answer truncated (max_tokens)".
 */
int backend_ask(struct backend *b, struct wire_request *rq, struct buf *text, struct buf *why);

/* One of several requests sent together. */
struct backend_ask {
	struct wire_request *rq;
	struct buf *text;	/* the answer text is appended here */
	struct buf *why;	/* the reason of a failure */
	struct usage *usage;	/* what it cost is counted here */
	int ret;		/* as backend_ask() returns */
};

/*
 * Sends the n requests at once, at most config jobs at a time, each with
 * its own retries; one that fails stops none of the others. backend_ask()
 * is this for one request, counted into the connection's usage.
 */
void backend_ask_all(struct backend *b, struct backend_ask *v, size_t n);

/* The cache key for rq on this backend. */
void backend_cache_key(const struct backend *b, const struct wire_request *rq,
		       char key[CACHE_KEY_SIZE]);

/* A cached answer for key into *text; returns 0 on a hit, -1 on a miss or with the cache off. */
int backend_recall(struct backend *b, const char *key, struct buf *text);

/* Caches text for key, with the tokens it cost; nothing with the cache off. */
void backend_remember(struct backend *b, const char *key, const char *text,
		      long prompt_tokens, long completion_tokens);

#endif
