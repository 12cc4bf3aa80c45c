/*
 * check_whitespace.c: whitespace errors on added lines, as git apply
 * --whitespace=error sees them. One comment per file and kind, at the
 * first offending line, with a count of the rest.
 */
#include <string.h>

#include "checks/checks.h"
#include "checks/rules.h"
#include "checks/tally.h"

enum ws_error {
	WS_TRAILING,
	WS_SPACE_BEFORE_TAB,
	WS_CRLF,
	WS_KINDS,
};

static const char *const ws_text[WS_KINDS] = {
	[WS_TRAILING] = "This line adds trailing whitespace",
	[WS_SPACE_BEFORE_TAB] = "This line indents with a space before a tab",
	[WS_CRLF] = "This line ends with a DOS line ending (CR LF)",
};

static const enum rule_id ws_rule[WS_KINDS] = {
	[WS_TRAILING] = RULE_TRAILING_WHITESPACE,
	[WS_SPACE_BEFORE_TAB] = RULE_SPACE_BEFORE_TAB,
	[WS_CRLF] = RULE_DOS_LINE_ENDING,
};

/* Which errors does the added line s (without its '+') have? */
static unsigned ws_errors(const char *s, size_t len)
{
	unsigned errors = 0;
	if (len && s[len - 1] == '\r') {
		errors |= 1u << WS_CRLF;
		len--;
	}
	if (len && (s[len - 1] == ' ' || s[len - 1] == '\t'))
		errors |= 1u << WS_TRAILING;
	for (size_t i = 0; i + 1 < len && (s[i] == ' ' || s[i] == '\t'); i++)
		if (s[i] == ' ' && s[i + 1] == '\t') {
			errors |= 1u << WS_SPACE_BEFORE_TAB;
			break;
		}
	return errors;
}

static void check_file(const struct patch *p, const struct patch_file *f,
		       struct review *r)
{
	struct tally t[WS_KINDS] = { 0 };
	for (size_t i = f->first_line; i < f->end_line; i++) {
		const struct patch_line *l = &p->lines[i];
		if (l->kind != LINE_ADDED)
			continue;
		unsigned errors = ws_errors(l->text + 1, l->len - 1);
		for (int k = 0; k < WS_KINDS; k++)
			if (errors & (1u << k))
				tally_add(&t[k], i);
	}
	for (int k = 0; k < WS_KINDS; k++)
		tally_report(r, &t[k], SEVERITY_NIT, rule_id(ws_rule[k]), ws_text[k],
			     patch_file_path(f));
}

/*
 * "\ No newline at end of file" after an added line, where the old file had
 * one. Symbolic links are stored without a newline: they are left alone.
 */
static void check_final_newline(const struct patch *p, const struct patch_hunk *h,
				struct review *r)
{
	bool old_lacked = false;
	for (size_t i = h->header_line + 1; i < h->end_line; i++) {
		if (p->lines[i].kind != LINE_NO_NEWLINE)
			continue;
		uint8_t before = p->lines[i - 1].kind;
		if (before == LINE_REMOVED || before == LINE_CONTEXT)
			old_lacked = true;
		else if (before == LINE_ADDED && !old_lacked)
			review_add(r, i, SEVERITY_NIT, rule_id(RULE_NO_FINAL_NEWLINE),
				   "This leaves %s without a newline at the end of the file.",
				   patch_file_path(&p->files[h->file]));
	}
}

static void run(const struct review_input *in, struct review *r)
{
	const struct patch *p = in->patch;
	for (size_t k = 0; k < p->nfiles; k++)
		if (!(p->files[k].flags & FILE_BINARY))
			check_file(p, &p->files[k], r);
	for (size_t k = 0; k < p->nhunks; k++) {
		const struct patch_file *f = &p->files[p->hunks[k].file];
		if (!f->new_mode || strcmp(f->new_mode, "120000"))
			check_final_newline(p, &p->hunks[k], r);
	}
}

const struct reviewer check_whitespace = { "whitespace", run };
