/*
 * message.c: the commit message's trailers: a Signed-off-by from the
 * author (the DCO) in the form Name <address>, no trailer twice, a
 * Co-developed-by with its sign-off, and Fixes: tags that tools can follow.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/buf.h"
#include "base/msg.h"
#include "checks/checks.h"
#include "checks/rules.h"

/* The last line of the commit message proper, for comments about it. */
static size_t last_message_line(const struct patch *p)
{
	size_t end = p->message_end;
	while (end > 0 && strspn(p->lines[end - 1].text, " \t\r") == p->lines[end - 1].len)
		end--;
	return end ? end - 1 : FINDING_WHOLE;
}

/* A "    Signed-off-by:" line in the message, or FINDING_WHOLE. */
static size_t indented_signoff(const struct patch *p)
{
	for (size_t i = 0; i < p->message_end; i++) {
		const char *s = p->lines[i].text;
		if ((*s == ' ' || *s == '\t') &&
		    !strncasecmp(s + strspn(s, " \t"), "Signed-off-by:", 14))
			return i;
	}
	return FINDING_WHOLE;
}

static bool is_key(const struct trailer *t, const char *key)
{
	return !strcasecmp(t->key, key);
}

/* Splits "Name <addr>" into its parts, in buffers the caller releases. */
static void split_ident(const char *s, struct buf *name, struct buf *addr)
{
	const char *lt = strchr(s, '<'), *gt = lt ? strchr(lt, '>') : NULL;
	if (lt && gt) {
		buf_add(addr, lt + 1, (size_t)(gt - lt - 1));
		const char *e = lt;
		while (e > s && isspace((unsigned char)e[-1]))
			e--;
		const char *b = s;
		if (*b == '"' && e > b + 1 && e[-1] == '"')
			b++, e--;
		buf_add(name, b, (size_t)(e - b));
	} else if (strchr(s, '@')) {
		buf_addstr(addr, s);
	} else {
		buf_addstr(name, s);
	}
}

/* "Jane Doe via dm-devel" is how lists rewrite From under DMARC. */
static size_t name_len(const char *name)
{
	const char *via = strstr(name, " via ");
	return via ? (size_t)(via - name) : strlen(name);
}

static bool same_name(const char *a, const char *b)
{
	size_t la = name_len(a), lb = name_len(b);
	return la && la == lb && !strncasecmp(a, b, la);
}

/* Does this Signed-off-by value name the author, by address or by name? */
static bool signs_as(const char *value, const char *name, const char *addr)
{
	struct buf sname = BUF_INIT, saddr = BUF_INIT;
	split_ident(value, &sname, &saddr);
	bool same = (addr && *addr && saddr.len && !strcasecmp(saddr.data, addr)) ||
		    (name && *name && sname.len && same_name(sname.data, name));
	buf_release(&sname);
	buf_release(&saddr);
	return same;
}

/*
 * The in-body From:'s name and address; an attached format-patch mail
 * writes it RFC 2047-encoded ("=?UTF-8?q?Bj=C3=B8rn?= <bjorn@...>").
 */
static void inbody_author(const char *from, struct buf *name, struct buf *addr)
{
	struct address_list list = { 0 };
	if (strstr(from, "=?"))
		mail_parse_addresses(&list, from);
	if (list.n == 1) {
		buf_addstr(name, list.v[0].name ? list.v[0].name : "");
		buf_addstr(addr, list.v[0].addr);
	} else {
		split_ident(from, name, addr);
	}
	address_list_release(&list);
}

/* A Signed-off-by line: where it is, and what it says. */
struct signoff {
	size_t line;
	const char *value;
};

/*
 * The sign-offs of the trailer block; when it holds none (git's rule finds
 * no block where a long paragraph runs straight into the sign-off, or the
 * block is a last paragraph of Link: tags below it), the message's lines
 * that open with "Signed-off-by:", which the DCO check of other tools
 * accepts too. Returns how many went into *v; caller frees *v.
 */
static size_t find_signoffs(const struct patch *p, struct signoff **v)
{
	size_t n = 0;
	*v = xcalloc(p->message_end + 1, sizeof(**v));
	for (size_t i = 0; i < p->ntrailers; i++)
		if (is_key(&p->trailers[i], "Signed-off-by"))
			(*v)[n++] = (struct signoff){ p->trailers[i].line, p->trailers[i].value };
	bool in_block = n > 0;
	for (size_t i = 0; !in_block && i < p->message_end; i++) {
		const char *s = p->lines[i].text;
		if (!strncasecmp(s, "Signed-off-by:", 14))
			(*v)[n++] = (struct signoff){ i, s + 14 + strspn(s + 14, " \t") };
	}
	return n;
}

static int by_value(const void *a, const void *b)
{
	return strcasecmp(*(const char *const *)a, *(const char *const *)b);
}

