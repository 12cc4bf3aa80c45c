/* tree.c: opening the tree, and one review against it: base, applies?, context, findings. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/msg.h"
#include "base/paths.h"
#include "code/context.h"
#include "code/contract.h"
#include "code/index.h"
#include "code/reach.h"
#include "repo/base.h"
#include "repo/read.h"
#include "repo/repo.h"
#include "repo/tracked.h"
#include "tree/tree.h"

static bool has_c(const struct patch *p)
{
	for (size_t i = 0; i < p->nfiles; i++)
		if (context_is_c(patch_file_path(&p->files[i])))
			return true;
	return false;
}

/*
 * When the patch is read at another base: does it (on top of the series'
 * patches before it) apply to the tree's HEAD too? One line, naming the
 * file and hunk that do not.
 */
static char *head_note(const struct tree *t, const struct patch *const *earlier,
		       size_t nearlier, const struct patch *p)
{
	struct buf note = BUF_INIT, why = BUF_INIT;
	const char *with = nearlier ? " with the patches before it in the series" : "";
	if (base_applies(t, earlier, nearlier, p, t->head, &why))
		buf_addf(&note, "tree: the patch%s also applies to HEAD %.12s", with, t->head);
	else
		buf_addf(&note, "tree: the patch%s does not apply to HEAD %.12s: %s", with, t->head,
			 why.data);
	buf_release(&why);
	return buf_detach(&note, NULL);
}

/* "its 2 prerequisite patches (found in the input) and the 1 patch before it in the series" */
static void describe_before(struct buf *out, size_t npre, size_t nseries, const char *from)
{
	if (npre)
		buf_addf(out, "its %zu prerequisite patch%s (found in %s)", npre,
			 npre == 1 ? "" : "es", from ? from : "the messages on hand");
	if (npre && nseries)
		buf_addstr(out, " and ");
	if (nseries)
		buf_addf(out, "the %zu patch%s before it in the series", nseries,
			 nseries == 1 ? "" : "es");
}

void tree_review_patch(struct tree *t, const struct patch *p,
		       const struct tree_series_place *place, bool want_context,
		       struct tree_review *tr)
{
	double start = clock_now();
	*tr = (struct tree_review){ .tree = t, .patch = p };
	struct base_choice b;
	struct buf why = BUF_INIT, note = BUF_INIT, after = BUF_INIT;
	const struct patch *const *earlier = place ? place->earlier : NULL;
	size_t nearlier = place ? place->nearlier : 0, npre = place ? place->nprereqs : 0;
	const char *missing = place ? place->prereqs_missing : NULL;
	base_choose(t, p, place ? place->facts : NULL, place ? place->all : NULL,
		    place ? place->nall : 0, &b);
	tr->base = b.commit ? xstrdup(b.commit) : NULL;
	/* Commits of the tree, the prerequisites are in the base already. */
	if (b.prereqs_in_tree) {
		earlier += npre;
		nearlier -= npre;
		npre = 0;
		missing = NULL;
	} else if (b.prereqs_not_in_tree && !npre && !missing) {
		buf_addf(&after, "; %zu of its %zu prerequisite patches are not in the tree",
			 b.prereqs_not_in_tree, b.prereqs_wanted);
	}
	struct buf before = BUF_INIT;
	describe_before(&before, npre, nearlier - npre, place ? place->prereqs_from : NULL);
	if (nearlier && !base_applies_earlier(t, earlier, nearlier, tr->base)) {
		buf_addf(&after, "; %s do%s not apply there, so it was checked against the base "
			 "alone", before.data, nearlier == 1 ? "es" : "");
		nearlier = 0;
	} else if (nearlier) {
		buf_addf(&after, " on top of %s", before.data);
	}
	buf_release(&before);
	if (missing)
		buf_addf(&after, "; not in the tree nor among the messages on hand: %s", missing);
	tr->files = xcalloc(1, sizeof(*tr->files));
	tr->files->tree = t;
	tr->files->commit = tr->base;
	tr->files->earlier = earlier;
	tr->files->nearlier = nearlier;
	tr->files->budget = FILES_MAX_PATCH_BYTES;
	files_load_patch(tr->files, p);
	/* git apply would read as much again, once for each time the patch names a file. */
	bool checked = !tr->files->capped;
	tr->applies = checked && base_applies(t, earlier, nearlier, p, tr->base, &why);
	if (!checked)
		buf_addf(&note, "tree: whether the patch applies to %s%s was not checked", b.what.data,
			 after.data);
	else if (tr->applies)
		buf_addf(&note, "tree: the patch applies to %s%s", b.what.data, after.data);
	else
		buf_addf(&note, "tree: the patch does not apply to %s%s: %s; the context is from "
			 "the files as they are", b.what.data, after.data, why.data);
	struct symbol_index *ix = has_c(p) ? symbol_index_get(t) : NULL;
	struct changed_set set = { 0 }, contracts = { 0 };
	context_changed(tr, want_context, &set);
	if (want_context) {
		context_contracts(tr, ix, &set, &contracts);
		context_used(tr, ix, &set, &contracts);
	}
	context_callers(tr, ix, &set, want_context);
	if (tr->files->capped)
		buf_addf(&note, "; past %zu MiB of the tree's files for this patch, the rest "
			 "were not read", FILES_MAX_PATCH_BYTES >> 20);
	tr->note = buf_detach(&note, NULL);
	if (checked && tr->base && t->head && strcmp(tr->base, t->head))
		tr->head_note = head_note(t, earlier, nearlier, p);
	free(set.v);
	free(contracts.v);
	base_release(&b);
	buf_release(&why);
	buf_release(&after);
	tr->seconds = clock_now() - start;
}

