/*
 * child.h: running a program without a shell: argv as given, stdin from a
 * file or /dev/null, stdout and stderr read into bounded buffers, a
 * deadline after which the child is killed.
 */
#ifndef CHILD_H
#define CHILD_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "base/buf.h"
#include "base/strvec.h"

struct child {
	char *const *argv;	/* argv[0] is looked up in PATH unless it has a '/' */
	const char *cwd;	/* run there, or NULL for ours */
	const char *stdin_path;	/* or NULL for /dev/null */
	const char *const *env;	/* "NAME=value" to add, NULL-terminated, or NULL */
	size_t max_out;		/* more stdout than this is a failure */
	size_t max_err;		/* stderr kept up to this; the rest is read and dropped */
	double timeout;		/* seconds */
};

/*
 * Runs c in the environment child_environment() makes (with c->env
 * added), appending its stdout to *out and its stderr to *err (either may
 * be NULL to drop it). Returns the exit status (0-255), or -1 with the
 * reason in *why when it could not be started, ran out of time, wrote too
 * much or died of a signal.
 */
int child_run(const struct child *c, struct buf *out, struct buf *err, struct buf *why);

/*
 * Starts c in the background (its timeout, max_out and max_err unused):
 * stdout into the file out_path, created or emptied, stderr dropped.
 * Returns its pid for child_wait(), or -1 with the reason in *why.
 */
pid_t child_start(const struct child *c, const char *out_path, struct buf *why);

/*
 * Waits for a child child_start() started (name for the messages) until
 * deadline (clock_now() seconds), then kills it and what it started.
 * Returns its exit status (0-255), or -1 with the reason in *why when it
 * ran out of time or died of a signal.
 */
int child_wait(pid_t pid, const char *name, double deadline, struct buf *why);

/*
 * The environment of every child process, into *env: of ours only PATH,
 * HOME, TMPDIR, TZ, LANG, LANGUAGE, LC_* and XDG_CONFIG_HOME (where git
 * finds its config), then the variables named in pass (NULL-terminated,
 * or NULL) that we have, then extra ("NAME=value", or NULL). So no child
 * sees an API key, a token, or a GIT_* variable that would point git at
 * another repository, whatever our environment holds.
 */
void child_environment(struct strvec *env, const char *const *pass, const char *const *extra);

#endif
