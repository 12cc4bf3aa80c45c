/* buf.c: a growable byte buffer (after git's strbuf). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/msg.h"

char buf_empty[1];

void buf_init(struct buf *b)
{
	b->data = buf_empty;
	b->len = 0;
	b->cap = 0;
}

void buf_grow(struct buf *b, size_t extra)
{
	size_t want = b->len + extra + 1;
	if (want <= b->cap)
		return;
	size_t cap = b->cap ? b->cap : 64;
	while (cap < want)
		cap = cap / 2 * 3 + 16;
	char *data = realloc(b->cap ? b->data : NULL, cap);
	if (!data)
		die_nomem();
	if (!b->cap)
		data[0] = '\0';
	b->data = data;
	b->cap = cap;
}

void buf_add(struct buf *b, const void *data, size_t len)
{
	if (!len)
		return;
	buf_grow(b, len);
	memcpy(b->data + b->len, data, len);
	b->len += len;
	b->data[b->len] = '\0';
}

void buf_addstr(struct buf *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

void buf_addch(struct buf *b, char c)
{
	buf_grow(b, 1);
	b->data[b->len++] = c;
	b->data[b->len] = '\0';
}

void buf_vaddf(struct buf *b, const char *fmt, va_list ap)
{
	va_list again;
	va_copy(again, ap);
	int n = vsnprintf(NULL, 0, fmt, ap);
	if (n > 0) {
		buf_grow(b, (size_t)n);
		vsnprintf(b->data + b->len, (size_t)n + 1, fmt, again);
		b->len += (size_t)n;
	}
	va_end(again);
}

void buf_addf(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	buf_vaddf(b, fmt, ap);
	va_end(ap);
}

void buf_reset(struct buf *b)
{
	b->len = 0;
	if (b->cap)
		b->data[0] = '\0';
}

void buf_cut_utf8(struct buf *b, size_t len)
{
	if (b->len <= len)
		return;
	while (len && ((unsigned char)b->data[len] & 0xc0) == 0x80)
		len--;
	b->len = len;
	b->data[len] = '\0';
}

char *buf_detach(struct buf *b, size_t *leno)
{
	char *data = b->cap ? b->data : calloc(1, 1);
	if (!data)
		die_nomem();
	if (leno)
		*leno = b->len;
	buf_init(b);
	return data;
}

void buf_release(struct buf *b)
{
	if (b->cap)
		free(b->data);
	buf_init(b);
}
