/*
 * libcurl.h: libcurl, opened when the first model request is made. A filter
 * that runs on every key press should not pay for loading libcurl and its
 * TLS and authentication libraries (about 10 ms here) when no model is
 * configured or the review is cached.
 */
#ifndef LIBCURL_H
#define LIBCURL_H

#include <curl/curl.h>

struct libcurl {
	CURLcode (*global_init)(long flags);
	void (*global_cleanup)(void);
	CURL *(*easy_init)(void);
	CURLcode (*easy_setopt)(CURL *curl, CURLoption option, ...);
	CURLM *(*multi_init)(void);
	CURLMcode (*multi_add_handle)(CURLM *multi, CURL *curl);
	CURLMcode (*multi_remove_handle)(CURLM *multi, CURL *curl);
	CURLMcode (*multi_perform)(CURLM *multi, int *running);
	CURLMcode (*multi_poll)(CURLM *multi, struct curl_waitfd *fds, unsigned nfds,
				int timeout_ms, int *numfds);
	CURLMsg *(*multi_info_read)(CURLM *multi, int *left);
	CURLMcode (*multi_cleanup)(CURLM *multi);
	CURLcode (*easy_getinfo)(CURL *curl, CURLINFO info, ...);
	const char *(*easy_strerror)(CURLcode code);
	void (*easy_cleanup)(CURL *curl);
	struct curl_slist *(*slist_append)(struct curl_slist *list, const char *s);
	void (*slist_free_all)(struct curl_slist *list);
};

/* Filled in by libcurl_load(); valid once it returned 0. */
extern struct libcurl libcurl;

/* Opens libcurl (once). Returns 0, or -1 after one line on stderr. */
int libcurl_load(void);

#endif
