/*
 * kcode.c: kernel code a maintainer asks to change whatever the style:
 * calls that crash the machine, printk() without a level, debugging
 * leftovers, #if 0 blocks, GCC attributes spelt out where the kernel has
 * a macro, EXPORT_SYMBOL() away from its symbol, and new source files
 * without an SPDX licence line.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "base/msg.h"
#include "base/str.h"
#include "checks/checks.h"
#include "checks/ctext.h"
#include "checks/rules.h"
#include "checks/tally.h"

enum code_rule {
	CR_BUG,
	CR_PANIC,
	CR_PRINTK,
	CR_DEBUG,
	CR_TRACE,
	CR_IF0,
	CR_RULES,
};

static const struct {
	enum rule_id id;
	enum severity sev;
	const char *text;
} code[CR_RULES] = {
	[CR_BUG] = { RULE_BUG_ON, SEVERITY_WARNING,
		"This line adds a BUG() or BUG_ON(), which stops the machine; "
		"WARN_ON_ONCE() and a way to recover are preferred unless going on "
		"would corrupt data" },
	[CR_PANIC] = { RULE_BUG_ON, SEVERITY_WARNING,
		"This line adds a panic(), which takes the whole machine down; can "
		"the error be returned instead?" },
	[CR_PRINTK] = { RULE_PRINTK_LEVEL, SEVERITY_NIT,
		"This printk() has no KERN_<LEVEL>; pr_info(), pr_err() and friends "
		"(or dev_*() with a device) say it for you" },
	[CR_DEBUG] = { RULE_DEBUG_LEFTOVER, SEVERITY_WARNING,
		"This line prints __func__ and __LINE__, which looks like a debugging "
		"leftover" },
	[CR_TRACE] = { RULE_DEBUG_LEFTOVER, SEVERITY_WARNING,
		"trace_printk() is for debugging only: it makes the kernel warn at "
		"boot and must not be merged" },
	[CR_IF0] = { RULE_IF_0, SEVERITY_NIT,
		"This adds an #if 0 block; code that is not built is removed, not "
		"kept (git has it)" },
};

struct code_ctx {
	const struct patch_file *file;
	struct review *r;
	struct tally t[CR_RULES];
	const char *prev;	/* the previous line of the new file, or NULL */
	struct c_names names;	/* called_names[], below */
};

static bool ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* Does code hold a call of name: the word, blanks, '('? Returns what follows the '('. */
static const char *call(const char *code, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = strstr(code, name); p; p = strstr(p + 1, name)) {
		if ((p > code && ident_char(p[-1])) || ident_char(p[n]))
			continue;
		const char *t = p + n + strspn(p + n, " \t");
		if (*t == '(')
			return t + 1 + strspn(t + 1, " \t");
	}
	return NULL;
}

static bool directive(const char *code, const char *name)
{
	const char *s = code + strspn(code, " \t");
	if (*s++ != '#')
		return false;
	s += strspn(s, " \t");
	size_t n = strlen(name);
	return !strncmp(s, name, n) && !ident_char(s[n]);
}

/* printk("text") with no level: the literal's first bytes are not KERN_SOH. */
static bool printk_without_level(const struct c_line *l)
{
	const char *arg = call(l->code, "printk");
	if (!arg || *arg != '"')
		return false;
	const char *raw = l->raw + (arg - l->code);
	return strncmp(raw, "\"\\001", 5) && strncmp(raw, "\"\\x01", 5);
}

static bool debug_print(const char *code)
{
	/* __LINE__ first: it is the rarest, and a line without it is done. */
	return strstr(code, "__LINE__") &&
	       (strstr(code, "__func__") || strstr(code, "__FUNCTION__")) &&
	       !directive(code, "define") &&
	       (strstr(code, "printk") || strstr(code, "pr_") || strstr(code, "_dbg") ||
		strstr(code, "_err") || strstr(code, "_info") || strstr(code, "_warn"));
}

/* What the kernel calls the attributes it has macros for. */
static const char *attribute_macro(const char *name, size_t len)
{
	static const struct { const char *attr, *macro; } macros[] = {
		{ "packed", "__packed" }, { "aligned", "__aligned" }, { "noreturn", "__noreturn" },
		{ "weak", "__weak" }, { "section", "__section" }, { "unused", "__maybe_unused" },
		{ "always_inline", "__always_inline" }, { "noinline", "noinline" },
		{ "cold", "__cold" }, { "used", "__used" }, { "pure", "__pure" },
		{ "const", "__attribute_const__" }, { "malloc", "__malloc" },
		{ "alias", "__alias" }, { "noclone", "__noclone" }, { "nonstring", "__nonstring" },
		{ "externally_visible", "__visible" }, { "gnu_inline", "__gnu_inline" },
	};
	while (len && *name == '_')
		name++, len--;
	while (len && name[len - 1] == '_')
		len--;
	if (len == 6 && !strncmp(name, "format", 6))
		return "__printf() or __scanf()";
	for (size_t i = 0; i < sizeof(macros) / sizeof(*macros); i++)
		if (strlen(macros[i].attr) == len && !strncmp(name, macros[i].attr, len))
			return macros[i].macro;
	return NULL;
}

