/*
 * message.c: the commit message's own structure: an in-body "From:" line
 * naming the author, and the trailer block at its end, found by git's rule.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/msg.h"
#include "base/text.h"
#include "patch/message.h"

/*
 * "Key: value", as git's find_separator() reads it: a key of letters,
 * digits and dashes, maybe blanks, then the colon. Returns the key's
 * length, or 0 when the line is no trailer.
 */
static size_t trailer_key_len(const struct patch_line *l)
{
	const char *s = l->text;
	size_t i = 0;
	while (isalnum((unsigned char)s[i]) || s[i] == '-')
		i++;
	size_t key = i;
	while (i && (s[i] == ' ' || s[i] == '\t'))
		i++;
	return key && s[i] == ':' ? key : 0;
}

/* git's is_scissors_line(): "-- >8 --", "- - >8 - - cut here - - >8 - -"... */
static bool scissors_line(const char *line)
{
	int scissors = 0, gap = 0, perforation = 0;
	bool in_perforation = false;
	const char *first = NULL, *last = NULL;
	for (const char *c = line; *c; c++) {
		if (isspace((unsigned char)*c)) {
			if (in_perforation) {
				perforation++;
				gap++;
			}
			continue;
		}
		last = c;
		if (!first)
			first = c;
		if (*c == '-') {
			in_perforation = true;
			perforation++;
			continue;
		}
		if (starts_with(c, ">8") || starts_with(c, "8<") || starts_with(c, ">%") ||
		    starts_with(c, "%<")) {
			in_perforation = true;
			perforation += 2;
			scissors += 2;
			c++;
			continue;
		}
		in_perforation = false;
	}
	/* At least "-- >8 --"; the perforation over a third of the line, mostly marks. */
	long visible = first ? (long)(last - first) + 1 : 0;
	return scissors && visible >= 8 && visible < perforation * 3 && gap * 2 < perforation;
}

size_t patch_scissors_end(const struct patch *p)
{
	size_t begin = 0;
	for (size_t i = 0; i < p->message_end; i++)
		if (scissors_line(p->lines[i].text))
			begin = i + 1;
	return begin;
}

/*
 * The "From:" of the header block opening the message at line i, if any:
 * "From: Name <addr>" (git format-patch for someone else's patch) or, in
 * a pasted or attached format-patch, the whole "From <sha> Mon Sep 17 ..."
 * header block; header or trailer lines up to the first blank one.
 */
static void read_inbody_from(struct patch *p, size_t i)
{
	while (i < p->message_end && patch_line_is_blank(&p->lines[i]))
		i++;
	if (i < p->message_end && patch_line_starts(&p->lines[i], "From ") &&
	    !patch_line_starts(&p->lines[i], "From: "))
		i++;
	for (; i < p->message_end && !patch_line_is_blank(&p->lines[i]); i++) {
		const struct patch_line *l = &p->lines[i];
		if (patch_line_starts(l, "From: ") && !p->inbody_from) {
			p->inbody_from = text_clean_dup(l->text + 6, TEXT_ONE_LINE);
		} else if (!trailer_key_len(l) && l->text[0] != ' ' && l->text[0] != '\t') {
			break;
		}
	}
}

/*
 * The author's in-body "From:": at the top of the part carrying the patch
 * when that part is an attached format-patch mail (line part), else at the
 * top of the body, after the last scissors line.
 */
static void parse_inbody_headers(struct patch *p, size_t part)
{
	size_t scissors = patch_scissors_end(p);
	if (part)
		read_inbody_from(p, part > scissors ? part : scissors);
	if (!p->inbody_from)
		read_inbody_from(p, scissors);
}

/*
 * Trailers that mark a block as trailers even among other lines: what git
 * itself writes, and the ones kernel tools add (git's trailer.<key>
 * configuration does the same for a project).
 */
static bool is_recognised(const struct patch_line *l, size_t keylen)
{
	static const char *const known[] = {
		"Signed-off-by", "Reviewed-by", "Acked-by", "Tested-by", "Reported-by",
		"Suggested-by", "Co-developed-by", "Fixes", "Link", "Closes", "Cc",
		"Reported-and-tested-by", "Message-ID", "Change-Id", "Assisted-by",
	};
	if (patch_line_starts(l, "(cherry picked from commit "))
		return true;
	for (size_t i = 0; keylen && i < sizeof(known) / sizeof(*known); i++)
		if (strlen(known[i]) == keylen && !strncasecmp(l->text, known[i], keylen))
			return true;
	return false;
}

/*
 * The first line of the trailer block that ends before line end, or
 * SIZE_MAX when there is none. git's rule (trailer.c,
 * find_trailer_block_start): the last paragraph is the trailer block when
 * all its lines are trailers, or when one of them is recognised and
 * trailers make up at least a quarter of it. A line opening with a blank
 * continues the line above, trailer or not; "[ tglx: notes ]" and prose
 * count as other lines; "#" comments do not count. The body's first
 * paragraph can be trailers: the subject is the paragraph before it.
 */
static size_t trailer_block(const struct patch *p, size_t end)
{
	size_t trailers = 0, others = 0, continuations = 0, begin = 0;
	bool recognised = false;
	for (size_t i = end; i-- > 0;) {
		const struct patch_line *l = &p->lines[i];
		size_t key = trailer_key_len(l);
		if (l->text[0] == '#') {
			others += continuations;
			continuations = 0;
		} else if (patch_line_is_blank(l)) {
			begin = i + 1;
			break;
		} else if (key || patch_line_starts(l, "(cherry picked from commit ")) {
			trailers++;
			continuations = 0;
			recognised |= is_recognised(l, key);
		} else if (isspace((unsigned char)l->text[0])) {
			continuations++;
		} else {
			others += 1 + continuations;
			continuations = 0;
		}
	}
	others += continuations;
	if ((recognised && trailers * 3 >= others) || (trailers && !others))
		return begin;
	return SIZE_MAX;
}

static void add_trailer(struct patch *p, size_t line, size_t keylen)
{
	const char *text = p->lines[line].text;
	const char *value = strchr(text + keylen, ':') + 1;
	while (*value == ' ' || *value == '\t')
		value++;
	size_t vlen = strlen(value);
	while (vlen && isspace((unsigned char)value[vlen - 1]))
		vlen--;
	p->trailers = xrealloc(p->trailers, (p->ntrailers + 1) * sizeof(*p->trailers));
	p->trailers[p->ntrailers++] = (struct trailer){
		.key = xstrndup(text, keylen),
		.value = xstrndup(value, vlen),
		.line = line,
	};
	p->lines[line].kind = LINE_TRAILER;
}

static void parse_trailers(struct patch *p)
{
	size_t end = p->message_end;
	while (end > 0 && patch_line_is_blank(&p->lines[end - 1]))
		end--;
	size_t begin = trailer_block(p, end);
	if (begin == SIZE_MAX)
		return;
	bool in_trailer = false;
	for (size_t i = begin; i < end; i++) {
		const struct patch_line *l = &p->lines[i];
		size_t key = trailer_key_len(l);
		if (key) {
			add_trailer(p, i, key);
			in_trailer = true;
		} else if (in_trailer && isspace((unsigned char)l->text[0])) {
			p->lines[i].kind = LINE_TRAILER;	/* a wrapped value */
		} else {
			in_trailer = false;
		}
	}
}

void patch_parse_message(struct patch *p, size_t part)
{
	parse_inbody_headers(p, part);
	parse_trailers(p);
}