void tree_review_release(struct tree_review *tr)
{
	for (size_t i = 0; i < tr->nitems; i++) {
		free(tr->items[i].title);
		free(tr->items[i].text);
		free(tr->items[i].short_text);
	}
	free(tr->items);
	for (size_t i = 0; i < tr->nfindings; i++)
		free(tr->findings[i].text);
	free(tr->findings);
	reach_free(tr->reach);
	if (tr->files)
		files_release(tr->files);
	free(tr->files);
	free(tr->base);
	free(tr->note);
	free(tr->head_note);
	*tr = (struct tree_review){ 0 };
}

void tree_definitions(const struct tree_review *tr, const char *path, const char *text,
		      size_t budget, struct buf *out)
{
	struct tree_review *rw = (struct tree_review *)tr;	/* the file cache grows */
	struct symbol_index *ix = has_c(tr->patch) ? symbol_index_get(tr->tree) : NULL;
	/* The finding's file when it is one of the patch's (the name comes from the model). */
	const char *from = NULL;
	for (size_t i = 0; i < tr->files->n; i++)
		if (tr->files->v[i]->patch_file >= 0 && context_is_c(tr->files->v[i]->path) &&
		    (!from || (path && !strcmp(path, tr->files->v[i]->path))))
			from = tr->files->v[i]->path;
	if (!from)
		return;
	struct clex lx;
	struct tok t, prev = { 0 };
	const struct cdef *seen[32];
	size_t nseen = 0, used = 0;
	clex_init(&lx, text, strlen(text));
	for (clex_next(&lx, &t); t.kind != TOK_EOF && nseen < 32; prev = t, clex_next(&lx, &t)) {
		/* Names of the code: a word with '_' or a call, not an English word. */
		if (t.kind != TOK_IDENT || c_reserved(t.s, t.len) ||
		    (prev.kind == TOK_PUNCT && (*prev.s == '.' || tok_is(&prev, "->"))) ||
		    (!memchr(t.s, '_', t.len) && !(lx.p < lx.end && *lx.p == '(')))
			continue;
		struct tfile *f;
		const struct cdef *d = context_find_def(rw, ix, from, t.s, t.len,
							IX_DEFINITIONS | IX_BIT(IX_ENUMERATOR), &f);
		bool dup = false;
		for (size_t i = 0; d && i < nseen; i++)
			dup |= seen[i] == d;
		if (!d || dup)
			continue;
		seen[nseen++] = d;
		char *code = context_def_text(f, d, 60);
		struct buf block = BUF_INIT;
		buf_addf(&block, "%s:%u-%u: %s %.*s\n%s", f->path, d->first, d->last,
			 cdef_kind_name(d->kind), (int)d->name_len, d->name, code);
		if (used + block.len <= budget) {
			buf_add(out, block.data, block.len);
			used += block.len;
		}
		buf_release(&block);
		free(code);
	}
}

