/* child.c: posix_spawn, two bounded pipes or a file, a deadline. */
/* For posix_spawn_file_actions_addchdir_np (glibc 2.29, musl 1.1.24). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/child.h"
#include "base/clock.h"
#include "base/msg.h"
#include "base/str.h"
#include "base/strvec.h"

extern char **environ;

/* Is the "NAME=value" entry e one of names, or named with one of the prefixes? */
static bool named(const char *e, const char *const *names, const char *const *prefixes)
{
	size_t n = strcspn(e, "=");
	for (size_t i = 0; names && names[i]; i++)
		if (strlen(names[i]) == n && !strncmp(e, names[i], n))
			return true;
	for (size_t i = 0; prefixes && prefixes[i]; i++)
		if (starts_with(e, prefixes[i]))
			return true;
	return false;
}

void child_environment(struct strvec *env, const char *const *pass, const char *const *extra)
{
	static const char *const kept[] = {
		"PATH", "HOME", "TMPDIR", "TZ", "LANG", "LANGUAGE", "XDG_CONFIG_HOME", NULL,
	};
	static const char *const kept_prefixes[] = { "LC_", NULL };
	for (char **e = environ; *e; e++)
		if (named(*e, kept, kept_prefixes) || named(*e, pass, NULL))
			strvec_push(env, *e);
	for (const char *const *e = extra; e && *e; e++)
		strvec_push(env, *e);
}

/* Spawns c with out_fd as its stdout and err_fd as its stderr. */
static pid_t spawn(const struct child *c, int out_fd, int err_fd, struct buf *why)
{
	struct strvec env = STRVEC_INIT;
	child_environment(&env, NULL, c->env);
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, c->stdin_path ? c->stdin_path : "/dev/null",
					 O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, out_fd, 1);
	posix_spawn_file_actions_adddup2(&fa, err_fd, 2);
	if (c->cwd)
		posix_spawn_file_actions_addchdir_np(&fa, c->cwd);
	/*
	 * Its own process group, so that a timeout also ends what it started;
	 * and SIGPIPE as programs expect it (we ignore it, and ignoring is inherited).
	 */
	posix_spawnattr_t attr;
	sigset_t def;
	sigemptyset(&def);
	sigaddset(&def, SIGPIPE);
	posix_spawnattr_init(&attr);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF);
	posix_spawnattr_setpgroup(&attr, 0);
	posix_spawnattr_setsigdefault(&attr, &def);
	pid_t pid;
	int e = posix_spawnp(&pid, c->argv[0], &fa, &attr, c->argv,
			     env.v ? env.v : (char *[]){ NULL });
	posix_spawnattr_destroy(&attr);
	posix_spawn_file_actions_destroy(&fa);
	strvec_clear(&env);
	if (e) {
		buf_addf(why, "cannot run %s: %s", c->argv[0], strerror(e));
		return -1;
	}
	return pid;
}

/* The spawned program gets them as 1 and 2 (dup2 clears the flag); nothing else does. */
static int pipe_cloexec(int fds[2])
{
	if (pipe(fds) < 0)
		return -1;
	fcntl(fds[0], F_SETFD, FD_CLOEXEC);
	fcntl(fds[1], F_SETFD, FD_CLOEXEC);
	return 0;
}

/* Reads both pipes to their ends. Returns 0, or -1 on timeout or too much output. */
static int drain(const struct child *c, int out_fd, int err_fd, struct buf *out,
		 struct buf *err, struct buf *why)
{
	double deadline = clock_now() + c->timeout;
	struct pollfd p[2] = { { out_fd, POLLIN, 0 }, { err_fd, POLLIN, 0 } };
	size_t outlen = 0;
	int ret = 0;
	while (!ret && (p[0].fd >= 0 || p[1].fd >= 0)) {
		int wait = (int)((deadline - clock_now()) * 1000);
		if (wait <= 0 || poll(p, 2, wait) == 0) {
			buf_addf(why, "%s took longer than %.0f s", c->argv[0], c->timeout);
			ret = -1;
			break;
		}
		for (int i = 0; i < 2; i++) {
			if (p[i].fd < 0 || !p[i].revents)
				continue;
			char chunk[16384];
			ssize_t n = read(p[i].fd, chunk, sizeof(chunk));
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0) {
				p[i].fd = -1;
				continue;
			}
			if (i == 0) {
				outlen += (size_t)n;
				if (outlen > c->max_out) {
					buf_addf(why, "%s wrote more than %zu bytes", c->argv[0], c->max_out);
					ret = -1;
				} else if (out) {
					buf_add(out, chunk, (size_t)n);
				}
			} else if (err && err->len + (size_t)n <= c->max_err) {
				buf_add(err, chunk, (size_t)n);
			}
		}
	}
	return ret;
}

int child_run(const struct child *c, struct buf *out, struct buf *err, struct buf *why)
{
	int outp[2] = { -1, -1 }, errp[2] = { -1, -1 };
	if (pipe_cloexec(outp) < 0 || pipe_cloexec(errp) < 0) {
		buf_addf(why, "cannot run %s: %s", c->argv[0], strerror(errno));
		for (int i = 0; i < 2; i++)
			if (outp[i] >= 0)
				close(outp[i]);
		return -1;
	}
	pid_t pid = spawn(c, outp[1], errp[1], why);
	close(outp[1]);
	close(errp[1]);
	int ret = pid < 0 ? -1 : drain(c, outp[0], errp[0], out, err, why);
	close(outp[0]);
	close(errp[0]);
	if (pid < 0)
		return -1;
	if (ret < 0)
		kill(-pid, SIGKILL);
	int status = 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (ret < 0)
		return -1;
	if (WIFSIGNALED(status)) {
		buf_addf(why, "%s died of signal %d", c->argv[0], WTERMSIG(status));
		return -1;
	}
	return WEXITSTATUS(status);
}

pid_t child_start(const struct child *c, const char *out_path, struct buf *why)
{
	int out = open(out_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	pid_t pid = -1;
	if (out < 0 || null < 0)
		buf_addf(why, "cannot run %s: %s", c->argv[0], strerror(errno));
	else
		pid = spawn(c, out, null, why);
	if (out >= 0)
		close(out);
	if (null >= 0)
		close(null);
	return pid;
}

/* The pause between two looks at a child that has not ended yet. */
#define CHILD_WAIT_STEP_NS 5000000L

int child_wait(pid_t pid, const char *name, double deadline, struct buf *why)
{
	int status = 0;
	pid_t got;
	/* Polled: by the time a caller waits, the child has mostly ended. */
	while ((got = waitpid(pid, &status, WNOHANG)) == 0 ||
	       (got < 0 && errno == EINTR)) {
		if (got == 0 && clock_now() >= deadline) {
			kill(-pid, SIGKILL);
			while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
				;
			buf_addf(why, "%s ran out of time", name);
			return -1;
		}
		nanosleep(&(struct timespec){ 0, CHILD_WAIT_STEP_NS }, NULL);
	}
	if (got < 0) {
		buf_addf(why, "cannot wait for %s: %s", name, strerror(errno));
		return -1;
	}
	if (WIFSIGNALED(status)) {
		buf_addf(why, "%s died of signal %d", name, WTERMSIG(status));
		return -1;
	}
	return WEXITSTATUS(status);
}
