/*
 * http.h: the one HTTP transport of the model reviewer. POSTs a JSON body
 * with libcurl, retries what is worth retrying, and either collects the
 * body (bounded) or hands a streamed answer over event by event.
 */
#ifndef HTTP_H
#define HTTP_H

#include <stdbool.h>
#include <stddef.h>

#include "base/buf.h"

struct progress;

/* Largest body or stream accepted; a larger answer is an error. */
#define HTTP_MAX_BODY ((size_t)8 << 20)
/* Longest wait between two attempts, whatever Retry-After says. */
#define HTTP_MAX_WAIT 60

/* How a streamed answer is cut into events; a plain JSON answer is not cut. */
enum http_framing {
	HTTP_SSE,		/* server-sent events: "data: ..." blocks */
	HTTP_NDJSON,		/* one JSON document a line */
};

struct http_request {
	const char *url;
	const char *const *headers;	/* "Name: value", NULL-terminated */
	const char *body;		/* JSON */
	long timeout;			/* seconds for one attempt */
	long retries;			/* further attempts after a retryable failure */
	enum http_framing framing;
	/*
	 * Called with the data of each SSE event, or each NDJSON line, of a
	 * 2xx streamed answer. A non-zero return says the answer has grown
	 * too large, and aborts the transfer.
	 */
	int (*on_event)(void *ctx, const char *data, size_t len);
	void *ctx;
	struct progress *progress;	/* ticked while waiting; may be NULL */
};

struct http_response {
	long status;		/* the last HTTP status, 0 when none arrived */
	bool streamed;		/* the answer went to on_event, not into body */
	struct buf body;	/* the body when not streamed, error bodies too */
	long retries;		/* retries made */
	char *error;		/* why the transfer failed, when it did */
};

/*
 * Sends rq. Returns 0 when a 2xx answer arrived whole; -1 otherwise, with
 * rs->error set for a transport failure, or rs->status holding the final
 * non-2xx status (and rs->body its body). rs is initialised here; release
 * it with http_response_release() either way.
 */
int http_post(const struct http_request *rq, struct http_response *rs);
void http_response_release(struct http_response *rs);

/* Once per process, around all requests. Returns 0, or -1 when libcurl cannot be loaded. */
int http_global_init(void);
void http_global_cleanup(void);

#endif
