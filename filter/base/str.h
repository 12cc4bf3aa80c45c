/* str.h: small string tests used everywhere. */
#ifndef STR_H
#define STR_H

#include <stdbool.h>
#include <string.h>
#include <strings.h>

static inline bool starts_with(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* ASCII case-insensitive. */
static inline bool starts_with_nocase(const char *s, const char *prefix)
{
	return !strncasecmp(s, prefix, strlen(prefix));
}

#endif
