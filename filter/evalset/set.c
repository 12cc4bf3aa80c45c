/* set.c: building the evaluation set from a repository, and keeping it. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/hash.h"
#include "base/msg.h"
#include "base/paths.h"
#include "base/slurp.h"
#include "base/str.h"
#include "evalset/git.h"
#include "evalset/set.h"
#include "evalset/truth.h"

#define SET_FORMAT "# patchreview eval set 1"
#define SET_MAX_FILE ((size_t)16 << 20)
/* Clean commits are drawn from the bugs' time span, widened by at least this. */
#define CLEAN_MIN_PAD (30LL * 24 * 3600)

/* A case being built: its mail and truth stay in memory until the set is named. */
struct pick {
	struct eval_case c;
	struct buf mail, truth;
	long long time;
	char order[HASH_SHA256_HEX];	/* a hash of the id: the order of the names */
};

struct picks {
	struct pick *v;
	size_t n;
};

char *set_case_path(const struct eval_set *s, const struct eval_case *k, const char *ext)
{
	struct buf b = BUF_INIT;
	buf_addf(&b, "%s/cases/%s.%s", s->dir, k->name, ext);
	return buf_detach(&b, NULL);
}

void set_release(struct eval_set *s)
{
	for (size_t i = 0; i < s->ncases; i++)
		free(s->cases[i].subject);
	free(s->cases);
	free(s->dir);
	free(s->repo);
	free(s->head);
	free(s->since);
	*s = (struct eval_set){ 0 };
}

static void add_case(struct eval_set *s, const char *name, const char *sha,
		     enum case_kind kind, const char *subject)
{
	s->cases = xrealloc(s->cases, (s->ncases + 1) * sizeof(*s->cases));
	struct eval_case *k = &s->cases[s->ncases++];
	*k = (struct eval_case){ .kind = kind, .subject = xstrdup(subject) };
	snprintf(k->name, sizeof(k->name), "%s", name);
	memcpy(k->sha, sha, SHA_HEX + 1);
}

/* One "key\tvalue..." line of set.tsv. Returns 0, or -1 when it is not one. */
static int read_record(struct eval_set *s, char *line)
{
	char *f[5] = { line };
	size_t n = 1;
	for (char *t = line; n < 5 && (t = strchr(t, '\t')); n++) {
		*t++ = '\0';
		f[n] = t;
	}
	if (n == 2 && !strcmp(f[0], "repo"))
		s->repo = xstrdup(f[1]);
	else if (n == 2 && !strcmp(f[0], "head"))
		s->head = xstrdup(f[1]);
	else if (n == 2 && !strcmp(f[0], "since"))
		s->since = strcmp(f[1], "-") ? xstrdup(f[1]) : NULL;
	else if (n == 2 && !strcmp(f[0], "count"))
		s->count = strtol(f[1], NULL, 10);
	else if (n == 2 && !strcmp(f[0], "clean"))
		s->clean = strtol(f[1], NULL, 10);
	else if (n == 5 && !strcmp(f[0], "case") && strlen(f[1]) < 32 && *f[1] &&
		 strspn(f[1], "abcdefghijklmnopqrstuvwxyz0123456789") == strlen(f[1]) &&
		 strlen(f[2]) == SHA_HEX && (!strcmp(f[3], "bug") || !strcmp(f[3], "clean")))
		add_case(s, f[1], f[2], strcmp(f[3], "bug") ? CASE_CLEAN : CASE_BUG, f[4]);
	else
		return -1;
	return 0;
}

/* Returns 0 when loaded, 1 when dir has no set, -1 after one line on stderr. */
static int set_load(struct eval_set *s, const char *path)
{
	struct buf data = BUF_INIT;
	if (slurp_file(path, SET_MAX_FILE, &data) < 0) {
		int e = errno;
		buf_release(&data);
		return e == ENOENT ? 1 : error("cannot read '%s': %s", path, strerror(e));
	}
	char *rest = data.data, *line = next_line(&rest);
	int ret = line && !strcmp(line, SET_FORMAT) ? 0 : -1;
	while (!ret && (line = next_line(&rest)))
		if (*line)
			ret = read_record(s, line);
	buf_release(&data);
	if (ret < 0 || !s->repo || !s->head)
		return error("'%s' is not a patchreview eval set", path);
	return 0;
}

static int set_save(const struct eval_set *s, const char *path)
{
	struct buf b = BUF_INIT;
	buf_addf(&b, SET_FORMAT "\nrepo\t%s\nhead\t%s\nsince\t%s\ncount\t%ld\nclean\t%ld\n",
		 s->repo, s->head, s->since ? s->since : "-", s->count, s->clean);
	for (size_t i = 0; i < s->ncases; i++) {
		const struct eval_case *k = &s->cases[i];
		buf_addf(&b, "case\t%s\t%s\t%s\t%s\n", k->name, k->sha,
			 k->kind == CASE_BUG ? "bug" : "clean", k->subject);
	}
	int ret = write_file_atomic(path, b.data, b.len);
	buf_release(&b);
	return ret < 0 ? error("cannot write '%s': %s", path, strerror(errno)) : 0;
}

