/* funcname.c: the function a line of C opens, as git's default rule sees it. */
#include <ctype.h>
#include <string.h>

#include "evalset/funcname.h"

static bool is_ident(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '$';
}

bool eval_function_name(const char *text, size_t len, struct buf *name)
{
	static const char *const keywords[] = { "if", "for", "while", "switch", "return", "sizeof" };
	size_t end = len;
	while (end && isspace((unsigned char)text[end - 1]))
		end--;
	if (!end || !(isalpha((unsigned char)text[0]) || text[0] == '_' || text[0] == '$') ||
	    text[end - 1] == ';')
		return false;
	size_t word = 0;
	while (word < end && is_ident(text[word]))
		word++;
	size_t after = word;
	while (after < end && (text[after] == ' ' || text[after] == '\t'))
		after++;
	if (after < end && text[after] == ':' && (after + 1 == end || text[after + 1] != ':'))
		return false;	/* a label: "out:" */
	const char *paren = memchr(text, '(', end);
	if (!paren)
		return false;
	size_t stop = (size_t)(paren - text), start;
	while (stop && (text[stop - 1] == ' ' || text[stop - 1] == '\t'))
		stop--;
	for (start = stop; start && is_ident(text[start - 1]); start--)
		;
	if (start == stop)
		return false;
	for (size_t i = 0; i < sizeof(keywords) / sizeof(*keywords); i++)
		if (stop - start == strlen(keywords[i]) && !memcmp(text + start, keywords[i], stop - start))
			return false;
	buf_reset(name);
	buf_add(name, text + start, stop - start);
	return true;
}

/* A line of new-side code (added or context) that opens a function. */
