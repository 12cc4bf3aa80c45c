/*
 * checkpatch.c: the tree's own scripts/checkpatch.pl, run once on all the
 * patches of a series, in the background while the model reviews them.
 * It runs with --no-tree (tree mode pastes the patch's file names into
 * shell commands) in our scratch directory (it writes caches into its
 * working directory), on files named by us, with GIT_DIR pointing at the
 * tree so that commit ids are looked up. Its runs share one deadline a run.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/child.h"
#include "base/clock.h"
#include "base/msg.h"
#include "base/slurp.h"
#include "base/str.h"
#include "base/strvec.h"
#include "repo/repo.h"
#include "tree/tree.h"

#define CHECKPATCH_MAX_OUT ((size_t)4 << 20)
#define CHECKPATCH_OUT "checkpatch.out"

struct checkpatch_job {
	struct tree *tree;
	pid_t pid;
	size_t n;		/* the mails it was given (some may be empty: not run on) */
	double start;
	double deadline;
};

/* "checkpatch.K.mail:LINE: LEVEL:TYPE: message": the report of mail K */
static bool parse_report(const char *line, size_t *k, struct checkpatch_report *r)
{
	unsigned long n;
	int used = 0;
	char level[16], type[64];
	if (sscanf(line, "checkpatch.%zu.mail:%lu: %15[A-Z]:%63[A-Z0-9_]: %n", k, &n, level,
		   type, &used) != 4 || !used)
		return false;
	if (!strchr("EWC", level[0]))
		return false;
	*r = (struct checkpatch_report){ n, level[0], xstrdup(type), xstrdup(line + used) };
	return true;
}

static char *mail_name(size_t k)
{
	struct buf b = BUF_INIT;
	buf_addf(&b, "checkpatch.%zu.mail", k);
	return buf_detach(&b, NULL);
}

struct checkpatch_job *tree_checkpatch_start(struct tree *t, const struct buf *texts, size_t n,
					     struct buf *why)
{
	struct buf script = BUF_INIT, env = BUF_INIT;
	struct strvec argv = STRVEC_INIT;
	struct checkpatch_job *j = NULL;
	struct stat st;
	double left = CHECKPATCH_SECONDS - t->checkpatch_seconds;
	buf_addf(&script, "%s/scripts/checkpatch.pl", t->top);
	if (stat(script.data, &st) || !S_ISREG(st.st_mode) || access(script.data, X_OK))
		goto out;
	if (left <= 0) {
		buf_addf(why, "not run: the %.0f s a run allows it were spent", CHECKPATCH_SECONDS);
		goto out;
	}
	strvec_push(&argv, script.data);
	strvec_split(&argv, "--no-tree --terse --show-types --color=never --no-summary", " ");
	size_t given = 0;
	for (size_t k = 0; k < n; k++) {
		if (!texts[k].len)
			continue;
		char *name = mail_name(k);
		char *path = repo_scratch_write(t, name, texts[k].data, texts[k].len);
		if (!path) {
			buf_addstr(why, "cannot write the patch for checkpatch");
			free(name);
			goto out;
		}
		free(path);
		strvec_push_take(&argv, name);
		given++;
	}
	if (!given)
		goto out;
	buf_addf(&env, "GIT_DIR=%s", t->git_dir);
	const char *const envv[] = { "LC_ALL=C", env.data, NULL };
	struct child c = { .argv = argv.v, .cwd = t->scratch, .env = envv };
	char *out = repo_scratch_path(t, CHECKPATCH_OUT);
	double start = clock_now();
	pid_t pid = child_start(&c, out, why);
	free(out);
	if (pid < 0)
		goto out;
	j = xcalloc(1, sizeof(*j));
	*j = (struct checkpatch_job){ t, pid, n, start, start + left };
out:
	strvec_clear(&argv);
	buf_release(&script);
	buf_release(&env);
	return j;
}

/* Appends r to mail k's reports, doubling their room when full. */
static void add_report(struct checkpatch_report **v, size_t *nv, size_t *room, size_t k,
		       const struct checkpatch_report *r)
{
	if (nv[k] == room[k]) {
		room[k] = room[k] ? 2 * room[k] : 8;
		v[k] = xrealloc(v[k], room[k] * sizeof(*v[k]));
	}
	v[k][nv[k]++] = *r;
}

int tree_checkpatch_finish(struct checkpatch_job *j, struct checkpatch_report **v, size_t *nv,
			   struct buf *why)
{
	struct buf out = BUF_INIT;
	int ret = child_wait(j->pid, "scripts/checkpatch.pl", j->deadline, why);
	j->tree->checkpatch_seconds += clock_now() - j->start;
	for (size_t k = 0; k < j->n; k++)
		v[k] = NULL, nv[k] = 0;
	char *path = repo_scratch_path(j->tree, CHECKPATCH_OUT);
	if (ret > 1)
		buf_addf(why, "scripts/checkpatch.pl failed (status %d)", ret);
	else if (ret >= 0 && slurp_file(path, CHECKPATCH_MAX_OUT, &out) < 0)
		buf_addf(why, errno == EFBIG ? "scripts/checkpatch.pl wrote more than %zu bytes" :
			 "cannot read what scripts/checkpatch.pl wrote", CHECKPATCH_MAX_OUT);
	else if (ret >= 0) {
		size_t *room = xcalloc(j->n + 1, sizeof(*room));
		for (char *line = out.data; line && *line;) {
			char *nl = strchr(line, '\n');
			if (nl)
				*nl = '\0';
			struct checkpatch_report r = { 0 };
			size_t k = 0;
			if (parse_report(line, &k, &r) && k < j->n) {
				add_report(v, nv, room, k, &r);
			} else if (r.type) {	/* a mail it was not given */
				free(r.type);
				free(r.message);
			}
			line = nl ? nl + 1 : line + strlen(line);
		}
		free(room);
	}
	free(path);
	buf_release(&out);
	free(j);
	return ret == 0 || ret == 1 ? 0 : -1;
}

void checkpatch_reports_free(struct checkpatch_report *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].type);
		free(v[i].message);
	}
	free(v);
}
