/* score.c: findings against the truth, by line, hunk and function. */
#include <string.h>

#include "eval/score.h"
#include "evalset/funcname.h"
#include "review/finding.h"

const char *match_name(enum match m)
{
	return m == MATCH_LINE ? "line" : m == MATCH_HUNK ? "hunk" : "";
}

static bool opens_function(const struct patch_line *l, struct buf *name)
{
	return (l->kind == LINE_ADDED || l->kind == LINE_CONTEXT) && l->len &&
		eval_function_name(l->text + 1, l->len - 1, name);
}

bool score_function_at(const struct patch *p, size_t i, struct buf *name)
{
	const struct patch_line *l = &p->lines[i];
	if (l->hunk < 0)
		return false;
	const struct patch_hunk *h = &p->hunks[l->hunk];
	for (size_t j = i + 1; j-- > h->header_line + 1;)
		if (opens_function(&p->lines[j], name))
			return true;
	return eval_function_name(h->func, strlen(h->func), name);
}

static bool is_truth_line(const struct patch *p, const struct truth *t, size_t i)
{
	const struct patch_line *l = &p->lines[i];
	if ((l->kind != LINE_ADDED && l->kind != LINE_CONTEXT) || l->file < 0)
		return false;
	const char *path = patch_file_path(&p->files[l->file]);
	for (size_t k = 0; k < t->nlines; k++)
		if (t->lines[k].line == (long)l->new_no && !strcmp(t->lines[k].path, path))
			return true;
	return false;
}

static bool is_truth_func(const struct truth *t, const char *path, const char *name)
{
	for (size_t k = 0; k < t->nfuncs; k++)
		if (!strcmp(t->funcs[k].name, name) && !strcmp(t->funcs[k].path, path))
			return true;
	return false;
}

/* Both lines in one function, or both in none that can be told. */
static bool same_function(const struct patch *p, size_t a, size_t b)
{
	struct buf x = BUF_INIT, y = BUF_INIT;
	bool fa = score_function_at(p, a, &x), fb = score_function_at(p, b, &y);
	bool same = fa == fb && !strcmp(x.data, y.data);
	buf_release(&x);
	buf_release(&y);
	return same;
}

static bool in_truth_function(const struct patch *p, const struct truth *t, size_t i)
{
	const struct patch_line *l = &p->lines[i];
	struct buf name = BUF_INIT;
	bool in = l->file >= 0 && score_function_at(p, i, &name) &&
		is_truth_func(t, patch_file_path(&p->files[l->file]), name.data);
	buf_release(&name);
	return in;
}

bool score_located(const struct patch *p, const struct truth *t)
{
	for (size_t i = p->diff_begin; i < p->nlines; i++)
		if (is_truth_line(p, t, i))
			return true;
	return false;
}

enum match score_finding(const struct patch *p, const struct truth *t, size_t line)
{
	if (line == FINDING_WHOLE || line >= p->nlines || p->lines[line].hunk < 0)
		return MATCH_NONE;
	if (is_truth_line(p, t, line))
		return MATCH_LINE;
	const struct patch_hunk *h = &p->hunks[p->lines[line].hunk];
	for (size_t i = h->header_line + 1; i < h->end_line; i++)
		if (is_truth_line(p, t, i) && same_function(p, i, line))
			return MATCH_HUNK;
	if (!score_located(p, t) && in_truth_function(p, t, line))
		return MATCH_HUNK;
	return MATCH_NONE;
}