/* The first line of git's output, trimmed, into *out. Returns 0 or -1. */
static int git_line(const char *repo, const char *const *args, struct buf *out)
{
	int ret = git_read(repo, args, 4096, out);
	out->len = strcspn(out->data, "\n");
	out->data[out->len] = '\0';
	return ret || !out->len ? -1 : 0;
}

/* The patch mail of sha into *mail. Returns 0, 1 when it does not fit the set, or -1. */
static int format_patch(const struct set_params *p, const char *sha, struct buf *mail)
{
	const char *args[] = {
		"format-patch", "-1", "--stdout", "--no-binary", "--zero-commit",
		"--no-signature", sha, NULL,
	};
	int ret = git_read(p->repo, args, p->max_mail, mail);
	if (!ret && !strstr(mail->data, "\ndiff --git "))
		ret = 1;
	return ret;
}

static void picks_release(struct picks *ps)
{
	for (size_t i = 0; i < ps->n; i++) {
		free(ps->v[i].c.subject);
		buf_release(&ps->v[i].mail);
		buf_release(&ps->v[i].truth);
	}
	free(ps->v);
	*ps = (struct picks){ 0 };
}

static struct pick *pick_new(struct picks *ps, const struct commit_info *info,
			     enum case_kind kind)
{
	ps->v = xrealloc(ps->v, (ps->n + 1) * sizeof(*ps->v));
	struct pick *k = &ps->v[ps->n];
	*k = (struct pick){ .mail = BUF_INIT, .truth = BUF_INIT, .time = info->time };
	k->c.kind = kind;
	memcpy(k->c.sha, info->sha, SHA_HEX + 1);
	return k;
}

static void pick_keep(struct picks *ps, struct pick *k, const struct commit_info *info)
{
	k->c.subject = xstrdup(info->subject);
	ps->n++;
}

static void pick_drop(struct pick *k)
{
	buf_release(&k->mail);
	buf_release(&k->truth);
}

/* The truth of the bug in pairs [from, to) from each fix with one parent. */
static int bug_truth(const struct set_params *p, const struct fix_pairs *pairs,
		     size_t from, size_t to, const struct commit_infos *infos, struct buf *truth)
{
	int ret = 0, fixes = 0;
	for (size_t i = from; !ret && i < to; i++) {
		const struct commit_info *fix = commit_infos_find(infos, pairs->v[i].fix);
		if (!fix || fix->parents != 1)
			continue;
		buf_addf(truth, "fix\t%s\t%s\n", fix->sha, fix->subject);
		ret = truth_from_fix(p->repo, pairs->v[i].bug, fix->sha, truth);
		fixes++;
	}
	return ret < 0 ? -1 : fixes ? 0 : 1;
}

/* The bug cases: the named commits in id order, until p->count fit. */
static int pick_bugs(const struct set_params *p, const struct fix_pairs *pairs,
		     const struct commit_infos *infos, long long since, struct picks *ps)
{
	int ret = 0;
	for (size_t i = 0, next; !ret && i < pairs->n && ps->n < (size_t)p->count; i = next) {
		for (next = i + 1; next < pairs->n && !strcmp(pairs->v[next].bug, pairs->v[i].bug);)
			next++;
		const struct commit_info *bug = commit_infos_find(infos, pairs->v[i].bug);
		if (!bug || bug->parents != 1 || bug->time < since)
			continue;
		struct pick *k = pick_new(ps, bug, CASE_BUG);
		ret = format_patch(p, bug->sha, &k->mail);
		if (!ret)
			ret = bug_truth(p, pairs, i, next, infos, &k->truth);
		if (!ret)
			pick_keep(ps, k, bug);
		else
			pick_drop(k);
		ret = ret < 0 ? -1 : 0;
	}
	return ret;
}

/*
 * The kinds of file (their extensions) in a mail's diff, each once, into
 * *kinds; with known, only those in *known.
 */
static void file_kinds(const struct buf *mail, const struct strvec *known, struct strvec *kinds)
{
	for (const char *s = strstr(mail->data, "\ndiff --git a/"); s;
	     s = strstr(s + 1, "\ndiff --git a/")) {
		const char *path = s + 14, *end = path + strcspn(path, " \n"), *dot = NULL;
		for (const char *p = path; p < end; p++)
			if (*p == '/')
				dot = NULL;
			else if (*p == '.' && p > path && p[-1] != '/')
				dot = p;
		if (!dot)
			continue;	/* README, Makefile, .gitignore: no kind */
		char *kind = xstrndup(dot, (size_t)(end - dot));
		if (strvec_has(kinds, kind) || (known && !strvec_has(known, kind)))
			free(kind);
		else
			strvec_push_take(kinds, kind);
	}
}

