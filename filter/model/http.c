/*
 * http.c: libcurl POST with timeouts, retries (exponential backoff with
 * jitter, Retry-After honoured), a capped body, and a streamed answer
 * handed to stream.c as it arrives.
 * Proxies come from the environment as libcurl reads them; TLS
 * verification stays on; redirects are not followed, so a key header
 * never travels to another host.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/clock.h"
#include "base/msg.h"
#include "base/str.h"
#include "model/http.h"
#include "model/libcurl.h"
#include "model/progress.h"

struct transfer {
	const struct http_request *rq;
	struct http_response *rs;
	CURL *curl;
	bool decided;		/* streamed or whole, fixed at the first byte */
	struct stream stream;
	bool too_big;		/* the body, or on_event's answer, hit the cap */
};

static bool curl_loaded;

/* Loads libcurl on the first request. Returns 0, or -1 after one line on stderr. */
static int load_curl(void)
{
	if (curl_loaded)
		return 0;
	if (libcurl_load() < 0)
		return -1;
	libcurl.global_init(CURL_GLOBAL_DEFAULT);
	curl_loaded = true;
	return 0;
}

void http_global_cleanup(void)
{
	if (curl_loaded)
		libcurl.global_cleanup();
	curl_loaded = false;
}

/* A stream is read as one only when the server really sent one. */
static void decide_framing(struct transfer *t)
{
	long status = 0;
	char *type = NULL;
	libcurl.easy_getinfo(t->curl, CURLINFO_RESPONSE_CODE, &status);
	libcurl.easy_getinfo(t->curl, CURLINFO_CONTENT_TYPE, &type);
	t->rs->streamed = status / 100 == 2 &&
		type && (starts_with(type, "text/event-stream") ||
			 starts_with(type, "application/x-ndjson"));
	t->decided = true;
}

static size_t on_write(char *data, size_t size, size_t nmemb, void *ctx)
{
	struct transfer *t = ctx;
	size_t len = size * nmemb;
	if (!t->decided)
		decide_framing(t);
	size_t held = t->rs->streamed ? stream_held(&t->stream) : t->rs->body.len;
	if (len > HTTP_MAX_BODY - held) {
		t->too_big = true;
		return 0;
	}
	if (!t->rs->streamed) {
		buf_add(&t->rs->body, data, len);
		return len;
	}
	enum stream_verdict v = stream_feed(&t->stream, data, len);
	t->too_big = v == STREAM_TOO_BIG;
	/* Anything but "more" stops the transfer here. */
	return v == STREAM_MORE ? len : 0;
}

static int on_progress(void *ctx, curl_off_t dltotal, curl_off_t dlnow,
		       curl_off_t ultotal, curl_off_t ulnow)
{
	struct progress *p = ctx;
	(void)dltotal, (void)dlnow, (void)ultotal, (void)ulnow;
	if (p)
		progress_tick(p);
	return 0;
}

