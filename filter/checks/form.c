/*
 * form.c: the patch as a mail: the subject's length and form, damage done
 * by the mailer (format=flowed, wrapped lines that cut hunks short), and
 * file modes (a source file made executable).
 */
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/str.h"
#include "base/text.h"
#include "checks/body.h"
#include "checks/checks.h"
#include "checks/rules.h"

#define SUBJECT_MAX 75

static void check_subject(const struct subject_prefix *s, struct review *r)
{
	size_t width = text_width(s->title, strlen(s->title));
	if (width > SUBJECT_MAX)
		review_add(r, FINDING_WHOLE, SEVERITY_NIT, rule_id(RULE_SUBJECT_LENGTH),
			   "The subject is %zu characters long after the prefix; "
			   "please keep it within %d so it reads well in git log --oneline.",
			   width, SUBJECT_MAX);
}

/* "foo: Fix the bar." -> a nit; "..." is an ellipsis, not a full stop. */
static void check_subject_form(const struct subject_prefix *s, struct review *r)
{
	const char *t = s->title;
	size_t n = strlen(t);
	if (n > 1 && t[n - 1] == '.' && t[n - 2] != '.')
		review_add(r, FINDING_WHOLE, SEVERITY_NIT, rule_id(RULE_SUBJECT_PERIOD),
			   "The subject ends with a full stop; subjects are titles, "
			   "and git log --oneline reads better without it.");
	if (!strchr(t, ':') && !starts_with(t, "Revert ") && !starts_with(t, "Reapply ") &&
	    !starts_with(t, "Linux ") && !starts_with(t, "Merge "))
		review_add(r, FINDING_WHOLE, SEVERITY_NIT, rule_id(RULE_SUBJECT_PREFIX),
			   "The subject has no \"subsystem: \" prefix; git log --oneline "
			   "on the files touched shows the one they use.");
}

static void check_flowed(const struct mail *m, struct review *r)
{
	if (m->flowed)
		review_add(r, FINDING_WHOLE, SEVERITY_WARNING, rule_id(RULE_FORMAT_FLOWED),
			   "This mail was sent with format=flowed, which changes "
			   "whitespace in the patch, so it may not apply. git send-email "
			   "sends patches untouched.");
}

/*
 * Text parts with CR LF line ends throughout are read as plain lines (MIME's
 * canonical form), but git am keeps such CRs unless told otherwise.
 */
static void check_crlf(const struct mail *m, struct review *r)
{
	if (m->crlf)
		review_add(r, FINDING_WHOLE, SEVERITY_NIT, rule_id(RULE_CRLF_PART),
			   "The patch came in a MIME part whose lines all end in CR LF. "
			   "They are read as plain line ends here, but git am keeps the "
			   "CRs (and warns) unless run with --quoted-cr=strip.");
}

/* Only blank lines from line i to the end of the text? */
static bool blank_to_end(const struct patch *p, size_t i)
{
	for (; i < p->nlines; i++)
		if (strspn(p->lines[i].text, " \t\r") != p->lines[i].len)
			return false;
	return true;
}

/*
 * A hunk with fewer lines than its header promises was damaged, mostly by
 * line wrapping. One missing context line at the very end is left alone:
 * a mailer that strips trailing spaces turns it into the newline before a
 * MIME boundary or the end of the mail.
 */
