/* guess.c: the base a patch was made on, from its index lines' pre-image blobs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/msg.h"
#include "base/str.h"
#include "base/strvec.h"
#include "repo/guess.h"

#define GUESS_MAX_LOG ((size_t)4 << 20)
#define GUESS_MAX_BATCH 1024	/* candidates in one git cat-file run */
#define GUESS_RECENT 1000	/* first-parent commits searched before the whole history */

/* A file of the patch: its path and, unless it is new, the blob before the patch. */
struct pre {
	const char *path;
	char blob[65];		/* as abbreviated in the index line; "" for a new file */
};

struct pres {
	struct pre v[GUESS_MAX_FILES];
	size_t n, nblobs;
	bool capped;		/* a file past the first GUESS_MAX_FILES was left out */
};

static bool all_hex(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strchr("0123456789abcdef", s[i]) || !s[i])
			return false;
	return true;
}

static bool seen(const struct pres *ps, const char *path)
{
	for (size_t i = 0; i < ps->n; i++)
		if (!strcmp(ps->v[i].path, path))
			return true;
	return false;
}

/*
 * The first pre-image of each file across v[0..n): a file an earlier patch
 * made or changed is the earlier patch's, not the base's. At most
 * GUESS_MAX_FILES files (new ones included) are kept.
 */
static void collect(const struct patch *const *v, size_t n, struct pres *ps)
{
	for (size_t k = 0; k < n; k++) {
		const struct patch *p = v[k];
		for (size_t fi = 0; fi < p->nfiles; fi++) {
			const struct patch_file *f = &p->files[fi];
			const char *path = f->old_path ? f->old_path : f->new_path;
			if (!path || !repo_path_ok(path) || seen(ps, path))
				continue;
			if (ps->n == GUESS_MAX_FILES) {
				ps->capped = true;
				break;
			}
			struct pre *e = &ps->v[ps->n];
			e->path = path;
			snprintf(e->blob, sizeof(e->blob), "%s", f->old_blob ? f->old_blob : "");
			/* All zeros: the file is new. */
			if (!f->old_path || strspn(e->blob, "0") == strlen(e->blob))
				e->blob[0] = '\0';
			ps->nblobs += e->blob[0] != '\0';
			ps->n++;
			/* A renamed file's new path is taken too, as the later patches know it. */
			if (f->new_path && f->old_path && strcmp(f->new_path, f->old_path) &&
			    ps->n < GUESS_MAX_FILES && repo_path_ok(f->new_path) &&
			    !seen(ps, f->new_path)) {
				ps->v[ps->n].path = f->new_path;
				ps->v[ps->n].blob[0] = '\0';
				ps->n++;
			}
		}
	}
}

static double left_of(double start)
{
	return GUESS_MAX_SECONDS - (clock_now() - start);
}

/*
 * How many files match at each of cands[0..n): one git cat-file
 * --batch-check run. Returns false when git could not be run in time.
 */
static bool count_matches(const struct tree *t, const struct pres *ps, char *const *cands,
			  size_t n, double timeout, size_t *counts)
{
	struct buf in = BUF_INIT, out = BUF_INIT, why = BUF_INIT;
	for (size_t c = 0; c < n; c++)
		for (size_t i = 0; i < ps->n; i++)
			if (ps->v[i].blob[0])
				buf_addf(&in, "%s:%s\n", cands[c], ps->v[i].path);
	static const char *const args[] = { "cat-file", "--batch-check=%(objectname)", NULL };
	char *path = repo_scratch_write(t, "guess", in.data, in.len);
	bool ok = path && timeout > 0 &&
		!repo_git_within(t, args, path, NULL, in.len * 2 + 4096, timeout, &out, NULL, &why);
	const char *l = out.data;
	for (size_t c = 0; ok && c < n; c++) {
		counts[c] = 0;
		for (size_t i = 0; i < ps->n; i++) {
			if (!ps->v[i].blob[0])
				continue;
			size_t len = strcspn(l, "\n"), bl = strlen(ps->v[i].blob);
			if (len >= bl && all_hex(l, len) && !memcmp(l, ps->v[i].blob, bl))
				counts[c]++;
			l += len + (l[len] == '\n');
		}
	}
	free(path);
	buf_release(&in);
	buf_release(&out);
	buf_release(&why);
	return ok;
}

/*
 * HEAD, then each commit touching the files and its parents, newest first,
 * no repeats in a row; only those after the commit since, unless NULL.
 */