/*
 * "Signed-off-by:" lines between --- and the diff, which git am drops;
 * those that are not also above the line. Returns how many it reported.
 * The values above are sorted once, so each line below is one search.
 */
static size_t below_separator(const struct patch *p, const struct signoff *sob, size_t nsob,
			      struct review *r)
{
	size_t n = 0;
	const char **above = xcalloc(nsob + 1, sizeof(*above));
	for (size_t i = 0; i < nsob; i++)
		above[i] = sob[i].value;
	qsort(above, nsob, sizeof(*above), by_value);
	for (size_t i = p->message_end; i < p->diff_begin && i < p->nlines; i++) {
		const char *s = p->lines[i].text, *value = s + 14 + strspn(s + 14, " \t");
		if (p->lines[i].kind != LINE_NOTES || strncasecmp(s, "Signed-off-by:", 14) ||
		    bsearch(&value, above, nsob, sizeof(*above), by_value))
			continue;
		review_add(r, i, SEVERITY_ERROR, rule_id(RULE_SIGNOFF),
			   "This Signed-off-by: is below the --- line, where git am drops "
			   "it with the other notes; it belongs above, with the trailers.");
		n++;
	}
	free(above);
	return n;
}

static void check_signoff(const struct review_input *in, struct review *r)
{
	const struct patch *p = in->patch;
	struct signoff *sob;
	size_t nsob = find_signoffs(p, &sob);
	if (below_separator(p, sob, nsob, r) && !nsob) {
		free(sob);
		return;
	}
	if (!nsob) {
		size_t indented = indented_signoff(p);
		if (indented != FINDING_WHOLE)
			review_add(r, indented, SEVERITY_ERROR, rule_id(RULE_SIGNOFF),
				   "This Signed-off-by: is indented, so git am will not "
				   "take it as a trailer (the message looks pasted from "
				   "git show). git format-patch produces the right form.");
		else
			review_add(r, last_message_line(p), SEVERITY_ERROR, rule_id(RULE_SIGNOFF),
				   "There is no Signed-off-by: line. Please add one to "
				   "certify the Developer's Certificate of Origin "
				   "(git commit -s).");
		free(sob);
		return;
	}
	struct buf name = BUF_INIT, addr = BUF_INIT;
	if (p->inbody_from) {
		inbody_author(p->inbody_from, &name, &addr);
	} else if (mail_author(in->mail)) {
		const struct address *a = mail_author(in->mail);
		buf_addstr(&name, a->name ? a->name : "");
		buf_addstr(&addr, a->addr);
	}
	bool found = !name.len && !addr.len;
	for (size_t i = 0; !found && i < nsob; i++)
		found = signs_as(sob[i].value, name.data, addr.data);
	if (!found)
		review_add(r, sob[nsob - 1].line, SEVERITY_WARNING, rule_id(RULE_SIGNOFF_AUTHOR),
			   "The author is %s%s<%s>, but none of the Signed-off-by: lines "
			   "is theirs. If the author differs from the sender, a From: line "
			   "at the top of the body names them (git format-patch does this).",
			   name.data, name.len ? " " : "", addr.data);
	buf_release(&name);
	buf_release(&addr);
	free(sob);
}

/* Fixes: <at least 12 hex digits> ("<subject of that commit>") */
static const char *fixes_problem(const char *v)
{
	size_t hex = strspn(v, "0123456789abcdefABCDEF");
	if (hex < 12)
		return "the commit id needs at least 12 hex digits";
	if (v[hex] != ' ' || v[hex + 1] != '(' || v[hex + 2] != '"')
		return "the commit id should be followed by (\"subject\")";
	size_t len = strlen(v);
	if (len < hex + 5 || v[len - 1] != ')' || v[len - 2] != '"')
		return "the subject should be closed with \") and not wrapped";
	return NULL;
}

static void check_fixes(const struct patch *p, struct review *r)
{
	for (size_t i = 0; i < p->ntrailers; i++) {
		const struct trailer *t = &p->trailers[i];
		const char *problem = is_key(t, "Fixes") ? fixes_problem(t->value) : NULL;
		if (problem)
			review_add(r, t->line, SEVERITY_WARNING, rule_id(RULE_FIXES_TAG),
				   "This Fixes: tag is malformed: %s. The usual form is "
				   "Fixes: 123456789abc (\"subject of the fixed commit\"), which "
				   "git log -1 --abbrev=12 --format='Fixes: %%h (\"%%s\")' "
				   "prints.", problem);
	}
}

