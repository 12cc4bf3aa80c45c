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
#include "transport/http.h"
#include "transport/libcurl.h"
#include "transport/progress.h"

/* Where a transfer is: not started, in the multi handle, waiting to retry, or done. */
enum phase { PHASE_QUEUED, PHASE_RUNNING, PHASE_WAITING, PHASE_DONE };

struct transfer {
	const struct http_request *rq;
	struct http_response *rs;
	CURL *curl;
	struct curl_slist *headers;
	char errbuf[CURL_ERROR_SIZE];
	bool decided;		/* streamed or whole, fixed at the first byte */
	struct stream stream;
	bool too_big;		/* the body, or on_event's answer, hit the cap */
	enum phase phase;
	double due;		/* PHASE_WAITING: when to try again */
	int ret;		/* PHASE_DONE: the request's result (http.h) */
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

/* Before each try: forget what an earlier one delivered. */
static void attempt_begin(struct transfer *t)
{
	struct http_response *rs = t->rs;
	if (t->stream.delivered && t->rq->on_restart)
		t->rq->on_restart(t->rq->ctx);
	t->decided = t->too_big = false;
	stream_reset(&t->stream);
	buf_reset(&rs->body);
	rs->streamed = false;
	rs->status = 0;
	t->errbuf[0] = '\0';
}

/* After it: a stream its reader stopped (complete, or the server overloaded) has arrived. */
static CURLcode attempt_end(struct transfer *t, CURLcode rc)
{
	struct http_response *rs = t->rs;
	libcurl.easy_getinfo(t->curl, CURLINFO_RESPONSE_CODE, &rs->status);
	if (rs->streamed && !rc)
		stream_finish(&t->stream);
	if (rs->streamed && (t->stream.verdict == STREAM_END || t->stream.verdict == STREAM_RETRY))
		rc = CURLE_OK;
	else if (t->stream.verdict == STREAM_TOO_BIG)
		rc = CURLE_WRITE_ERROR;
	return rc;
}

static void configure(struct transfer *t)
{
	const struct http_request *rq = t->rq;
	CURL *curl = t->curl;
	libcurl.easy_setopt(curl, CURLOPT_URL, rq->url);
	libcurl.easy_setopt(curl, CURLOPT_POSTFIELDS, rq->body);
	libcurl.easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)strlen(rq->body));
	libcurl.easy_setopt(curl, CURLOPT_HTTPHEADER, t->headers);
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
	libcurl.easy_setopt(curl, CURLOPT_PRIVATE, t);
	libcurl.easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
	libcurl.easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, on_progress);
	libcurl.easy_setopt(curl, CURLOPT_XFERINFODATA, rq->progress);
	libcurl.easy_setopt(curl, CURLOPT_ERRORBUFFER, t->errbuf);
}

/* The easy handle for rq, ready to run; PHASE_DONE with rs->error when there is none. */
static void transfer_open(struct transfer *t, const struct http_request *rq,
			  struct http_response *rs, bool loaded)
{
	*rs = (struct http_response){ .body = BUF_INIT };
	*t = (struct transfer){ .rq = rq, .rs = rs, .phase = PHASE_DONE, .ret = -1 };
	stream_init(&t->stream, rq->framing, rq->on_event, rq->ctx);
	if (!loaded) {
		set_error(rs, "libcurl could not be loaded");
		return;
	}
	t->curl = libcurl.easy_init();
	if (!t->curl) {
		set_error(rs, "cannot start libcurl");
		return;
	}
	t->headers = libcurl.slist_append(NULL, "Content-Type: application/json");
	t->headers = libcurl.slist_append(t->headers, "Expect:");
	for (size_t i = 0; rq->headers && rq->headers[i]; i++)
		t->headers = libcurl.slist_append(t->headers, rq->headers[i]);
	if (!t->headers)
		die_nomem();
	configure(t);
	t->phase = PHASE_QUEUED;
}

static void transfer_close(struct transfer *t)
{
	stream_release(&t->stream);
	if (t->headers)
		libcurl.slist_free_all(t->headers);
	if (t->curl)
		libcurl.easy_cleanup(t->curl);
}

/*
 * A try has ended with rc: done (t->ret set), or a retry is due, after
 * what Retry-After says or the backoff.
 */
static void conclude(struct transfer *t, CURLcode rc)
{
	const struct http_request *rq = t->rq;
	struct http_response *rs = t->rs;
	bool overloaded = !rc && t->stream.verdict == STREAM_RETRY;
	if (!rc && rs->status / 100 == 2 && (!overloaded || rs->retries >= rq->retries)) {
		t->ret = 0;
		t->phase = PHASE_DONE;
		return;
	}
	bool again = overloaded || (rc ? retryable_failure(t, rc) : retryable_status(rs->status));
	if (!again || rs->retries >= rq->retries) {
		if (rc)
			describe_failure(t, rc, t->errbuf);
		t->phase = PHASE_DONE;
		return;
	}
	curl_off_t told = 0;
	libcurl.easy_getinfo(t->curl, CURLINFO_RETRY_AFTER, &told);
	double wait = told > 0 ? (double)told : backoff(rs->retries);
	t->due = clock_now() + (wait > HTTP_MAX_WAIT ? HTTP_MAX_WAIT : wait);
	t->phase = PHASE_WAITING;
	rs->retries++;
}

