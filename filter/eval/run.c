/* run.c: one process per case and model, up to jobs at once. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "base/msg.h"
#include "base/paths.h"
#include "base/slurp.h"
#include "base/text.h"
#include "draft/draft.h"
#include "eval/result.h"
#include "eval/run.h"
#include "eval/worktree.h"
#include "mail/mail.h"
#include "patch/parse.h"
#include "tree/tree.h"

#define RESULT_MAX ((size_t)16 << 20)

/* A model's name as a file name. */
static void add_slug(struct buf *b, const char *model)
{
	for (const char *s = model; *s; s++)
		buf_addch(b, (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
			  (*s >= '0' && *s <= '9') || strchr("._-", *s) ? *s : '_');
}

char *run_results_dir(const struct eval_set *s, const char *model)
{
	struct buf b = BUF_INIT;
	buf_addf(&b, "%s/results/", s->dir);
	add_slug(&b, model);
	return buf_detach(&b, NULL);
}

/* "dir/NAME.ext"; caller frees. */
static char *result_path(const char *dir, const struct eval_case *k, const char *ext)
{
	struct buf b = BUF_INIT;
	buf_addf(&b, "%s/%s.%s", dir, k->name, ext);
	return buf_detach(&b, NULL);
}

static cJSON *read_json(const char *path)
{
	struct buf data = BUF_INIT;
	cJSON *root = slurp_file(path, RESULT_MAX, &data) < 0 ? NULL :
		cJSON_ParseWithLength(data.data, data.len);
	buf_release(&data);
	return root;
}

/* The draft, written whole or not at all. */
static int write_draft(const char *path, const struct mail *m, const struct patch *p,
		       const struct review *r, const struct config *c)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		die_nomem();
	int ret = draft_write(f, m, p, r, c, true, draft_now());
	fclose(f);
	if (!ret && write_file_atomic(path, text, len) < 0)
		ret = error("cannot write '%s': %s", path, strerror(errno));
	free(text);
	return ret;
}

static int write_result(const char *path, cJSON *root)
{
	char *json = cJSON_Print(root);
	if (!json)
		die_nomem();
	int ret = write_file_atomic(path, json, strlen(json));
	if (ret < 0)
		error("cannot write '%s': %s", path, strerror(errno));
	free(json);
	return ret;
}

/*
 * With --tree: slot's work tree at the case's parent, opened, and the
 * patch reviewed against it into *tr. Returns the tree, or NULL after one
 * line on stderr.
 */
static struct tree *open_tree(const struct eval_run *run, const struct eval_case *k,
			      size_t slot, const struct patch *p, struct tree_review *tr)
{
	char *path = worktree_path(run->set->dir, slot);
	struct tree *t = NULL;
	if (!worktree_at_parent(run->set->repo, path, k->sha))
		t = tree_open(path, true);
	free(path);
	if (t)
		tree_review_patch(t, p, NULL, true, tr);
	return t;
}

/* In the child: the review of one case, as patchreview would make it, and its result. */
static int review_case(const struct eval_run *run, const struct eval_case *k,
		       const char *model, const char *dir, size_t slot)
{
	const struct eval_set *s = run->set;
	struct config c = *run->config;
	struct buf name = BUF_INIT;
	buf_addstr(&name, k->name);
	if (run->models->n > 1) {
		buf_addch(&name, '.');
		add_slug(&name, model);
	}
	c.model = (char *)model;
	c.request_name = name.data;
	c.quiet = true;
	char *mail_path = set_case_path(s, k, "eml"), *truth_path = set_case_path(s, k, "truth");
	char *json_path = result_path(dir, k, "json"), *draft_path = result_path(dir, k, "draft");
	struct mail_list mails;
	struct patch p;
	struct review r;
	struct tree *tree = NULL;
	struct tree_review tr = { 0 };
	struct truth t = { .fixes = STRVEC_INIT };
	int ret = -1, fd = open(mail_path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		error("cannot read '%s': %s", mail_path, strerror(errno));
		goto out;
	}
	ret = mail_read_all(fd, &mails);
	close(fd);
	if (ret < 0)
		goto out;
	struct mail *m = &mails.v[0];	/* format-patch -1 wrote one */
	char *text = m->text;
	m->text = NULL;
	patch_parse(&p, m->subject, text, m->text_len, m->patch_offset);
	review_init(&r);
	struct review_input in = { .mail = m, .patch = &p, .config = &c };
	if (run->tree && !(tree = open_tree(run, k, slot, &p, &tr))) {
		ret = -1;
		goto release;
	}
	if (tree) {
		review_note(&r, "%s", tr.note);
		in.tree = &tr;
	}
	run->review(&in, &r);
	ret = k->kind == CASE_BUG ? truth_load(&t, truth_path) : 0;
	if (!ret && !r.model_deferred)
		ret = write_draft(draft_path, m, &p, &r, &c);
	if (!ret) {
		cJSON *previous = read_json(json_path);
		cJSON *result = result_build(s, k, model, &p, &r, k->kind == CASE_BUG ? &t : NULL,
					     previous);
		ret = write_result(json_path, result);
		cJSON_Delete(result);
		cJSON_Delete(previous);
	}
release:
	tree_review_release(&tr);
	tree_close(tree);
	review_release(&r);
	patch_release(&p);
	mail_list_release(&mails);
out:
	truth_release(&t);
	free(mail_path);
	free(truth_path);
	free(json_path);
	free(draft_path);
	buf_release(&name);
	return ret;
}

