/* base.c: the base to read, its prerequisites, and git apply --check. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/msg.h"
#include "base/str.h"
#include "base/strvec.h"
#include "base/text.h"
#include "repo/base.h"
#include "repo/guess.h"

/*
 * How far back from HEAD prerequisite patches are looked for, and the
 * time the run may spend on it in all: the patch-ids of base..HEAD are
 * computed once a run for each base (a series shares its base), so a
 * series of any length runs git log -p once.
 */
#define PREREQ_MAX_COMMITS "500"
#define PREREQ_MAX_LOG ((size_t)128 << 20)
#define PREREQ_MAX_SECONDS 30.0
#define APPLY_MAX_OUT ((size_t)1 << 20)

/* patch-id -> commit for the commits between base and HEAD, as "PATCHID COMMIT" lines. */
static void compute_patch_ids(struct tree *t, const char *base, double timeout,
			      struct buf *ids)
{
	struct buf range = BUF_INIT, log = BUF_INIT, why = BUF_INIT;
	buf_addf(&range, "%s..HEAD", base);
	const char *const log_args[] = {
		"log", "--no-merges", "--max-count=" PREREQ_MAX_COMMITS, "--format=commit %H",
		"-p", "--no-color", "--no-ext-diff", "--no-textconv", range.data, "--", NULL,
	};
	static const char *const id_args[] = { "patch-id", "--stable", NULL };
	double start = clock_now();
	if (!repo_git_within(t, log_args, NULL, NULL, PREREQ_MAX_LOG, timeout, &log, NULL, &why)) {
		char *in = repo_scratch_write(t, "log", log.data, log.len);
		double left = timeout - (clock_now() - start);
		if (in && (left <= 0 || repo_git_within(t, id_args, in, NULL, PREREQ_MAX_LOG, left,
							ids, NULL, &why)))
			buf_reset(ids);
		free(in);
	}
	buf_release(&range);
	buf_release(&log);
	buf_release(&why);
}

/*
 * The patch-ids of base..HEAD, from this run's cache. False when the
 * run's PREREQ_MAX_SECONDS are spent: they were not looked for.
 */
static bool patch_ids(const struct tree *ct, const char *base, const struct buf **ids)
{
	struct tree *t = (struct tree *)ct;	/* the cache grows */
	if (!t->prereq_base || strcmp(t->prereq_base, base)) {
		double left = PREREQ_MAX_SECONDS - t->prereq_seconds;
		if (left <= 0)
			return false;
		double start = clock_now();
		buf_reset(&t->prereq_ids);
		compute_patch_ids(t, base, left, &t->prereq_ids);
		t->prereq_seconds += clock_now() - start;
		free(t->prereq_base);
		t->prereq_base = xstrdup(base);
	}
	*ids = &t->prereq_ids;
	return true;
}

/*
 * When every prerequisite p names is a commit after base, the newest of
 * them is the base the patch was made on. Adds what was found to b->what;
 * how many were not found, the caller says (tree/tree.c, which also looks
 * for them among the messages on hand).
 */
static void honour_prerequisites(const struct tree *t, const struct patch *p,
				 struct base_choice *b)
{
	size_t want = p->prerequisite_ids.n, found = 0;
	const char *newest = NULL;
	const struct buf *ids = NULL;
	if (!want)
		return;
	if (!patch_ids(t, b->commit, &ids)) {
		buf_addf(&b->what, "; its %zu prerequisite patch%s not looked for (past the "
			 "run's %.0f s for them)", want, want == 1 ? " was" : "es were",
			 PREREQ_MAX_SECONDS);
		return;
	}
	for (size_t i = 0; i < want; i++) {
		const char *v = p->prerequisite_ids.v[i];
		size_t n = strlen(v);
		/* git log lists the newest first, so the first match is the newest commit. */
		for (const char *l = ids->data; *l; l += strcspn(l, "\n"), l += *l == '\n') {
			if (strncmp(l, v, n) || l[n] != ' ')
				continue;
			found++;
			const char *c = l + n + 1;
			if (!newest || c < newest)
				newest = c;
			break;
		}
	}
	if (found == want) {
		char *c = xstrndup(newest, strcspn(newest, "\n"));
		buf_addf(&b->what, " and its %zu prerequisite patch%s (up to commit %.12s)", want,
			 want == 1 ? "" : "es", c);
		free(b->commit);
		b->commit = c;
		b->prereqs_in_tree = true;
	} else {
		b->prereqs_not_in_tree = want - found;
		b->prereqs_wanted = want;
	}
}

