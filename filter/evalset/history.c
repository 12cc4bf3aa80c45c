/* history.c: Fixes: trailers, commit facts and samples, read with git. */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/msg.h"
#include "base/slurp.h"
#include "evalset/git.h"
#include "evalset/history.h"

/* Shortest commit id a Fixes: trailer may abbreviate to (git's minimum). */
#define FIXES_MIN_ID 7

static bool is_sha(const char *s)
{
	for (int i = 0; i < SHA_HEX; i++)
		if (!isxdigit((unsigned char)s[i]) || isupper((unsigned char)s[i]))
			return false;
	return true;
}

struct trailers {
	struct strvec ids;	/* as written, with "^{commit}" */
	struct strvec fixes;	/* the commit holding each */
};

/* One commit: "sha\nmessage". Keeps the ids its Fixes: lines name. */
static int read_trailers(void *ctx, char *record, size_t len)
{
	struct trailers *t = ctx;
	(void)len;
	char *line = strchr(record, '\n');
	if (!line || line - record != SHA_HEX)
		return 0;
	*line++ = '\0';
	while (*line) {
		size_t n = strcspn(line, "\n");
		char *s = line;
		line += n + (line[n] == '\n');
		s[n] = '\0';
		while (*s == ' ' || *s == '\t')
			s++;
		if (strncasecmp(s, "fixes:", 6))
			continue;
		s += 6 + strspn(s + 6, " \t");
		size_t id = 0;
		while (isxdigit((unsigned char)s[id]))
			id++;
		if (id < FIXES_MIN_ID || id > SHA_HEX)
			continue;
		struct buf rev = BUF_INIT;
		buf_add(&rev, s, id);
		buf_addstr(&rev, "^{commit}");
		strvec_push_take(&t->ids, buf_detach(&rev, NULL));
		strvec_push(&t->fixes, record);
	}
	return 0;
}

struct resolved {
	const struct trailers *t;
	struct fix_pairs *out;
	size_t next;		/* the input line this output line answers */
};

/* "<sha> commit", or "<input> missing|ambiguous", one per input line. */
static int read_resolved(void *ctx, char *record, size_t len)
{
	struct resolved *r = ctx;
	size_t i = r->next++;
	if (i >= r->t->fixes.n || len != SHA_HEX + 7 || !is_sha(record) ||
	    strcmp(record + SHA_HEX, " commit") || !strncmp(record, r->t->fixes.v[i], SHA_HEX))
		return 0;
	struct fix_pair *p = &r->out->v[r->out->n++];
	memcpy(p->bug, record, SHA_HEX);
	memcpy(p->fix, r->t->fixes.v[i], SHA_HEX);
	p->bug[SHA_HEX] = p->fix[SHA_HEX] = '\0';
	return 0;
}

static int compare_pairs(const void *a, const void *b)
{
	const struct fix_pair *x = a, *y = b;
	int c = strcmp(x->bug, y->bug);
	return c ? c : strcmp(x->fix, y->fix);
}

/* Writes the strings, one a line, to path, for git's --stdin. Returns 0 or -1. */
static int write_lines(const char *path, const struct strvec *lines)
{
	struct buf b = BUF_INIT;
	for (size_t i = 0; i < lines->n; i++)
		buf_addf(&b, "%s\n", lines->v[i]);
	int ret = write_file_atomic(path, b.data, b.len);
	buf_release(&b);
	if (ret < 0)
		error("cannot write '%s'", path);
	return ret;
}

int history_fixes(const char *repo, const char *since, const char *scratch,
		  struct fix_pairs *out)
{
	struct trailers t = { STRVEC_INIT, STRVEC_INIT };
	struct buf since_arg = BUF_INIT;
	*out = (struct fix_pairs){ 0 };
	if (since)
		buf_addf(&since_arg, "--since=%s", since);
	const char *log[] = {
		"log", "-z", "--format=%H%n%B", "--regexp-ignore-case", "--grep=^[ \t]*fixes:",
		"HEAD", since ? since_arg.data : NULL, NULL,
	};
	const char *cat[] = { "cat-file", "--batch-check=%(objectname) %(objecttype)", NULL };
	int ret = git_each(repo, log, NULL, '\0', read_trailers, &t);
	if (!ret && t.ids.n) {
		struct resolved r = { &t, out, 0 };
		out->v = xcalloc(t.ids.n, sizeof(*out->v));
		ret = write_lines(scratch, &t.ids);
		if (!ret)
			ret = git_each(repo, cat, scratch, '\n', read_resolved, &r);
		unlink(scratch);
	}
	if (out->n) {
		qsort(out->v, out->n, sizeof(*out->v), compare_pairs);
		size_t kept = 1;
		for (size_t i = 1; i < out->n; i++)
			if (compare_pairs(&out->v[i], &out->v[kept - 1]))
				out->v[kept++] = out->v[i];
		out->n = kept;
	}
	strvec_clear(&t.ids);
	strvec_clear(&t.fixes);
	buf_release(&since_arg);
	return ret;
}

