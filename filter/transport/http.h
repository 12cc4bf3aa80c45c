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
#include "transport/stream.h"

struct progress;

/* Largest body or stream accepted; a larger answer is an error. */
#define HTTP_MAX_BODY ((size_t)8 << 20)
/* Longest wait between two attempts, whatever Retry-After says. */
#define HTTP_MAX_WAIT 60

struct http_request {
	const char *url;
	const char *const *headers;	/* "Name: value", NULL-terminated */
	const char *body;		/* JSON */
	long timeout;			/* seconds for one attempt */
	long retries;			/* further attempts after a retryable failure */
	enum http_framing framing;
	/*
	 * Called with the data of each SSE event, or each NDJSON line, of a
	 * 2xx streamed answer; returns an enum stream_verdict. STREAM_END
	 * ends the transfer at once as a success (a server may keep the
	 * connection open after the last event), STREAM_RETRY asks again
	 * like a 529 while retries are left (and as a success after that:
	 * the reader has the server's error), STREAM_TOO_BIG fails it.
	 */
	int (*on_event)(void *ctx, const char *data, size_t len);
	/* Called before a retry once on_event has seen events: forget them. */
	void (*on_restart)(void *ctx);
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
 * Sends the n requests rqs, with at most jobs transfers running at once
 * (libcurl's multi interface); each has its own retries and its own
 * result. rets[i] is 0 when a 2xx answer arrived whole (or on_event ended
 * it); -1 otherwise, with rss[i].error set for a transport failure
 * (libcurl missing, too), or rss[i].status holding the final non-2xx
 * status (and rss[i].body its body). One failing stops none of the
 * others. Each rss[i] is initialised here; release it with
 * http_response_release() either way.
 */
void http_post_all(const struct http_request *rqs, struct http_response *rss, int *rets,
		   size_t n, long jobs);
void http_response_release(struct http_response *rs);

/*
 * libcurl is loaded by the first http_post_all(), so that a run that sends
 * nothing (no backend, a cached review, no key) never loads it and its
 * TLS libraries. Once per process, after the last request.
 */
void http_global_cleanup(void);

#endif