/* The kinds of file that a quarter of the bug cases or more touch. */
static void common_kinds(const struct picks *ps, size_t bugs, struct strvec *common)
{
	struct strvec all = STRVEC_INIT;
	for (size_t i = 0; i < bugs; i++)
		file_kinds(&ps->v[i].mail, NULL, &all);
	for (size_t k = 0; k < all.n; k++) {
		size_t n = 0;
		for (size_t i = 0; i < bugs; i++) {
			struct strvec one = STRVEC_INIT, only = STRVEC_INIT;
			strvec_push(&only, all.v[k]);
			file_kinds(&ps->v[i].mail, &only, &one);
			n += one.n;
			strvec_clear(&one);
			strvec_clear(&only);
		}
		if (4 * n >= bugs)
			strvec_push(common, all.v[k]);
	}
	strvec_clear(&all);
}

/* Does the mail touch a file of one of the kinds? */
static bool has_kind(const struct buf *mail, const struct strvec *kinds)
{
	struct strvec found = STRVEC_INIT;
	file_kinds(mail, kinds, &found);
	bool has = found.n > 0;
	strvec_clear(&found);
	return has;
}

/* The clean cases: a sample of the other commits, of the bug cases' ages, sizes and files. */
static int pick_clean(const struct set_params *p, const struct fix_pairs *pairs,
		      long long since, const char *scratch, struct picks *ps)
{
	size_t bugs = ps->n, smallest = 0, largest = p->max_mail;
	long long from = since, to = 0;
	for (size_t i = 0; i < bugs; i++) {
		const struct pick *k = &ps->v[i];
		bool first = !i;
		from = first || k->time < from ? k->time : from;
		to = first || k->time > to ? k->time : to;
		smallest = first || k->mail.len < smallest ? k->mail.len : smallest;
		largest = first || k->mail.len > largest ? k->mail.len : largest;
	}
	/* A few bugs span little time: widen the window to find commits of their age. */
	long long pad = (to - from) / 4 > CLEAN_MIN_PAD ? (to - from) / 4 : CLEAN_MIN_PAD;
	if (bugs) {
		from = from - pad > since ? from - pad : since;
		to += pad;
	}
	struct strvec sample = STRVEC_INIT, kinds = STRVEC_INIT;
	struct commit_infos infos = { 0 };
	common_kinds(ps, bugs, &kinds);
	int ret = history_sample(p->repo, from, to, pairs, 4 * (size_t)p->clean + 16, &sample);
	if (!ret)
		ret = history_infos(p->repo, &sample, scratch, &infos);
	for (size_t i = 0; !ret && i < sample.n && ps->n < bugs + (size_t)p->clean; i++) {
		const struct commit_info *c = commit_infos_find(&infos, sample.v[i]);
		if (!c || c->parents != 1)
			continue;
		struct pick *k = pick_new(ps, c, CASE_CLEAN);
		ret = format_patch(p, c->sha, &k->mail);
		bool fits = !ret && k->mail.len >= smallest / 2 && k->mail.len <= 2 * largest &&
			(!kinds.n || has_kind(&k->mail, &kinds));
		if (fits)
			pick_keep(ps, k, c);
		else
			pick_drop(k);
		ret = ret < 0 ? -1 : 0;
	}
	commit_infos_release(&infos);
	strvec_clear(&sample);
	strvec_clear(&kinds);
	return ret;
}

static int compare_picks(const void *a, const void *b)
{
	return strcmp(((const struct pick *)a)->order, ((const struct pick *)b)->order);
}

static int write_case_file(const struct eval_set *s, const struct eval_case *k,
			   const char *ext, const struct buf *data)
{
	char *path = set_case_path(s, k, ext);
	int ret = write_file_atomic(path, data->data, data->len);
	if (ret < 0)
		error("cannot write '%s': %s", path, strerror(errno));
	free(path);
	return ret;
}

/* Names the cases in id order and writes them, then set.tsv, into s->dir. */
static int set_write(struct eval_set *s, struct picks *ps)
{
	int width = ps->n <= 100 ? 2 : 3, ret = 0;
	/* The samples were drawn in id order: name them in another, so a name tells nothing. */
	for (size_t i = 0; i < ps->n; i++) {
		const char *id = ps->v[i].c.sha;
		hash_sha256_strings(ps->v[i].order, &id, 1);
	}
	if (ps->n)
		qsort(ps->v, ps->n, sizeof(*ps->v), compare_picks);
	for (size_t i = 0; !ret && i < ps->n; i++) {
		const struct pick *k = &ps->v[i];
		char name[32];
		snprintf(name, sizeof(name), "case%0*zu", width, i);
		add_case(s, name, k->c.sha, k->c.kind, k->c.subject);
		const struct eval_case *c = &s->cases[s->ncases - 1];
		ret = write_case_file(s, c, "eml", &k->mail);
		if (!ret && c->kind == CASE_BUG)
			ret = write_case_file(s, c, "truth", &k->truth);
	}
	if (!ret) {
		struct buf path = BUF_INIT;
		buf_addf(&path, "%s/set.tsv", s->dir);
		ret = set_save(s, path.data);
		buf_release(&path);
	}
	return ret;
}