/* A guessed base into b, or the work tree with what the guess found. */
static void choose_guessed(const struct tree *t, const struct patch *p,
			   const struct patch *const *all, size_t nall, struct base_choice *b)
{
	const struct patch *const one[] = { p };
	struct base_guess g;
	base_guess(t, nall ? all : one, nall ? nall : 1, &g);
	if (g.commit && !g.at_head) {
		b->commit = xstrdup(g.commit);
		buf_addf(&b->what, "commit %.12s (guessed from the index lines: ", g.commit);
		if (g.matched == g.total)
			buf_addf(&b->what, "the newest commit where all %zu file%s match", g.total,
				 g.total == 1 ? "" : "s");
		else
			buf_addf(&b->what, "%zu of %zu files matched, no commit matched all%s",
				 g.matched, g.total, g.timed_out ? " in the time allowed" : "");
		if (g.capped)
			buf_addf(&b->what, "; only the patch's first %d files were compared",
				 GUESS_MAX_FILES);
		return;
	}
	buf_addf(&b->what, "the work tree (HEAD %.12s", t->head ? t->head : "unborn");
	if (g.total && !g.at_head && g.timed_out)
		buf_addf(&b->what, "; no base guessed from the index lines in %.0f s",
			 GUESS_MAX_SECONDS);
	else if (g.total && !g.at_head)
		buf_addf(&b->what, "; no commit has any of the %zu files as the index lines name "
			 "them", g.total);
	if (g.total && !g.at_head && g.capped)
		buf_addf(&b->what, "; only the patch's first %d files were compared",
			 GUESS_MAX_FILES);
}

void base_choose(const struct tree *t, const struct patch *p, const struct patch *series,
		 const struct patch *const *all, size_t nall, struct base_choice *b)
{
	*b = (struct base_choice){ .what = BUF_INIT };
	const struct patch *named = p->base_commit ? p :
		series && series->base_commit ? series : NULL;
	const char *from = named == p ? "mail" : "series";
	if (named && repo_has_commit(t, named->base_commit, &b->commit)) {
		buf_addf(&b->what, "base-commit %.12s (from the %s)", b->commit, from);
		honour_prerequisites(t, named, b);
		return;
	}
	choose_guessed(t, p, all, nall, b);
	if (named)
		buf_addf(&b->what, "; the %s's base-commit %.12s is not in the tree", from,
			 named->base_commit);
	buf_addch(&b->what, ')');
}

void base_release(struct base_choice *b)
{
	free(b->commit);
	buf_release(&b->what);
}

/* A private index with the base's versions of the files the patches read. */
static char *make_index(const struct tree *t, const struct patch *const *v, size_t n,
			const char *commit)
{
	struct strvec args = STRVEC_INIT;
	strvec_push(&args, "ls-tree");
	strvec_push(&args, "-z");
	strvec_push(&args, commit);
	strvec_push(&args, "--");
	for (size_t k = 0; k < n; k++)
		for (size_t i = 0; i < v[k]->nfiles; i++)
			if (v[k]->files[i].old_path && repo_path_ok(v[k]->files[i].old_path))
				strvec_push(&args, v[k]->files[i].old_path);
	struct buf list = BUF_INIT, why = BUF_INIT, env = BUF_INIT;
	char *index = repo_scratch_path(t, "index");
	buf_addf(&env, "GIT_INDEX_FILE=%s", index);
	const char *const envv[] = { env.data, NULL };
	static const char *const update[] = { "update-index", "-z", "--index-info", NULL };
	char *in = NULL;
	bool ok = !repo_git(t, (const char *const *)args.v, NULL, NULL, APPLY_MAX_OUT, &list,
			    NULL, &why) &&
		(in = repo_scratch_write(t, "ls-tree", list.data, list.len)) &&
		!repo_git(t, update, in, envv, APPLY_MAX_OUT, NULL, NULL, &why);
	free(in);
	strvec_clear(&args);
	buf_release(&list);
	buf_release(&why);
	buf_release(&env);
	if (!ok) {
		free(index);
		return NULL;
	}
	return index;
}