static void check_hunks(const struct patch *p, struct review *r)
{
	size_t damaged = 0, first = 0;
	uint32_t old_count = 0, new_count = 0, old_found = 0, new_found = 0;
	for (size_t k = 0; k < p->nhunks; k++) {
		const struct patch_hunk *h = &p->hunks[k];
		uint32_t old = 0, new = 0;
		for (size_t i = h->header_line + 1; i < h->end_line; i++) {
			uint8_t kind = p->lines[i].kind;
			old += kind == LINE_CONTEXT || kind == LINE_REMOVED;
			new += kind == LINE_CONTEXT || kind == LINE_ADDED;
		}
		if (old == h->old_count && new == h->new_count)
			continue;
		if (old + 1 == h->old_count && new + 1 == h->new_count &&
		    blank_to_end(p, h->end_line))
			continue;
		if (!damaged++) {
			first = h->end_line > h->header_line + 1 ? h->end_line - 1 : h->header_line;
			old_count = h->old_count, new_count = h->new_count;
			old_found = old, new_found = new;
		}
	}
	if (!damaged)
		return;
	struct buf more = BUF_INIT;
	if (damaged > 1)
		buf_addf(&more, " %zu more hunk%s after this one %s damaged too.", damaged - 1,
			 damaged == 2 ? "" : "s", damaged == 2 ? "is" : "are");
	review_add(r, first, SEVERITY_ERROR, rule_id(RULE_CORRUPT_HUNK),
		   "This hunk ends here, but its header promises %u old and %u "
		   "new lines (found %u and %u), so it will not apply. The "
		   "mailer may have wrapped long lines or dropped leading "
		   "spaces; git send-email sends patches untouched.%s",
		   old_count, new_count, old_found, new_found, more.data);
	buf_release(&more);
}

/* Extensions of files that are never run: source, headers, documents, data. */
static bool never_run(const char *ext)
{
	static const char *const exts[] = {
		"c", "h", "cc", "cpp", "cxx", "hh", "hpp", "rs", "go", "java", "S", "s",
		"dts", "dtsi", "rst", "md", "txt", "json", "yaml", "yml", "xml", "html", "css",
	};
	for (size_t i = 0; i < sizeof(exts) / sizeof(*exts); i++)
		if (!strcmp(ext, exts[i]))
			return true;
	return false;
}

static bool script(const char *ext)
{
	static const char *const exts[] = { "py", "pl", "sh", "bash", "awk", "rb", "tcl", "lua", "php" };
	for (size_t i = 0; i < sizeof(exts) / sizeof(*exts); i++)
		if (!strcmp(ext, exts[i]))
			return true;
	return false;
}

/* The first line of the new file, when a hunk shows it; else NULL. */
static const char *first_line(const struct patch *p, const struct patch_file *f)
{
	for (size_t i = f->first_line; i < f->end_line; i++) {
		const struct patch_line *l = &p->lines[i];
		if ((l->kind == LINE_ADDED || l->kind == LINE_CONTEXT) && l->new_no == 1)
			return l->len ? l->text + 1 : "";
	}
	return NULL;
}

static bool executable(const char *mode)
{
	return mode && (strtoul(mode, NULL, 8) & 0111);
}

/*
 * A mode change or new file that makes a file executable, where the file
 * is a source or data file, or a script whose first line is shown and is
 * no "#!" line ("#![" opens a Rust attribute).
 */
static void check_modes(const struct patch *p, struct review *r)
{
	for (size_t k = 0; k < p->nfiles; k++) {
		const struct patch_file *f = &p->files[k];
		const char *path = patch_file_path(f), *dot = path ? strrchr(path, '.') : NULL;
		if (!executable(f->new_mode) || executable(f->old_mode) || !dot ||
		    strchr(dot, '/'))
			continue;
		const char *top = first_line(p, f);
		bool shebang = top && starts_with(top, "#!") && top[2] != '[';
		if (shebang || !(never_run(dot + 1) || (script(dot + 1) && top)))
			continue;
		size_t at = f->first_line;
		for (size_t i = f->first_line; i < f->end_line; i++)
			if (starts_with(p->lines[i].text, "new mode ") ||
			    starts_with(p->lines[i].text, "new file mode "))
				at = i;
		review_add(r, at, SEVERITY_WARNING, rule_id(RULE_EXEC_BIT),
			   "This makes %s executable, but it is %s; git update-index "
			   "--chmod=-x %s undoes it.", path,
			   never_run(dot + 1) ? "not a program" : "a script with no #! line", path);
	}
}

static void run(const struct review_input *in, struct review *r)
{
	struct subject_prefix subject;
	body_subject(in->patch, &subject);
	check_subject(&subject, r);
	check_subject_form(&subject, r);
	body_subject_release(in->patch, &subject);
	check_flowed(in->mail, r);
	check_crlf(in->mail, r);
	check_hunks(in->patch, r);
	check_modes(in->patch, r);
}

const struct reviewer check_form = { "form", run };