/* __attribute__((a, b(x))): one finding for the first attribute with a macro. */
static void check_attributes(struct code_ctx *ctx, const struct c_line *l)
{
	const char *path = patch_file_path(ctx->file);
	if (starts_with(path, "include/uapi/") || starts_with(path, "tools/") ||
	    starts_with(path, "scripts/") || starts_with(path, "usr/") ||
	    strstr(path, "/boot/") || strstr(path, "vdso") ||
	    starts_with(path, "include/linux/compiler") || directive(l->code, "define"))
		return;
	const char *a = call(l->code, "__attribute__");
	if (!a || *a != '(')
		return;
	for (const char *s = a + 1;;) {
		s += strspn(s, " \t,");
		size_t n = 0;
		while (ident_char(s[n]))
			n++;
		if (!n)
			return;
		const char *macro = attribute_macro(s, n);
		if (macro) {
			review_add(ctx->r, l->index, SEVERITY_NIT, rule_id(RULE_ATTRIBUTE_MACRO),
				   "The kernel spells __attribute__((%.*s)) as %s "
				   "(include/linux/compiler_attributes.h).", (int)n, s, macro);
			return;
		}
		s += n;
		if (*s == '(') {	/* skip the attribute's arguments */
			int depth = 0;
			do
				depth += (*s == '(') - (*s == ')');
			while (*++s && depth);
		}
		if (*s != ',' && *(s + strspn(s, " \t")) != ',')
			return;
	}
}

/* Does line s name the identifier id[0..n) as a whole word? (id itself runs on past n.) */
static bool names(const char *s, const char *id, size_t n)
{
	char *word = xstrndup(id, n);
	const char *p = n ? strstr(s, word) : NULL;
	while (p && !((p == s || !ident_char(p[-1])) && !ident_char(p[n]))) {
		while (ident_char(*p))
			p++;	/* inside a longer name: go on after it, so each byte is read once */
		p = strstr(p, word);
	}
	free(word);
	return p != NULL;
}

/*
 * EXPORT_SYMBOL(name) after a blank line, or after a declaration of
 * something else. A comment or a macro call above it may well be the
 * symbol's definition, so those are left alone.
 */
static void check_export(struct code_ctx *ctx, const struct c_line *l)
{
	const char *arg = call(l->code, "EXPORT_SYMBOL");
	if (!arg)
		arg = call(l->code, "EXPORT_SYMBOL_GPL");
	if (!arg || !ctx->prev)
		return;
	size_t n = 0;
	while (ident_char(arg[n]))
		n++;
	const char *prev = ctx->prev + strspn(ctx->prev, " \t");
	size_t len = strlen(prev);
	while (len && isspace((unsigned char)prev[len - 1]))
		len--;
	bool stray = !len || (n && prev[len - 1] == ';' && !strchr(prev, '(') &&
			      !strstr(prev, "EXPORT_SYMBOL") && !names(prev, arg, n));
	if (stray)
		review_add(ctx->r, l->index, SEVERITY_NIT, rule_id(RULE_EXPORT_SYMBOL),
			   "EXPORT_SYMBOL() goes right after the function or variable it "
			   "exports, with no blank line between.");
}

/* "#if 0" */
static bool if_zero(const char *code)
{
	if (!directive(code, "if"))
		return false;
	const char *s = strstr(code, "if") + 2;
	s += strspn(s, " \t");
	return *s == '0' && !ident_char(s[1]);
}

/* The names the rules call for, looked for in one pass over a line. */
enum called { CALL_BUG, CALL_PANIC, CALL_PRINTK, CALL_TRACE, CALL_ATTRIBUTE, CALL_EXPORT };
static const char *const called_names[] = {
	"BUG", "BUG_ON", "panic", "printk", "trace_printk", "trace_puts", "__attribute__",
	"EXPORT_SYMBOL", "EXPORT_SYMBOL_GPL",
};
static const enum called called_as[] = {
	CALL_BUG, CALL_BUG, CALL_PANIC, CALL_PRINTK, CALL_TRACE, CALL_TRACE, CALL_ATTRIBUTE,
	CALL_EXPORT, CALL_EXPORT,
};

