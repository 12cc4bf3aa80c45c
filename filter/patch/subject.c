/* subject.c: "[RFC PATCH net-next v3 2/7] title" -> version, index, tags, title. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/buf.h"
#include "base/msg.h"
#include "base/str.h"
#include "patch/subject.h"

static const char *skip_space(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* "v3" or "V3" -> 3; returns 0 if word is not a version. */
static unsigned parse_version(const char *w, size_t len)
{
	if (len < 2 || (w[0] != 'v' && w[0] != 'V'))
		return 0;
	unsigned v = 0;
	for (size_t i = 1; i < len; i++) {
		if (!isdigit((unsigned char)w[i]) || v > 10000)
			return 0;
		v = v * 10 + (unsigned)(w[i] - '0');
	}
	return v;
}

/* "2/7" or "02/14" -> index and total. */
static int parse_index(const char *w, size_t len, unsigned *index, unsigned *total)
{
	char tmp[32];
	if (len >= sizeof(tmp))
		return -1;
	memcpy(tmp, w, len);
	tmp[len] = '\0';
	char *slash = strchr(tmp, '/'), *end;
	if (!slash || slash == tmp || !isdigit((unsigned char)slash[1]))
		return -1;
	unsigned long i = strtoul(tmp, &end, 10);
	if (end != slash)
		return -1;
	unsigned long t = strtoul(slash + 1, &end, 10);
	if (*end || i > t || t > 100000)
		return -1;
	*index = (unsigned)i;
	*total = (unsigned)t;
	return 0;
}

static bool word_is(const char *w, size_t len, const char *name)
{
	return strlen(name) == len && !strncasecmp(w, name, len);
}

/* The word at w, up to a blank or end. */
static size_t word_len(const char *w, const char *end)
{
	const char *e = w;
	while (e < end && *e != ' ' && *e != '\t')
		e++;
	return (size_t)(e - w);
}

static bool all_digits(const char *w, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (!isdigit((unsigned char)w[i]))
			return false;
	return len > 0 && len < 7;
}

/*
 * Mercurial's patchbomb writes "[PATCH 2 of 7]": at w, "2 of 7" sets
 * index and total and returns where it ends; otherwise returns NULL.
 */
static const char *parse_of_index(struct subject_prefix *s, const char *w, const char *end)
{
	size_t n1 = word_len(w, end);
	if (!all_digits(w, n1))
		return NULL;
	const char *of = skip_space(w + n1);
	if (of >= end || !word_is(of, word_len(of, end), "of"))
		return NULL;
	const char *t = skip_space(of + 2);
	size_t n2 = t < end ? word_len(t, end) : 0;
	unsigned long i = strtoul(w, NULL, 10), total = n2 ? strtoul(t, NULL, 10) : 0;
	if (!all_digits(t, n2) || i > total)
		return NULL;
	s->index = (unsigned)i;
	s->total = (unsigned)total;
	return t + n2;
}

/* Reads the words of one [...] group into s. */
static void parse_brackets(struct subject_prefix *s, const char *w, const char *end,
			   struct buf *tags)
{
	while (w < end) {
		w = skip_space(w);
		size_t len = word_len(w, end);
		if (!len)
			break;
		const char *e = w + len, *of_end = parse_of_index(s, w, end);
		unsigned v;
		if (of_end) {
			e = of_end;
		} else if (word_is(w, len, "PATCH") || word_is(w, len, "PATCHv") ||
		    word_is(w, len, "PATCHES")) {
			s->is_patch = true;
		} else if (len > 5 && !strncasecmp(w, "PATCH", 5) &&
			   (v = parse_version(w + 5, len - 5))) {
			s->is_patch = true;	/* [PATCHv2] */
			s->version = v;
		} else if (word_is(w, len, "RFC")) {
			s->is_rfc = true;
			s->is_patch = true;
		} else if (word_is(w, len, "PULL") || word_is(w, len, "GIT")) {
			if (word_is(w, len, "PULL"))
				s->is_pull = true;
		} else if ((v = parse_version(w, len))) {
			s->version = v;
		} else if (parse_index(w, len, &s->index, &s->total) < 0) {
			if (tags->len)
				buf_addch(tags, ' ');
			buf_add(tags, w, len);
		}
		w = e;
	}
}

void subject_parse(struct subject_prefix *s, const char *subject)
{
	struct buf tags = BUF_INIT;
	memset(s, 0, sizeof(*s));
	s->version = 1;
	const char *p = skip_space(subject);
	for (;;) {
		bool reply = starts_with_nocase(p, "re:") || starts_with_nocase(p, "aw:");
		if (reply || starts_with_nocase(p, "fwd:")) {
			s->is_reply |= reply;
			p = skip_space(strchr(p, ':') + 1);
			continue;
		}
		if (*p != '[')
			break;
		const char *close = strchr(p, ']');
		if (!close)
			break;
		parse_brackets(s, p + 1, close, &tags);
		p = skip_space(close + 1);
	}
	s->tags = buf_detach(&tags, NULL);
	s->title = xstrdup(p);
}

/*
 * "Re:", "RE :", "Aw:", "Sv:", "Re[2]:", "答复:", "回复：" at s, as mutt's
 * $reply_regex and Outlook write them: their length with the blanks after,
 * or 0.
 */
static size_t reply_prefix(const char *s)
{
	static const char *const words[] = {
		"re", "aw", "sv", "\xe7\xad\x94\xe5\xa4\x8d", "\xe5\x9b\x9e\xe5\xa4\x8d",
	};
	for (size_t i = 0; i < sizeof(words) / sizeof(*words); i++) {
		size_t n = strlen(words[i]);
		if (strncasecmp(s, words[i], n))
			continue;
		const char *p = s + n;
		if (*p == '[') {
			p += 1 + strspn(p + 1, "0123456789");
			if (*p++ != ']')
				continue;
		}
		p = skip_space(p);
		if (*p == ':')
			p++;
		else if (starts_with(p, "\xef\xbc\x9a"))	/* a full-width colon */
			p += 3;
		else
			continue;
		return (size_t)(skip_space(p) - s);
	}
	return 0;
}

/* Is the bracket group [w, end) a patch's prefix, not a list's tag? */
static bool is_patch_group(const char *w, const char *end)
{
	struct subject_prefix s;
	struct buf tags = BUF_INIT;
	memset(&s, 0, sizeof(s));
	parse_brackets(&s, w, end, &tags);
	buf_release(&tags);
	return s.is_patch || s.is_pull || s.version || s.total;
}

const char *subject_reply_base(const char *subject)
{
	const char *p = skip_space(subject);
	for (;;) {
		size_t n = reply_prefix(p);
		const char *close = *p == '[' ? strchr(p, ']') : NULL;
		if (n) {
			p += n;
		} else if (close && !is_patch_group(p + 1, close) &&
			   (reply_prefix(skip_space(close + 1)) || *skip_space(close + 1) == '[')) {
			p = skip_space(close + 1);	/* "[list] Re: ..." or "[list] [PATCH] ..." */
		} else {
			return p;
		}
	}
}

void subject_release(struct subject_prefix *s)
{
	free(s->tags);
	free(s->title);
	memset(s, 0, sizeof(*s));
}
