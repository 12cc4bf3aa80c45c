/* repo.c: git as a child process, and files read from the work tree or a commit. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "base/child.h"
#include "base/msg.h"
#include "base/paths.h"
#include "base/str.h"
#include "base/strvec.h"
#include "repo/repo.h"

/* git on a large tree: seconds at most; a hung one must not hold the draft. */
#define REPO_GIT_TIMEOUT 60.0
#define REPO_MAX_ERR 65536

int repo_git_within(const struct tree *t, const char *const *args, const char *stdin_path,
		    const char *const *env, size_t max_out, double timeout, struct buf *out,
		    struct buf *err, struct buf *why)
{
	struct strvec argv = STRVEC_INIT;
	strvec_push(&argv, "git");
	strvec_push(&argv, "-C");
	strvec_push(&argv, t->top);
	strvec_push(&argv, "--literal-pathspecs");
	/* The tree's config may name a program to run on every index read. */
	strvec_push(&argv, "-c");
	strvec_push(&argv, "core.fsmonitor=false");
	for (size_t i = 0; args[i]; i++)
		strvec_push(&argv, args[i]);
	struct strvec envv = STRVEC_INIT;
	/* No index refresh, no lock, no pager, no prompt, and messages we can read. */
	strvec_push(&envv, "GIT_OPTIONAL_LOCKS=0");
	strvec_push(&envv, "GIT_TERMINAL_PROMPT=0");
	strvec_push(&envv, "LC_ALL=C");
	for (size_t i = 0; env && env[i]; i++)
		strvec_push(&envv, env[i]);
	struct child c = {
		.argv = argv.v, .stdin_path = stdin_path, .env = (const char *const *)envv.v,
		.max_out = max_out, .max_err = REPO_MAX_ERR,
		.timeout = timeout,
	};
	int ret = child_run(&c, out, err, why);
	strvec_clear(&argv);
	strvec_clear(&envv);
	return ret;
}

int repo_git(const struct tree *t, const char *const *args, const char *stdin_path,
	     const char *const *env, size_t max_out, struct buf *out, struct buf *err,
	     struct buf *why)
{
	return repo_git_within(t, args, stdin_path, env, max_out, REPO_GIT_TIMEOUT, out, err,
			       why);
}

bool repo_path_ok(const char *path)
{
	if (!path || !*path || *path == '/')
		return false;
	for (const char *p = path; *p;) {
		size_t n = strcspn(p, "/");
		if (!n || (n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.') ||
		    (n == 4 && !strncasecmp(p, ".git", 4)))
			return false;
		p += n;
		if (*p)
			p++;
	}
	return true;
}

char *repo_scratch_path(const struct tree *t, const char *name)
{
	struct buf b = BUF_INIT;
	buf_addf(&b, "%s/%s", t->scratch, name);
	return buf_detach(&b, NULL);
}

char *repo_scratch_write(const struct tree *t, const char *name, const char *data, size_t len)
{
	char *path = repo_scratch_path(t, name);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	bool ok = fd >= 0;
	for (size_t done = 0; ok && done < len;) {
		ssize_t n = write(fd, data + done, len - done);
		if (n < 0 && errno != EINTR)
			ok = false;
		else if (n > 0)
			done += (size_t)n;
	}
	if (fd >= 0 && close(fd) < 0)
		ok = false;
	if (!ok) {
		free(path);
		return NULL;
	}
	return path;
}

static bool is_hex(const char *s, size_t min, size_t max)
{
	size_t n = strspn(s, "0123456789abcdef");
	return !s[n] && n >= min && n <= max;
}

/* The commit spec names, as a full id (caller frees), or NULL. */
char *repo_resolve_commit(const struct tree *t, const char *id)
{
	struct buf spec = BUF_INIT, out = BUF_INIT, why = BUF_INIT;
	buf_addf(&spec, "%s^{commit}", id);
	const char *const args[] = { "rev-parse", "--verify", "-q", spec.data, NULL };
	char *full = NULL;
	if (!repo_git(t, args, NULL, NULL, 256, &out, NULL, &why)) {
		out.data[strcspn(out.data, "\n")] = '\0';
		if (is_hex(out.data, 40, 64))
			full = buf_detach(&out, NULL);
	}
	buf_release(&spec);
	buf_release(&out);
	buf_release(&why);
	return full;
}

bool repo_has_commit(const struct tree *t, const char *id, char **fullo)
{
	char *full = is_hex(id, 7, 64) ? repo_resolve_commit(t, id) : NULL;
	if (full && fullo)
		*fullo = full;
	else
		free(full);
	return full != NULL;
}
