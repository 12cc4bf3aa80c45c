/*
 * cache.h: model answers kept under ${XDG_CACHE_HOME:-~/.cache}/patchreview/,
 * one file per request, so reopening a mail costs no tokens and no wait.
 */
#ifndef CACHE_H
#define CACHE_H

#include "base/hash.h"

/* A key is the SHA-256 of the request's parts (base/hash.h), in hex. */
#define CACHE_KEY_SIZE HASH_SHA256_HEX

struct cache_entry {
	char *text;		/* the model's answer as it came */
	long prompt_tokens, completion_tokens;
};

/* Returns 0 and fills *e on a hit; -1 on a miss or an unreadable entry. */
int cache_get(const char *key, struct cache_entry *e);

/* Stores e atomically; a failure only warns. */
void cache_put(const char *key, const struct cache_entry *e);

void cache_entry_release(struct cache_entry *e);

#endif
