/* msg.h: one-line messages on stderr, prefixed with the program name. */
#ifndef MSG_H
#define MSG_H

#include <stdbool.h>

/* Prints "patchreview: error: ..." and returns -1, so callers can return error(...). */
int error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * From now on warn() prints nothing; error() still does. For check
 * commands whose every stderr line their caller takes for a failure.
 */
void msg_silence_warnings(void);
/*
 * While held, warn() prints nothing: for mail that is no one's input (the
 * list folder's). Returns whether they were held (or silenced) before.
 */
bool msg_hold_warnings(bool hold);
/* Out of memory: nothing sensible is left to do. */
_Noreturn void die_nomem(void);

void *xmalloc(unsigned long size);
void *xcalloc(unsigned long n, unsigned long size);
void *xrealloc(void *p, unsigned long size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, unsigned long n);

#endif
