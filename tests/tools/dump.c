/*
 * dump.c: prints what the parsers saw in a mail, one fact a line, so that
 * tests pin the parsing rules directly (after git's t5100 and its info
 * files): the subject's prefix, the in-body author, where the message,
 * separator and diff are, the trailers, each file with its status and
 * modes, each hunk, the kind of every line, and the built-in findings.
 * With a file of "path|quote" lines as its argument, it also prints the
 * line each quote is anchored to, as a model finding would be. An mbox
 * gets one such dump per message, each under "== message N of M". With
 * --findings it prints only the findings, each with its place told by
 * file and line number or by the text of its line, so that two encodings
 * of one mail can be compared.
 * Usage: dump [ANCHORS | --findings] < mail
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "answer/anchor.h"
#include "checks/checks.h"
#include "checks/ctext.h"
#include "mail/mail.h"
#include "patch/parse.h"

static const char *const kind_names[] = {
	[LINE_MESSAGE] = "message", [LINE_TRAILER] = "trailer",
	[LINE_SEPARATOR] = "separator", [LINE_NOTES] = "notes",
	[LINE_DIFFSTAT] = "diffstat", [LINE_FILE_HEADER] = "file-header",
	[LINE_HUNK_HEADER] = "hunk-header", [LINE_CONTEXT] = "context",
	[LINE_ADDED] = "added", [LINE_REMOVED] = "removed",
	[LINE_NO_NEWLINE] = "no-newline", [LINE_OTHER] = "other",
};

static void dump_file_status(unsigned flags)
{
	static const struct { unsigned flag; const char *name; } names[] = {
		{ FILE_NEW, "new" }, { FILE_DELETED, "deleted" }, { FILE_RENAMED, "renamed" },
		{ FILE_COPIED, "copied" }, { FILE_MODE, "mode" }, { FILE_BINARY, "binary" },
	};
	const char *sep = "";
	for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++)
		if (flags & names[i].flag) {
			printf("%s%s", sep, names[i].name);
			sep = ",";
		}
	if (!*sep)
		fputs("modified", stdout);
}

/* A path, its control bytes and backslashes escaped as C does, so that it stays on its line. */
static void dump_path(const char *path)
{
	if (!path)
		fputs("/dev/null", stdout);
	for (const unsigned char *c = (const unsigned char *)path; c && *c; c++) {
		if (*c == '\\')
			fputs("\\\\", stdout);
		else if (*c == '\n')
			fputs("\\n", stdout);
		else if (*c == '\t')
			fputs("\\t", stdout);
		else if (*c < 0x20 || *c == 0x7f)
			printf("\\%03o", *c);
		else
			putchar(*c);
	}
}

static void dump_patch(const struct patch *p)
{
	const struct subject_prefix *s = &p->subject;
	printf("subject: patch=%d pull=%d rfc=%d version=%u index=%u/%u tags=\"%s\" title=\"%s\"\n",
	       s->is_patch, s->is_pull, s->is_rfc, s->version, s->index, s->total,
	       s->tags, s->title);
	if (p->inbody_from)
		printf("inbody-from: %s\n", p->inbody_from);
	if (p->pull_request)
		printf("pull-request: yes\n");
	if (p->base_commit)
		printf("base-commit: %s\n", p->base_commit);
	for (size_t i = 0; i < p->prerequisite_ids.n; i++)
		printf("prerequisite-patch-id: %s\n", p->prerequisite_ids.v[i]);
	for (size_t i = 0; i < p->prerequisite_msgids.n; i++)
		printf("prerequisite-message-id: %s\n", p->prerequisite_msgids.v[i]);
	printf("message: 0..%zu separator: ", p->message_end);
	if (p->separator == SIZE_MAX)
		fputs("none", stdout);
	else
		printf("%zu", p->separator);
	printf(" diff: %zu\n", p->diff_begin);
	for (size_t i = 0; i < p->ntrailers; i++)
		printf("trailer %zu: %s = %s\n", p->trailers[i].line, p->trailers[i].key,
		       p->trailers[i].value);
	for (size_t i = 0; i < p->nfiles; i++) {
		const struct patch_file *f = &p->files[i];
		printf("file %zu: ", i);
		dump_file_status(f->flags);
		putchar(' ');
		dump_path(f->old_path);
		fputs(" -> ", stdout);
		dump_path(f->new_path);
		printf(" mode %s -> %s lines %zu..%zu\n", f->old_mode ? f->old_mode : "-",
		       f->new_mode ? f->new_mode : "-", f->first_line, f->end_line);
	}
	for (size_t i = 0; i < p->nhunks; i++) {
		const struct patch_hunk *h = &p->hunks[i];
		printf("hunk %zu: file %d -%u,%u +%u,%u lines %zu..%zu func \"%s\"\n", i, h->file,
		       h->old_start, h->old_count, h->new_start, h->new_count,
		       h->header_line, h->end_line, h->func);
	}
	for (size_t i = 0; i < p->nlines; i++) {
		const struct patch_line *l = &p->lines[i];
		printf("line %zu: %s", i, kind_names[l->kind]);
		if (l->kind == LINE_ADDED || l->kind == LINE_CONTEXT)
			printf(" new %u", l->new_no);
		if (l->kind == LINE_REMOVED || l->kind == LINE_CONTEXT)
			printf(" old %u", l->old_no);
		printf("\n");
	}
}