/* "path, hunk 2 of 3 (@@ -1,2 +1,3 @@)" for the hunk at old line old of path. */
static void describe_hunk(struct buf *why, const struct patch *p, const char *path, long old,
			  size_t at_line)
{
	for (size_t fi = 0; fi < p->nfiles; fi++) {
		const struct patch_file *f = &p->files[fi];
		if (path && !(f->old_path && !strcmp(f->old_path, path)) &&
		    !(f->new_path && !strcmp(f->new_path, path)))
			continue;
		size_t k = 0, total = 0, hit = 0;
		for (size_t h = 0; h < p->nhunks; h++) {
			if (p->hunks[h].file != (int32_t)fi)
				continue;
			total++;
			if (!hit && ((path && (long)p->hunks[h].old_start == old) ||
				     (!path && at_line >= p->hunks[h].header_line &&
				      at_line < p->hunks[h].end_line)))
				hit = h + 1, k = total;
		}
		if (!hit)
			continue;
		const char *header = p->lines[p->hunks[hit - 1].header_line].text;
		const char *close = strstr(header + 2, "@@");
		int len = close ? (int)(close + 2 - header) : (int)strlen(header);
		buf_addf(why, "%s, hunk %zu of %zu (%.*s)", patch_file_path(f), k, total, len, header);
		return;
	}
	if (path)
		buf_addstr(why, path);
}

/* The first "error:" line of git apply, put in the patch's terms. */
static void explain_failure(const struct patch *p, const char *err, struct buf *why)
{
	const char *e = strstr(err, "error: ");
	if (!e) {
		buf_addstr(why, "git apply --check failed");
		return;
	}
	e += 7;
	char *line = xstrndup(e, strcspn(e, "\n"));
	const char *colon = strrchr(line, ':');
	long n;
	if (starts_with(line, "patch failed: ") && colon && sscanf(colon + 1, "%ld", &n) == 1) {
		char *path = xstrndup(line + 14, (size_t)(colon - line - 14));
		describe_hunk(why, p, path, n, 0);
		buf_addstr(why, " does not apply");
		free(path);
	} else if (sscanf(line, "corrupt patch at line %ld", &n) == 1 && n > 0) {
		describe_hunk(why, p, NULL, 0, p->diff_begin + (size_t)n - 1);
		buf_addstr(why, why->len ? ": the patch is corrupt there" : "the patch is corrupt");
	} else {
		buf_addstr(why, line);
	}
	free(line);
}

static void add_diff(struct buf *diff, const struct patch *p)
{
	for (size_t i = p->diff_begin; i < p->nlines; i++) {
		buf_add(diff, p->lines[i].text, p->lines[i].len);
		buf_addch(diff, '\n');
	}
}

/*
 * git apply --check of v[0..n) as one input: a later diff of a file reads
 * what the earlier ones made of it. A failure is explained in p's terms.
 */
static bool check_all(const struct tree *t, const struct patch *const *v, size_t n,
		      const struct patch *p, const char *commit, struct buf *why)
{
	struct buf diff = BUF_INIT, err = BUF_INIT, env = BUF_INIT, run = BUF_INIT;
	for (size_t k = 0; k < n; k++)
		add_diff(&diff, v[k]);
	char *patch = repo_scratch_write(t, "patch", diff.data, diff.len);
	char *index = commit ? make_index(t, v, n, commit) : NULL;
	const char *const cached[] = { "apply", "--check", "--cached", patch, NULL };
	const char *const work[] = { "apply", "--check", patch, NULL };
	if (index)
		buf_addf(&env, "GIT_INDEX_FILE=%s", index);
	const char *const envv[] = { env.data, NULL };
	int ret = -1;
	if (!patch || (commit && !index))
		buf_addstr(&run, "could not prepare the check");
	else
		ret = repo_git(t, commit ? cached : work, NULL, index ? envv : NULL, APPLY_MAX_OUT, NULL, &err, &run);
	char *clean = NULL;
	if (ret > 0) {
		explain_failure(p, err.data, &run);
	} else if (ret < 0 && !run.len) {
		buf_addstr(&run, "git apply could not be run");
	}
	if (ret)
		buf_addstr(why, clean = text_clean_dup(run.data, TEXT_ONE_LINE));
	free(clean);
	free(patch);
	free(index);
	buf_release(&diff);
	buf_release(&err);
	buf_release(&env);
	buf_release(&run);
	return ret == 0;
}

bool base_applies(const struct tree *t, const struct patch *const *earlier, size_t nearlier,
		  const struct patch *p, const char *commit, struct buf *why)
{
	const struct patch **v = xcalloc(nearlier + 1, sizeof(*v));
	for (size_t k = 0; k < nearlier; k++)
		v[k] = earlier[k];
	v[nearlier] = p;
	bool ok = check_all(t, v, nearlier + 1, p, commit, why);
	free(v);
	return ok;
}

bool base_applies_earlier(const struct tree *t, const struct patch *const *earlier,
			  size_t nearlier, const char *commit)
{
	struct buf why = BUF_INIT;
	bool ok = !nearlier || check_all(t, earlier, nearlier, earlier[nearlier - 1], commit, &why);
	buf_release(&why);
	return ok;
}
