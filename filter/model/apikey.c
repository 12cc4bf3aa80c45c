/* apikey.c: reading the API key from the environment or a command. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/msg.h"
#include "base/strvec.h"
#include "model/apikey.h"

extern char **environ;

/* A key is a line; anything longer is not one. */
#define APIKEY_MAX 4096

void apikey_free(char *key)
{
	if (key)
		explicit_bzero(key, strlen(key));
	free(key);
}

static pid_t spawn(char **argv, int *outo, struct buf *why)
{
	int fds[2];
	if (pipe(fds) < 0) {
		buf_addf(why, "api_key_command: %s", strerror(errno));
		return -1;
	}
	posix_spawn_file_actions_t actions;
	posix_spawn_file_actions_init(&actions);
	posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
	posix_spawn_file_actions_addclose(&actions, fds[0]);
	posix_spawn_file_actions_addclose(&actions, fds[1]);
	pid_t pid;
	int err = posix_spawnp(&pid, argv[0], &actions, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&actions);
	close(fds[1]);
	if (err) {
		close(fds[0]);
		buf_addf(why, "cannot run api_key_command '%s': %s", argv[0], strerror(err));
		return -1;
	}
	*outo = fds[0];
	return pid;
}

/* Reads up to APIKEY_MAX bytes until EOF; -1 on timeout. */
static int read_bounded(int fd, char *out, size_t *leno)
{
	double deadline = clock_now() + APIKEY_TIMEOUT;
	size_t len = 0;
	for (;;) {
		int wait = (int)((deadline - clock_now()) * 1000);
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		if (wait <= 0 || poll(&pfd, 1, wait) == 0)
			return -1;
		ssize_t n = read(fd, out + len, APIKEY_MAX - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
		if (len == APIKEY_MAX)
			break;
	}
	*leno = len;
	return 0;
}

static int run_command(const char *command, char **keyo, struct buf *why)
{
	/* Split on blanks; no quoting, no expansion: the command is not shell text. */
	struct strvec args = STRVEC_INIT;
	strvec_split(&args, command, " \t");
	char **argv = args.v;
	int fd = -1, ret = -1, status = 0;
	char out[APIKEY_MAX + 1];
	size_t len = 0;
	pid_t pid = argv ? spawn(argv, &fd, why) : -1;
	if (!argv)
		buf_addstr(why, "api_key_command is empty");
	if (pid < 0)
		goto out;
	bool timed_out = read_bounded(fd, out, &len) < 0;
	close(fd);
	if (timed_out)
		kill(pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	out[len] = '\0';
	out[strcspn(out, "\r\n")] = '\0';
	len = strlen(out);
	while (len && (out[len - 1] == ' ' || out[len - 1] == '\t'))
		out[--len] = '\0';
	if (timed_out)
		buf_addf(why, "api_key_command took longer than %d s", APIKEY_TIMEOUT);
	else if (!WIFEXITED(status) || WEXITSTATUS(status))
		buf_addf(why, "api_key_command '%s' failed (status %d)", argv[0],
			 WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
	else if (!len)
		buf_addf(why, "api_key_command '%s' printed no key", argv[0]);
	else
		*keyo = xstrdup(out), ret = 0;
out:
	explicit_bzero(out, sizeof(out));
	strvec_clear(&args);
	return ret;
}

/* A key goes into an HTTP header: a line break there would add headers. */
static int check_key(char **keyo, struct buf *why)
{
	for (const char *p = *keyo; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f) {
			apikey_free(*keyo);
			*keyo = NULL;
			buf_addstr(why, "the API key holds control characters");
			return -1;
		}
	return 0;
}

int apikey_get(const struct config *c, const char *default_env, char **keyo, struct buf *why)
{
	*keyo = NULL;
	if (c->api_key_command)
		return run_command(c->api_key_command, keyo, why) < 0 ? -1 : check_key(keyo, why);
	const char *name = c->api_key_env ? c->api_key_env : default_env;
	const char *value = name ? getenv(name) : NULL;
	if (value && *value) {
		*keyo = xstrdup(value);
		return check_key(keyo, why);
	}
	if (c->api_key_env) {
		buf_addf(why, "no API key: $%s is not set", c->api_key_env);
		return -1;
	}
	return 0;
}
