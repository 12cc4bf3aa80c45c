/* keys.c: a hashed set of strings with counts, for the learn commands. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/hash.h"
#include "base/msg.h"
#include "learn/keys.h"

struct key_slot {
	char *key;	/* NULL: empty */
	size_t len;
	uint64_t hash;
	long count;
};

static uint64_t hash_of(const char *key, size_t len)
{
	return hash_fnv64(HASH_FNV64_INIT, key, len);
}

/* The slot of key, or the empty one where it would go; cap is a power of two. */
static struct key_slot *slot_of(const struct keys *k, const char *key, size_t len, uint64_t h)
{
	for (size_t i = (size_t)h & (k->cap - 1);; i = (i + 1) & (k->cap - 1)) {
		struct key_slot *s = &k->v[i];
		if (!s->key || (s->hash == h && s->len == len && !memcmp(s->key, key, len)))
			return s;
	}
}

static void grow(struct keys *k)
{
	struct keys bigger = { xcalloc(k->cap ? k->cap * 2 : 64, sizeof(struct key_slot)),
			       k->cap ? k->cap * 2 : 64, k->n };
	for (size_t i = 0; i < k->cap; i++)
		if (k->v[i].key)
			*slot_of(&bigger, k->v[i].key, k->v[i].len, k->v[i].hash) = k->v[i];
	free(k->v);
	*k = bigger;
}

long keys_add(struct keys *k, const char *key, size_t len, long delta)
{
	if (2 * (k->n + 1) > k->cap)
		grow(k);
	uint64_t h = hash_of(key, len);
	struct key_slot *s = slot_of(k, key, len, h);
	if (!s->key) {
		char *copy = xmalloc(len + 1);
		memcpy(copy, key, len);
		copy[len] = '\0';
		*s = (struct key_slot){ copy, len, h, 0 };
		k->n++;
	}
	return s->count += delta;
}

long keys_get(const struct keys *k, const char *key, size_t len)
{
	if (!k->cap)
		return 0;
	const struct key_slot *s = slot_of(k, key, len, hash_of(key, len));
	return s->key ? s->count : 0;
}

void keys_release(struct keys *k)
{
	for (size_t i = 0; i < k->cap; i++)
		free(k->v[i].key);
	free(k->v);
	*k = (struct keys)KEYS_INIT;
}
