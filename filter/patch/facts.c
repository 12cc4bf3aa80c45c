/* facts.c: the pull request, the base and the prerequisites a mail states. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "base/msg.h"
#include "base/text.h"
#include "patch/facts.h"

/* The value of a "key: value" line: after the blanks, without trailing blanks; or false. */
static bool value_of(const struct patch_line *l, const char *key, struct line_view *v)
{
	size_t n = strlen(key);
	if (l->len < n || memcmp(l->text, key, n))
		return false;
	const char *s = l->text + n, *end = l->text + l->len;
	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	while (end > s && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
		end--;
	*v = (struct line_view){ s, (size_t)(end - s) };
	return true;
}

/* v as lower-case hex when it is min to max hex digits, else NULL. Caller frees. */
static char *hex_id(const struct line_view *v, size_t min, size_t max)
{
	if (v->len < min || v->len > max)
		return NULL;
	for (size_t i = 0; i < v->len; i++)
		if (!isxdigit((unsigned char)v->s[i]))
			return NULL;
	char *id = xstrndup(v->s, v->len);
	for (char *c = id; *c; c++)
		*c = (char)tolower((unsigned char)*c);
	return id;
}

/* "<id>" or "id" as an id without <>, when it is one token; else NULL. Caller frees. */
static char *message_id(const struct line_view *v)
{
	struct line_view id = *v;
	if (id.len >= 2 && id.s[0] == '<' && id.s[id.len - 1] == '>')
		id = (struct line_view){ id.s + 1, id.len - 2 };
	return text_is_token(id.s, id.len, TEXT_MAX_MESSAGE_ID) ? xstrndup(id.s, id.len) : NULL;
}

static void add(struct strvec *list, char *id)
{
	if (id && list->n < PATCH_MAX_PREREQUISITES)
		strvec_push_take(list, id);
	else
		free(id);
}

void patch_parse_facts(struct patch *p)
{
	p->pull_request = p->subject.is_pull && !p->subject.index;
	for (size_t i = 0; i < p->nlines; i++) {
		const struct patch_line *l = &p->lines[i];
		struct line_view v;
		if (!p->base_commit && value_of(l, "base-commit:", &v))
			p->base_commit = hex_id(&v, 7, 64);
		else if (value_of(l, "prerequisite-patch-id:", &v))
			add(&p->prerequisite_ids, hex_id(&v, 40, 40));
		else if (value_of(l, "prerequisite-message-id:", &v))
			add(&p->prerequisite_msgids, message_id(&v));
	}
}
