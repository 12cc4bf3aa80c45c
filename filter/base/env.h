/* env.h: the environment a child process gets from us. */
#ifndef ENV_H
#define ENV_H

#include "base/strvec.h"

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
