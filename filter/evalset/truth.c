/* truth.c: a fix's diff and git blame, to the lines and functions of the bug. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/msg.h"
#include "base/slurp.h"
#include "base/str.h"
#include "evalset/funcname.h"
#include "evalset/git.h"
#include "evalset/history.h"
#include "evalset/truth.h"

/* Ranges blamed in one file of one fix; a fix larger than that is not a pointed one. */
#define TRUTH_MAX_RANGES 200
#define TRUTH_MAX_FILES 20
#define TRUTH_MAX_FILE ((size_t)1 << 20)

struct range {
	long from, to;		/* old-side lines of the fix, inclusive */
	bool insertion;		/* the fix inserts between from and to = from + 1 */
	char *func;		/* the hunk's function name, or NULL */
};

struct fix_file {
	char *path;		/* on the fix's old side */
	struct range *v;
	size_t n;
};

struct fix_diff {
	struct fix_file *files;
	size_t nfiles;
	long old_left, new_left;	/* lines of the current hunk still to come */
};

static void add_range(struct fix_diff *d, long from, long to, bool insertion, const char *func)
{
	struct fix_file *f = &d->files[d->nfiles - 1];
	if (!f->path || f->n == TRUTH_MAX_RANGES)
		return;
	if (from < 1)
		from = 1;
	f->v = xrealloc(f->v, (f->n + 1) * sizeof(*f->v));
	struct buf name = BUF_INIT;
	f->v[f->n++] = (struct range){
		from, to < from ? from : to, insertion,
		eval_function_name(func, strlen(func), &name) ? buf_detach(&name, NULL) : NULL,
	};
	buf_release(&name);
}

/* "@@ -s,n +t,m @@ func": removed lines s..s+n-1; with n = 0 an insertion after s. */
static void read_hunk(struct fix_diff *d, const char *line)
{
	long s, n = 1, t, m = 1;
	const char *p = line + 4;
	char *end;
	s = strtol(p, &end, 10);
	if (*end == ',')
		n = strtol(end + 1, &end, 10);
	if (strncmp(end, " +", 2))
		return;
	t = strtol(end + 2, &end, 10);
	if (*end == ',')
		m = strtol(end + 1, &end, 10);
	(void)t;
	const char *func = strstr(end, "@@");
	func = func ? func + 2 + (func[2] == ' ') : "";
	d->old_left = n;
	d->new_left = m;
	if (n > 0)
		add_range(d, s, s + n - 1, false, func);
	else
		add_range(d, s, s + 1, true, func);
}

static int read_diff(void *ctx, char *line, size_t len)
{
	struct fix_diff *d = ctx;
	(void)len;
	if (d->old_left > 0 || d->new_left > 0) {
		if (*line == '-' || *line == ' ')
			d->old_left--;
		if (*line == '+' || *line == ' ')
			d->new_left--;
		if (*line == '-' || *line == '+' || *line == ' ' || *line == '\\')
			return 0;
		d->old_left = d->new_left = 0;
	}
	if (starts_with(line, "diff --git ")) {
		d->files = xrealloc(d->files, (d->nfiles + 1) * sizeof(*d->files));
		d->files[d->nfiles++] = (struct fix_file){ 0 };
	} else if (d->nfiles && starts_with(line, "--- a/")) {
		size_t n = strcspn(line + 6, "\t");
		free(d->files[d->nfiles - 1].path);
		d->files[d->nfiles - 1].path = xstrndup(line + 6, n);
	} else if (d->nfiles && starts_with(line, "@@ -")) {
		read_hunk(d, line);
	}
	return 0;
}

static void fix_diff_release(struct fix_diff *d)
{
	for (size_t i = 0; i < d->nfiles; i++) {
		for (size_t j = 0; j < d->files[i].n; j++)
			free(d->files[i].v[j].func);
		free(d->files[i].v);
		free(d->files[i].path);
	}
	free(d->files);
}

/* A line of the fix's parent, as git blame told it. */
struct blamed {
	long final, orig;	/* its number there, and in the commit that wrote it */
	bool bug;		/* that commit is the bug */
	bool blank;
	bool told;		/* already in the truth */
	char *filename;		/* in that commit */
};

struct blame {
	const char *bug;
	char sha[SHA_HEX + 1];
	long orig, final;
	char *filename;
	struct blamed *v;
	size_t n;
};

/* --line-porcelain: "sha orig final [n]", "key value" lines, then "\t" and the line. */
static int read_blame(void *ctx, char *line, size_t len)
{
	struct blame *b = ctx;
	if (len > SHA_HEX && line[SHA_HEX] == ' ' &&
	    strspn(line, "0123456789abcdef") == SHA_HEX) {
		memcpy(b->sha, line, SHA_HEX);
		b->sha[SHA_HEX] = '\0';
		char *end;
		b->orig = strtol(line + SHA_HEX + 1, &end, 10);
		b->final = strtol(end, NULL, 10);
	} else if (starts_with(line, "filename ")) {
		free(b->filename);
		b->filename = xstrdup(line + 9);
	} else if (*line == '\t' && b->filename) {
		b->v = xrealloc(b->v, (b->n + 1) * sizeof(*b->v));
		b->v[b->n++] = (struct blamed){
			b->final, b->orig, !strcmp(b->sha, b->bug),
			line[1 + strspn(line + 1, " \t")] == '\0', false, xstrdup(b->filename),
		};
	}
	return 0;
}

static struct blamed *blamed_at(struct blame *b, long final)
{
	for (size_t i = 0; i < b->n; i++)
		if (b->v[i].final == final)
			return &b->v[i];
	return NULL;
}

