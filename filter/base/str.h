/* str.h: small string tests used everywhere. */
#ifndef STR_H
#define STR_H

#include <stdbool.h>
#include <string.h>
#include <strings.h>

/* A line of some text: not NUL-terminated, without its newline. */
struct line_view {
	const char *s;
	size_t len;
};

static inline bool starts_with(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* ASCII case-insensitive. */
static inline bool starts_with_nocase(const char *s, const char *prefix)
{
	return !strncasecmp(s, prefix, strlen(prefix));
}

/*
 * The next line of the NUL-terminated text at *s, ended in place (its
 * newline becomes a NUL); *s moves past it. NULL when the text is done.
 */
static inline char *next_line(char **s)
{
	char *line = *s;
	if (!*line)
		return NULL;
	size_t n = strcspn(line, "\n");
	*s = line + n + (line[n] == '\n');
	line[n] = '\0';
	return line;
}

#endif
