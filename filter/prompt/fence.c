/* fence.c: the fence lines of the prompt, and text kept from imitating them. */
#include <string.h>

#include "prompt/fence.h"

bool prompt_line_imitates(const char *s, size_t len, const char *const *fences, size_t n)
{
	while (len && (s[len - 1] == ' ' || s[len - 1] == '\t' || s[len - 1] == '\r'))
		len--;
	while (len && (*s == ' ' || *s == '\t' || *s == '+' || *s == '-'))
		s++, len--;
	for (size_t i = 0; i < n; i++)
		if (len == strlen(fences[i]) && !memcmp(s, fences[i], len))
			return true;
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
