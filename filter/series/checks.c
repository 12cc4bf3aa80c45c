/*
 * checks.c: what only the whole series shows: a gap in the numbering,
 * patches of another version than the cover letter, a patch sent by
 * someone else than the cover letter without an in-body From:, a patch
 * with no Signed-off-by at all, a cover letter whose diffstat the patches
 * do not add up to. Each is one finding about the whole cover letter.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/buf.h"
#include "base/msg.h"
#include "checks/rules.h"
#include "series/checks.h"

/* "1/4, 2/4 and 4/4", or "All the patches", for the patches picked by want, into out. */
static size_t list_patches(const struct series *s, bool (*want)(const struct series *,
			   const struct series_msg *), struct buf *out)
{
	size_t n = 0, total = 0;
	for (size_t i = 0; i < s->npatches; i++)
		total += want(s, s->patches[i]);
	if (total > 2 && total == s->npatches) {
		buf_addstr(out, "All the patches");
		return total;
	}
	for (size_t i = 0; i < s->npatches; i++) {
		if (!want(s, s->patches[i]))
			continue;
		char label[24];
		series_label(s, s->patches[i], label);
		n++;
		buf_addf(out, "%s%s", n == 1 ? "" : n == total ? " and " : ", ",
			 *label ? label : "the patch");
	}
	return n;
}

static void check_gap(const struct series *s, struct review *r)
{
	if (!s->nmissing)
		return;
	if (s->nmissing == s->total) {
		review_add(r, FINDING_WHOLE, SEVERITY_WARNING, rule_id(RULE_SERIES_GAP),
			   "None of the %u patches of this series was in the input; only the "
			   "cover letter was.", s->total);
		return;
	}
	struct buf list = BUF_INIT;
	series_list_missing(s, &list);
	list.data[0] = (char)toupper((unsigned char)list.data[0]);
	bool one = s->nmissing == 1;
	review_add(r, FINDING_WHOLE, SEVERITY_WARNING, rule_id(RULE_SERIES_GAP),
		   "%s of this series %s not in the input; the other patches were reviewed "
		   "without %s. %s", list.data, one ? "was" : "were", one ? "it" : "them",
		   one ? "Was it sent?" : "Were they sent?");
	buf_release(&list);
}

static bool other_version(const struct series *s, const struct series_msg *m)
{
	return m->patch.subject.version != s->version;
}

static void check_versions(const struct series *s, struct review *r)
{
	struct buf list = BUF_INIT;
	size_t n = list_patches(s, other_version, &list);
	if (n)
		review_add(r, FINDING_WHOLE, SEVERITY_WARNING, rule_id(RULE_SERIES_VERSIONS),
			   "%s %s another version in %s subject than the %s (v%u); tools "
			   "such as b4 and patchwork may file %s under another series.",
			   list.data, n == 1 ? "gives" : "give", n == 1 ? "its" : "their",
			   s->cover ? "cover letter" : "first patch", s->version,
			   n == 1 ? "it" : "them");
	buf_release(&list);
}

static const char *sender(const struct series_msg *m)
{
	const struct address *a = mail_author(m->mail);
	return a ? a->addr : "";
}

static bool other_sender(const struct series *s, const struct series_msg *m)
{
	return s->cover && !m->patch.inbody_from && strcasecmp(sender(m), sender(s->cover));
}

static void check_author(const struct series *s, struct review *r)
{
	struct buf list = BUF_INIT;
	size_t n = list_patches(s, other_sender, &list);
	if (n)
		review_add(r, FINDING_WHOLE, SEVERITY_WARNING, rule_id(RULE_SERIES_AUTHOR),
			   "%s %s sent from another address than the cover letter (%s) and "
			   "%s no in-body From: line, so git am takes the mail's sender as "
			   "the author. Is that the author?", list.data, n == 1 ? "was" : "were",
			   sender(s->cover), n == 1 ? "has" : "have");
	buf_release(&list);
}

static bool lacks_signoff(const struct series *s, const struct series_msg *m)
{
	(void)s;
	for (size_t i = 0; i < m->patch.message_end; i++)
		if (!strncasecmp(m->patch.lines[i].text, "Signed-off-by:", 14))
			return false;
	return true;
}

static void check_signoff(const struct series *s, struct review *r)
{
	struct buf list = BUF_INIT;
	size_t n = list_patches(s, lacks_signoff, &list);
	if (n > 2 && n == s->npatches)
		review_add(r, FINDING_WHOLE, SEVERITY_ERROR, rule_id(RULE_SERIES_SIGNOFF),
			   "None of the patches has a Signed-off-by: line.");
	else if (n)
		review_add(r, FINDING_WHOLE, SEVERITY_ERROR, rule_id(RULE_SERIES_SIGNOFF),
			   "%s %s no Signed-off-by: line.", list.data, n == 1 ? "has" : "have");
	buf_release(&list);
}

/* What a diffstat says: its paths, and the numbers of its summary line. */
struct diffstat {
	struct strvec paths;
	long files, insertions, deletions;	/* -1 when there is no summary line */
};

/* " 3 files changed, 24 insertions(+), 3 deletions(-)" */
static bool read_summary(const char *t, struct diffstat *d)
{
	char *end;
	long files = strtol(t, &end, 10);
	if (end == t || (strncmp(end, " file changed", 13) && strncmp(end, " files changed", 14)))
		return false;
	d->files = files;
	d->insertions = d->deletions = 0;
	for (const char *p = strchr(end, ','); p; p = strchr(p + 1, ',')) {
		long v = strtol(p + 1, &end, 10);
		if (!strncmp(end, " insertion", 10))
			d->insertions = v;
		else if (!strncmp(end, " deletion", 9))
			d->deletions = v;
	}
	return true;
}

