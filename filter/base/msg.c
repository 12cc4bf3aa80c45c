/* msg.c: error and warning lines on stderr, and allocation that cannot fail. */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/msg.h"

static bool warnings_silenced;

static void report(const char *prefix, const char *fmt, va_list ap)
{
	char line[1024];
	vsnprintf(line, sizeof(line), fmt, ap);
	/* Text from the mail can reach these lines: keep the terminal safe. */
	for (char *p = line; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	fprintf(stderr, "patchreview: %s%s\n", prefix, line);
}

int error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	report("error: ", fmt, ap);
	va_end(ap);
	return -1;
}

void warn(const char *fmt, ...)
{
	va_list ap;
	if (warnings_silenced)
		return;
	va_start(ap, fmt);
	report("", fmt, ap);
	va_end(ap);
}

void msg_silence_warnings(void)
{
	warnings_silenced = true;
}

bool msg_hold_warnings(bool hold)
{
	bool was = warnings_silenced;
	warnings_silenced = hold;
	return was;
}

void die_nomem(void)
{
	static const char text[] = "patchreview: error: out of memory\n";
	ssize_t ignored = write(2, text, sizeof(text) - 1);
	(void)ignored;
	exit(3);
}

void *xmalloc(unsigned long size)
{
	void *p = malloc(size ? size : 1);
	if (!p)
		die_nomem();
	return p;
}

void *xcalloc(unsigned long n, unsigned long size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		die_nomem();
	return p;
}

void *xrealloc(void *p, unsigned long size)
{
	p = realloc(p, size ? size : 1);
	if (!p)
		die_nomem();
	return p;
}

char *xstrndup(const char *s, unsigned long n)
{
	size_t len = strnlen(s, n);
	char *p = xmalloc(len + 1);
	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}
