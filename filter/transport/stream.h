/*
 * stream.h: cutting a streamed answer into events as its bytes arrive:
 * server-sent events ("data: ..." lines up to a blank line) or NDJSON
 * (one JSON document a line). Knows nothing of the transport, so that the
 * same code serves libcurl and the fuzz harness.
 */
#ifndef STREAM_H
#define STREAM_H

#include <stdbool.h>
#include <stddef.h>

#include "base/buf.h"

/* How a streamed answer is cut into events; a plain JSON answer is not cut. */
enum http_framing {
	HTTP_SSE,		/* server-sent events: "data: ..." blocks */
	HTTP_NDJSON,		/* one JSON document a line */
};

/* What the reader of the events says after each one. */
enum stream_verdict {
	STREAM_MORE,		/* go on reading */
	STREAM_END,		/* the answer is complete: stop now, whatever follows */
	STREAM_RETRY,		/* the server said it is overloaded: ask again later */
	STREAM_TOO_BIG,		/* the answer has grown too large: give up */
};

struct stream {
	enum http_framing framing;
	/* Called with the data of each event; returns an enum stream_verdict. */
	int (*on_event)(void *ctx, const char *data, size_t len);
	void *ctx;
	struct buf pending;	/* bytes of a line not yet complete */
	size_t scanned;		/* of pending, known to hold no newline */
	struct buf event;	/* the SSE data lines gathered so far */
	bool event_has_data;
	bool delivered;		/* on_event has seen something */
	enum stream_verdict verdict;	/* the first one other than STREAM_MORE */
};

void stream_init(struct stream *s, enum http_framing framing,
		 int (*on_event)(void *ctx, const char *data, size_t len), void *ctx);
/* Forgets what arrived, for another attempt. */
void stream_reset(struct stream *s);
void stream_release(struct stream *s);

/*
 * Feeds the next bytes of the body. Returns STREAM_MORE, or the verdict
 * that stopped the stream; after a stop, further bytes are ignored.
 */
enum stream_verdict stream_feed(struct stream *s, const char *data, size_t len);

/* The body ended: a last NDJSON line may lack its newline. Returns as stream_feed. */
enum stream_verdict stream_finish(struct stream *s);

/* Bytes held while waiting for the rest of a line or event. */
static inline size_t stream_held(const struct stream *s)
{
	return s->pending.len + s->event.len;
}

#endif
