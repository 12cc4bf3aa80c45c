/*
 * log.c: the commit message as prose: a description at all, lines wrapped
 * at 75 columns, and the kernel's conventions for what it refers to:
 * commits as 'commit 0123456789ab ("subject")', bot reports with their
 * Closes: link, the stable list by its address and in the trailers, and no
 * Gerrit Change-Id.
 */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "base/buf.h"
#include "base/str.h"
#include "base/text.h"
#include "checks/body.h"
#include "checks/checks.h"
#include "checks/rules.h"
#include "checks/tally.h"

#define LOG_COLUMNS 75

/* strstr(), ASCII case aside. */
static const char *find_nocase(const char *s, const char *needle)
{
	for (; *s; s++)
		if (starts_with_nocase(s, needle))
			return s;
	return NULL;
}

static bool is_key(const struct trailer *t, const char *key)
{
	return !strcasecmp(t->key, key);
}

static bool blank(const struct patch_line *l)
{
	return strspn(l->text, " \t\r") == l->len;
}

/* Output of a crash or a tool: quoted as it is, never wrapped. */
static bool starts_log(const char *s)
{
	s += strspn(s, " \t");
	return starts_with(s, "BUG:") || starts_with(s, "WARNING:") ||
	       starts_with(s, "Call Trace:") || starts_with(s, "RIP:") ||
	       starts_with(s, "Oops") || (s[0] == '[' && strchr(s, ']') &&
	       strspn(s + 1 + strspn(s + 1, " "), "0123456789.") > 3);
}

/* A line nobody could wrap: indented, quoted, a URL, one long word, "file.c:12:". */
static bool unwrappable(const char *s)
{
	if (*s == ' ' || *s == '\t' || *s == '>' || strstr(s, "://") || !strchr(s, ' '))
		return true;
	const char *colon = strchr(s, ':');
	return colon && colon > s && !memchr(s, ' ', (size_t)(colon - s)) &&
	       isdigit((unsigned char)colon[1]);
}

static void check_wrapping(const struct patch *p, size_t begin, struct review *r)
{
	struct tally t = { 0 };
	bool in_log = false;
	for (size_t i = begin; i < p->message_end; i++) {
		const struct patch_line *l = &p->lines[i];
		if (blank(l))
			in_log = false;
		else if (starts_log(l->text))
			in_log = true;
		if (l->kind != LINE_MESSAGE || in_log || unwrappable(l->text) ||
		    text_width(l->text, l->len) <= LOG_COLUMNS)
			continue;
		if (!t.count++)
			t.first = i;
	}
	if (t.count == 1)
		review_add(r, t.first, SEVERITY_NIT, rule_id(RULE_COMMIT_LINE_LENGTH),
			   "This line of the commit message is over %d columns; git log "
			   "indents it by four, so messages are wrapped at 75.", LOG_COLUMNS);
	else if (t.count > 1)
		review_add(r, t.first, SEVERITY_NIT, rule_id(RULE_COMMIT_LINE_LENGTH),
			   "This line of the commit message is over %d columns, and %zu "
			   "more are; git log indents them by four, so messages are "
			   "wrapped at 75.", LOG_COLUMNS, t.count - 1);
}

static void check_description(const struct patch *p, size_t begin, struct review *r)
{
	for (size_t i = begin; i < p->message_end; i++)
		if (p->lines[i].kind == LINE_MESSAGE && !blank(&p->lines[i]))
			return;
	review_add(r, FINDING_WHOLE, SEVERITY_WARNING, rule_id(RULE_EMPTY_MESSAGE),
		   "The commit message has no description, only the subject and "
		   "trailers. Please say what the patch changes and why.");
}

/* "commit" and a hex id of 5 or more with a digit in it; returns the id. */
static const char *commit_id(const char *s, const char *from, size_t *leno)
{
	for (const char *p = find_nocase(from, "commit"); p; p = find_nocase(p + 1, "commit")) {
		if (p > s && isalnum((unsigned char)p[-1]))
			continue;
		const char *id = p + 6;
		if (*id != ' ' && *id != '\t')
			continue;
		id += strspn(id, " \t");
		size_t n = strspn(id, "0123456789abcdefABCDEF"), digits = 0;
		for (size_t k = 0; k < n; k++)
			digits += isdigit((unsigned char)id[k]) != 0;
		if (n >= 5 && digits && !isalnum((unsigned char)id[n])) {
			*leno = n;
			return id;
		}
	}
	return NULL;
}

/* Lines that name a commit in a form of their own: git revert, stable backports, cherry-pick -x. */
static bool own_form(const char *s)
{
	return starts_with(s, "This reverts commit ") || find_nocase(s, "upstream commit ") ||
	       strstr(s, " upstream.") || strstr(s, "cherry picked from commit");
}

