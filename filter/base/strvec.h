/*
 * strvec.h: a growable array of owned strings, always NULL-terminated so
 * that it can serve as an argv (after git's strvec).
 */
#ifndef STRVEC_H
#define STRVEC_H

#include <stdbool.h>
#include <stddef.h>

struct strvec {
	char **v;	/* v[n] is NULL once anything was pushed */
	size_t n;
};

#define STRVEC_INIT { NULL, 0 }

/* Appends s, which the vector now owns. */
void strvec_push_take(struct strvec *sv, char *s);
/* Appends a copy of s. */
void strvec_push(struct strvec *sv, const char *s);
/* Appends the words of s, split at any byte of seps; empty words are skipped. */
void strvec_split(struct strvec *sv, const char *s, const char *seps);
/* Is s one of the strings? */
bool strvec_has(const struct strvec *sv, const char *s);
void strvec_clear(struct strvec *sv);

#endif
