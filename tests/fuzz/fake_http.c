/*
 * fake_http.c: http.h without a network, for fuzz_stream. Each request is
 * answered with the fuzz input: its first byte picks the HTTP status, its
 * second whether the body streams and in what pieces, and the rest is the
 * body, cut by transport/stream.c as libcurl's pieces would be.
 */
#include <stdlib.h>

#include "base/msg.h"
#include "fake_http.h"
#include "transport/http.h"

const uint8_t *fake_http_data;
size_t fake_http_len;

int http_post(const struct http_request *rq, struct http_response *rs)
{
	static const long statuses[] = { 200, 200, 200, 200, 200, 400, 401, 404, 429, 500, 529 };
	*rs = (struct http_response){ .body = BUF_INIT };
	if (fake_http_len < 2) {
		rs->error = xstrdup("connection refused");
		return -1;
	}
	const char *body = (const char *)fake_http_data + 2;
	size_t len = fake_http_len - 2, piece = (fake_http_data[1] >> 1) + 1;
	rs->status = statuses[fake_http_data[0] % (sizeof(statuses) / sizeof(*statuses))];
	rs->streamed = rs->status == 200 && (fake_http_data[1] & 1);
	if (!rs->streamed) {
		buf_add(&rs->body, body, len);
		return rs->status == 200 ? 0 : -1;
	}
	struct stream s;
	stream_init(&s, rq->framing, rq->on_event, rq->ctx);
	enum stream_verdict v = STREAM_MORE;
	for (size_t at = 0; v == STREAM_MORE && at < len; at += piece)
		v = stream_feed(&s, body + at, len - at < piece ? len - at : piece);
	if (v == STREAM_MORE)
		v = stream_finish(&s);
	stream_release(&s);
	if (v == STREAM_TOO_BIG) {
		rs->error = xstrdup("answer larger than 8 MiB");
		return -1;
	}
	return 0;
}

void http_post_all(const struct http_request *rqs, struct http_response *rss, int *rets,
		   size_t n, long jobs)
{
	(void)jobs;
	for (size_t i = 0; i < n; i++)
		rets[i] = http_post(&rqs[i], &rss[i]);
}

void http_response_release(struct http_response *rs)
{
	buf_release(&rs->body);
	free(rs->error);
	rs->error = NULL;
}

void http_global_cleanup(void)
{
}
