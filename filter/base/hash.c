/* hash.c: FNV-1a, and SHA-256 through glib's GChecksum. */
#include <stdio.h>
#include <string.h>

#include <glib.h>

#include "base/hash.h"

uint32_t hash_fnv32(uint32_t h, const void *s, size_t len)
{
	const unsigned char *p = s;
	for (size_t i = 0; i < len; i++)
		h = (h ^ p[i]) * 16777619u;
	return h;
}

uint64_t hash_fnv64(uint64_t h, const void *s, size_t len)
{
	const unsigned char *p = s;
	for (size_t i = 0; i < len; i++)
		h = (h ^ p[i]) * 1099511628211ull;
	return h;
}

void hash_sha256_strings(char hex[HASH_SHA256_HEX], const char *const *parts, size_t n)
{
	GChecksum *sum = g_checksum_new(G_CHECKSUM_SHA256);
	for (size_t i = 0; i < n; i++)
		g_checksum_update(sum, (const guchar *)parts[i], (gssize)strlen(parts[i]) + 1);
	snprintf(hex, HASH_SHA256_HEX, "%s", g_checksum_get_string(sum));
	g_checksum_free(sum);
}

void hash_sha256_bytes(char hex[HASH_SHA256_HEX], const void *data, size_t len)
{
	GChecksum *sum = g_checksum_new(G_CHECKSUM_SHA256);
	g_checksum_update(sum, data, (gssize)len);
	snprintf(hex, HASH_SHA256_HEX, "%s", g_checksum_get_string(sum));
	g_checksum_free(sum);
}
