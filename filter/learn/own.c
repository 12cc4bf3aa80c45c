/* own.c: the fingerprints a draft names in patchreview's own hand. */
#include <string.h>

#include "base/msg.h"
#include "learn/own.h"
#include "review/fingerprint.h"

/* The fingerprints at the start of s, blank-separated, up to the first word that is none. */
static void add_list(struct strvec *fps, const char *s)
{
	char fp[FINGERPRINT_LEN + 1];
	for (;;) {
		s += strspn(s, " \t");
		size_t len = strcspn(s, " \t\n]");
		if (len != FINGERPRINT_LEN || fps->n >= OWN_FINGERPRINTS_MAX)
			return;
		memcpy(fp, s, len);
		fp[len] = '\0';
		if (!fingerprint_valid(fp))
			return;
		strvec_push(fps, fp);
		s += len;
	}
}

/* The last line of text that starts with MAIL_FINGERPRINTS_LINE, past the mark; or NULL. */
static const char *last_own_line(const char *text)
{
	size_t mark = strlen(MAIL_FINGERPRINTS_LINE);
	const char *found = NULL;
	for (const char *s = text; s && *s;) {
		if (!strncmp(s, MAIL_FINGERPRINTS_LINE, mark))
			found = s + mark;
		const char *nl = strchr(s, '\n');
		s = nl ? nl + 1 : NULL;
	}
	return found;
}

void own_fingerprints(const struct mail *m, struct strvec *fps)
{
	if (m->fingerprints) {
		add_list(fps, m->fingerprints);
		return;
	}
	const char *line = m->text ? last_own_line(m->text) : NULL;
	if (line)
		add_list(fps, line);
}
