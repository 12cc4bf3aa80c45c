/*
 * kstyle.c: the kernel's coding style on added C lines (coding-style.rst):
 * tabs for indentation, 100 columns, a space after if/for/while/switch,
 * a function's brace on a line of its own, comments in the file's own
 * style, no typedef'd structs, no volatile, no assignment in an if, and
 * sizeof with parentheses. Each rule is said once per file, with a count.
 */
#include <ctype.h>
#include <string.h>

#include "base/buf.h"
#include "base/str.h"
#include "checks/checks.h"
#include "checks/ctext.h"
#include "checks/rules.h"
#include "checks/tally.h"

#define MAX_COLUMNS 100

enum style_rule {
	ST_INDENT,
	ST_LONG,
	ST_KEYWORD,
	ST_BRACE,
	ST_C99,
	ST_TYPEDEF,
	ST_VOLATILE,
	ST_ASSIGN,
	ST_SIZEOF,
	ST_SIZEOF_ADDR,
	ST_RULES,
};

static const struct {
	enum rule_id id;
	enum severity sev;
	const char *text;
} style[ST_RULES] = {
	[ST_INDENT] = { RULE_CODE_INDENT, SEVERITY_NIT,
		"This line is indented with spaces; kernel code indents with tabs" },
	[ST_LONG] = { RULE_LONG_LINE, SEVERITY_NIT,
		"This line is over 100 columns wide" },
	[ST_KEYWORD] = { RULE_KEYWORD_SPACE, SEVERITY_NIT,
		"This line needs a space between the keyword and its '('" },
	[ST_BRACE] = { RULE_FUNCTION_BRACE, SEVERITY_NIT,
		"The opening brace of a function goes on a line of its own" },
	[ST_C99] = { RULE_C99_COMMENT, SEVERITY_NIT, NULL },
	[ST_TYPEDEF] = { RULE_NEW_TYPEDEF, SEVERITY_NIT,
		"This line adds a typedef of a struct, union or enum; kernel code "
		"names the type itself (coding-style.rst, section 5)" },
	[ST_VOLATILE] = { RULE_VOLATILE, SEVERITY_WARNING,
		"This line uses volatile, which is almost always wrong in the kernel: "
		"see Documentation/process/volatile-considered-harmful.rst" },
	[ST_ASSIGN] = { RULE_ASSIGN_IN_IF, SEVERITY_NIT,
		"This line assigns inside an if condition; the kernel writes the "
		"assignment on its own line before the test" },
	[ST_SIZEOF] = { RULE_SIZEOF_PAREN, SEVERITY_NIT,
		"sizeof is written with parentheses in the kernel: sizeof(x)" },
	[ST_SIZEOF_ADDR] = { RULE_SIZEOF_ADDRESS, SEVERITY_WARNING,
		"sizeof(&x) is the size of a pointer, not of x; is that what is meant?" },
};

struct style_ctx {
	const struct patch_file *file;
	struct tally t[ST_RULES];
	size_t context_slash, context_block;	/* comment styles the file shows */
	struct c_names names;			/* words[], below */
	struct buf cond;			/* an if condition open across lines */
	size_t cond_line, cond_depth, cond_lines;
};

static bool ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* The next occurrence of word w in s at or after from, or NULL. */
static const char *find_word(const char *s, const char *from, const char *w)
{
	size_t n = strlen(w);
	for (const char *p = strstr(from, w); p; p = strstr(p + 1, w))
		if ((p == s || !ident_char(p[-1])) && !ident_char(p[n]))
			return p;
	return NULL;
}

static const char *skip_blanks(const char *s)
{
	return s + strspn(s, " \t");
}

/* Spaces where tabs belong: 8 in a row, or a leading space before code. */
static bool bad_indent(const struct c_line *l)
{
	size_t ws = strspn(l->raw, " \t"), run = 0;
	if (ws == l->len || l->code[ws] == ' ')
		return false;	/* blank, or a comment */
	for (size_t i = 0; i < ws; i++)
		if ((run = l->raw[i] == ' ' ? run + 1 : 0) == 8)
			return true;
	if (l->raw[0] != ' ')
		return false;
	const char *rest = l->code + ws;
	if (*rest == '#')
		return false;	/* indented preprocessor lines */
	size_t id = 0;
	while (ident_char(rest[id]))
		id++;
	return !(id && rest[id] == ':' && rest[id + 1] != ':');	/* a label */
}

/* Did the line this one replaces have the same indentation? Then it is not new. */
static bool same_indent(const struct c_line *l)
{
	const struct patch_line *old = l->replaced;
	if (!old)
		return false;
	size_t ws = strspn(l->raw, " \t");
	return old->len > ws && !strncmp(old->text + 1, l->raw, ws) &&
	       !strchr(" \t", old->text[1 + ws]);
}

