/* text.c: UTF-8 validation and control-character neutralisation. */
#include <stdbool.h>
#include <string.h>

#include "base/text.h"

static const char replacement[] = "\xef\xbf\xbd";	/* U+FFFD */

size_t text_utf8_decode(const char *str, size_t len, unsigned *cp)
{
	const unsigned char *s = (const unsigned char *)str;
	unsigned c = s[0];
	size_t n;
	unsigned min;
	if (c < 0x80) {
		*cp = c;
		return 1;
	} else if (c >= 0xc2 && c <= 0xdf) {
		n = 2, min = 0x80, c &= 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		n = 3, min = 0x800, c &= 0x0f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4, min = 0x10000, c &= 0x07;
	} else {
		return 0;
	}
	if (len < n)
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return n;
}

/* U+202A..U+202E and U+2066..U+2069 reorder text on screen. */
static bool is_bidi_control(unsigned cp)
{
	return (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

/* U+2028 and U+2029 end a line where a newline would not be looked for. */
static bool is_separator(unsigned cp)
{
	return cp == 0x2028 || cp == 0x2029;
}

void text_clean(struct buf *out, const char *s, size_t len, unsigned flags)
{
	size_t i = 0, start = 0;
	bool replaced = false;	/* the last thing written was a U+FFFD for s */
	/* Tab and newline pass as they are unless TEXT_ONE_LINE folds them. */
	bool keep_blanks = !(flags & TEXT_ONE_LINE);
	buf_grow(out, len);
	while (i < len) {
		/* Printable ASCII, most of any mail, needs no decoding. */
		unsigned char c = (unsigned char)s[i];
		if ((c >= 0x20 && c < 0x7f) || (keep_blanks && (c == '\n' || c == '\t'))) {
			i++;
			continue;
		}
		unsigned cp;
		size_t n = text_utf8_decode(s + i, len - i, &cp);
		const char *subst = NULL;
		if (!n) {
			subst = replacement, n = 1;
		} else if (cp == '\n' || cp == '\t') {
			if (flags & TEXT_ONE_LINE)
				subst = " ";
		} else if (cp == '\r' && (flags & TEXT_KEEP_CR)) {
			;
		} else if (cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp < 0xa0) ||
			   is_bidi_control(cp) || is_separator(cp)) {
			subst = (flags & TEXT_ONE_LINE) && (cp == '\r' || is_separator(cp)) ?
				" " : replacement;
		}
		if (subst) {
			bool run = i == start && replaced;
			buf_add(out, s + start, i - start);
			/*
			 * One space for a run of folding whitespace, one U+FFFD for a
			 * run of bad bytes: a flood of NULs stays small.
			 */
			if (subst == replacement ? !run :
			    !(*subst == ' ' && out->len && out->data[out->len - 1] == ' '))
				buf_addstr(out, subst);
			replaced = subst == replacement;
			start = i + n;
		}
		i += n;
	}
	buf_add(out, s + start, len - start);
}

char *text_clean_dup(const char *s, unsigned flags)
{
	struct buf b = BUF_INIT;
	text_clean(&b, s, strlen(s), flags);
	return buf_detach(&b, NULL);
}

size_t text_width(const char *s, size_t len)
{
	size_t n = 0;
	for (size_t i = 0; i < len; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80)
			n++;
	return n;
}

bool text_is_token(const char *s, size_t len, size_t max)
{
	if (!len || len > max)
		return false;
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)s[i] <= ' ' || (unsigned char)s[i] >= 0x7f ||
		    s[i] == '<' || s[i] == '>')
			return false;
	return true;
}