static void set_error(struct http_response *rs, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void set_error(struct http_response *rs, const char *fmt, ...)
{
	struct buf b = BUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	buf_vaddf(&b, fmt, ap);
	va_end(ap);
	free(rs->error);
	rs->error = buf_detach(&b, NULL);
}

static bool connected(const struct transfer *t)
{
	curl_off_t when = 0;
	libcurl.easy_getinfo(t->curl, CURLINFO_CONNECT_TIME_T, &when);
	return when > 0;
}

/* A short reason for a failed transfer, in the words a user knows. */
static void describe_failure(struct transfer *t, CURLcode rc, const char *detail)
{
	struct http_response *rs = t->rs;
	long os_errno = 0;
	libcurl.easy_getinfo(t->curl, CURLINFO_OS_ERRNO, &os_errno);
	if (!*detail)
		detail = libcurl.easy_strerror(rc);
	if (t->too_big)
		set_error(rs, "answer larger than %zu MiB", HTTP_MAX_BODY >> 20);
	else if (rc == CURLE_OPERATION_TIMEDOUT && !connected(t))
		set_error(rs, "cannot connect (%s)", detail);
	else if (rc == CURLE_OPERATION_TIMEDOUT)
		set_error(rs, "timed out after %ld s", t->rq->timeout);
	else if (rc == CURLE_COULDNT_CONNECT && os_errno == ECONNREFUSED)
		set_error(rs, "connection refused");
	else if (rc == CURLE_COULDNT_RESOLVE_HOST || rc == CURLE_COULDNT_RESOLVE_PROXY)
		set_error(rs, "cannot resolve host (%s)", detail);
	else if (rc == CURLE_PEER_FAILED_VERIFICATION || rc == CURLE_SSL_CONNECT_ERROR ||
		 rc == CURLE_SSL_CACERT_BADFILE || rc == CURLE_SSL_CERTPROBLEM)
		set_error(rs, "TLS error (%s)", detail);
	else if (t->stream.delivered)
		set_error(rs, "connection closed mid-answer (%s)", detail);
	else
		set_error(rs, "%s", detail);
}

static bool retryable_status(long status)
{
	static const long retry[] = { 408, 429, 500, 502, 503, 504, 529 };
	for (size_t i = 0; i < sizeof(retry) / sizeof(*retry); i++)
		if (status == retry[i])
			return true;
	return false;
}

/*
 * Connection trouble before any answer arrived is worth another try; a
 * server that accepted the request and then ran out of time is not.
 */
static bool retryable_failure(const struct transfer *t, CURLcode rc)
{
	if (t->stream.delivered || t->too_big)
		return false;
	return rc == CURLE_COULDNT_CONNECT || rc == CURLE_SEND_ERROR ||
		rc == CURLE_RECV_ERROR || rc == CURLE_GOT_NOTHING ||
		rc == CURLE_PARTIAL_FILE || (rc == CURLE_OPERATION_TIMEDOUT && !connected(t));
}

/* Full jitter on an exponential step: 1, 2, 4... seconds, each times 0.5..1. */
static double backoff(long attempt)
{
	static uint32_t seed;
	if (!seed) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		seed = (uint32_t)ts.tv_nsec | 1;
	}
	seed ^= seed << 13, seed ^= seed >> 17, seed ^= seed << 5;
	double step = attempt < 6 ? (double)(1L << attempt) : HTTP_MAX_WAIT;
	return step * (0.5 + 0.5 * (seed % 1000) / 1000.0);
}

static void wait_seconds(double seconds, struct progress *p)
{
	double end = clock_now() + seconds;
	for (;;) {
		double left = end - clock_now();
		if (left <= 0)
			return;
		double step = left < 0.1 ? left : 0.1;
		struct timespec ts = { 0, (long)(step * 1e9) };
		nanosleep(&ts, NULL);
		if (p)
			progress_tick(p);
	}
}

/* One try. A stream its reader stopped (complete, or the server overloaded) has arrived. */
static CURLcode attempt(struct transfer *t)
{
	struct http_response *rs = t->rs;
	if (t->stream.delivered && t->rq->on_restart)
		t->rq->on_restart(t->rq->ctx);
	t->decided = t->too_big = false;
	stream_reset(&t->stream);
	buf_reset(&rs->body);
	rs->streamed = false;
	rs->status = 0;
	CURLcode rc = libcurl.easy_perform(t->curl);
	libcurl.easy_getinfo(t->curl, CURLINFO_RESPONSE_CODE, &rs->status);
	if (rs->streamed && !rc)
		stream_finish(&t->stream);
	if (rs->streamed && (t->stream.verdict == STREAM_END || t->stream.verdict == STREAM_RETRY))
		rc = CURLE_OK;
	else if (t->stream.verdict == STREAM_TOO_BIG)
		rc = CURLE_WRITE_ERROR;
	return rc;
}

