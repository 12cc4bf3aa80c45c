/*
 * tree.c: the checks that need the maintainer's tree: the findings the
 * tree stage made (callers left behind, removed names still used), the
 * commits Fixes: tags name, and the tree's own scripts/checkpatch.pl on
 * the changed lines, less what a built-in rule already says: run once for
 * the patches of a series, while the model reviews them.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/buf.h"
#include "base/msg.h"
#include "checks/checks.h"
#include "checks/rules.h"
#include "tree/tree.h"

/* Same text, runs of blanks aside. */
static bool same_subject(const char *a, const char *b)
{
	for (;;) {
		bool ba = *a == ' ' || *a == '\t', bb = *b == ' ' || *b == '\t';
		if (ba != bb)
			return false;
		a += strspn(a, " \t");
		b += strspn(b, " \t");
		if (!*a || !*b || *a != *b)
			return !*a && !*b;
		a++, b++;
	}
}

/*
 * Fixes: 123456789abc ("subject"): the tree has that commit, with that
 * subject. A malformed tag is fixes-tag's; this takes the well-formed ones.
 */
static void check_fixes_commits(const struct review_input *in, struct review *r)
{
	const struct patch *p = in->patch;
	for (size_t i = 0; i < p->ntrailers; i++) {
		const struct trailer *t = &p->trailers[i];
		const char *v = t->value;
		size_t hex = strspn(v, "0123456789abcdefABCDEF"), len = strlen(v);
		if (strcasecmp(t->key, "Fixes") || hex < 12 || strncmp(v + hex, " (\"", 3) ||
		    len < hex + 5 || strcmp(v + len - 2, "\")"))
			continue;
		char *id = xstrndup(v, hex);
		char *quoted = xstrndup(v + hex + 3, len - hex - 5);
		struct buf subject = BUF_INIT, why = BUF_INIT;
		int found = tree_commit_subject(in->tree, id, &subject, &why);
		if (found < 0)
			review_note(r, "fixes-commit: %s", why.data);
		else if (!found)
			review_add(r, t->line, SEVERITY_WARNING, rule_id(RULE_FIXES_COMMIT),
				   "The tree has no commit %s. If the id is right, the tree "
				   "may lack the branch it is on; otherwise git log -1 "
				   "--abbrev=12 --format='Fixes: %%h (\"%%s\")' on the fixed "
				   "commit prints the tag.", id);
		else if (!same_subject(quoted, subject.data))
			review_add(r, t->line, SEVERITY_WARNING, rule_id(RULE_FIXES_COMMIT),
				   "Commit %s is \"%s\" in the tree, not the subject quoted "
				   "here; is the id or the subject wrong?", id, subject.data);
		free(id);
		free(quoted);
		buf_release(&subject);
		buf_release(&why);
	}
}

static void tree_run(const struct review_input *in, struct review *r)
{
	static const enum rule_id rule[] = {
		[TREE_OLD_CALLERS] = RULE_SIGNATURE_CALLERS, [TREE_STILL_USED] = RULE_REMOVED_SYMBOL,
	};
	const struct tree_review *tr = in->tree;
	for (size_t i = 0; tr && i < tr->nfindings; i++)
		review_add(r, tr->findings[i].line, SEVERITY_ERROR,
			   rule_id(rule[tr->findings[i].kind]), "%s", tr->findings[i].text);
	if (tr && rule_enabled(in, rules_profile(in), rule_id(RULE_FIXES_COMMIT)))
		check_fixes_commits(in, r);
}

const struct reviewer check_tree = { "tree", tree_run };

/* The mail as git format-patch would write it; its patch lines start at line 4. */
#define CHECKPATCH_HEADER_LINES 3

static void mail_text(const struct review_input *in, struct buf *b)
{
	const struct address *a = mail_author(in->mail);
	buf_addstr(b, "From: ");
	if (a && a->name)
		buf_addf(b, "%s <%s>", a->name, a->addr ? a->addr : "");
	else if (a && a->addr)
		buf_addstr(b, a->addr);
	buf_addf(b, "\nSubject: %s\n\n", in->mail->subject);
	for (size_t i = 0; i < in->patch->nlines; i++) {
		buf_add(b, in->patch->lines[i].text, in->patch->lines[i].len);
		buf_addch(b, '\n');
	}
}

/* Reports on the commit message or on added lines: the lines the patch brings. */
static bool changed_line(const struct patch *p, size_t line)
{
	if (line >= p->nlines)
		return false;
	enum line_kind k = p->lines[line].kind;
	return k == LINE_ADDED || k == LINE_MESSAGE || k == LINE_TRAILER;
}