/* --since as git reads it, in seconds, into *since. Returns 0 or -1. */
static int since_seconds(const struct set_params *p, long long *since)
{
	struct buf arg = BUF_INIT, out = BUF_INIT;
	buf_addf(&arg, "--since=%s", p->since);
	const char *args[] = { "rev-parse", arg.data, NULL };
	int ret = git_line(p->repo, args, &out);
	if (!ret && starts_with(out.data, "--max-age="))
		*since = strtoll(out.data + 10, NULL, 10);
	else
		ret = error("git does not read '%s' as a date", p->since);
	buf_release(&arg);
	buf_release(&out);
	return ret;
}

/* The commits named by Fixes: and the fixing ones, each once, for history_infos. */
static void pair_commits(const struct fix_pairs *pairs, struct strvec *shas)
{
	for (size_t i = 0; i < pairs->n; i++) {
		if (!i || strcmp(pairs->v[i].bug, pairs->v[i - 1].bug))
			strvec_push(shas, pairs->v[i].bug);
		strvec_push(shas, pairs->v[i].fix);
	}
}

static int set_build(struct eval_set *s, const struct set_params *p, const char *scratch)
{
	const char *head_args[] = { "rev-parse", "--verify", "HEAD^{commit}", NULL };
	struct buf head = BUF_INIT;
	struct fix_pairs pairs = { 0 };
	struct strvec shas = STRVEC_INIT;
	struct commit_infos infos = { 0 };
	struct picks ps = { 0 };
	long long since = 0;
	int ret = git_line(p->repo, head_args, &head);
	if (ret < 0)
		error("'%s' has no commit to start from", p->repo);
	if (!ret && p->since)
		ret = since_seconds(p, &since);
	if (!ret) {
		s->head = buf_detach(&head, NULL);
		warn("eval: reading the Fixes: trailers in '%s'", p->repo);
		ret = history_fixes(p->repo, p->since, scratch, &pairs);
	}
	if (!ret) {
		pair_commits(&pairs, &shas);
		ret = history_infos(p->repo, &shas, scratch, &infos);
	}
	if (!ret)
		ret = pick_bugs(p, &pairs, &infos, since, &ps);
	size_t bugs = ps.n;
	if (!ret)
		ret = pick_clean(p, &pairs, since, scratch, &ps);
	if (!ret && (bugs < (size_t)p->count || ps.n - bugs < (size_t)p->clean))
		warn("eval: the set has %zu bug and %zu clean cases (%ld and %ld asked for)",
		     bugs, ps.n - bugs, p->count, p->clean);
	if (!ret)
		ret = set_write(s, &ps);
	picks_release(&ps);
	commit_infos_release(&infos);
	strvec_clear(&shas);
	fix_pairs_release(&pairs);
	buf_release(&head);
	return ret;
}

static bool same_text(const char *a, const char *b)
{
	return a && b ? !strcmp(a, b) : a == b;
}

int set_open(struct eval_set *s, const char *dir, const struct set_params *p)
{
	struct buf path = BUF_INIT;
	*s = (struct eval_set){ .dir = xstrdup(dir) };
	char *repo = realpath(p->repo, NULL);
	if (!repo)
		return error("cannot read the repository '%s': %s", p->repo, strerror(errno));
	buf_addf(&path, "%s/set.tsv", dir);
	int ret = set_load(s, path.data);
	if (!ret && (strcmp(s->repo, repo) || !same_text(s->since, p->since) ||
		     s->count != p->count || s->clean != p->clean))
		ret = error("'%s' holds a set built from other parameters; name another --out", dir);
	if (ret == 1) {
		struct set_params q = *p;
		q.repo = s->repo = repo;
		repo = NULL;
		s->since = p->since ? xstrdup(p->since) : NULL;
		s->count = p->count;
		s->clean = p->clean;
		buf_reset(&path);
		buf_addf(&path, "%s/cases", dir);
		if (make_dirs(path.data) < 0)
			ret = error("cannot make '%s': %s", path.data, strerror(errno));
		buf_reset(&path);
		buf_addf(&path, "%s/.scratch", dir);
		if (ret == 1)
			ret = set_build(s, &q, path.data);
	}
	free(repo);
	buf_release(&path);
	return ret;
}