/* The child's stderr goes to NAME.log beside its result. */
static pid_t start_case(const struct eval_run *run, const struct eval_case *k,
			const char *model, const char *dir, size_t slot)
{
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		error("cannot start a review: %s", strerror(errno));
		return -1;
	}
	if (pid)
		return pid;
	char *log = result_path(dir, k, "log");
	int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd >= 0) {
		dup2(fd, 2);
		close(fd);
	}
	free(log);
	int ret = review_case(run, k, model, dir, slot);
	fflush(NULL);
	exit(ret < 0 ? 1 : 0);
}

struct job {
	pid_t pid;
	const struct eval_case *k;
	const char *model;
	const char *dir;
};

/* One line on stderr for a finished case: what happened to it. */
static void tell_done(const struct eval_run *run, const struct job *j, int status,
		      size_t done, size_t total)
{
	char *path = result_path(j->dir, j->k, "json"), *log = result_path(j->dir, j->k, "log");
	cJSON *root = read_json(path);
	const char *state = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(root, "status"));
	const char *found = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(root, "found"));
	if (!state || strcmp(state, "reviewed"))
		found = NULL;
	int findings = cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(root, "findings"));
	char *model = text_clean_dup(j->model, TEXT_ONE_LINE);
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		/* What is there is an earlier run's. */
		unlink(path);
		warn("eval: %s %s: the review process failed (status %d); see '%s'",
		     j->k->name, model, WIFEXITED(status) ? WEXITSTATUS(status) :
		     128 + WTERMSIG(status), log);
	}
	else if (!run->quiet)
		warn("eval: [%zu/%zu] %s %s: %s, %d finding%s%s%s", done, total, j->k->name, model,
		     !state ? "?" : strcmp(state, "deferred") ? state : "request written", findings, findings == 1 ? "" : "s",
		     found ? (*found ? ", the known bug found by " : ", the known bug missed") : "",
		     found ? found : "");
	free(model);
	cJSON_Delete(root);
	free(path);
	free(log);
}

/* The work trees of the slots used, and their folder. */
static void remove_trees(const struct eval_run *run, size_t used)
{
	for (size_t i = 0; run->tree && i < used; i++) {
		char *path = worktree_path(run->set->dir, i);
		worktree_remove(run->set->repo, path);
		free(path);
	}
	struct buf dir = BUF_INIT;
	buf_addf(&dir, "%s/trees", run->set->dir);
	rmdir(dir.data);
	buf_release(&dir);
}

int run_cases(const struct eval_run *run)
{
	const struct eval_set *s = run->set;
	size_t total = run->models->n * s->ncases, started = 0, done = 0, running = 0, used = 0;
	size_t slots = run->jobs > 0 && run->jobs <= EVAL_MAX_JOBS ? (size_t)run->jobs : 1;
	/* On the stack, so that a forked child's leak check sees it as the parent's. */
	struct job jobs[EVAL_MAX_JOBS] = { { 0 } };
	struct strvec dirs = STRVEC_INIT;
	int ret = 0;
	for (size_t i = 0; !ret && i < run->models->n; i++) {
		strvec_push_take(&dirs, run_results_dir(s, run->models->v[i]));
		if (make_dirs(dirs.v[i]) < 0)
			ret = error("cannot make '%s': %s", dirs.v[i], strerror(errno));
	}
	while (!ret && (started < total || running)) {
		if (started < total && running < slots) {
			size_t model = started / s->ncases;
			struct job j = { 0, &s->cases[started % s->ncases], run->models->v[model],
					 dirs.v[model] };
			size_t slot = 0;
			while (jobs[slot].pid)
				slot++;
			j.pid = start_case(run, j.k, j.model, j.dir, slot);
			if (j.pid < 0) {
				ret = -1;
				break;
			}
			jobs[slot] = j;
			used = slot + 1 > used ? slot + 1 : used;
			started++, running++;
			continue;
		}
		int status;
		pid_t pid = waitpid(-1, &status, 0);
		if (pid < 0 && errno == EINTR)
			continue;
		if (pid < 0)
			break;
		for (size_t i = 0; i < slots; i++)
			if (jobs[i].pid == pid) {
				tell_done(run, &jobs[i], status, ++done, total);
				jobs[i].pid = 0;
				running--;
			}
	}
	while (running && waitpid(-1, NULL, 0) > 0)
		running--;
	remove_trees(run, used);
	strvec_clear(&dirs);
	return ret;
}