static void candidates(const struct tree *t, const struct pres *ps, const char *since,
		       double timeout, struct strvec *cands)
{
	struct strvec args = STRVEC_INIT;
	strvec_push(&args, "log");
	strvec_push(&args, "--format=%H %P");
	struct buf max = BUF_INIT;
	buf_addf(&max, "--max-count=%d", GUESS_MAX_COMMITS);
	strvec_push(&args, max.data);
	buf_reset(&max);
	strvec_push(&args, t->head);
	if (since) {
		buf_addf(&max, "^%s", since);
		strvec_push(&args, max.data);
		buf_reset(&max);
	}
	strvec_push(&args, "--");
	for (size_t i = 0; i < ps->n; i++)
		if (ps->v[i].blob[0])
			strvec_push(&args, ps->v[i].path);
	buf_release(&max);
	struct buf out = BUF_INIT, why = BUF_INIT;
	strvec_push(cands, t->head);
	if (!repo_git_within(t, (const char *const *)args.v, NULL, NULL, GUESS_MAX_LOG, timeout,
			     &out, NULL, &why)) {
		struct strvec words = STRVEC_INIT;
		strvec_split(&words, out.data, " \n");
		for (size_t i = 0; i < words.n && cands->n < GUESS_MAX_COMMITS; i++)
			if (all_hex(words.v[i], strlen(words.v[i])) &&
			    strcmp(words.v[i], cands->v[cands->n - 1]))
				strvec_push(cands, words.v[i]);
		strvec_clear(&words);
	}
	strvec_clear(&args);
	buf_release(&out);
	buf_release(&why);
}

/* The key a series' guess is kept under: its files and their blobs. */
static char *key_of(const struct pres *ps)
{
	struct buf key = BUF_INIT;
	for (size_t i = 0; i < ps->n; i++)
		buf_addf(&key, "%s\t%s\n", ps->v[i].path, ps->v[i].blob);
	buf_addf(&key, "%s", ps->capped ? "+\n" : "\n");
	return buf_detach(&key, NULL);
}

static void guess(const struct tree *t, const struct pres *ps, struct guess_memo *m)
{
	double start = clock_now();
	struct strvec cands = STRVEC_INIT;
	size_t *counts = xcalloc(GUESS_MAX_BATCH, sizeof(*counts));
	size_t best = 0, batch = 1;
	char *best_commit = NULL;
	char *const head[] = { t->head };
	/* HEAD alone first: a tree that has the files as the patch saw them needs no history. */
	if (!count_matches(t, ps, head, 1, left_of(start), counts)) {
		m->timed_out = left_of(start) <= 0;
		goto out;
	}
	if (counts[0] == ps->nblobs) {
		m->at_head = true;
		best_commit = xstrdup(t->head);
		best = counts[0];
		goto out;
	}
	best = counts[0];
	if (best)
		best_commit = xstrdup(t->head);
	/*
	 * The last GUESS_RECENT first-parent commits first: git log -- paths
	 * walks the whole history when the files are seldom touched (seconds
	 * on git's 80,000 commits), and most bases are recent.
	 */
	struct buf spec = BUF_INIT;
	buf_addf(&spec, "%s~%d", t->head, GUESS_RECENT);
	char *recent = repo_resolve_commit(t, spec.data);
	buf_release(&spec);
	for (int stage = !recent; stage < 2 && best < ps->nblobs && !m->timed_out; stage++) {
		strvec_clear(&cands);
		candidates(t, ps, stage ? NULL : recent, left_of(start), &cands);
		batch = 1;
		/* Batches of 16, 64, 256, then 1024: a base a few commits back is found fast. */
		for (size_t at = 1; at < cands.n && best < ps->nblobs; at += batch) {
			batch = batch < GUESS_MAX_BATCH / 4 ? batch * 4 : GUESS_MAX_BATCH;
			batch = batch < 16 ? 16 : batch;
			size_t n = cands.n - at < batch ? cands.n - at : batch;
			if (!count_matches(t, ps, cands.v + at, n, left_of(start), counts)) {
				m->timed_out = true;
				break;
			}
			for (size_t c = 0; c < n && best < ps->nblobs; c++)
				if (counts[c] > best) {
					best = counts[c];
					free(best_commit);
					best_commit = xstrdup(cands.v[at + c]);
				}
		}
	}
	free(recent);
out:
	m->commit = best_commit;
	m->matched = best;
	m->total = ps->nblobs;
	m->capped = ps->capped;
	strvec_clear(&cands);
	free(counts);
}

void base_guess(const struct tree *ct, const struct patch *const *v, size_t n,
		struct base_guess *g)
{
	struct tree *t = (struct tree *)ct;	/* the guess is kept */
	struct pres *ps = xcalloc(1, sizeof(*ps));
	*g = (struct base_guess){ 0 };
	collect(v, n, ps);
	char *key = key_of(ps);
	if (!ps->nblobs || !t->head) {
		free(key);
		free(ps);
		return;
	}
	if (!t->guess.key || strcmp(t->guess.key, key)) {
		free(t->guess.key);
		free(t->guess.commit);
		t->guess = (struct guess_memo){ .key = key };
		guess(t, ps, &t->guess);
	} else {
		free(key);
	}
	*g = (struct base_guess){
		.commit = t->guess.commit, .matched = t->guess.matched, .total = t->guess.total,
		.at_head = t->guess.at_head, .timed_out = t->guess.timed_out,
		.capped = t->guess.capped,
	};
	free(ps);
}