/* Over 100 columns, unless only a string or a URL runs past the edge. */
static bool too_long(const struct c_line *l)
{
	/* A bound first: 8 columns a leading tab, at most 1 a byte after it if no tab follows. */
	size_t tabs = strspn(l->raw, "\t");
	if (tabs * 8 + l->len - tabs <= MAX_COLUMNS && !memchr(l->raw + tabs, '\t', l->len - tabs))
		return false;
	if (c_columns(l->raw, l->len) <= MAX_COLUMNS || strstr(l->raw, "://"))
		return false;
	size_t i = c_offset(l->raw, l->len, MAX_COLUMNS);
	const char *edge = l->code + i;
	return !(*edge == 'X' || *edge == '"' || (i && edge[-1] == 'X'));
}

/* "if(": each '(' of the line, and the keyword, if any, right before it. */
static bool keyword_paren(const char *code)
{
	static const char *const keywords[] = { "if", "for", "while", "switch" };
	for (const char *q = strchr(code, '('); q; q = strchr(q + 1, '('))
		for (size_t k = 0; k < 4; k++) {
			size_t n = strlen(keywords[k]);
			const char *p = q - n;
			if ((size_t)(q - code) >= n && !memcmp(p, keywords[k], n) &&
			    (p == code || (!ident_char(p[-1]) && p[-1] != '#')))
				return true;
		}
	return false;
}

/* "int foo(void) {" at the top level: a definition with its brace on its line. */
static bool function_brace(const char *code)
{
	static const char *const not_functions[] = {
		"struct", "union", "enum", "typedef", "if", "else", "for", "while",
		"do", "switch", "return", "case", "default", "extern",
	};
	if (!isalpha((unsigned char)*code) && *code != '_')
		return false;
	size_t n = strlen(code);
	while (n && isspace((unsigned char)code[n - 1]))
		n--;
	if (n < 4 || code[n - 1] != '{' || strpbrk(code, "=;\"") || !strchr(code, '('))
		return false;
	const char *before = code + n - 1;
	while (before > code && isspace((unsigned char)before[-1]))
		before--;
	if (before == code || before[-1] != ')')
		return false;
	for (size_t k = 0; k < sizeof(not_functions) / sizeof(*not_functions); k++)
		if (find_word(code, code, not_functions[k]) == code)
			return false;
	return true;
}

/* "typedef struct", "typedef union", "typedef enum" */
static bool struct_typedef(const char *code)
{
	for (const char *p = find_word(code, code, "typedef"); p; p = find_word(code, p + 1, "typedef")) {
		const char *t = skip_blanks(p + 7);
		if ((starts_with(t, "struct") && !ident_char(t[6])) ||
		    (starts_with(t, "union") && !ident_char(t[5])) ||
		    (starts_with(t, "enum") && !ident_char(t[4])))
			return true;
	}
	return false;
}

/* volatile that is not "asm volatile" or "__asm__ volatile". */
static bool plain_volatile(const char *code)
{
	for (const char *p = find_word(code, code, "volatile"); p; p = find_word(code, p + 1, "volatile")) {
		const char *b = p;
		while (b > code && isspace((unsigned char)b[-1]))
			b--;
		bool after_asm = (b - code >= 3 && !memcmp(b - 3, "asm", 3)) ||
				 (b - code >= 7 && !memcmp(b - 7, "__asm__", 7));
		if (!after_asm)
			return true;
	}
	return false;
}

/* A lone '=' (not ==, !=, <=, >=) in the condition. */
static bool has_assignment(const char *cond)
{
	for (const char *p = strchr(cond, '='); p; p = strchr(p + 1, '=')) {
		char before = p > cond ? p[-1] : ' ';
		if (p[1] == '=') {
			p++;
			continue;
		}
		if (!strchr("<>!=", before))
			return true;
	}
	return false;
}

/*
 * Adds the text of code up to the condition's closing ')' to ctx->cond.
 * Returns where it stopped: after the ')', or at the end of the line.
 */
static const char *feed_condition(struct style_ctx *ctx, const char *code)
{
	const char *p = code;
	for (; *p && ctx->cond_depth; p++) {
		ctx->cond_depth += *p == '(';
		ctx->cond_depth -= *p == ')';
	}
	buf_add(&ctx->cond, code, (size_t)(p - code));
	ctx->cond_lines++;
	if (!ctx->cond_depth && has_assignment(ctx->cond.data))
		tally_add(&ctx->t[ST_ASSIGN], ctx->cond_line);
	if (!ctx->cond_depth || ctx->cond_lines > 4)
		ctx->cond_depth = 0;
	return p;
}

