/* env.c: a child's environment, from a list of what may pass. */
#include <stdbool.h>
#include <string.h>

#include "base/env.h"
#include "base/str.h"

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
