/*
 * hash.h: the program's hashes, each written once. FNV-1a (32 and 64
 * bits) names things in tables, indexes and fingerprints: small, fast and
 * the same on every machine and in every version, so fingerprints and
 * dismissals stored by users keep working. SHA-256 names what is stored
 * by its content (cache entries, offline requests, evaluation runs),
 * where two different texts must never share a name.
 */
#ifndef HASH_H
#define HASH_H

#include <stddef.h>
#include <stdint.h>

#define HASH_FNV32_INIT 2166136261u
#define HASH_FNV64_INIT 14695981039346656037ull

/* FNV-1a of the len bytes at s, going on from h (a HASH_FNV*_INIT to start). */
uint32_t hash_fnv32(uint32_t h, const void *s, size_t len);
uint64_t hash_fnv64(uint64_t h, const void *s, size_t len);

/* A SHA-256 in lower-case hex, and its NUL. */
#define HASH_SHA256_HEX 65

/* The SHA-256 of the n strings, each with its NUL: ("ab", "c") and ("a", "bc") differ. */
void hash_sha256_strings(char hex[HASH_SHA256_HEX], const char *const *parts, size_t n);

/* The SHA-256 of len bytes, NULs and all. */
void hash_sha256_bytes(char hex[HASH_SHA256_HEX], const void *data, size_t len);

#endif
