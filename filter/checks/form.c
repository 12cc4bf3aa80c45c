/*
 * check_form.c: the patch as a mail: subject length, damage done by the
 * mailer (format=flowed, wrapped lines that cut hunks short).
 */
#include <string.h>

#include "base/text.h"
#include "checks/checks.h"

#define SUBJECT_MAX 75

static void check_subject(const struct patch *p, struct review *r)
{
	size_t width = text_width(p->subject.title, strlen(p->subject.title));
	if (width > SUBJECT_MAX)
		review_add(r, FINDING_WHOLE, SEVERITY_NIT, "subject-length",
			   "The subject is %zu characters long after the prefix; "
			   "please keep it within %d so it reads well in git log --oneline.",
			   width, SUBJECT_MAX);
}

static void check_flowed(const struct mail *m, struct review *r)
{
	if (m->flowed)
		review_add(r, FINDING_WHOLE, SEVERITY_WARNING, "format-flowed",
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
		review_add(r, FINDING_WHOLE, SEVERITY_NIT, "crlf-part",
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
		size_t last = h->end_line > h->header_line + 1 ? h->end_line - 1 : h->header_line;
		review_add(r, last, SEVERITY_ERROR, "corrupt-hunk",
			   "This hunk ends here, but its header promises %u old and %u "
			   "new lines (found %u and %u), so it will not apply. The "
			   "mailer may have wrapped long lines or dropped leading "
			   "spaces; git send-email sends patches untouched.",
			   h->old_count, h->new_count, old, new);
	}
}

static int run(const struct review_input *in, struct review *r)
{
	check_subject(in->patch, r);
	check_flowed(in->mail, r);
	check_crlf(in->mail, r);
	check_hunks(in->patch, r);
	return 0;
}

const struct reviewer check_form = { "form", run };
