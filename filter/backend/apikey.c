/* apikey.c: reading the API key from the environment or a command. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

#include "backend/apikey.h"
#include "base/child.h"
#include "base/clock.h"
#include "base/msg.h"
#include "base/strvec.h"

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
	/*
	 * The user's own command, which must reach their key store: the
	 * minimal environment and the session that store is found by.
	 */
	static const char *const session[] = {
		"XDG_RUNTIME_DIR", "DBUS_SESSION_BUS_ADDRESS", "GNUPGHOME", "GPG_TTY",
		"DISPLAY", "WAYLAND_DISPLAY", "USER", "LOGNAME", NULL,
	};
	struct strvec env = STRVEC_INIT;
	child_environment(&env, session, NULL);
	pid_t pid;
	int err = posix_spawnp(&pid, argv[0], &actions, NULL, argv,
			       env.v ? env.v : (char *[]){ NULL });
	strvec_clear(&env);
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

/* The "scheme://authority" of url, to compare origins exactly. */
static size_t origin_length(const char *url)
{
	const char *sep = strstr(url, "://");
	return sep ? (size_t)(sep + 3 - url) + strcspn(sep + 3, "/?#") : 0;
}

/* Does url go to the service the backend's usual key belongs to? */
static bool own_service(const char *url, const char *default_url)
{
	size_t n = origin_length(url);
	return n && n == origin_length(default_url) && !strncasecmp(url, default_url, n);
}

/* The host of url, without userinfo, port or IPv6 brackets, into *host. */
static void url_host(const char *url, struct buf *host)
{
	const char *sep = strstr(url, "://");
	const char *start = sep ? sep + 3 : url;
	size_t len = strcspn(start, "/?#");
	for (size_t i = len; i-- > 0;)
		if (start[i] == '@') {
			start += i + 1;
			len -= i + 1;
			break;
		}
	if (*start == '[') {
		const char *close = memchr(start, ']', len);
		len = close ? (size_t)(close - start - 1) : len - 1;
		start++;
	} else {
		const char *colon = memchr(start, ':', len);
		len = colon ? (size_t)(colon - start) : len;
	}
	buf_add(host, start, len);
}

/* Loopback servers (Ollama, llama.cpp, LM Studio) usually want no key. */
static bool is_loopback(const char *host)
{
	if (!strcasecmp(host, "localhost") || !strcmp(host, "::1") || !strcmp(host, "0.0.0.0"))
		return true;
	return !strncmp(host, "127.", 4) && strspn(host, "0123456789.") == strlen(host);
}

/* The key configured in so many words: any host may have it. */
static int configured_key(const struct config *c, char **keyo, struct buf *why)
{
	if (c->api_key_command)
		return run_command(c->api_key_command, keyo, why) < 0 ? -1 : check_key(keyo, why);
	const char *value = getenv(c->api_key_env);
	if (!value || !*value) {
		buf_addf(why, "no API key: $%s is not set", c->api_key_env);
		return -1;
	}
	*keyo = xstrdup(value);
	return check_key(keyo, why);
}

int apikey_get(const struct config *c, const struct wire *w, const char *url,
	       char **keyo, struct buf *why)
{
	*keyo = NULL;
	if (c->api_key_command || c->api_key_env)
		return configured_key(c, keyo, why);
	if (!w->default_key_env)
		return 0;
	bool own = own_service(url, w->default_url);
	const char *value = own ? getenv(w->default_key_env) : NULL;
	if (value && *value) {
		*keyo = xstrdup(value);
		return check_key(keyo, why);
	}
	struct buf host = BUF_INIT;
	url_host(url, &host);
	int ret = 0;
	if (own) {
		buf_addf(why, "no API key: set %s or api_key_command", w->default_key_env);
		ret = -1;
	} else if (!is_loopback(host.data)) {
		buf_addf(why, "no API key for %s: set api_key_env or api_key_command "
			 "(%s is sent only to %s)", host.data, w->default_key_env, w->default_url);
		ret = -1;
	}
	buf_release(&host);
	return ret;
}
