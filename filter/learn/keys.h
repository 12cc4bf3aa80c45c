/*
 * keys.h: a set of byte strings, each with a count, hashed (FNV-1a,
 * base/hash.h) in a table of open addressing that doubles at half full:
 * what the learn commands look up once a finding, in constant time, so
 * that a run is linear in its input and its files. Memory: each key once,
 * and at most four slots a key.
 */
#ifndef LEARN_KEYS_H
#define LEARN_KEYS_H

#include <stddef.h>

struct keys {
	struct key_slot *v;
	size_t cap, n;
};

#define KEYS_INIT { NULL, 0, 0 }

/* Adds delta to the count of the len bytes at key (a new key starts at 0); returns the count. */
long keys_add(struct keys *k, const char *key, size_t len, long delta);
/* The count of key, 0 when it is not in the set. */
long keys_get(const struct keys *k, const char *key, size_t len);
void keys_release(struct keys *k);

#endif