/* "\\n" in an anchors line stands for a line break in the quote. */
static void unescape_newlines(char *s)
{
	char *out = s;
	for (; *s; s++)
		if (s[0] == '\\' && s[1] == 'n') {
			*out++ = '\n';
			s++;
		} else {
			*out++ = *s;
		}
	*out = '\0';
}

/* Each line: path|quote[|function[|comment]]. */
static void dump_anchors(const struct patch *p, const char *path)
{
	FILE *f = fopen(path, "r");
	char line[4096], shown[4096];
	struct anchor_index ix;
	anchor_index_init(&ix, p);
	while (f && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		snprintf(shown, sizeof(shown), "%s", line);
		char *field[4] = { line, NULL, NULL, NULL };
		for (int i = 1; i < 4 && field[i - 1]; i++) {
			char *bar = strchr(field[i - 1], '|');
			if (bar)
				*bar = '\0', field[i] = bar + 1;
		}
		if (!field[1])
			continue;
		unescape_newlines(field[1]);
		struct anchor_hint hint = { field[0], field[1], field[2], field[3] };
		size_t at = anchor_finding(&ix, &hint);
		if (at == FINDING_WHOLE)
			printf("anchor %s: whole\n", shown);
		else
			printf("anchor %s: line %zu %s\n", shown, at, kind_names[p->lines[at].kind]);
	}
	if (f)
		fclose(f);
	anchor_index_release(&ix);
}

/* "rule<TAB>place<TAB>text", the place as a file line or the text of a message line. */
static void dump_finding_places(const struct patch *p, const struct review *r)
{
	for (size_t i = 0; i < r->nfindings; i++) {
		const struct finding *f = &r->findings[i];
		printf("%s\t", f->source);
		if (f->line == FINDING_WHOLE) {
			fputs("whole", stdout);
		} else {
			const struct patch_line *l = &p->lines[f->line];
			if (l->file < 0)
				printf("message: %s", l->text);
			else if (l->kind == LINE_REMOVED)
				printf("%s:-%u", patch_file_path(&p->files[l->file]), l->old_no);
			else if (l->kind == LINE_ADDED || l->kind == LINE_CONTEXT)
				printf("%s:+%u", patch_file_path(&p->files[l->file]), l->new_no);
			else
				printf("%s: %s", patch_file_path(&p->files[l->file]), l->text);
		}
		printf("\t%s\n", f->text);
	}
}

static void dump_message(struct mail *m, const char *anchors, bool places,
			 const struct config *c)
{
	struct patch p;
	struct review r;
	char *text = m->text;
	m->text = NULL;
	patch_parse(&p, m->subject, text, m->text_len, m->patch_offset);
	if (!places)
		dump_patch(&p);
	if (anchors)
		dump_anchors(&p, anchors);
	review_init(&r);
	struct c_text c_text;
	c_text_init(&c_text, &p);
	struct review_input in = { .mail = m, .patch = &p, .config = c, .c_text = &c_text };
	const struct reviewer *const checks[] = {
		&check_form, &check_message, &check_log, &check_whitespace,
		&check_kstyle, &check_kcode, &check_spelling,
	};
	for (size_t i = 0; i < sizeof(checks) / sizeof(*checks); i++)
		checks[i]->run(&in, &r);
	c_text_release(&c_text);
	if (places)
		dump_finding_places(&p, &r);
	for (size_t i = 0; !places && i < r.nfindings; i++) {
		const struct finding *f = &r.findings[i];
		if (f->line == FINDING_WHOLE)
			printf("finding whole: %s %s\n", severity_name(f->severity), f->source);
		else
			printf("finding %zu: %s %s\n", f->line, severity_name(f->severity), f->source);
	}
	review_release(&r);
	patch_release(&p);
}

int main(int argc, char **argv)
{
	bool places = argc > 1 && !strcmp(argv[1], "--findings");
	const char *anchors = argc > 1 && !places ? argv[1] : NULL;
	struct mail_list mails;
	struct config c;
	config_init(&c);
	mail_init();
	if (mail_read_all(0, &mails) < 0) {
		mail_shutdown();
		return 3;
	}
	for (size_t i = 0; i < mails.n; i++) {
		if (mails.n > 1)
			printf("== message %zu of %zu\n", i + 1, mails.n);
		dump_message(&mails.v[i], anchors, places, &c);
	}
	mail_list_release(&mails);
	mail_shutdown();
	config_release(&c);
	return 0;
}