struct group {
	size_t line;		/* the first report's */
	int report;
	const char *type;
	int32_t file;
	size_t more;		/* reports of the same type in the same file after it */
};

static int by_file_and_type(const void *a, const void *b)
{
	const struct group *x = a, *y = b;
	int c = (x->file > y->file) - (x->file < y->file);
	if (!c)
		c = strcmp(x->type, y->type);
	return c ? c : (x->report > y->report) - (x->report < y->report);
}

static int by_report(const void *a, const void *b)
{
	const struct group *x = a, *y = b;
	return (x->report > y->report) - (x->report < y->report);
}

/*
 * Like the whitespace checks: one comment per file and type, at its first
 * line, in the order of the reports. Sorted by file and type, so that a
 * group is a run. Returns how many groups g[0..n) made, first to last.
 */
static size_t group_reports(struct group *g, size_t n)
{
	qsort(g, n, sizeof(*g), by_file_and_type);
	size_t ng = 0;
	for (size_t i = 0; i < n; i++) {
		if (ng && g[ng - 1].file == g[i].file && !strcmp(g[ng - 1].type, g[i].type))
			g[ng - 1].more++;
		else
			g[ng++] = g[i];
	}
	qsort(g, ng, sizeof(*g), by_report);
	return ng;
}

/* Does checkpatch.pl run on this patch? */
static bool checkpatch_wanted(const struct review_input *in)
{
	return in->tree && in->config->checkpatch &&
		rule_enabled(in, rules_profile(in), rule_id(RULE_CHECKPATCH));
}

/* Its reports on the lines the patch brings, one finding per file and type. */
static void checkpatch_add(const struct review_input *in, struct review *r,
			   const struct checkpatch_report *v, size_t n)
{
	const struct patch *p = in->patch;
	struct group *g = xcalloc(n + 1, sizeof(*g));
	size_t ng = 0;
	for (size_t i = 0; i < n; i++) {
		size_t line = v[i].line > CHECKPATCH_HEADER_LINES ?
			v[i].line - CHECKPATCH_HEADER_LINES - 1 : SIZE_MAX;
		if (!rules_stand_for(v[i].type) && changed_line(p, line))
			g[ng++] = (struct group){ line, (int)i, v[i].type, p->lines[line].file, 0 };
	}
	ng = group_reports(g, ng);
	for (size_t k = 0; k < ng; k++) {
		const struct checkpatch_report *c = &v[g[k].report];
		enum severity sev = c->level == 'E' ? SEVERITY_WARNING : SEVERITY_NIT;
		const char *id = rule_id(RULE_CHECKPATCH);
		if (g[k].more)
			review_add(r, g[k].line, sev, id, "checkpatch.pl: %s (%s; %zu more like it "
				   "below)", c->message, c->type, g[k].more);
		else
			review_add(r, g[k].line, sev, id, "checkpatch.pl: %s (%s)", c->message,
				   c->type);
	}
	free(g);
}

struct checkpatch_job *checks_checkpatch_start(const struct review_input *ins, struct review *rs,
					       size_t n)
{
	struct buf *texts = xcalloc(n + 1, sizeof(*texts));
	struct buf why = BUF_INIT;
	struct tree *t = NULL;
	for (size_t k = 0; k < n; k++)
		if (checkpatch_wanted(&ins[k])) {
			mail_text(&ins[k], &texts[k]);
			t = ins[k].tree->tree;
		}
	struct checkpatch_job *j = t ? tree_checkpatch_start(t, texts, n, &why) : NULL;
	for (size_t k = 0; why.len && k < n; k++)
		if (texts[k].len)
			review_note(&rs[k], "checkpatch: %s", why.data);
	for (size_t k = 0; k < n; k++)
		buf_release(&texts[k]);
	free(texts);
	buf_release(&why);
	return j;
}

void checks_checkpatch_finish(struct checkpatch_job *j, const struct review_input *ins,
			      struct review *rs, size_t n)
{
	if (!j)
		return;
	struct checkpatch_report **v = xcalloc(n + 1, sizeof(*v));
	size_t *nv = xcalloc(n + 1, sizeof(*nv));
	struct buf why = BUF_INIT;
	bool ok = tree_checkpatch_finish(j, v, nv, &why) == 0;
	for (size_t k = 0; k < n; k++) {
		if (!ok && checkpatch_wanted(&ins[k]))
			review_note(&rs[k], "checkpatch: %s", why.data);
		checkpatch_add(&ins[k], &rs[k], v[k], nv[k]);
		checkpatch_reports_free(v[k], nv[k]);
	}
	free(v);
	free(nv);
	buf_release(&why);
}
