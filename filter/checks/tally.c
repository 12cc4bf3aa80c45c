/* tally.c: one finding for many lines. */
#include <string.h>

#include "checks/tally.h"

void tally_report(struct review *r, const struct tally *t, enum severity sev,
		  const char *id, const char *text, const char *path)
{
	size_t n = strlen(text);
	const char *stop = n && (text[n - 1] == '?' || text[n - 1] == '.') ? "" : ".";
	if (t->count == 1)
		review_add(r, t->first, sev, id, "%s%s", text, stop);
	else if (t->count > 1)
		review_add(r, t->first, sev, id, "%s%s The same goes for %zu more added line%s in %s.",
			   text, stop, t->count - 1, t->count == 2 ? "" : "s", path);
}
