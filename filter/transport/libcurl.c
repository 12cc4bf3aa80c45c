/* libcurl.c: opens libcurl with dlopen() and looks up the calls http.c makes. */
#include <dlfcn.h>
#include <stddef.h>

#include "base/msg.h"
#include "transport/libcurl.h"

struct libcurl libcurl;

/* The ABI has been libcurl.so.4 since 2006; Debian also ships a GnuTLS build. */
static const char *const sonames[] = { "libcurl.so.4", "libcurl-gnutls.so.4" };

static const struct {
	const char *name;
	size_t offset;
} symbols[] = {
	{ "curl_global_init", offsetof(struct libcurl, global_init) },
	{ "curl_global_cleanup", offsetof(struct libcurl, global_cleanup) },
	{ "curl_easy_init", offsetof(struct libcurl, easy_init) },
	{ "curl_easy_setopt", offsetof(struct libcurl, easy_setopt) },
	{ "curl_multi_init", offsetof(struct libcurl, multi_init) },
	{ "curl_multi_add_handle", offsetof(struct libcurl, multi_add_handle) },
	{ "curl_multi_remove_handle", offsetof(struct libcurl, multi_remove_handle) },
	{ "curl_multi_perform", offsetof(struct libcurl, multi_perform) },
	{ "curl_multi_poll", offsetof(struct libcurl, multi_poll) },
	{ "curl_multi_info_read", offsetof(struct libcurl, multi_info_read) },
	{ "curl_multi_cleanup", offsetof(struct libcurl, multi_cleanup) },
	{ "curl_easy_getinfo", offsetof(struct libcurl, easy_getinfo) },
	{ "curl_easy_strerror", offsetof(struct libcurl, easy_strerror) },
	{ "curl_easy_cleanup", offsetof(struct libcurl, easy_cleanup) },
	{ "curl_slist_append", offsetof(struct libcurl, slist_append) },
	{ "curl_slist_free_all", offsetof(struct libcurl, slist_free_all) },
};

int libcurl_load(void)
{
	static void *handle;
	if (handle)
		return 0;
	for (size_t i = 0; !handle && i < sizeof(sonames) / sizeof(*sonames); i++)
		handle = dlopen(sonames[i], RTLD_NOW | RTLD_LOCAL);
	if (!handle)
		return error("cannot load libcurl: %s", dlerror());
	for (size_t i = 0; i < sizeof(symbols) / sizeof(*symbols); i++) {
		void *sym = dlsym(handle, symbols[i].name);
		if (!sym) {
			dlclose(handle);
			handle = NULL;
			return error("libcurl lacks %s", symbols[i].name);
		}
		/* POSIX guarantees a data pointer from dlsym() converts to a function pointer. */
		*(void **)((char *)&libcurl + symbols[i].offset) = sym;
	}
	return 0;
}