/* The diffstat lines of the cover letter: " path | 12 +++--". */
static void read_diffstat(const struct patch *p, struct diffstat *d)
{
	d->files = d->insertions = d->deletions = -1;
	for (size_t i = 0; i < p->nlines; i++) {
		const char *t = p->lines[i].text;
		if (*t != ' ')
			continue;
		t += strspn(t, " ");
		const char *bar = strstr(t, " | ");
		if (bar && !memchr(t, '>', (size_t)(bar - t)) &&
		    (isdigit((unsigned char)bar[3 + strspn(bar + 3, " ")]) || strstr(bar, "Bin"))) {
			size_t len = (size_t)(bar - t);
			while (len && t[len - 1] == ' ')
				len--;
			strvec_push_take(&d->paths, xstrndup(t, len));
		} else if (isdigit((unsigned char)*t)) {
			read_summary(t, d);
		}
	}
}

static int by_string(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static char *reversed(const char *s)
{
	size_t n = strlen(s);
	char *r = xmalloc(n + 1);
	for (size_t i = 0; i < n; i++)
		r[i] = s[n - 1 - i];
	r[n] = '\0';
	return r;
}

/*
 * Every path the patches touch, old and new, each written backwards and
 * sorted: git abbreviates a long diffstat path as ".../tail", and a tail
 * is a prefix among these. One sort, then one search a diffstat line.
 */
static void touched_paths(const struct series *s, struct strvec *out)
{
	for (size_t i = 0; i < s->npatches; i++) {
		const struct patch *p = &s->patches[i]->patch;
		for (size_t f = 0; f < p->nfiles; f++) {
			if (p->files[f].new_path)
				strvec_push_take(out, reversed(p->files[f].new_path));
			if (p->files[f].old_path)
				strvec_push_take(out, reversed(p->files[f].old_path));
		}
	}
	qsort(out->v, out->n, sizeof(*out->v), by_string);
}

/* Does a diffstat path name a file of the patches (touched_paths())? */
static bool touched(const struct strvec *paths, const char *shown)
{
	bool tail = !strncmp(shown, "...", 3);
	char *key = reversed(tail ? shown + 3 : shown);
	size_t lo = 0, hi = paths->n;
	while (lo < hi) {	/* the first path not below key */
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(paths->v[mid], key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	bool found = lo < paths->n &&
		     (tail ? starts_with(paths->v[lo], key) : !strcmp(paths->v[lo], key));
	free(key);
	return found;
}

/* A rename ("a/{x => y}"), maybe cut short ("...y}"), names no one path. */
static bool shown_whole(const char *shown)
{
	return !strpbrk(shown, "{}") && !strstr(shown, "=>");
}

/* Distinct files and changed lines over all patches. */
static void count_patches(const struct series *s, long *files, long *ins, long *del)
{
	size_t n = 0, all = 0;
	for (size_t i = 0; i < s->npatches; i++)
		all += s->patches[i]->patch.nfiles;
	const char **paths = xcalloc(all + 1, sizeof(*paths));
	*ins = *del = 0;
	for (size_t i = 0; i < s->npatches; i++) {
		const struct patch *p = &s->patches[i]->patch;
		for (size_t f = 0; f < p->nfiles; f++)
			paths[n++] = patch_file_path(&p->files[f]);
		for (size_t k = 0; k < p->nlines; k++) {
			*ins += p->lines[k].kind == LINE_ADDED;
			*del += p->lines[k].kind == LINE_REMOVED;
		}
	}
	qsort(paths, n, sizeof(*paths), by_string);
	*files = 0;
	for (size_t i = 0; i < n; i++)
		*files += !i || strcmp(paths[i], paths[i - 1]);
	free(paths);
}

/*
 * A diffstat of the whole range can count fewer lines than the patches
 * (one adds what a later one removes), never more; and every path it
 * shows was touched by some patch.
 */
static void check_diffstat(const struct series *s, struct review *r)
{
	if (!s->cover || s->nmissing || !s->npatches)
		return;
	struct diffstat d = { STRVEC_INIT, 0, 0, 0 };
	read_diffstat(&s->cover->patch, &d);
	struct buf why = BUF_INIT;
	struct strvec paths = STRVEC_INIT;
	touched_paths(s, &paths);
	size_t unknown = 0;
	for (size_t i = 0; i < d.paths.n; i++)
		if (shown_whole(d.paths.v[i]) && !touched(&paths, d.paths.v[i]))
			unknown++;
	for (size_t i = 0, k = 0; i < d.paths.n; i++)
		if (shown_whole(d.paths.v[i]) && !touched(&paths, d.paths.v[i]))
			buf_addf(&why, "%s%s", !k++ ? "it lists " : k == unknown ? " and " : ", ",
				 d.paths.v[i]);
	strvec_clear(&paths);
	if (unknown)
		buf_addf(&why, ", which no patch touches");
	long files, ins, del;
	count_patches(s, &files, &ins, &del);
	if (d.files >= 0 && (d.files > files || d.insertions > ins || d.deletions > del))
		buf_addf(&why, "%sit counts %ld files, %ld insertions and %ld deletions where "
			 "the patches have %ld, %ld and %ld", why.len ? "; " : "", d.files,
			 d.insertions, d.deletions, files, ins, del);
	if (why.len)
		review_add(r, FINDING_WHOLE, SEVERITY_WARNING, rule_id(RULE_SERIES_DIFFSTAT),
			   "The cover letter's diffstat does not match the patches: %s. Is it "
			   "from an earlier version of the series?", why.data);
	buf_release(&why);
	strvec_clear(&d.paths);
}

void series_check(const struct series *s, struct review *r)
{
	check_gap(s, r);
	check_versions(s, r);
	check_author(s, r);
	check_signoff(s, r);
	check_diffstat(s, r);
}
