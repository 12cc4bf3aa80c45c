/*
 * apikey.h: where the API key comes from. Never from argv or the config
 * file: from a variable (api_key_env, or the backend's usual one), or the
 * first line printed by api_key_command, which runs without a shell.
 */
#ifndef APIKEY_H
#define APIKEY_H

#include "base/buf.h"
#include "config/config.h"

/* How long api_key_command may take, e.g. for a passphrase prompt. */
#define APIKEY_TIMEOUT 60

/*
 * Sets *keyo to the key (caller frees with apikey_free), or NULL when none
 * is configured and default_env (which may be NULL) is unset. Returns 0,
 * or -1 with the reason in *why.
 */
int apikey_get(const struct config *c, const char *default_env, char **keyo, struct buf *why);

/* Wipes and frees a key. */
void apikey_free(char *key);

#endif
