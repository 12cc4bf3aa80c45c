/* buf.h: a growable byte buffer that is always NUL-terminated. */
#ifndef BUF_H
#define BUF_H

#include <stdarg.h>
#include <stddef.h>

struct buf {
	char *data;	/* never NULL once initialised: points at "" when empty */
	size_t len;
	size_t cap;
};

#define BUF_INIT { buf_empty, 0, 0 }
extern char buf_empty[];

void buf_init(struct buf *b);
void buf_grow(struct buf *b, size_t extra);
void buf_add(struct buf *b, const void *data, size_t len);
void buf_addstr(struct buf *b, const char *s);
void buf_addch(struct buf *b, char c);
void buf_addf(struct buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void buf_vaddf(struct buf *b, const char *fmt, va_list ap);
void buf_reset(struct buf *b);
/* Cuts the text to at most len bytes, at the start of a UTF-8 sequence. */
void buf_cut_utf8(struct buf *b, size_t len);
/* Hands the data over to the caller, who frees it; the buffer is empty after. */
char *buf_detach(struct buf *b, size_t *leno);
void buf_release(struct buf *b);

#endif
