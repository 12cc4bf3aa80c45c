/* git.c: git as a child process: posix_spawn, two pipes, poll. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/child.h"
#include "base/msg.h"
#include "base/strvec.h"
#include "evalset/git.h"

/* Of git's stderr, enough for its error line. */
#define GIT_MAX_STDERR 4096

/*
 * Keeps the output plain whatever the user's or the repository's config
 * says, and runs none of the repository's hooks (eval --tree checks out).
 */
static const char *const fixed_args[] = {
	"git", "--no-pager", "-c", "core.quotePath=false", "-c", "color.ui=never",
	"-c", "diff.noprefix=false", "-c", "diff.mnemonicPrefix=false",
	"-c", "log.showSignature=false", "-c", "core.fsmonitor=false",
	"-c", "core.hooksPath=/dev/null", NULL,
};

struct git_proc {
	pid_t pid;
	int out, err;		/* read ends */
	struct buf pending;	/* stdout not yet ended by sep */
	struct buf errors;
	bool stopped;		/* each asked to stop */
};

static void build_argv(struct strvec *argv, struct strvec *env, const char *repo,
		       const char *const *args)
{
	for (size_t i = 0; fixed_args[i]; i++) {
		strvec_push(argv, fixed_args[i]);
		if (i == 1) {
			strvec_push(argv, "-C");
			strvec_push(argv, repo);
		}
	}
	for (size_t i = 0; args[i]; i++)
		strvec_push(argv, args[i]);
	/* Not GIT_DIR and friends, set by a hook we run in: they would point git elsewhere. */
	static const char *const ours[] = {
		"GIT_TERMINAL_PROMPT=0", "GIT_OPTIONAL_LOCKS=0", NULL,
	};
	child_environment(env, NULL, ours);
}

static int start(struct git_proc *ch, const char *repo, const char *const *args,
		 const char *stdin_path)
{
	struct strvec argv = STRVEC_INIT, env = STRVEC_INIT;
	int out[2], err[2];
	build_argv(&argv, &env, repo, args);
	if (pipe(out) < 0) {
		strvec_clear(&argv);
		strvec_clear(&env);
		return error("cannot run git: %s", strerror(errno));
	}
	if (pipe(err) < 0) {
		close(out[0]);
		close(out[1]);
		strvec_clear(&argv);
		strvec_clear(&env);
		return error("cannot run git: %s", strerror(errno));
	}
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, stdin_path ? stdin_path : "/dev/null",
					 O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, out[1], 1);
	posix_spawn_file_actions_adddup2(&fa, err[1], 2);
	for (int i = 0; i < 2; i++) {
		posix_spawn_file_actions_addclose(&fa, out[i]);
		posix_spawn_file_actions_addclose(&fa, err[i]);
	}
	int e = posix_spawnp(&ch->pid, "git", &fa, NULL, argv.v, env.v);
	posix_spawn_file_actions_destroy(&fa);
	close(out[1]);
	close(err[1]);
	strvec_clear(&argv);
	strvec_clear(&env);
	if (e) {
		close(out[0]);
		close(err[0]);
		return error("cannot run git: %s", strerror(e));
	}
	ch->out = out[0];
	ch->err = err[0];
	return 0;
}

/* Hands the complete records in ch->pending to each. Returns 0, or -1. */
static int deliver(struct git_proc *ch, char sep, git_each_fn *each, void *ctx)
{
	size_t from = 0;
	char *end;
	int ret = 0;
	while (!ret && !ch->stopped &&
	       (end = memchr(ch->pending.data + from, sep, ch->pending.len - from))) {
		*end = '\0';
		ret = each(ctx, ch->pending.data + from, (size_t)(end - ch->pending.data) - from);
		if (ret > 0)
			ch->stopped = true, ret = 0;
		from = (size_t)(end - ch->pending.data) + 1;
	}
	memmove(ch->pending.data, ch->pending.data + from, ch->pending.len - from);
	ch->pending.len -= from;
	ch->pending.data[ch->pending.len] = '\0';
	if (!ret && ch->pending.len > GIT_MAX_RECORD)
		ret = error("git printed a record over %zu bytes", GIT_MAX_RECORD);
	return ret;
}

/* Reads what fd has into b, the part past max dropped. Returns 0 at EOF, 1 for more. */
static int drain(int fd, struct buf *b, size_t max)
{
	char chunk[65536];
	ssize_t n = read(fd, chunk, sizeof(chunk));
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return 1;
	if (n <= 0)
		return 0;
	size_t room = b->len < max ? max - b->len : 0;
	buf_add(b, chunk, (size_t)n < room ? (size_t)n : room);
	return 1;
}

/* Reads both pipes to their end, stdout through each. Returns 0, or -1. */
static int pump(struct git_proc *ch, char sep, git_each_fn *each, void *ctx)
{
	bool out_open = true, err_open = true;
	int ret = 0;
	while (out_open || err_open) {
		struct pollfd p[2] = {
			{ .fd = out_open ? ch->out : -1, .events = POLLIN },
			{ .fd = err_open ? ch->err : -1, .events = POLLIN },
		};
		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			return error("cannot read from git: %s", strerror(errno));
		}
		if (p[0].revents && !(out_open = drain(ch->out, &ch->pending, SIZE_MAX)) &&
		    ch->pending.len)
			buf_addch(&ch->pending, sep);	/* a last record without its end */
		if (p[0].revents && !ret)
			ret = deliver(ch, sep, each, ctx);
		if (p[1].revents)
			err_open = drain(ch->err, &ch->errors, GIT_MAX_STDERR);
		if (ret || ch->stopped)
			break;
	}
	return ret;
}

/* Waits for git; its failure is one line naming the subcommand (args[0]). */
static int finish(struct git_proc *ch, const char *const *args, int ret)
{
	int status = 0;
	if (ret || ch->stopped)
		kill(ch->pid, SIGTERM);
	close(ch->out);
	close(ch->err);
	while (waitpid(ch->pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!ret && !ch->stopped && !(WIFEXITED(status) && !WEXITSTATUS(status))) {
		size_t len = strcspn(ch->errors.data, "\n");
		ret = error("git %s failed: %.*s", args[0], (int)len,
			    len ? ch->errors.data : "no message");
	}
	buf_release(&ch->pending);
	buf_release(&ch->errors);
	return ret;
}

int git_each(const char *repo, const char *const *args, const char *stdin_path,
	     char sep, git_each_fn *each, void *ctx)
{
	struct git_proc ch = { .pending = BUF_INIT, .errors = BUF_INIT };
	if (start(&ch, repo, args, stdin_path) < 0)
		return -1;
	return finish(&ch, args, pump(&ch, sep, each, ctx));
}

struct whole {
	struct buf *out;
	size_t max;
	bool too_big;
};

static int add_whole(void *ctx, char *record, size_t len)
{
	struct whole *w = ctx;
	if (w->out->len + len + 1 > w->max) {
		w->too_big = true;
		return 1;
	}
	buf_add(w->out, record, len);
	buf_addch(w->out, '\n');
	return 0;
}

int git_read(const char *repo, const char *const *args, size_t max, struct buf *out)
{
	struct whole w = { out, max, false };
	int ret = git_each(repo, args, NULL, '\n', add_whole, &w);
	return ret < 0 ? -1 : w.too_big ? 1 : 0;
}