void fix_pairs_release(struct fix_pairs *p)
{
	free(p->v);
	*p = (struct fix_pairs){ 0 };
}

/* "sha\tparents\ttime\tsubject". */
static int read_info(void *ctx, char *record, size_t len)
{
	struct commit_infos *c = ctx;
	char *f[4];
	(void)len;
	f[0] = record;
	for (int i = 1; i < 4; i++) {
		f[i] = strchr(f[i - 1], '\t');
		if (!f[i])
			return 0;
		*f[i]++ = '\0';
	}
	if (strlen(f[0]) != SHA_HEX || !is_sha(f[0]))
		return 0;
	struct commit_info *k = &c->v[c->n];
	memcpy(k->sha, f[0], SHA_HEX + 1);
	k->parents = 0;
	for (const char *p = f[1]; *p; p += strspn(p, " ")) {
		k->parents++;
		p += strcspn(p, " ");
	}
	k->time = strtoll(f[2], NULL, 10);
	for (char *s = f[3]; *s; s++)
		if (*s == '\t')
			*s = ' ';
	k->subject = xstrdup(f[3]);
	c->n++;
	return c->n == c->cap ? 1 : 0;
}

int history_infos(const char *repo, const struct strvec *shas, const char *scratch,
		  struct commit_infos *out)
{
	const char *log[] = {
		"log", "--no-walk=unsorted", "--stdin", "--format=%H%x09%P%x09%ct%x09%s", NULL,
	};
	*out = (struct commit_infos){ .v = xcalloc(shas->n + 1, sizeof(*out->v)),
				      .cap = shas->n };
	if (!shas->n)
		return 0;
	int ret = write_lines(scratch, shas);
	if (!ret)
		ret = git_each(repo, log, scratch, '\n', read_info, out);
	unlink(scratch);
	return ret;
}

const struct commit_info *commit_infos_find(const struct commit_infos *c, const char *sha)
{
	for (size_t i = 0; i < c->n; i++)
		if (!strcmp(c->v[i].sha, sha))
			return &c->v[i];
	return NULL;
}

void commit_infos_release(struct commit_infos *c)
{
	for (size_t i = 0; i < c->n; i++)
		free(c->v[i].subject);
	free(c->v);
	*c = (struct commit_infos){ 0 };
}

struct sample {
	const struct fix_pairs *exclude;
	char (*best)[SHA_HEX + 1];	/* sorted, the smallest ids seen */
	size_t n, max;
};

static bool excluded(const struct fix_pairs *p, const char *sha)
{
	size_t lo = 0, hi = p->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(p->v[mid].bug, sha);
		if (!c)
			return true;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

static int read_sample(void *ctx, char *record, size_t len)
{
	struct sample *s = ctx;
	if (len != SHA_HEX || !is_sha(record) || excluded(s->exclude, record))
		return 0;
	if (s->n == s->max && strcmp(record, s->best[s->n - 1]) >= 0)
		return 0;
	size_t at = s->n < s->max ? s->n++ : s->n - 1;
	while (at > 0 && strcmp(s->best[at - 1], record) > 0) {
		memcpy(s->best[at], s->best[at - 1], SHA_HEX + 1);
		at--;
	}
	memcpy(s->best[at], record, SHA_HEX + 1);
	return 0;
}

int history_sample(const char *repo, long long from, long long to,
		   const struct fix_pairs *exclude, size_t max, struct strvec *out)
{
	char since[32], until[32];
	snprintf(since, sizeof(since), "--max-age=%lld", from);
	snprintf(until, sizeof(until), "--min-age=%lld", to);
	const char *args[6] = { "rev-list", "--no-merges", "HEAD" };
	size_t n = 3;
	if (from)
		args[n++] = since;
	if (to)
		args[n++] = until;
	args[n] = NULL;
	struct sample s = { exclude, xcalloc(max + 1, sizeof(*s.best)), 0, max };
	int ret = max ? git_each(repo, args, NULL, '\n', read_sample, &s) : 0;
	for (size_t i = 0; !ret && i < s.n; i++)
		strvec_push(out, s.best[i]);
	free(s.best);
	return ret;
}
