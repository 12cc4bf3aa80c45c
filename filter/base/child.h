/*
 * child.h: running a program without a shell: argv as given, stdin from a
 * file or /dev/null, stdout and stderr read into bounded buffers, a
 * deadline after which the child is killed.
 */
#ifndef CHILD_H
#define CHILD_H

#include <stdbool.h>
#include <stddef.h>

#include "base/buf.h"

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
 * Runs c in the environment of base/env.h (with c->env added), appending its stdout to *out and its stderr to *err (either may
 * be NULL to drop it). Returns the exit status (0-255), or -1 with the
 * reason in *why when it could not be started, ran out of time, wrote too
 * much or died of a signal.
 */
int child_run(const struct child *c, struct buf *out, struct buf *err, struct buf *why);

#endif
