/* quoted.c: unquoting a path the way git reads back what it quoted. */
#include "patch/quoted.h"

/* The byte that \c stands for, or -1 when git writes no such escape. */
static int escaped(char c)
{
	static const char from[] = "abfnrtv\"\\", to[] = "\a\b\f\n\r\t\v\"\\";
	for (size_t i = 0; from[i]; i++)
		if (from[i] == c)
			return (unsigned char)to[i];
	return -1;
}

static int octal(char c)
{
	return c >= '0' && c <= '7' ? c - '0' : -1;
}

size_t patch_unquote(const char *s, size_t len, struct buf *out)
{
	struct buf path = BUF_INIT;
	size_t took = 0;
	for (size_t i = 1; len && s[0] == '"' && i < len; i++) {
		int c = (unsigned char)s[i];
		if (c == '"') {
			buf_add(out, path.data, path.len);
			took = i + 1;
			break;
		}
		if (c == '\\' && i + 1 < len && escaped(s[i + 1]) >= 0) {
			c = escaped(s[++i]);
		} else if (c == '\\' && i + 3 < len && octal(s[i + 1]) >= 0 && octal(s[i + 1]) < 4 &&
			   octal(s[i + 2]) >= 0 && octal(s[i + 3]) >= 0) {
			c = octal(s[i + 1]) << 6 | octal(s[i + 2]) << 3 | octal(s[i + 3]);
			i += 3;
		} else if (c == '\\') {
			break;
		}
		if (!c)
			break;
		buf_addch(&path, (char)c);
	}
	buf_release(&path);
	return took;
}
