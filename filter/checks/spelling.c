/*
 * spelling.c: common misspellings (words.c) in the subject, the commit
 * message, and the prose a patch adds: comments and strings of C files,
 * and whole lines of documentation and Kconfig files. Code is never read
 * as prose: identifiers are often misspelt on purpose, to match an API.
 * Each misspelling is said once, where it first appears.
 */
#include <ctype.h>
#include <string.h>

#include "base/str.h"
#include "checks/body.h"
#include "checks/checks.h"
#include "checks/ctext.h"
#include "checks/rules.h"
#include "checks/words.h"

#define MAX_REPORTS 8
#define MAX_WORD 32

struct speller {
	struct review *r;
	struct strvec seen;	/* misspellings already reported */
};

/*
 * Is the run of letters that ends before s[i] (or starts at s[i], for
 * after) part of something else: an identifier, a path, a call, code in
 * backquotes? A '.' or '\'' joins only when a letter or digit is on its
 * other side ("foo.bar", "don't"), so "'word'" and "word." are words.
 */
static bool joined(const char *s, size_t i, size_t len, bool after)
{
	if (after ? i >= len : i == 0)
		return false;
	char c = after ? s[i] : s[i - 1];
	if (c == '.' || c == '\'') {
		if (after)
			return i + 1 < len && isalnum((unsigned char)s[i + 1]);
		return i >= 2 && isalnum((unsigned char)s[i - 2]);
	}
	return isalnum((unsigned char)c) || c == '_' || c == '-' || c == '`' || c == '/' ||
	       (after && c == '(');
}

/* Checks the words of s[0..len); line is where a finding goes, or FINDING_WHOLE for the subject. */
static void check_text(struct speller *sp, size_t line, const char *s, size_t len)
{
	for (size_t i = 0; i < len && sp->seen.n < MAX_REPORTS;) {
		if (!isalpha((unsigned char)s[i]) || joined(s, i, len, false)) {
			i++;
			continue;
		}
		size_t j = i;
		bool caps = false;
		char word[MAX_WORD + 1];
		while (j < len && isalpha((unsigned char)s[j])) {
			caps |= j > i && isupper((unsigned char)s[j]);
			if (j - i < MAX_WORD)
				word[j - i] = (char)tolower((unsigned char)s[j]);
			j++;
		}
		const char *fix = NULL;
		if (!joined(s, j, len, true) && !caps && j - i <= MAX_WORD) {
			word[j - i] = '\0';
			fix = spelling_fix(word);
		}
		if (fix && !strvec_has(&sp->seen, word)) {
			strvec_push(&sp->seen, word);
			char first = isupper((unsigned char)s[i]) ? (char)toupper((unsigned char)*fix) : *fix;
			review_add(sp->r, line, SEVERITY_NIT, rule_id(RULE_SPELLING),
				   "%s\"%.*s\" looks misspelt; perhaps \"%c%s\"?",
				   line == FINDING_WHOLE ? "In the subject, " : "",
				   (int)(j - i), s + i, first, fix + 1);
		}
		i = j;
	}
}

static void check_prose(const struct c_line *l, void *data)
{
	if (l->added && !l->plain)
		check_text(data, l->index, l->prose, l->len);
}

/* Files whose added lines are prose throughout. */
static bool prose_file(const char *path)
{
	const char *base = strrchr(path, '/'), *dot = strrchr(path, '.');
	base = base ? base + 1 : path;
	return starts_with(base, "Kconfig") ||
	       (dot && (!strcmp(dot, ".rst") || !strcmp(dot, ".txt") || !strcmp(dot, ".md")));
}

static void run(const struct review_input *in, struct review *r)
{
	if (!rules_want_kernel(in))
		return;
	const struct patch *p = in->patch;
	struct speller sp = { r, STRVEC_INIT };
	struct subject_prefix subject;
	body_subject(p, &subject);
	check_text(&sp, FINDING_WHOLE, subject.title, strlen(subject.title));
	body_subject_release(p, &subject);
	for (size_t i = body_begin(p); i < p->message_end; i++) {
		const struct patch_line *l = &p->lines[i];
		if (l->kind == LINE_MESSAGE && !strchr(" \t>", l->text[0]))
			check_text(&sp, i, l->text, l->len);
	}
	for (size_t k = 0; k < p->nfiles; k++) {
		const struct patch_file *f = &p->files[k];
		const char *path = patch_file_path(f);
		if (f->flags & FILE_BINARY)
			continue;
		if (c_source(path)) {
			c_walk(in->c_text, f, check_prose, &sp);
		} else if (prose_file(path)) {
			for (size_t i = f->first_line; i < f->end_line; i++)
				if (p->lines[i].kind == LINE_ADDED)
					check_text(&sp, i, p->lines[i].text + 1, p->lines[i].len - 1);
		}
	}
	strvec_clear(&sp.seen);
}

const struct reviewer check_spelling = { "spelling", run };
