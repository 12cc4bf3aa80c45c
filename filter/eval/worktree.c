/* worktree.c: a detached work tree per review slot, at each case's parent. */
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "base/buf.h"
#include "base/msg.h"
#include "eval/worktree.h"
#include "evalset/git.h"

/* What git prints here is a line or two of progress; more is not read. */
#define WORKTREE_MAX_OUT 65536

char *worktree_path(const char *run_dir, size_t slot)
{
	/* Absolute: git reads it relative to the repository. */
	char *dir = realpath(run_dir, NULL);
	struct buf b = BUF_INIT;
	buf_addf(&b, "%s/trees/%zu", dir ? dir : run_dir, slot);
	free(dir);
	return buf_detach(&b, NULL);
}

/* Runs git in dir; its output is not needed, its failure is one line on stderr. */
static int git_quiet(const char *dir, const char *const *args)
{
	struct buf out = BUF_INIT;
	int ret = git_read(dir, args, WORKTREE_MAX_OUT, &out);
	buf_release(&out);
	return ret < 0 ? -1 : 0;
}

int worktree_at_parent(const char *repo, const char *path, const char *sha)
{
	struct buf parent = BUF_INIT, dot_git = BUF_INIT;
	struct stat st;
	buf_addf(&parent, "%s^", sha);
	buf_addf(&dot_git, "%s/.git", path);
	int ret;
	if (!stat(dot_git.data, &st)) {
		const char *const args[] = {
			"checkout", "-q", "--detach", "--force", parent.data, "--", NULL,
		};
		ret = git_quiet(path, args);
	} else {
		static const char *const prune[] = { "worktree", "prune", NULL };
		const char *const args[] = {
			"worktree", "add", "-q", "--detach", "--force", path, parent.data, NULL,
		};
		ret = git_quiet(repo, prune) < 0 ? -1 : git_quiet(repo, args);
	}
	buf_release(&parent);
	buf_release(&dot_git);
	return ret;
}

void worktree_remove(const char *repo, const char *path)
{
	struct stat st;
	if (stat(path, &st))
		return;
	const char *const args[] = { "worktree", "remove", "--force", path, NULL };
	git_quiet(repo, args);
}
