/* stream.c: SSE and NDJSON splitting, fed whatever pieces the network gives. */
#include <string.h>

#include "transport/stream.h"

void stream_init(struct stream *s, enum http_framing framing,
		 int (*on_event)(void *ctx, const char *data, size_t len), void *ctx)
{
	*s = (struct stream){
		.framing = framing, .on_event = on_event, .ctx = ctx,
		.pending = BUF_INIT, .event = BUF_INIT,
	};
}

void stream_reset(struct stream *s)
{
	buf_reset(&s->pending);
	buf_reset(&s->event);
	s->scanned = 0;
	s->event_has_data = false;
	s->delivered = false;
	s->verdict = STREAM_MORE;
}

void stream_release(struct stream *s)
{
	buf_release(&s->pending);
	buf_release(&s->event);
}

static enum stream_verdict deliver(struct stream *s, const char *data, size_t len)
{
	s->delivered = true;
	int v = s->on_event(s->ctx, data, len);
	if (v != STREAM_MORE)
		s->verdict = (enum stream_verdict)v;
	return s->verdict;
}

/* One line of the stream, without its line ending. */
static enum stream_verdict stream_line(struct stream *s, const char *line, size_t len)
{
	if (s->framing == HTTP_NDJSON)
		return len ? deliver(s, line, len) : STREAM_MORE;
	if (!len) {
		enum stream_verdict v = s->event_has_data ?
			deliver(s, s->event.data, s->event.len) : STREAM_MORE;
		buf_reset(&s->event);
		s->event_has_data = false;
		return v;
	}
	if (len < 5 || memcmp(line, "data:", 5))
		return STREAM_MORE;	/* comments, "event:", "id:", "retry:" */
	line += 5, len -= 5;
	if (len && *line == ' ')
		line++, len--;
	if (s->event_has_data)
		buf_addch(&s->event, '\n');
	buf_add(&s->event, line, len);
	s->event_has_data = true;
	return STREAM_MORE;
}

enum stream_verdict stream_feed(struct stream *s, const char *data, size_t len)
{
	if (s->verdict != STREAM_MORE)
		return s->verdict;
	buf_add(&s->pending, data, len);
	size_t start = 0;
	char *nl;
	/* Only the new bytes are searched: a long line may come a byte at a time. */
	while ((nl = memchr(s->pending.data + s->scanned, '\n', s->pending.len - s->scanned))) {
		size_t end = (size_t)(nl - s->pending.data), n = end - start;
		if (n && s->pending.data[end - 1] == '\r')
			n--;
		s->scanned = end + 1;
		if (stream_line(s, s->pending.data + start, n) != STREAM_MORE)
			return s->verdict;
		start = end + 1;
	}
	memmove(s->pending.data, s->pending.data + start, s->pending.len - start);
	s->pending.len -= start;
	s->pending.data[s->pending.len] = '\0';
	s->scanned = s->pending.len;
	return STREAM_MORE;
}

enum stream_verdict stream_finish(struct stream *s)
{
	if (s->verdict == STREAM_MORE && s->framing == HTTP_NDJSON && s->pending.len)
		deliver(s, s->pending.data, s->pending.len);
	return s->verdict;
}