/* Which of enum called the line names: bit k for k. */
static unsigned names_called(const struct c_names *names, const char *code)
{
	uint32_t seen = c_idents(code, names);
	unsigned out = 0;
	for (size_t k = 0; k < names->n; k++)
		if (seen & (1u << k))
			out |= 1u << called_as[k];
	return out;
}

static void check_line(const struct c_line *l, void *data)
{
	struct code_ctx *ctx = data;
	if (l->first)
		ctx->prev = NULL;
	if (l->added) {
		const char *path = patch_file_path(ctx->file);
		unsigned named = names_called(&ctx->names, l->code);
		if ((named & 1u << CALL_BUG) && (call(l->code, "BUG") || call(l->code, "BUG_ON")))
			tally_add(&ctx->t[CR_BUG], l->index);
		if ((named & 1u << CALL_PANIC) && call(l->code, "panic") && !starts_with(path, "arch/"))
			tally_add(&ctx->t[CR_PANIC], l->index);
		if ((named & 1u << CALL_PRINTK) && printk_without_level(l))
			tally_add(&ctx->t[CR_PRINTK], l->index);
		if (debug_print(l->code))
			tally_add(&ctx->t[CR_DEBUG], l->index);
		if ((named & 1u << CALL_TRACE) &&
		    (call(l->code, "trace_printk") || call(l->code, "trace_puts")))
			tally_add(&ctx->t[CR_TRACE], l->index);
		if (if_zero(l->code))
			tally_add(&ctx->t[CR_IF0], l->index);
		if (named & 1u << CALL_ATTRIBUTE)
			check_attributes(ctx, l);
		if (named & 1u << CALL_EXPORT)
			check_export(ctx, l);
	}
	ctx->prev = l->raw;
}

/* How a new source file of this name gives its licence, or NULL when it need not. */
static const char *spdx_form(const char *path)
{
	size_t n = strlen(path);
	if (n > 2 && (!strcmp(path + n - 2, ".c") || (n > 3 && !strcmp(path + n - 3, ".rs"))))
		return "// SPDX-License-Identifier: ";
	if (n > 2 && (!strcmp(path + n - 2, ".h") || !strcmp(path + n - 2, ".S")))
		return "/* SPDX-License-Identifier: ";
	return NULL;
}

/*
 * A new kernel source file opens with its SPDX line. Without the tree
 * there is no telling whether the neighbours have one, so this holds for
 * C, assembly and Rust, which all do in the kernel.
 * NEEDSWORK: with --tree, ask the tree, and cover scripts and Kconfig.
 */
static void check_spdx(const struct patch *p, const struct patch_file *f, struct review *r)
{
	const char *path = patch_file_path(f), *form = spdx_form(path);
	if (!(f->flags & FILE_NEW) || !form)
		return;
	for (size_t i = f->first_line; i < f->end_line; i++) {
		const struct patch_line *l = &p->lines[i];
		if (l->kind != LINE_ADDED || l->new_no != 1)
			continue;
		if (!strstr(l->text, "SPDX-License-Identifier:"))
			review_add(r, i, SEVERITY_WARNING, rule_id(RULE_SPDX_LICENSE),
				   "The new file %s has no SPDX-License-Identifier line at "
				   "its top; see Documentation/process/license-rules.rst.", path);
		else if (strncmp(l->text + 1, form, strlen(form)))
			review_add(r, i, SEVERITY_NIT, rule_id(RULE_SPDX_LICENSE),
				   "In a file like %s the licence line is written "
				   "\"%s...\".", path, form);
		return;
	}
}

static void run(const struct review_input *in, struct review *r)
{
	if (!rules_want_kernel(in))
		return;
	const struct patch *p = in->patch;
	for (size_t k = 0; k < p->nfiles; k++) {
		const struct patch_file *f = &p->files[k];
		if (f->flags & FILE_BINARY)
			continue;
		check_spdx(p, f, r);
		if (!c_source(patch_file_path(f)))
			continue;
		struct code_ctx ctx = { .file = f, .r = r };
		c_names_init(&ctx.names, called_names, sizeof(called_names) / sizeof(*called_names));
		c_walk(in->c_text, f, check_line, &ctx);
		for (int i = 0; i < CR_RULES; i++)
			tally_report(r, &ctx.t[i], code[i].sev, rule_id(code[i].id), code[i].text,
				     patch_file_path(f));
	}
}

const struct reviewer check_kcode = { "kcode", run };
