/*
 * agents.c: the review notes a project keeps for AI tools in AGENTS.md (as
 * git tracks it): every section whose heading mentions review, to the next
 * heading of the same or a higher level.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/buf.h"
#include "base/msg.h"
#include "repo/tracked.h"
#include "tree/tree.h"

#define AGENTS_MAX_FILE ((size_t)256 << 10)
#define AGENTS_MAX_NOTES ((size_t)8 << 10)

static int heading_level(const char *line, size_t len)
{
	size_t n = 0;
	while (n < len && line[n] == '#')
		n++;
	return n && n <= 6 && n < len && line[n] == ' ' ? (int)n : 0;
}

static bool mentions_review(const char *s, size_t len)
{
	for (size_t i = 0; i + 6 <= len; i++)
		if (!strncasecmp(s + i, "review", 6))
			return true;
	return false;
}

char *tree_agents_notes(const struct tree *t)
{
	struct buf text = BUF_INIT, notes = BUF_INIT;
	int ret = tracked_read(t, "AGENTS.md", AGENTS_MAX_FILE, &text);
	int in = 0;		/* the level of the section being copied, or 0 */
	for (const char *p = text.data, *end = text.data + text.len; !ret && p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
		int level = heading_level(p, len);
		if (level && in && level <= in)
			in = 0;
		if (level && !in && mentions_review(p, len))
			in = level;
		if (in && notes.len + len + 1 <= AGENTS_MAX_NOTES) {
			buf_add(&notes, p, len);
			buf_addch(&notes, '\n');
		}
		p = nl ? nl + 1 : end;
	}
	buf_release(&text);
	if (!notes.len) {
		buf_release(&notes);
		return NULL;
	}
	return buf_detach(&notes, NULL);
}
