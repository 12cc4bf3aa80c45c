/* fence.c: the fence lines of the prompt, and text kept from imitating them. */
#include <string.h>

#include "base/text.h"
#include "prompt/fence.h"

/*
 * What the fence check reads of a code point: a letter as an ASCII capital,
 * an angle bracket as '<' or '>', look-alikes (fullwidth forms, Greek and
 * Cyrillic capitals and small letters drawn like Latin ones, angle
 * quotes) as what they look like; anything else (blanks, no-break and
 * zero-width spaces, digits, punctuation) as nothing.
 */
static char fence_char(unsigned cp)
{
	static const struct {
		unsigned short cp;
		char c;
	} alike[] = {
		{ 0x0391, 'A' }, { 0x0392, 'B' }, { 0x0395, 'E' }, { 0x0396, 'Z' }, { 0x0397, 'H' },
		{ 0x0399, 'I' }, { 0x039a, 'K' }, { 0x039c, 'M' }, { 0x039d, 'N' }, { 0x039f, 'O' },
		{ 0x03a1, 'P' }, { 0x03a4, 'T' }, { 0x03a5, 'Y' }, { 0x03a7, 'X' }, { 0x03bf, 'O' },
		{ 0x0405, 'S' }, { 0x0406, 'I' }, { 0x0408, 'J' }, { 0x0410, 'A' }, { 0x0412, 'B' },
		{ 0x0415, 'E' }, { 0x041a, 'K' }, { 0x041c, 'M' }, { 0x041d, 'H' }, { 0x041e, 'O' },
		{ 0x0420, 'P' }, { 0x0421, 'C' }, { 0x0422, 'T' }, { 0x0425, 'X' }, { 0x0430, 'A' },
		{ 0x0435, 'E' }, { 0x043e, 'O' }, { 0x0440, 'P' }, { 0x0441, 'C' }, { 0x0443, 'Y' },
		{ 0x0445, 'X' }, { 0x0455, 'S' }, { 0x0456, 'I' }, { 0x04bb, 'H' }, { 0x0501, 'D' },
		{ 0x2039, '<' }, { 0x203a, '>' }, { 0x2329, '<' }, { 0x232a, '>' }, { 0x27e8, '<' },
		{ 0x27e9, '>' }, { 0x3008, '<' }, { 0x3009, '>' }, { 0xfe64, '<' }, { 0xfe65, '>' },
	};
	if (cp >= 0xff01 && cp <= 0xff5e)
		cp -= 0xfee0;	/* fullwidth ASCII */
	if ((cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z'))
		return (char)(cp & ~0x20u);
	if (cp == '<' || cp == '>')
		return (char)cp;
	for (size_t i = 0; cp >= 0x80 && i < sizeof(alike) / sizeof(*alike); i++)
		if (alike[i].cp == cp)
			return alike[i].c;
	return 0;
}

/* Where a reader (or a model) may take a line to end inside our one line. */
static bool breaks_line(unsigned cp)
{
	return cp == '\r' || cp == '\v' || cp == '\f' || cp == 0x85 || cp == 0x2028 ||
	       cp == 0x2029;
}

/*
 * The fences are ASCII capitals and angle brackets, so each piece of the
 * line (between the breaks above) is compared as fence_char() reads it:
 * a piece that holds a fence imitates it, however it is spaced, cased,
 * punctuated or drawn. A window of the last characters read is enough.
 */
bool prompt_line_imitates(const char *s, size_t len, const char *const *fences, size_t n)
{
	char window[32];
	size_t w = 0;
	for (size_t i = 0; i < len;) {
		unsigned cp = 0xfffd;
		size_t k = text_utf8_decode(s + i, len - i, &cp);
		i += k ? k : 1;
		char c = fence_char(cp);
		if (breaks_line(cp)) {
			w = 0;
			continue;
		}
		if (!c)
			continue;
		if (w == sizeof(window)) {
			memmove(window, window + 1, sizeof(window) - 1);
			w--;
		}
		window[w++] = c;
		for (size_t f = 0; f < n; f++) {
			size_t fl = strlen(fences[f]);
			if (fl <= w && !memcmp(window + w - fl, fences[f], fl))
				return true;
		}
	}
	return false;
}

bool prompt_line_is_fence(const char *s, size_t len)
{
	static const char *const fences[] = {
		PROMPT_FENCE_OPEN, PROMPT_FENCE_CLOSE, PROMPT_CONTEXT_OPEN, PROMPT_CONTEXT_CLOSE,
		PROMPT_SERIES_OPEN, PROMPT_SERIES_CLOSE, PROMPT_THREAD_OPEN, PROMPT_THREAD_CLOSE,
	};
	return prompt_line_imitates(s, len, fences, sizeof(fences) / sizeof(*fences));
}

void prompt_add_lines(struct buf *b, const char *text, bool (*is_fence)(const char *, size_t))
{
	for (const char *p = text; *p;) {
		size_t len = strcspn(p, "\n");
		if (is_fence(p, len))
			buf_addstr(b, "(a line imitating a prompt fence was removed)");
		else
			buf_add(b, p, len);
		buf_addch(b, '\n');
		p += len + (p[len] == '\n');
	}
}