static void configure(CURL *curl, const struct http_request *rq,
		      struct curl_slist *headers, struct transfer *t, char *errbuf)
{
	libcurl.easy_setopt(curl, CURLOPT_URL, rq->url);
	libcurl.easy_setopt(curl, CURLOPT_POSTFIELDS, rq->body);
	libcurl.easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)strlen(rq->body));
	libcurl.easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
	libcurl.easy_setopt(curl, CURLOPT_USERAGENT, "patchreview/" PATCHREVIEW_VERSION);
	libcurl.easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
	libcurl.easy_setopt(curl, CURLOPT_SSL_VERIFYPEER, 1L);
	libcurl.easy_setopt(curl, CURLOPT_SSL_VERIFYHOST, 2L);
	/*
	 * CURLOPT_NOSIGNAL stays off: libcurl then ignores SIGPIPE during a
	 * transfer, so a server closing mid-TLS-write cannot kill the process
	 * (and lose the draft); its threaded resolver needs no alarm().
	 */
	libcurl.easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, rq->timeout < 15 ? rq->timeout : 15L);
	libcurl.easy_setopt(curl, CURLOPT_TIMEOUT, rq->timeout);
	libcurl.easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_write);
	libcurl.easy_setopt(curl, CURLOPT_WRITEDATA, t);
	libcurl.easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
	libcurl.easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, on_progress);
	libcurl.easy_setopt(curl, CURLOPT_XFERINFODATA, rq->progress);
	libcurl.easy_setopt(curl, CURLOPT_ERRORBUFFER, errbuf);
}

/* Waits before another attempt: Retry-After when the server said, else the backoff. */
static void wait_to_retry(struct transfer *t)
{
	const struct http_request *rq = t->rq;
	curl_off_t told = 0;
	libcurl.easy_getinfo(t->curl, CURLINFO_RETRY_AFTER, &told);
	double wait = told > 0 ? (double)told : backoff(t->rs->retries);
	if (wait > HTTP_MAX_WAIT)
		wait = HTTP_MAX_WAIT;
	if (rq->progress) {
		const char *stage = rq->progress->stage;
		progress_stage(rq->progress, "waiting to retry");
		wait_seconds(wait, rq->progress);
		progress_stage(rq->progress, stage);
	} else {
		wait_seconds(wait, NULL);
	}
	t->rs->retries++;
}

int http_post(const struct http_request *rq, struct http_response *rs)
{
	*rs = (struct http_response){ .body = BUF_INIT };
	if (load_curl() < 0) {
		set_error(rs, "libcurl could not be loaded");
		return -1;
	}
	CURL *curl = libcurl.easy_init();
	if (!curl) {
		set_error(rs, "cannot start libcurl");
		return -1;
	}
	struct curl_slist *headers = libcurl.slist_append(NULL, "Content-Type: application/json");
	headers = libcurl.slist_append(headers, "Expect:");
	for (size_t i = 0; rq->headers && rq->headers[i]; i++)
		headers = libcurl.slist_append(headers, rq->headers[i]);
	if (!headers)
		die_nomem();
	char errbuf[CURL_ERROR_SIZE];
	struct transfer t = { .rq = rq, .rs = rs, .curl = curl };
	stream_init(&t.stream, rq->framing, rq->on_event, rq->ctx);
	configure(curl, rq, headers, &t, errbuf);

	int ret = -1;
	for (;;) {
		errbuf[0] = '\0';
		CURLcode rc = attempt(&t);
		bool overloaded = !rc && t.stream.verdict == STREAM_RETRY;
		if (!rc && rs->status / 100 == 2 && (!overloaded || rs->retries >= rq->retries)) {
			ret = 0;
			break;
		}
		bool again = overloaded || (rc ? retryable_failure(&t, rc) : retryable_status(rs->status));
		if (!again || rs->retries >= rq->retries) {
			if (rc)
				describe_failure(&t, rc, errbuf);
			break;
		}
		wait_to_retry(&t);
	}
	stream_release(&t.stream);
	libcurl.slist_free_all(headers);
	libcurl.easy_cleanup(curl);
	return ret;
}

void http_response_release(struct http_response *rs)
{
	buf_release(&rs->body);
	free(rs->error);
	rs->error = NULL;
}