static void check_if(struct style_ctx *ctx, const struct c_line *l)
{
	if (*skip_blanks(l->code) == '#')
		return;	/* "#if (A)" is the preprocessor's */
	if (ctx->cond_depth) {
		if (l->added)
			feed_condition(ctx, l->code);
		else
			ctx->cond_depth = 0;
		return;
	}
	/* The next if is looked for after this one's condition: each byte is read once. */
	const char *p = find_word(l->code, l->code, "if");
	while (p) {
		const char *open = skip_blanks(p + 2), *next = p + 2;
		if (*open == '(') {
			buf_reset(&ctx->cond);
			ctx->cond_line = l->index;
			ctx->cond_depth = 1;
			ctx->cond_lines = 0;
			next = feed_condition(ctx, open + 1);
			if (ctx->cond_depth)
				return;
		}
		p = find_word(l->code, next, "if");
	}
}

static void check_sizeof(struct style_ctx *ctx, const struct c_line *l)
{
	for (const char *p = find_word(l->code, l->code, "sizeof"); p; p = find_word(l->code, p + 1, "sizeof")) {
		const char *t = skip_blanks(p + 6);
		if (*t == '(' && *skip_blanks(t + 1) == '&')
			tally_add(&ctx->t[ST_SIZEOF_ADDR], l->index);
		else if (t > p + 6 && (ident_char(*t) || *t == '*'))
			tally_add(&ctx->t[ST_SIZEOF], l->index);
	}
}

/* The words the rules above look for, found in one pass a line (c_idents()). */
enum word { WORD_TYPEDEF, WORD_VOLATILE, WORD_IF, WORD_SIZEOF };
static const char *const words[] = {
	[WORD_TYPEDEF] = "typedef", [WORD_VOLATILE] = "volatile", [WORD_IF] = "if",
	[WORD_SIZEOF] = "sizeof",
};

static void check_line(const struct c_line *l, void *data)
{
	struct style_ctx *ctx = data;
	const char *path = patch_file_path(ctx->file);
	if (!l->added) {
		ctx->context_slash += l->slash_comment;
		ctx->context_block += l->block_comment;
		ctx->cond_depth = 0;
		return;
	}
	bool userspace = starts_with(path, "include/uapi/") || starts_with(path, "tools/");
	uint32_t named = c_idents(l->code, &ctx->names);
	if (bad_indent(l) && !same_indent(l))
		tally_add(&ctx->t[ST_INDENT], l->index);
	if (too_long(l))
		tally_add(&ctx->t[ST_LONG], l->index);
	if (keyword_paren(l->code))
		tally_add(&ctx->t[ST_KEYWORD], l->index);
	if (function_brace(l->code))
		tally_add(&ctx->t[ST_BRACE], l->index);
	if (l->slash_comment && !strstr(l->prose, "SPDX-License-Identifier:"))
		tally_add(&ctx->t[ST_C99], l->index);
	if ((named & 1u << WORD_TYPEDEF) && !userspace && struct_typedef(l->code))
		tally_add(&ctx->t[ST_TYPEDEF], l->index);
	if ((named & 1u << WORD_VOLATILE) && !starts_with(path, "arch/") &&
	    plain_volatile(l->code))
		tally_add(&ctx->t[ST_VOLATILE], l->index);
	if ((named & 1u << WORD_IF) || ctx->cond_depth)
		check_if(ctx, l);
	if (named & 1u << WORD_SIZEOF)
		check_sizeof(ctx, l);
}

static void check_file(struct c_text *ct, const struct patch_file *f, struct review *r)
{
	struct style_ctx ctx = { .file = f, .cond = BUF_INIT };
	c_names_init(&ctx.names, words, sizeof(words) / sizeof(*words));
	c_walk(ct, f, check_line, &ctx);
	const char *path = patch_file_path(f);
	/* "//" is fine in the kernel, but not in a file that shows only block comments. */
	if (ctx.context_slash || !ctx.context_block)
		ctx.t[ST_C99].count = 0;
	struct buf c99 = BUF_INIT;
	buf_addf(&c99, "This line adds a // comment, where the rest of %s uses /* */", path);
	for (int k = 0; k < ST_RULES; k++)
		tally_report(r, &ctx.t[k], style[k].sev, rule_id(style[k].id),
			     k == ST_C99 ? c99.data : style[k].text, path);
	buf_release(&c99);
	buf_release(&ctx.cond);
}

static void run(const struct review_input *in, struct review *r)
{
	if (!rules_want_kernel(in))
		return;
	const struct patch *p = in->patch;
	for (size_t k = 0; k < p->nfiles; k++)
		if (!(p->files[k].flags & FILE_BINARY) && c_source(patch_file_path(&p->files[k])))
			check_file(in->c_text, &p->files[k], r);
}

const struct reviewer check_kstyle = { "kstyle", run };
