/* strvec.c: a NULL-terminated vector of owned strings. */
#include <stdlib.h>
#include <string.h>

#include "base/msg.h"
#include "base/strvec.h"

void strvec_push_take(struct strvec *sv, char *s)
{
	sv->v = xrealloc(sv->v, (sv->n + 2) * sizeof(*sv->v));
	sv->v[sv->n++] = s;
	sv->v[sv->n] = NULL;
}

void strvec_push(struct strvec *sv, const char *s)
{
	strvec_push_take(sv, xstrdup(s));
}

void strvec_split(struct strvec *sv, const char *s, const char *seps)
{
	for (;;) {
		s += strspn(s, seps);
		if (!*s)
			return;
		size_t len = strcspn(s, seps);
		strvec_push_take(sv, xstrndup(s, len));
		s += len;
	}
}

bool strvec_has(const struct strvec *sv, const char *s)
{
	for (size_t i = 0; i < sv->n; i++)
		if (!strcmp(sv->v[i], s))
			return true;
	return false;
}

void strvec_clear(struct strvec *sv)
{
	for (size_t i = 0; i < sv->n; i++)
		free(sv->v[i]);
	free(sv->v);
	sv->v = NULL;
	sv->n = 0;
}
