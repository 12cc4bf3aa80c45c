/*
 * checkpatch.c: the tree's own scripts/checkpatch.pl. It runs with
 * --no-tree (tree mode pastes the patch's file names into shell commands)
 * in our scratch directory (it writes caches into its working directory),
 * with GIT_DIR pointing at the tree so that commit ids are looked up.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/child.h"
#include "base/msg.h"
#include "base/str.h"
#include "repo/repo.h"
#include "tree/tree.h"

#define CHECKPATCH_TIMEOUT 60.0
#define CHECKPATCH_MAX_OUT ((size_t)4 << 20)

/* "-:LINE: LEVEL:TYPE: message" */
static bool parse_report(const char *line, struct checkpatch_report *r)
{
	unsigned long n;
	int used = 0;
	char level[16], type[64];
	if (sscanf(line, "-:%lu: %15[A-Z]:%63[A-Z0-9_]: %n", &n, level, type, &used) != 3 || !used)
		return false;
	if (!strchr("EWC", level[0]))
		return false;
	*r = (struct checkpatch_report){ n, level[0], xstrdup(type), xstrdup(line + used) };
	return true;
}

int tree_checkpatch(const struct tree_review *tr, const char *text, size_t len,
		    struct checkpatch_report **v, struct buf *why)
{
	struct buf script = BUF_INIT, env = BUF_INIT, out = BUF_INIT;
	struct stat st;
	*v = NULL;
	buf_addf(&script, "%s/scripts/checkpatch.pl", tr->tree->top);
	if (stat(script.data, &st) || !S_ISREG(st.st_mode) || access(script.data, X_OK)) {
		buf_release(&script);
		return 0;
	}
	char *in = repo_scratch_write(tr->tree, "checkpatch.mail", text, len);
	buf_addf(&env, "GIT_DIR=%s", tr->tree->git_dir);
	char *const argv[] = {
		script.data, "--no-tree", "--terse", "--show-types", "--color=never",
		"--no-summary", "-", NULL,
	};
	const char *const envv[] = { "LC_ALL=C", env.data, NULL };
	struct child c = {
		.argv = argv, .cwd = tr->tree->scratch, .stdin_path = in, .env = envv,
		.max_out = CHECKPATCH_MAX_OUT, .max_err = 0,
		.timeout = CHECKPATCH_TIMEOUT,
	};
	int ret = in ? child_run(&c, &out, NULL, why) : -1;
	if (!in)
		buf_addstr(why, "cannot write the patch for checkpatch");
	size_t n = 0;
	if (ret == 0 || ret == 1) {
		for (char *line = out.data; *line;) {
			char *nl = strchr(line, '\n');
			if (nl)
				*nl = '\0';
			struct checkpatch_report r;
			if (parse_report(line, &r)) {
				*v = xrealloc(*v, (n + 1) * sizeof(**v));
				(*v)[n++] = r;
			}
			line = nl ? nl + 1 : line + strlen(line);
		}
	} else if (ret > 1) {
		buf_addf(why, "scripts/checkpatch.pl failed (status %d)", ret);
	}
	free(in);
	buf_release(&script);
	buf_release(&env);
	buf_release(&out);
	return ret == 0 || ret == 1 ? (int)n : -1;
}

void checkpatch_reports_free(struct checkpatch_report *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].type);
		free(v[i].message);
	}
	free(v);
}
