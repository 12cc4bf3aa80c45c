/*
 * hints.c: git blame --reverse finds the last commit that had the line;
 * of the commits after it that touched the file, the first whose diff
 * removes the line is the one that changed it.
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/buf.h"
#include "base/msg.h"
#include "base/strvec.h"
#include "evalset/git.h"
#include "evalset/hints.h"
#include "evalset/history.h"

/* Commits after the last one with the line that are looked at. */
#define HINT_CANDIDATES 8

struct last {
	char sha[SHA_HEX + 1];
	struct buf text;	/* the line */
};

/* --line-porcelain: the header names the commit, the "\t" line is the line. */
static int read_last(void *ctx, char *line, size_t len)
{
	struct last *l = ctx;
	if (!*l->sha && len > SHA_HEX && line[SHA_HEX] == ' ')
		memcpy(l->sha, line, SHA_HEX);
	if (*line != '\t')
		return 0;
	buf_addstr(&l->text, line + 1);
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

/* "id\tsubject\tFixes values", oldest first, up to HINT_CANDIDATES. */
static int read_candidate(void *ctx, char *line, size_t len)
{
	struct strvec *v = ctx;
	(void)len;
	if (strlen(line) > SHA_HEX && line[SHA_HEX] == '\t')
		strvec_push(v, line);
	return v->n == HINT_CANDIDATES ? 1 : 0;
}

struct removes {
	const char *text;
	bool found;
};

static int read_removed(void *ctx, char *line, size_t len)
{
	struct removes *r = ctx;
	(void)len;
	if (*line == '-' && strncmp(line, "--- ", 4) && !strcmp(line + 1, r->text)) {
		r->found = true;
		return 1;
	}
	return 0;
}

/* Does commit's diff to its parent remove the line text from path? */
static bool removes_line(const char *repo, const char *commit, const char *path,
			 const char *text)
{
	const char *diff[] = {
		"diff-tree", "-p", "-U0", "--no-color", "--no-ext-diff", "--no-textconv",
		"--no-commit-id", commit, "--", path, NULL,
	};
	struct removes r = { text, false };
	return !git_each(repo, diff, NULL, '\n', read_removed, &r) && r.found;
}

static void set_hint(struct hint *h, const char *candidate, const char *sha)
{
	char *subject = xstrdup(candidate + SHA_HEX + 1), *fixes = strchr(subject, '\t');
	if (fixes)
		*fixes++ = '\0';
	h->commit = xstrndup(candidate, SHA_HEX);
	h->fixes = fixes && names(fixes, sha);
	h->subject = subject;
}

int hint_for_line(const char *repo, const char *sha, const char *head,
		  const char *path, long line, struct hint *h)
{
	char range[32], span[2 * SHA_HEX + 3];
	struct last last = { "", BUF_INIT };
	struct strvec candidates = STRVEC_INIT;
	*h = (struct hint){ 0 };
	snprintf(range, sizeof(range), "-L%ld,%ld", line, line);
	snprintf(span, sizeof(span), "%s..%s", sha, head);
	const char *blame[] = { "blame", "--reverse", "--line-porcelain", range, span, "--", path, NULL };
	int ret = git_each(repo, blame, NULL, '\n', read_last, &last);
	if (!ret && *last.sha && strcmp(last.sha, head)) {
		snprintf(span, sizeof(span), "%s..%s", last.sha, head);
		const char *log[] = {
			"log", "--ancestry-path", "--reverse", "--topo-order", "--no-merges",
			"--format=%H%x09%s%x09%(trailers:key=Fixes,valueonly,separator=%x20)",
			span, "--", path, NULL,
		};
		ret = git_each(repo, log, NULL, '\n', read_candidate, &candidates);
	}
	for (size_t i = 0; !ret && !h->commit && i < candidates.n; i++) {
		char commit[SHA_HEX + 1];
		snprintf(commit, sizeof(commit), "%s", candidates.v[i]);
		if (removes_line(repo, commit, path, last.text.data))
			set_hint(h, candidates.v[i], sha);
	}
	/* A merge resolved it, or it was rewritten beyond recognition: the first to touch the file. */
	if (!ret && !h->commit && candidates.n)
		set_hint(h, candidates.v[0], sha);
	strvec_clear(&candidates);
	buf_release(&last.text);
	return ret;
}

void hint_release(struct hint *h)
{
	free(h->commit);
	free(h->subject);
	*h = (struct hint){ 0 };
}