/* Why this sign-off is not "Name <address>", or NULL when it is. */
static const char *ident_problem(const char *v)
{
	const char *lt = strchr(v, '<'), *gt = lt ? strchr(lt, '>') : NULL;
	if (!lt || !gt) {
		if (!strchr(v, '@'))
			return "gives no address";
		return strchr(v, ' ') ? "has no <> around the address" : "gives an address but no name";
	}
	const char *at = memchr(lt, '@', (size_t)(gt - lt));
	if (!at || at == lt + 1 || at + 1 == gt || memchr(lt, ' ', (size_t)(gt - lt)))
		return "has no usable address between < and >";
	if (lt == v)
		return "gives an address but no name";
	const char *after = gt + 1 + strspn(gt + 1, " \t");
	if (*after && *after != '#' && *after != '(' && *after != '[')
		return "has text after the address";
	return NULL;
}

/* Signed-off-by: and Co-developed-by: name a person: Name <address>. */
static void check_idents(const struct patch *p, struct review *r)
{
	for (size_t i = 0; i < p->ntrailers; i++) {
		const struct trailer *t = &p->trailers[i];
		const char *problem = NULL;
		if (is_key(t, "Signed-off-by") || is_key(t, "Co-developed-by"))
			problem = ident_problem(t->value);
		if (problem)
			review_add(r, t->line, SEVERITY_WARNING, rule_id(RULE_SIGNOFF_FORM),
				   "This %s: %s; the form is Name <address>, as git "
				   "commit -s writes it.", t->key, problem);
	}
}

/* A trailer as duplicates are told: key and value, blanks and case aside. */
struct said {
	char *key, *value;	/* lower case; the value without blanks */
	size_t index;
};

static char *lowered(const char *s, bool blanks)
{
	char *out = xmalloc(strlen(s) + 1), *o = out;
	for (; *s; s++)
		if (blanks || !isspace((unsigned char)*s))
			*o++ = (char)tolower((unsigned char)*s);
	*o = '\0';
	return out;
}

static int by_said(const void *a, const void *b)
{
	const struct said *x = a, *y = b;
	int c = strcmp(x->key, y->key);
	if (!c)
		c = strcmp(x->value, y->value);
	return c ? c : (x->index > y->index) - (x->index < y->index);
}

/*
 * A trailer that repeats an earlier one. A sign-off repeated after someone
 * else's is the patch passing back to its first handler, which is fine.
 * The trailers are sorted once, so that each finds the last one like it.
 */
static void check_duplicates(const struct patch *p, struct review *r)
{
	size_t n = p->ntrailers, *before = xcalloc(n + 1, sizeof(*before));
	struct said *v = xcalloc(n + 1, sizeof(*v));
	for (size_t j = 0; j < n; j++)
		v[j] = (struct said){ lowered(p->trailers[j].key, true),
				      lowered(p->trailers[j].value, false), j };
	qsort(v, n, sizeof(*v), by_said);
	for (size_t j = 0; j < n; j++)
		before[v[j].index] = j && !strcmp(v[j].key, v[j - 1].key) &&
			!strcmp(v[j].value, v[j - 1].value) ? v[j - 1].index + 1 : 0;
	size_t last_signoff = 0;	/* one past it, or 0 */
	for (size_t j = 0; j < n; j++) {
		const struct trailer *t = &p->trailers[j];
		bool sob = is_key(t, "Signed-off-by");
		if (before[j] && (!sob || before[j] >= last_signoff))
			review_add(r, t->line, SEVERITY_NIT, rule_id(RULE_DUPLICATE_TRAILER),
				   "This %s: line repeats one above it.", t->key);
		if (sob)
			last_signoff = j + 1;
	}
	for (size_t j = 0; j < n; j++) {
		free(v[j].key);
		free(v[j].value);
	}
	free(v);
	free(before);
}

/* Does the Signed-off-by value v name the person of the Co-developed-by value c? */
static bool same_person(const char *c, const char *v)
{
	struct buf cname = BUF_INIT, caddr = BUF_INIT;
	split_ident(c, &cname, &caddr);
	bool same = signs_as(v, cname.data, caddr.data);
	buf_release(&cname);
	buf_release(&caddr);
	return same;
}

/* Co-developed-by: X is followed at once by Signed-off-by: X (submitting-patches.rst). */
static void check_codevelopers(const struct patch *p, struct review *r)
{
	for (size_t i = 0; i < p->ntrailers; i++) {
		const struct trailer *t = &p->trailers[i], *next = t + 1;
		if (!is_key(t, "Co-developed-by"))
			continue;
		if (i + 1 < p->ntrailers && is_key(next, "Signed-off-by") &&
		    same_person(t->value, next->value))
			continue;
		review_add(r, t->line, SEVERITY_WARNING, rule_id(RULE_CODEVELOPER_SIGNOFF),
			   "A Co-developed-by: must be followed right away by the same "
			   "person's Signed-off-by: (Documentation/process/submitting-patches.rst).");
	}
}

static void run(const struct review_input *in, struct review *r)
{
	check_signoff(in, r);
	check_idents(in->patch, r);
	check_duplicates(in->patch, r);
	check_codevelopers(in->patch, r);
	check_fixes(in->patch, r);
}

const struct reviewer check_message = { "message", run };