/* A line the bug commit wrote goes into the truth, once; *where learns its file. */
static void tell(struct buf *tsv, struct blamed *l, char **where)
{
	if (!l || !l->bug || l->told || strpbrk(l->filename, "\t\n"))
		return;
	buf_addf(tsv, "line\t%s\t%ld\n", l->filename, l->orig);
	l->told = true;
	if (!*where)
		*where = xstrdup(l->filename);
}

static bool is_blank(struct blame *b, long final)
{
	const struct blamed *l = blamed_at(b, final);
	return l && l->blank;
}

/*
 * The bug's lines among those each range changes. Beside an insertion a
 * blank line does not count alone: diff may slide an insertion over blank
 * lines, so the line beyond it counts too.
 */
static void tell_ranges(struct blame *b, const struct fix_file *f, struct buf *tsv)
{
	for (size_t i = 0; i < f->n; i++) {
		const struct range *r = &f->v[i];
		char *where = NULL;
		for (long x = r->from; x <= r->to; x++)
			tell(tsv, blamed_at(b, x), &where);
		if (r->insertion && is_blank(b, r->from))
			tell(tsv, blamed_at(b, r->from - 1), &where);
		if (r->insertion && is_blank(b, r->to))
			tell(tsv, blamed_at(b, r->to + 1), &where);
		const char *path = where ? where : f->path;
		if (r->func && !strpbrk(path, "\t\n"))
			buf_addf(tsv, "func\t%s\t%s\n", path, r->func);
		free(where);
	}
}

/*
 * Blames the ranges of one file at the fix's parent, and records the bug's
 * lines. A file git cannot blame so is left out (git says why on stderr).
 */
static void blame_file(const char *repo, const char *bug, const char *fix,
		       const struct fix_file *f, struct buf *tsv)
{
	struct strvec args = STRVEC_INIT;
	struct buf parent = BUF_INIT;
	struct blame b = { .bug = bug };
	buf_addf(&parent, "%s^", fix);
	strvec_push(&args, "blame");
	strvec_push(&args, "--line-porcelain");
	for (size_t i = 0; i < f->n; i++) {
		struct buf l = BUF_INIT;
		long extra = f->v[i].insertion;
		buf_addf(&l, "-L%ld,%ld", f->v[i].from > extra ? f->v[i].from - extra : 1,
			 f->v[i].to + extra);
		strvec_push_take(&args, buf_detach(&l, NULL));
	}
	strvec_push(&args, parent.data);
	strvec_push(&args, "--");
	strvec_push(&args, f->path);
	if (!git_each(repo, (const char *const *)args.v, NULL, '\n', read_blame, &b))
		tell_ranges(&b, f, tsv);
	for (size_t i = 0; i < b.n; i++)
		free(b.v[i].filename);
	free(b.v);
	free(b.filename);
	buf_release(&parent);
	strvec_clear(&args);
}

int truth_from_fix(const char *repo, const char *bug, const char *fix, struct buf *tsv)
{
	const char *diff[] = {
		"diff-tree", "-p", "-U0", "-M", "--no-commit-id", "--no-color", "--no-ext-diff",
		"--no-textconv", "--src-prefix=a/", "--dst-prefix=b/", fix, NULL,
	};
	struct fix_diff d = { 0 };
	int ret = git_each(repo, diff, NULL, '\n', read_diff, &d);
	for (size_t i = 0, n = 0; !ret && i < d.nfiles && n < TRUTH_MAX_FILES; i++)
		if (d.files[i].path && d.files[i].n && ++n)
			blame_file(repo, bug, fix, &d.files[i], tsv);
	fix_diff_release(&d);
	return ret;
}

static void truth_add(struct truth *t, const char *kind, char *a, char *b)
{
	if (!strcmp(kind, "fix")) {
		strvec_push(&t->fixes, a);
	} else if (!strcmp(kind, "line") && b) {
		t->lines = xrealloc(t->lines, (t->nlines + 1) * sizeof(*t->lines));
		t->lines[t->nlines++] = (struct truth_line){ xstrdup(a), strtol(b, NULL, 10) };
	} else if (!strcmp(kind, "func") && b) {
		t->funcs = xrealloc(t->funcs, (t->nfuncs + 1) * sizeof(*t->funcs));
		t->funcs[t->nfuncs++] = (struct truth_func){ xstrdup(a), xstrdup(b) };
	}
}

int truth_load(struct truth *t, const char *path)
{
	struct buf data = BUF_INIT;
	*t = (struct truth){ .fixes = STRVEC_INIT };
	if (slurp_file(path, TRUTH_MAX_FILE, &data) < 0) {
		buf_release(&data);
		return error("cannot read '%s': %s", path, strerror(errno));
	}
	char *rest = data.data, *line;
	while ((line = next_line(&rest))) {
		/* "kind\ta\tb", b the rest of the line. */
		char *a = strchr(line, '\t'), *b = NULL;
		if (!a)
			continue;
		*a++ = '\0';
		b = strchr(a, '\t');
		if (b)
			*b++ = '\0';
		truth_add(t, line, a, b);
	}
	buf_release(&data);
	return 0;
}

void truth_release(struct truth *t)
{
	for (size_t i = 0; i < t->nlines; i++)
		free(t->lines[i].path);
	for (size_t i = 0; i < t->nfuncs; i++) {
		free(t->funcs[i].path);
		free(t->funcs[i].name);
	}
	free(t->lines);
	free(t->funcs);
	strvec_clear(&t->fixes);
	*t = (struct truth){ .fixes = STRVEC_INIT };
}