static void check_commit_refs(const struct patch *p, size_t begin, struct review *r)
{
	struct buf text = BUF_INIT;
	for (size_t i = begin; i < p->message_end; i++) {
		const struct patch_line *l = &p->lines[i];
		if (l->kind != LINE_MESSAGE || own_form(l->text) || body_commit_header(l->text))
			continue;
		buf_reset(&text);
		buf_addstr(&text, l->text);
		size_t own = text.len;
		for (size_t k = i + 1; k < i + 3 && k < p->message_end; k++) {
			buf_addch(&text, ' ');
			buf_add(&text, p->lines[k].text, p->lines[k].len);
		}
		size_t n;
		for (const char *id = commit_id(text.data, text.data, &n);
		     id && (size_t)(id - text.data) < own; id = commit_id(text.data, id + n, &n)) {
			const char *after = id + n + strspn(id + n, " \t");
			if (n >= 12 && n <= 40 && starts_with(after, "(\""))
				continue;
			review_add(r, i, SEVERITY_NIT, rule_id(RULE_COMMIT_REF),
				   "Commits are referred to as commit 0123456789ab "
				   "(\"subject\"): twelve or more hex digits, then the subject "
				   "in quotes and parentheses (submitting-patches.rst).");
			break;
		}
	}
	buf_release(&text);
}

/* Bots always publish their report: its Closes: link follows the Reported-by:. */
static bool bot(const char *who)
{
	return strstr(who, "syzbot") || strstr(who, "lkp@intel.com") ||
	       find_nocase(who, "kernel test robot");
}

static void check_reports(const struct patch *p, struct review *r)
{
	for (size_t i = 0; i < p->ntrailers; i++) {
		const struct trailer *t = &p->trailers[i], *next = t + 1;
		if (!is_key(t, "Reported-by") || !bot(t->value))
			continue;
		if (i + 1 < p->ntrailers && (is_key(next, "Closes") || is_key(next, "Link")))
			continue;
		review_add(r, t->line, SEVERITY_NIT, rule_id(RULE_REPORTED_LINK),
			   "A report by a bot is public: a Closes: line with its URL goes "
			   "right after this Reported-by: (submitting-patches.rst).");
	}
}

static bool names_stable(const char *s)
{
	return find_nocase(s, "stable@vger.kernel.org") || find_nocase(s, "stable@kernel.org");
}

/* A patch mailed to stable that is not a backport, by its subject or its message. */
static bool backport(const struct patch *p)
{
	const char *tags = p->subject.tags;
	if (find_nocase(tags, "stable"))
		return true;
	for (const char *d = strpbrk(tags, "0123456789"); d; d = strpbrk(d + 1, "0123456789"))
		if (d[1] == '.' && isdigit((unsigned char)d[2]))
			return true;
	for (size_t i = 0; i < p->message_end; i++)
		if (own_form(p->lines[i].text))
			return true;
	return false;
}

static bool mailed_to_stable(const struct mail *m)
{
	const struct address_list *lists[] = { &m->to, &m->cc };
	for (size_t k = 0; k < 2; k++)
		for (size_t i = 0; i < lists[k]->n; i++)
			if (lists[k]->v[i].addr && names_stable(lists[k]->v[i].addr))
				return true;
	return false;
}

static void check_stable(const struct review_input *in, struct review *r)
{
	const struct patch *p = in->patch;
	bool tagged = false;
	for (size_t i = 0; i < p->ntrailers; i++) {
		const struct trailer *t = &p->trailers[i];
		if (!is_key(t, "Cc") || !names_stable(t->value))
			continue;
		tagged = true;
		const char *at = find_nocase(t->value, "stable@");
		const char *gt = strchr(at, '>');
		const char *after = gt ? gt + 1 : at + strcspn(at, " \t");
		after += strspn(after, " \t");
		if (at != t->value && !(at == t->value + 1 && t->value[0] == '<'))
			review_add(r, t->line, SEVERITY_NIT, rule_id(RULE_STABLE_CC),
				   "The stable Cc: takes the bare address, with no name.");
		else if (*after && *after != '#')
			review_add(r, t->line, SEVERITY_NIT, rule_id(RULE_STABLE_CC),
				   "The stable scripts read notes on this line after a #, as in "
				   "\"# 6.1.x\".");
	}
	if (!tagged && mailed_to_stable(in->mail) && !backport(p))
		review_add(r, FINDING_WHOLE, SEVERITY_WARNING, rule_id(RULE_STABLE_CC),
			   "This patch is mailed to the stable list, but only a Cc: "
			   "stable@vger.kernel.org line among the trailers gets a fix "
			   "into the stable trees once it is merged "
			   "(Documentation/process/stable-kernel-rules.rst).");
}

static void check_change_id(const struct patch *p, struct review *r)
{
	for (size_t i = 0; i < p->ntrailers; i++)
		if (is_key(&p->trailers[i], "Change-Id"))
			review_add(r, p->trailers[i].line, SEVERITY_WARNING, rule_id(RULE_CHANGE_ID),
				   "Gerrit's Change-Id: means nothing upstream; please drop it.");
}

static void run(const struct review_input *in, struct review *r)
{
	const struct patch *p = in->patch;
	size_t begin = body_begin(p);
	check_description(p, begin, r);
	check_wrapping(p, begin, r);
	check_commit_refs(p, begin, r);
	check_reports(p, r);
	check_stable(in, r);
	check_change_id(p, r);
}

const struct reviewer check_log = { "log", run };