/* Starts what may start: queued transfers and retries that are due, up to jobs at once. */
static size_t start_due(CURLM *multi, struct transfer *v, size_t n, long jobs)
{
	size_t running = 0;
	double now = clock_now();
	for (size_t i = 0; i < n; i++)
		running += v[i].phase == PHASE_RUNNING;
	for (size_t i = 0; i < n && (long)running < jobs; i++) {
		struct transfer *t = &v[i];
		if (t->phase != PHASE_QUEUED && !(t->phase == PHASE_WAITING && t->due <= now))
			continue;
		attempt_begin(t);
		libcurl.multi_add_handle(multi, t->curl);
		t->phase = PHASE_RUNNING;
		running++;
	}
	return running;
}

/* Takes in the transfers libcurl has finished; returns how many. */
static size_t collect_done(CURLM *multi)
{
	CURLMsg *msg;
	int left;
	size_t done = 0;
	while ((msg = libcurl.multi_info_read(multi, &left))) {
		if (msg->msg != CURLMSG_DONE)
			continue;
		char *priv = NULL;
		CURLcode rc = msg->data.result;
		libcurl.easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, &priv);
		struct transfer *t = (struct transfer *)priv;
		libcurl.multi_remove_handle(multi, msg->easy_handle);
		conclude(t, attempt_end(t, rc));
		done++;
	}
	return done;
}

/* Until the next retry is due (at most 100 ms, so the progress line moves), in ms. */
static int idle_ms(const struct transfer *v, size_t n)
{
	double wait = 0.1, now = clock_now();
	for (size_t i = 0; i < n; i++)
		if (v[i].phase == PHASE_WAITING && v[i].due - now < wait)
			wait = v[i].due - now;
	return wait > 0 ? (int)(wait * 1000) + 1 : 0;
}

static const char waiting_stage[] = "waiting to retry";

/*
 * The progress line says when nothing runs and everything left waits to
 * retry; *before keeps the stage it said until then.
 */
static void show_stage(const struct transfer *v, size_t n, size_t running, const char **before)
{
	struct progress *p = n ? v[0].rq->progress : NULL;
	bool pending = false;
	for (size_t i = 0; i < n; i++)
		pending |= v[i].phase != PHASE_DONE;
	if (!p)
		return;
	if (!running && pending && p->stage != waiting_stage) {
		*before = p->stage;
		progress_stage(p, waiting_stage);
	} else if ((running || !pending) && p->stage == waiting_stage) {
		progress_stage(p, *before);
	}
	progress_tick(p);
}

void http_post_all(const struct http_request *rqs, struct http_response *rss, int *rets,
		   size_t n, long jobs)
{
	bool loaded = load_curl() == 0;
	const char *stage = NULL;
	struct transfer *v = xcalloc(n + 1, sizeof(*v));
	for (size_t i = 0; i < n; i++)
		transfer_open(&v[i], &rqs[i], &rss[i], loaded);
	CURLM *multi = loaded ? libcurl.multi_init() : NULL;
	for (size_t i = 0; !multi && i < n; i++)
		if (v[i].phase != PHASE_DONE) {
			set_error(v[i].rs, "cannot start libcurl");
			v[i].phase = PHASE_DONE;
		}
	for (;;) {
		size_t running = multi ? start_due(multi, v, n, jobs < 1 ? 1 : jobs) : 0;
		bool pending = false;
		for (size_t i = 0; i < n; i++)
			pending |= v[i].phase != PHASE_DONE;
		if (!pending)
			break;
		show_stage(v, n, running, &stage);
		int still = 0;
		libcurl.multi_perform(multi, &still);
		if (collect_done(multi))
			continue;	/* a slot is free, or a retry to schedule */
		int ms = idle_ms(v, n);
		if (running)
			libcurl.multi_poll(multi, NULL, 0, ms, NULL);
		else
			nanosleep(&(struct timespec){ ms / 1000, (long)(ms % 1000) * 1000000 }, NULL);
	}
	show_stage(v, n, 0, &stage);
	for (size_t i = 0; i < n; i++) {
		rets[i] = v[i].ret;
		transfer_close(&v[i]);
	}
	if (multi)
		libcurl.multi_cleanup(multi);
	free(v);
}

void http_response_release(struct http_response *rs)
{
	buf_release(&rs->body);
	free(rs->error);
	rs->error = NULL;
}
