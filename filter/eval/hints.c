/* hints.c: git blame --reverse, then the commit that came next on the line. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/msg.h"
#include "eval/git.h"
#include "eval/hints.h"
#include "eval/history.h"

/* The first line of --line-porcelain names the last commit that still had the line. */
static int read_last(void *ctx, char *line, size_t len)
{
	char *last = ctx;
	if (len > SHA_HEX && line[SHA_HEX] == ' ')
		memcpy(last, line, SHA_HEX);
	return 1;
}

/* Does the Fixes: value (an abbreviated id and a subject) name sha? */
static bool names(const char *fixes, const char *sha)
{
	for (const char *s = fixes; *s; s++) {
		size_t n = 0;
		while (isxdigit((unsigned char)s[n]))
			n++;
		if (n >= 7 && n <= SHA_HEX && !strncasecmp(s, sha, n))
			return true;
		s += n ? n - 1 : 0;
	}
	return false;
}

struct next {
	const char *sha;
	struct hint *h;
};

/* "id\tsubject\tFixes values": the oldest commit after the last one with the line. */
static int read_next(void *ctx, char *line, size_t len)
{
	struct next *n = ctx;
	char *subject = strchr(line, '\t');
	(void)len;
	if (!subject)
		return 1;
	*subject++ = '\0';
	char *fixes = strchr(subject, '\t');
	if (fixes)
		*fixes++ = '\0';
	n->h->commit = xstrdup(line);
	n->h->subject = xstrdup(subject);
	n->h->fixes = fixes && names(fixes, n->sha);
	return 1;
}

int hint_for_line(const char *repo, const char *sha, const char *head,
		  const char *path, long line, struct hint *h)
{
	char range[32], last[SHA_HEX + 1] = "", span[2 * SHA_HEX + 3];
	*h = (struct hint){ 0 };
	snprintf(range, sizeof(range), "-L%ld,%ld", line, line);
	snprintf(span, sizeof(span), "%s..%s", sha, head);
	const char *blame[] = { "blame", "--reverse", "--line-porcelain", range, span, "--", path, NULL };
	int ret = git_each(repo, blame, NULL, '\n', read_last, last);
	if (!ret && *last && strcmp(last, head)) {
		snprintf(span, sizeof(span), "%s..%s", last, head);
		const char *log[] = {
			"log", "--ancestry-path", "--reverse", "--topo-order",
			"--format=%H%x09%s%x09%(trailers:key=Fixes,valueonly,separator=%x20)",
			span, "--", path, NULL,
		};
		struct next n = { sha, h };
		ret = git_each(repo, log, NULL, '\n', read_next, &n);
	}
	return ret;
}

void hint_release(struct hint *h)
{
	free(h->commit);
	free(h->subject);
	*h = (struct hint){ 0 };
}
