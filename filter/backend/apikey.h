/*
 * apikey.h: where the API key comes from, and where it may go. Never from
 * argv or the config file: from a variable (api_key_env, or the backend's
 * usual one), or the first line printed by api_key_command, which runs
 * without a shell.
 */
#ifndef APIKEY_H
#define APIKEY_H

#include "backend/wire.h"
#include "base/buf.h"
#include "config/config.h"

/* How long api_key_command may take, e.g. for a passphrase prompt. */
#define APIKEY_TIMEOUT 60

/*
 * Sets *keyo to the key to send to url for backend w (caller frees with
 * apikey_free), or NULL when none goes there. A key the configuration
 * names (api_key_env, api_key_command) goes to any url. The backend's
 * usual variable goes only to its own service, the scheme and host of
 * w->default_url exactly: never to another host, a proxy or loopback.
 * Returns 0, or -1 with the reason in *why, also when url is neither
 * loopback nor keyless and has no key.
 */
int apikey_get(const struct config *c, const struct wire *w, const char *url,
	       char **keyo, struct buf *why);

/* Wipes and frees a key. */
void apikey_free(char *key);

#endif