int tree_commit_subject(const struct tree_review *tr, const char *id, struct buf *subject,
			struct buf *why)
{
	size_t n = strspn(id, "0123456789abcdefABCDEF");
	if (id[n] || n < 7 || n > 64)
		return 0;
	struct buf spec = BUF_INIT, out = BUF_INIT;
	buf_addf(&spec, "%s^{commit}", id);
	for (char *c = spec.data; *c; c++)
		*c = (char)(*c >= 'A' && *c <= 'F' ? *c - 'A' + 'a' : *c);
	/* --end-of-options: the id is never an option, whatever the mail says. */
	const char *const args[] = {
		"log", "-1", "--no-walk", "--format=%s", "--end-of-options", spec.data, "--", NULL,
	};
	struct buf err = BUF_INIT;
	int status = repo_git(tr->tree, args, NULL, NULL, 65536, &out, &err, why);
	int ret = status < 0 ? -1 : 0;
	if (status == 0 && out.len) {
		out.data[strcspn(out.data, "\n")] = '\0';
		buf_addstr(subject, out.data);
		ret = 1;
	}
	buf_release(&spec);
	buf_release(&out);
	buf_release(&err);
	return ret;
}

static char *make_scratch(void)
{
	const char *tmp = getenv("TMPDIR");
	struct buf b = BUF_INIT;
	buf_addf(&b, "%s/patchreview-tree-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(b.data)) {
		buf_release(&b);
		return NULL;
	}
	return buf_detach(&b, NULL);
}

struct tree *tree_open(const char *dir, bool quiet)
{
	struct tree *t = xcalloc(1, sizeof(*t));
	struct buf out = BUF_INIT, err = BUF_INIT, why = BUF_INIT;
	t->top = expand_home(dir);	/* "~/src/linux" from a config file */
	t->quiet = quiet;
	static const char *const top_args[] = {
		"rev-parse", "--show-toplevel", "--absolute-git-dir", NULL,
	};
	int ret = repo_git(t, top_args, NULL, NULL, PATH_MAX, &out, &err, &why);
	if (ret) {
		char *msg = ret < 0 ? why.data : err.data;
		msg[strcspn(msg, "\n")] = '\0';
		error("tree '%s' is not a git work tree: %s", dir, msg);
		buf_release(&out), buf_release(&err), buf_release(&why);
		free(t->top);
		free(t);
		return NULL;
	}
	char *nl = strchr(out.data, '\n');
	free(t->top);
	t->top = xstrndup(out.data, nl ? (size_t)(nl - out.data) : out.len);
	t->git_dir = nl ? xstrndup(nl + 1, strcspn(nl + 1, "\n")) : xstrdup("");
	buf_release(&out);
	t->tracked = tracked_new();
	t->reads = read_cache_new();
	t->prereq_ids = (struct buf)BUF_INIT;
	t->head = repo_resolve_commit(t, "HEAD");
	t->scratch = make_scratch();
	buf_release(&err);
	buf_release(&why);
	if (!t->scratch) {
		error("cannot make a temporary directory: %s", strerror(errno));
		tree_close(t);
		return NULL;
	}
	return t;
}

const char *tree_top(const struct tree *t)
{
	return t->top;
}

void tree_list_tracked(const struct tree *t, const char *dir, struct strvec *names)
{
	tracked_list(t, dir, names);
}

int tree_read_tracked(const struct tree *t, const char *path, size_t max, struct buf *out)
{
	return tracked_read(t, path, max, out);
}

/* The scratch directory is flat: only files, ours and checkpatch's. */
static void remove_scratch(const char *dir)
{
	DIR *d = opendir(dir);
	if (d) {
		struct dirent *e;
		while ((e = readdir(d)))
			if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
				struct buf p = BUF_INIT;
				buf_addf(&p, "%s/%s", dir, e->d_name);
				unlink(p.data);
				buf_release(&p);
			}
		closedir(d);
	}
	rmdir(dir);
}

void tree_close(struct tree *t)
{
	if (!t)
		return;
	if (t->scratch)
		remove_scratch(t->scratch);
	symbol_index_free(t->index);
	tracked_free(t->tracked);
	read_cache_free(t->reads);
	free(t->scratch);
	free(t->prereq_base);
	free(t->guess.key);
	free(t->guess.commit);
	buf_release(&t->prereq_ids);
	free(t->head);
	free(t->git_dir);
	free(t->top);
	free(t);
}
